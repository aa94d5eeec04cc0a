// Figures of the drift monitor (issue 33, "How fast"), on real BTCUSDT 1m candles:
// - baseline: the engine's batch backtest of the same grid over the same 30 days (timed in this run);
//   the shadow's full build over them as a ratio to it;
// - a robot's 30 days (43,200 candles) re-checked incrementally on PGlite through ShadowMonitor —
//   stored candles read, new fills and the cursor written — one hour of new candles at a time
//   (goal < 50 ms per hour);
// - 1,000 robots' daily drift: each robot's shadow over one day's candles and its matching, in one
//   process (goal < 60 s) — as compute alone, and through the store as the drift-check job does it
//   (checkDrift: the day's candles read, the shadow's fills and cursor written, the report read back
//   from the robot's rows, the alert decided and written).
// `node --import tsx apps/server/src/drift/bench.ts` or `npm run bench -- --only=drift`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getInstrument, runBacktest, sliceByTime, type Candles } from '@lq/engine';
import { openDatabase } from '@lq/db';
import { getStrategy, runSettings } from '@lq/strategies';
import { loadCandlesFile } from '@lq/workers';
import { liveSourceOf, writeCandles } from '../market';
import { MINUTE, type Bar } from '../runner';
import { checkDrift } from './jobs';
import { matchTrades, type TradeFill } from './match';
import { ShadowMonitor } from './service';
import { ShadowBacktest, type ShadowSpec } from './shadow';

const DEFAULT_DATA = fileURLToPath(new URL('../../../../../shared/data/binance_BTCUSDT_1m.csv.gz', import.meta.url));
const DAY = 1440 * MINUTE;

export interface DriftBench {
  candles: number;
  baseline: { backtestSeconds: number; candlesPerSecond: number };
  shadowBuild: { seconds: number; candlesPerSecond: number; ratioToBaseline: number; fills: number };
  incremental: { firstCheckSeconds: number; hours: number; meanMsPerHour: number; maxMsPerHour: number; goalMsPerHour: 50 };
  fleet: { robots: number; candlesEach: number; seconds: number; goalSeconds: 60 };
  fleetThroughStore: { robots: number; candlesEach: number; seconds: number; msPerRobot: number; shadowFills: number; told: number; goalSeconds: 60 };
}

function gridParams(price: number, capital = 5_000): Record<string, unknown> {
  const inst = getInstrument('BTCUSDT');
  const def = getStrategy('grid');
  return def.schema.parse({ ...def.defaults(inst, { capital, price }), interval: '1m', gridNumber: 6, gap: 0.5, lotsPerGrid: 0.3, leverage: 10 });
}

const barsOf = (c: Candles): Bar[] => Array.from({ length: c.length }, (_, i) => ({ time: c.time[i], open: c.open[i], high: c.high[i], low: c.low[i], close: c.close[i], volume: c.volume[i] }));
const asTradeFills = (fills: { tag: string; action: 'open' | 'close'; side: 'long' | 'short'; qty: number; price: number; fee: number; pnl: number; time: number; reason: string | null }[]): TradeFill[] =>
  fills.map((f) => ({ clientOrderId: `${f.tag}:${f.action}`, action: f.action, side: f.side, qty: f.qty, price: f.price, fee: f.fee, pnl: f.pnl, time: f.time, reason: f.reason }));

export async function benchDrift(o: { dataFile?: string; robots?: number; hours?: number } = {}): Promise<DriftBench> {
  const all = loadCandlesFile(o.dataFile ?? DEFAULT_DATA);
  const end = all.time[all.length - 1] + MINUTE;
  const month = sliceByTime(all, end - 30 * DAY, end);
  const fromMs = month.time[0];
  const params = gridParams(month.open[0]);
  const inst = getInstrument('BTCUSDT', 'binance');
  const spec: ShadowSpec = { strategy: 'grid', params, symbol: 'BTCUSDT', exchange: 'binance', capital: 5_000, leverage: 10, fromMs };
  const noBars = () => Promise.resolve([] as Bar[]);

  // Baseline: the batch backtest of the same strategy over the same candles.
  const def = getStrategy('grid');
  const parsed = def.schema.parse(params);
  const s = runSettings(parsed, inst);
  let t0 = performance.now();
  runBacktest(def.create(parsed, inst), { instrument: inst, candles: month, intervalMs: MINUTE, capital: s.capital, leverage: s.leverage, makerFee: s.makerFee, takerFee: s.takerFee });
  const backtestSeconds = (performance.now() - t0) / 1000;

  // The shadow's full build over the month (what a new process pays once per robot).
  const bars = barsOf(month);
  t0 = performance.now();
  const full = await ShadowBacktest.create(spec, noBars);
  const fills = full.advance(bars);
  const buildSeconds = (performance.now() - t0) / 1000;

  // Incremental re-checks through the store on PGlite.
  const dir = mkdtempSync(path.join(tmpdir(), 'lq-drift-bench-'));
  const database = await openDatabase({ dataDir: dir, pgliteMode: 'exclusive' });
  let incremental: DriftBench['incremental'];
  let fleetThroughStore: DriftBench['fleetThroughStore'];
  try {
    await writeCandles(database, { source: liveSourceOf('binance'), symbol: 'BTCUSDT', timeframe: '1m' }, month);
    const [u] = await database.exec<{ id: number }>(`insert into users (mail, password_hash, user_code, country) values ('drift-bench@example.com', 'x', 'DRIFTB', 'TH') returning id::int as id`);
    const [a] = await database.exec<{ id: number }>(`insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, 'crypto', 'binance', 'bench', 'abcd') returning id::int as id`, [u.id]);
    const hours = o.hours ?? 24;
    const firstUntil = month.time[month.length - 1] - hours * 60 * MINUTE;
    const [r] = await database.exec<{ id: number }>(
      `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status, last_candle_at)
       values ($1, $2, 'crypto', 'paper', 'grid', 'BTCUSDT', '1m', $3::jsonb, 5000, 10, 'running', $4) returning id::int as id`,
      [u.id, a.id, JSON.stringify(params), firstUntil],
    );
    await database.exec(`insert into robot_events (robot_id, kind, message, detail) values ($1, 'runner', 'robot.runner.started', $2::jsonb)`, [r.id, JSON.stringify({ fromMs })]);
    const monitor = new ShadowMonitor(database);
    t0 = performance.now();
    await monitor.check(r.id);
    const firstCheckSeconds = (performance.now() - t0) / 1000;
    const perHour: number[] = [];
    for (let h = 1; h <= hours; h++) {
      await database.exec(`update robots set last_candle_at = $2 where id = $1`, [r.id, firstUntil + h * 60 * MINUTE]);
      t0 = performance.now();
      const c = await monitor.check(r.id);
      perHour.push(performance.now() - t0);
      if (c?.stepped !== 60) throw new Error(`an hour's check stepped ${c?.stepped} candles`);
    }
    incremental = {
      firstCheckSeconds: Math.round(firstCheckSeconds * 1000) / 1000,
      hours,
      meanMsPerHour: Math.round((perHour.reduce((x, y) => x + y, 0) / perHour.length) * 10) / 10,
      maxMsPerHour: Math.round(Math.max(...perHour) * 10) / 10,
      goalMsPerHour: 50,
    };

    // 1,000 robots through the store: each robot started two days before the data's end; a first
    // pass (not timed) brings every shadow to the end of the first day, as the job had done the
    // day before; the timed pass is the next day's check of every robot.
    const fleet = o.robots ?? 1000;
    const day1 = month.time[month.length - 1] + MINUTE - 2 * DAY;
    const ids = (
      await database.exec<{ id: number }>(
        `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status, last_candle_at)
         select $1, $2, 'crypto', 'paper', 'grid', 'BTCUSDT', '1m', $3::jsonb, 2000 + (n % 50) * 100, 10, 'running', $4 from generate_series(1, $5::int) n
         returning id::int as id`,
        [u.id, a.id, JSON.stringify(gridParams(month.open[month.length - 2 * 1440])), day1 + DAY - MINUTE, fleet],
      )
    ).map((x) => x.id);
    const idList = `{${ids.join(',')}}`;
    await database.exec(
      `insert into robot_events (robot_id, kind, message, detail) select id, 'runner', 'robot.runner.started', $2::jsonb from robots where id = any($1::bigint[])`,
      [idList, JSON.stringify({ fromMs: day1 })],
    );
    const fleetMonitor = new ShadowMonitor(database);
    for (const id of ids) await checkDrift(database, fleetMonitor, id);
    await database.exec(`update robots set last_candle_at = $2 where id = any($1::bigint[])`, [idList, day1 + 2 * DAY - MINUTE]);
    let told = 0;
    t0 = performance.now();
    for (const id of ids) told += (await checkDrift(database, fleetMonitor, id))?.told.length ?? 0;
    const storeSeconds = (performance.now() - t0) / 1000;
    const [stored] = await database.exec<{ n: number }>(`select count(*)::int as n from robot_shadow_fills where robot_id = any($1::bigint[])`, [idList]);
    fleetThroughStore = {
      robots: fleet,
      candlesEach: 1440,
      seconds: Math.round(storeSeconds * 100) / 100,
      msPerRobot: Math.round((storeSeconds * 1000 * 10) / fleet) / 10,
      shadowFills: stored.n,
      told,
      goalSeconds: 60,
    };
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }

  // 1,000 robots' daily drift: one day's shadow each (capitals differ, so no two are the same) and its matching.
  const robots = o.robots ?? 1000;
  const dayBars = bars.slice(-1440);
  t0 = performance.now();
  for (let i = 0; i < robots; i++) {
    const capital = 2_000 + (i % 50) * 100;
    const shadow = await ShadowBacktest.create({ ...spec, params: gridParams(dayBars[0].open, capital), capital, fromMs: dayBars[0].time }, noBars);
    const booked = asTradeFills(shadow.advance(dayBars));
    matchTrades(booked, booked, { intents: new Map(), gates: [], errors: [], reconciles: [], stoppedAt: null }, { toleranceMs: 5 * MINUTE, point: inst.point, contractSize: inst.contractSize });
  }
  const fleetSeconds = (performance.now() - t0) / 1000;

  return {
    candles: month.length,
    baseline: { backtestSeconds: Math.round(backtestSeconds * 1000) / 1000, candlesPerSecond: Math.round(month.length / backtestSeconds) },
    shadowBuild: {
      seconds: Math.round(buildSeconds * 1000) / 1000,
      candlesPerSecond: Math.round(month.length / buildSeconds),
      ratioToBaseline: Math.round((backtestSeconds / buildSeconds) * 1000) / 1000,
      fills: fills.length,
    },
    incremental,
    fleet: { robots, candlesEach: dayBars.length, seconds: Math.round(fleetSeconds * 100) / 100, goalSeconds: 60 },
    fleetThroughStore,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const r = await benchDrift();
  console.log(JSON.stringify(r, null, 2));
  process.exit(0);
}

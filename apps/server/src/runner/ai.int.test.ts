// AI robots run (issue 5): a paper robot of the single strategy with side `ai`, driven by the
// runner's RobotDriver on a real database, seeds its AI signal with the stored decision candles
// before its start and trades exactly as a backtest over its candles given computeAiSignal of the
// warm-up + its candles; rebuilt after a restart (replay from stored data) it has the same trades
// and the same signal.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getInstrument, parseCandlesCsv, prepareCandles, runBacktest, sliceByTime, type AiSignal, type Candles } from '@lq/engine';
import { getStrategy, runSettings } from '@lq/strategies';
import { computeAiSignal } from '../../../../packages/engine/src/ai/index';
import { writeCandles } from '../market';
import { CandleFeed, MINUTE, type Bar } from './feed';
import { RobotDriver, aiWarmupMs, type DriverRow } from './robot';
import { FakeBinance } from '@lq/venues/fake';
import { createVenue } from './venues';
import { startTestApp, type TestApp } from '../../test/helpers';
import { seedAccount, seedRobot } from './test-helpers';

const file = join(process.env.SHARED_DIR ?? join(import.meta.dirname, '../../../../../shared'), 'data', 'binance_BTCUSDT_1m.csv.gz');
const silent = { info() {}, warn() {}, error() {} };
const WARM_FROM = Date.UTC(2024, 2, 1);
const START = Date.UTC(2024, 2, 8); // the robot's first candle (a 15m bucket boundary)
const END = Date.UTC(2024, 2, 15);
const KEY = { source: 'binance', symbol: 'BTCUSDT', timeframe: '1m' };
const OWNER = 'runner-ai-test';

const bars = (c: Candles): Bar[] => Array.from({ length: c.length }, (_, i) => ({ time: c.time[i], open: c.open[i], high: c.high[i], low: c.low[i], close: c.close[i], volume: c.volume[i] }));

describe.skipIf(!existsSync(file))('AI robots (paper) in the runner', () => {
  let t: TestApp;
  let all: Candles;
  let fake: FakeBinance;
  const inst = getInstrument('BTCUSDT');
  const def = getStrategy('single');
  const params = def.schema.parse({ ...def.defaults(inst, { capital: 20_000, price: 60_000 }), interval: '15m', side: 'ai', gap: 0.5, orderTakeProfit: 0.8, orderStopLoss: 0.6 });

  beforeAll(async () => {
    const csv = parseCandlesCsv(gunzipSync(readFileSync(file)).toString('latin1'));
    all = sliceByTime(csv, WARM_FROM, END);
    fake = new FakeBinance({ candles: { BTCUSDT: sliceByTime(all, START, END) } });
    const origin = await fake.listen();
    t = await startTestApp({ env: { EXCHANGE_BINANCE_URL: origin, RUNNER_RESOLVE_WINDOW_MS: '300', RUNNER_VENUE_TIMEOUT_MS: '2000', RUNNER_CCXT_THROTTLE: 'false' } });
    await writeCandles(t.database, KEY, all);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function driver(id: number, feed: CandleFeed, venue: Awaited<ReturnType<typeof createVenue>> | null = null): Promise<RobotDriver> {
    const [r] = await t.database.exec<{ id: number; mode: string; status: string; strategy: string; symbol: string; params: Record<string, unknown>; capital: string; leverage: number; account_id: number; last_candle_at: string | null }>(
      `select id::int as id, mode, status, strategy, symbol, params, capital, leverage, account_id::int as account_id, last_candle_at from robots where id = $1`,
      [id],
    );
    const row = { ...r, accountId: r.account_id, lastCandleAt: r.last_candle_at === null ? null : Number(r.last_candle_at), exchange: 'binance' } as unknown as DriverRow;
    const d = new RobotDriver(row, { database: t.database, owner: OWNER, resolveWindowMs: 300, venue, feed, log: silent });
    await d.init();
    return d;
  }

  /** A feed whose memory starts at the robot's start: the warm-up candles come from the store. */
  function feedFrom(fromMs: number): CandleFeed {
    const feed = new CandleFeed(t.database, KEY, { fetchClosed: () => Promise.resolve([]) });
    feed.inject(bars(sliceByTime(all, fromMs - MINUTE, END)));
    return feed;
  }

  it('trades as the backtest with the AI signal of warm-up + its candles; a replay after a restart gives the same', async () => {
    expect(aiWarmupMs(15 * MINUTE)).toBe(90 * 86_400_000);
    const owner = await seedAccount(t.database, t.config);
    const id = await seedRobot(t.database, owner, { mode: 'paper', strategy: 'single', params });
    await t.database.exec(`update robots set lease_owner = $2, lease_until = now() + interval '1 hour' where id = $1`, [id, OWNER]);

    // First drive: the feed's newest candle is the one before START, so the robot starts at START.
    const feed = new CandleFeed(t.database, KEY, { fetchClosed: () => Promise.resolve([]) });
    feed.inject(bars(sliceByTime(all, START - MINUTE, START)));
    const d1 = await driver(id, feed);
    feed.inject(bars(sliceByTime(all, START, END)));
    const steps = await d1.tick();
    expect(steps).toBe((END - START) / MINUTE);
    expect(d1.phase).toBe('live');
    const fills = d1.takePaperFills().map((f) => [f.fill.tag, f.fill.action, f.fill.price, f.fill.time]);

    // The backtest over the robot's candles, given computeAiSignal of the warm-up + its decision candles.
    const s = runSettings(params, inst);
    const decisions = prepareCandles({ instrument: inst, candles: all, intervalMs: s.intervalMs, capital: s.capital, leverage: s.leverage, makerFee: s.makerFee, takerFee: s.takerFee }).decision;
    const warm = decisions.time.findIndex((x) => x >= START);
    expect(warm).toBe((START - WARM_FROM) / (15 * MINUTE));
    const full = computeAiSignal(decisions, { seed: 1 }).signal;
    const ai: AiSignal = { signal: full.signal.subarray(warm), probabilityUp: full.probabilityUp.subarray(warm) };
    expect(Number.isNaN(ai.signal[0])).toBe(false); // the warm-up covers the model's first fit
    const report = runBacktest(def.create(params, inst), {
      instrument: inst,
      candles: sliceByTime(all, START, END),
      intervalMs: s.intervalMs,
      capital: s.capital,
      leverage: s.leverage,
      makerFee: s.makerFee,
      takerFee: s.takerFee,
      ai,
    });
    expect(report.tradeCount).toBeGreaterThan(3);
    expect(fills).toEqual(report.fills.map((f) => [f.tag, f.action, f.price, f.time]));
    const paper1 = (d1 as unknown as { paper: { broker: { trades: unknown[] } } }).paper;
    expect(paper1.broker.trades).toEqual(report.trades);

    // The robot's signal is the batch signal at its decision index (crossing a weekly retrain).
    const view1 = (d1 as unknown as { kernel: { view: { ai: AiSignal } } }).kernel.view.ai;
    const n = decisions.length - warm;
    expect(Array.from(view1.signal.subarray(0, n))).toEqual(Array.from(ai.signal.subarray(0, n)));

    // Restart: a new driver replays the stored steps (the warm-up now from the store) — same trades, same signal.
    await t.database.exec(`update robots set last_candle_at = $2 where id = $1`, [id, d1.cursor]);
    const d2 = await driver(id, feedFrom(START));
    expect(d2.cursor).toBe(d1.cursor);
    const paper2 = (d2 as unknown as { paper: { broker: { trades: unknown[] } } }).paper;
    expect(paper2.broker.trades).toEqual(paper1.broker.trades);
    const view2 = (d2 as unknown as { kernel: { view: { ai: AiSignal } } }).kernel.view.ai;
    expect(Array.from(view2.probabilityUp.subarray(0, n))).toEqual(Array.from(view1.probabilityUp.subarray(0, n)));
  });

  it('a live AI robot on the fake exchange trades instead of halting', async () => {
    const owner = await seedAccount(t.database, t.config);
    const id = await seedRobot(t.database, owner, { mode: 'live', strategy: 'single', params });
    await t.database.exec(`update robots set lease_owner = $2, lease_until = now() + interval '1 hour' where id = $1`, [id, OWNER]);
    fake.seed({ balance: 100_000, timeMs: START });
    const venue = await createVenue({ config: t.config, database: t.database, accountId: owner.accountId, exchange: 'binance' });
    const feed = new CandleFeed(t.database, KEY, { fetchClosed: () => Promise.resolve([]) });
    feed.inject(bars(sliceByTime(all, START - MINUTE, START)));
    const d = await driver(id, feed, venue);
    expect(d.phase).toBe('reconciling');
    while (!(await d.reconcileStep()));
    const run = bars(sliceByTime(all, START, START + 12 * 60 * MINUTE));
    for (const b of run) {
      fake.advance(MINUTE);
      await d.step(b, false);
    }
    const kernel = (d as unknown as { kernel: { haltReason: string | null; decisions: number } }).kernel;
    expect(kernel.haltReason).toBeNull();
    expect(kernel.decisions).toBe(48);
    expect(d.phase).toBe('live');
    const intents = await t.database.exec<{ n: string }>(`select count(*) as n from robot_intents where robot_id = $1`, [id]);
    expect(Number(intents[0].n)).toBeGreaterThan(0);
  });
});

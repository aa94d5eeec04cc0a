// API-level figures of issue 4: a backtest over one year of 1m BTCUSDT candles submitted through the
// API (inject) until its report is readable (goal < 3 s), and a recommendation with the default
// budget over 90 days of 1m candles (goal < 30 s). The real app on PGlite in a temporary directory,
// or on a scratch PostgreSQL database when `databaseUrl` is given; pg-boss jobs and worker threads
// as in production. `node --import tsx apps/server/src/backtests/bench.ts [--json]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sliceByTime } from '@lq/engine';
import { createScratchDatabase, openDatabase, users } from '@lq/db';
import { loadCandlesFile } from '@lq/workers';
import { buildApp } from '../app';
import { loadConfig } from '../platform/config';
import { writeCandles } from '../market';

export interface BacktestApiBench {
  database: 'pglite' | 'postgres';
  /** Candles written to the store before measuring (not part of the figures). */
  seededCandles: number;
  seedSeconds: number;
  backtest: {
    /** create → status ≠ running → report read, through inject(). */
    seconds: number;
    candles: number;
    tradeCount: number;
    status: number;
    goalSeconds: 3;
  };
  /** The same with the AI indicator deciding the side (trains walk-forward over the year). */
  backtestAi: { seconds: number; candles: number; status: number; hitRate: number | null };
  recommendation: {
    /** create → status done → presets read. */
    seconds: number;
    days: number;
    budget: number | null;
    evaluated: number;
    presets: number;
    goalSeconds: 30;
  };
}

const DEFAULT_DATA = fileURLToPath(new URL('../../../../../shared/data/binance_BTCUSDT_1m.csv.gz', import.meta.url));

interface Env<T> {
  code: string;
  msg: string;
  data: T;
}

export async function benchBacktestApi(options: { dataFile?: string; databaseUrl?: string } = {}): Promise<BacktestApiBench> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lq-bt-bench-'));
  const scratch = options.databaseUrl ? await createScratchDatabase(options.databaseUrl) : undefined;
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dir, 'no-web'),
    USER_RATE_PER_MINUTE: '1000',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL, pgliteMode: 'exclusive' });
  const app = await buildApp(config, { database, jobs: true, logger: false });
  try {
    // Data: 2024 of BTCUSDT 1m.
    let t = performance.now();
    const all = loadCandlesFile(options.dataFile ?? DEFAULT_DATA);
    const year = sliceByTime(all, Date.UTC(2024, 0, 1), Date.UTC(2025, 0, 1));
    await writeCandles(database, { source: 'binance', symbol: 'BTCUSDT', timeframe: '1m' }, year);
    const seedSeconds = (performance.now() - t) / 1000;

    const [user] = await database.db
      .insert(users)
      .values({ mail: `bench.${Date.now()}@example.com`, passwordHash: '-', userCode: `B${Date.now().toString(36).toUpperCase()}`, userLevel: 'VIP1', country: 'TH' })
      .returning();
    const { token } = await app.sessions.issue(user.id, '127.0.0.1', 'bench');
    const call = async <T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Env<T>> => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}`, lang: 'en_US' }, ...(body ? { payload: body } : {}) });
      const json = JSON.parse(res.body) as Env<T>;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${json.msg}`);
      return json;
    };
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    const runBacktest = async (side: string) => {
      const started = performance.now();
      const created = await call<{ backtest: { id: number } }>('POST', '/order/api/backtest/create', {
        strategy: 'grid',
        dataSource: 'binance',
        symbol: 'BTCUSDT',
        params: { capital: 10_000, leverage: 5, gridNumber: 10, gap: 0.5, lotsPerGrid: 1, side, start: '2024-01-01', end: '2024-12-31' },
      });
      const id = created.data.backtest.id;
      let status = 1;
      while (status === 1) {
        await sleep(10);
        status = (await call<{ status: number }>('GET', `/order/api/backtest/detail?id=${id}`)).data.status;
      }
      const report = (await call<{ candleCount: number; tradeCount: number; ai: { hitRate: number | null } | null }>('GET', `/order/api/backtest/report?id=${id}`)).data;
      return { seconds: (performance.now() - started) / 1000, candles: report.candleCount, tradeCount: report.tradeCount, status, hitRate: report.ai?.hitRate ?? null };
    };
    const bt = await runBacktest('long');
    const ai = await runBacktest('ai');

    t = performance.now();
    const rec = await call<{ id: number }>('POST', '/order/api/backtest/recommend/create', {
      strategy: 'grid',
      dataSource: 'binance',
      symbol: 'BTCUSDT',
      capital: 10_000,
      start: '2024-10-01',
      end: '2024-12-29',
    });
    let r: { status: string; budget: number | null; error: string | null; result: { evaluated: number; presets: unknown[] } | null };
    for (;;) {
      await sleep(50);
      r = (await call<typeof r>('GET', `/order/api/backtest/recommend/detail?id=${rec.data.id}`)).data;
      if (r.status !== 'running') break;
    }
    if (r.status !== 'done') throw new Error(`recommendation ${r.status}: ${r.error}`);
    const recSeconds = (performance.now() - t) / 1000;

    return {
      database: database.kind,
      seededCandles: year.length,
      seedSeconds: round(seedSeconds),
      backtest: { seconds: round(bt.seconds), candles: bt.candles, tradeCount: bt.tradeCount, status: bt.status, goalSeconds: 3 },
      backtestAi: { seconds: round(ai.seconds), candles: ai.candles, status: ai.status, hitRate: ai.hitRate },
      recommendation: {
        seconds: round(recSeconds),
        days: 90,
        budget: r.budget,
        evaluated: r.result?.evaluated ?? 0,
        presets: r.result?.presets.length ?? 0,
        goalSeconds: 30,
      },
    };
  } finally {
    await app.close();
    await database.close();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const round = (x: number) => Number(x.toFixed(2));

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await benchBacktestApi({ databaseUrl: process.env.DATABASE_URL });
  if (process.argv.includes('--json')) process.stdout.write(JSON.stringify(result) + '\n');
  else {
    console.log(`database ${result.database}; seeded ${result.seededCandles} candles in ${result.seedSeconds} s`);
    console.log(`backtest, one year of 1m (${result.backtest.candles} candles, ${result.backtest.tradeCount} trades): ${result.backtest.seconds} s (goal < 3 s)`);
    console.log(`backtest with the AI indicator, same year: ${result.backtestAi.seconds} s (hit rate ${result.backtestAi.hitRate})`);
    console.log(`recommendation, default budget, 90 days of 1m: ${result.recommendation.seconds} s (${result.recommendation.evaluated} candidates, ${result.recommendation.presets} presets; goal < 30 s)`);
  }
  process.exit(0);
}

// `npm run bench` section `runner`: one runner drives 1,000 paper robots (grid and trend, decisions
// on every 1m candle) on one embedded database; after 10 warm-up candles, for each new candle the latency from the candle's
// arrival (in the runner's memory, after its feed poll stored it) to each robot's decision, p50 and
// p99 over all robots and candles (goal p99 ≤ 50 ms), and the whole tick (poll + store + decisions +
// the batched write of fills, income and live figures).
// `node --import tsx apps/server/src/runner/bench.ts [--robots 1000] [--candles 60]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { getInstrument } from '@lq/engine';
import { createScratchDatabase, openDatabase, type DatabaseHandle } from '@lq/db';
import { getStrategy } from '@lq/strategies';
import { loadConfig } from '../platform/config';
import type { Bar, CandleSource } from './feed';
import { Runner } from './runner';

export interface RunnerBench {
  database: 'pglite' | 'postgres';
  robots: number;
  candles: number;
  /** Candles before the measured ones (first orders, JIT warm-up). */
  warmupCandles: number;
  /** Candle in memory → robot decided, over every robot and candle (ms). */
  decisionP50Ms: number;
  decisionP99Ms: number;
  decisionMaxMs: number;
  /** A whole tick per candle: poll + store the candle, every decision, the batched writes (ms). */
  tickP50Ms: number;
  tickP99Ms: number;
  /** Building and starting the robots (not measured above). */
  startSeconds: number;
  goalP99Ms: 50;
}

/** Candles released one at a time by the bench. */
class BenchSource implements CandleSource {
  released = 0;
  constructor(private readonly bars: Bar[]) {}
  fetchClosed(sinceMs: number | undefined): Promise<Bar[]> {
    const out = this.bars.slice(0, this.released).filter((b) => sinceMs === undefined || b.time >= sinceMs);
    return Promise.resolve(sinceMs === undefined ? out.slice(-5) : out);
  }
}

/** A random-walk 1m series (deterministic) around 60 000. */
function walk(n: number, from: number): Bar[] {
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const out: Bar[] = [];
  let p = 60_000;
  for (let i = 0; i < n; i++) {
    const o = p;
    p = Math.round(p * (1 + (rnd() - 0.5) * 0.004) * 10) / 10;
    out.push({ time: from + i * 60_000, open: o, high: Math.max(o, p) + 5, low: Math.min(o, p) - 5, close: p, volume: 1 });
  }
  return out;
}

const pct = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const r2 = (x: number) => Math.round(x * 100) / 100;

async function seed(database: DatabaseHandle, robots: number): Promise<void> {
  const [u] = await database.exec<{ id: number }>(`insert into users (mail, password_hash, user_code, country) values ('bench@example.com', 'x', 'BENCH1', 'TH') returning id::int as id`);
  const [a] = await database.exec<{ id: number }>(`insert into trading_accounts (user_id, market, exchange, account_name) values ($1, 'crypto', 'binance', 'paper') returning id::int as id`, [u.id]);
  const inst = getInstrument('BTCUSDT');
  const grid = getStrategy('grid');
  const single = getStrategy('single');
  const params = (k: number): [string, Record<string, unknown>] => {
    if (k % 2 === 0) {
      const p = grid.schema.parse({ ...grid.defaults(inst, { capital: 10_000, price: 60_000 }), interval: '1m', gap: 0.1 + (k % 7) * 0.05, gridNumber: 5 + (k % 10) });
      return ['grid', p];
    }
    const p = single.schema.parse({ ...single.defaults(inst, { capital: 10_000, price: 60_000 }), interval: '1m', side: k % 4 === 1 ? 'long' : 'short', gap: 0.1, orderTakeProfit: 0.3, orderStopLoss: 0.3 });
    return ['single', p];
  };
  for (let k = 0; k < robots; k += 200) {
    const values: string[] = [];
    const args: (string | number)[] = [u.id, a.id];
    for (let j = k; j < Math.min(robots, k + 200); j++) {
      const [strategy, p] = params(j);
      const b = args.length;
      args.push(strategy, JSON.stringify(p), String(p.capital), Number(p.leverage));
      values.push(`($1, $2, 'crypto', 'paper', $${b + 1}, 'BTCUSDT', '1m', $${b + 2}::jsonb, $${b + 3}, $${b + 4}, 'running')`);
    }
    await database.exec(`insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status) values ${values.join(', ')}`, args);
  }
}

export async function benchRunner(o: { robots?: number; candles?: number; warmup?: number; databaseUrl?: string } = {}): Promise<RunnerBench> {
  const robots = o.robots ?? 1000;
  const candles = o.candles ?? 60;
  const dir = mkdtempSync(path.join(tmpdir(), 'lq-runner-bench-'));
  const scratch = o.databaseUrl ? await createScratchDatabase(o.databaseUrl) : undefined;
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', ROLE: 'runner', RUNNER_MAX_ROBOTS: String(robots + 10), ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL, pgliteMode: 'exclusive' });
  try {
    await seed(database, robots);
    const warmup = o.warmup ?? 10;
    const bars = walk(candles + warmup + 10, Date.UTC(2025, 0, 6));
    const source = new BenchSource(bars);
    const runner = new Runner({ database, config, log: { info() {}, warn() {}, error() {} }, candleSource: () => source });
    const t0 = performance.now();
    source.released = 5;
    // Lease, build and start every robot (each starts at the next candle).
    for (let k = 0; k < 50 && runner.robotIds.filter((id) => runner.driver(id)?.phase === 'live').length < robots; k++) await runner.tick();
    const startSeconds = (performance.now() - t0) / 1000;
    const decisions: number[] = [];
    const ticks: number[] = [];
    // Warm-up: the robots' first candles (grids place their orders, the JIT compiles) are not measured.
    for (let c = 0; c < warmup; c++) {
      source.released++;
      await runner.tick();
    }
    for (let c = 0; c < candles; c++) {
      source.released++;
      const start = performance.now();
      await runner.tick();
      ticks.push(performance.now() - start);
      const these: number[] = [];
      for (const id of runner.robotIds) {
        const at = runner.driver(id)?.lastDecisionAt ?? NaN;
        if (at >= runner.polledAt) these.push(at - runner.polledAt);
      }
      if (process.env.BENCH_DEBUG) console.error(c, these.length, r2(pct(these, 0.5)), r2(Math.max(...these)), r2(ticks[ticks.length - 1]));
      decisions.push(...these);
    }
    await runner.stop();
    return {
      database: scratch ? 'postgres' : 'pglite',
      robots,
      candles,
      warmupCandles: warmup,
      decisionP50Ms: r2(pct(decisions, 0.5)),
      decisionP99Ms: r2(pct(decisions, 0.99)),
      decisionMaxMs: r2(Math.max(...decisions)),
      tickP50Ms: r2(pct(ticks, 0.5)),
      tickP99Ms: r2(pct(ticks, 0.99)),
      startSeconds: r2(startSeconds),
      goalP99Ms: 50,
    };
  } finally {
    await database.close();
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const r = await benchRunner({ robots: arg('robots'), candles: arg('candles'), databaseUrl: process.env.DATABASE_URL });
  console.log(JSON.stringify(r, null, 2));
  process.exit(0);
}

// Recommendation throughput: candidate backtests per second over one year of 1m candles, on all
// cores, through the same pool and candidate runner as `recommend`.
import { resolve } from 'node:path';
import { getInstrument, sliceByTime } from '@lq/engine';
import { getStrategy } from '@lq/strategies';
import { latinHypercube, mulberry32, paramsAt } from '../../engine/src/optimize/index';
import { loadCandlesFile } from './load';
import { BacktestPool, createDataset } from './pool';
import type { CandidateSpec } from './recommend-run';

export interface BenchRecommendOptions {
  readonly log?: (...parts: unknown[]) => void;
  /** Default: `<repo>/../shared/data/binance_BTCUSDT_1m.csv.gz` (or `$SHARED_DIR/data/…`). */
  readonly dataPath?: string;
  readonly strategy?: string;
  /** Decision interval of the candidates (default 1m: every one of the 525 600 candles decides). */
  readonly interval?: string;
  /** Timed candidates (default 96: long enough a window for a stable figure). */
  readonly candidates?: number;
  readonly threads?: number;
}

export interface BenchRecommendResult {
  readonly candidatesPerSecond: number;
  readonly strategy: string;
  readonly interval: string;
  readonly candlesPerCandidate: number;
  readonly candidates: number;
  readonly threads: number;
  readonly seconds: number;
  /** Decision candles actually simulated per second over all threads (a halted run stops early). */
  readonly candlesPerSecond: number;
  /** Share of the year the timed candidates simulated on average (liquidated / halted runs end early). */
  readonly simulatedFraction: number;
  /** Candidates per final status (2 success, 4 liquidate, 5 capital, …). */
  readonly statuses: Readonly<Record<string, number>>;
}

const YEAR_MS = 365 * 86_400_000;

export async function benchRecommend(options: BenchRecommendOptions = {}): Promise<BenchRecommendResult> {
  const log = options.log ?? (() => {});
  const sharedDir = process.env.SHARED_DIR ?? resolve(import.meta.dirname, '../../../../shared');
  const all = loadCandlesFile(options.dataPath ?? resolve(sharedDir, 'data/binance_BTCUSDT_1m.csv.gz'));
  const year = sliceByTime(all, all.time[0], all.time[0] + YEAR_MS);
  const strategyType = options.strategy ?? 'grid';
  const interval = options.interval ?? '1m';
  const definition = getStrategy(strategyType);
  const instrument = getInstrument('BTCUSDT');
  const base = { ...definition.defaults(instrument, { capital: 100_000, price: year.close[0] }), interval };
  const count = options.candidates ?? 96;
  // The candidates a search would draw: a Latin hypercube over the strategy's search space.
  const space = definition.searchSpace(instrument);
  const points = latinHypercube(count * 2, space.length, mulberry32(2024));
  const specs: CandidateSpec[] = points.map((point) => ({
    strategy: strategyType,
    params: { ...base, ...paramsAt(space, point) },
    fromMs: year.time[0],
    toMs: year.time[year.length - 1] + year.intervalMs,
  }));
  const dataset = createDataset('BTCUSDT', year, null);
  const pool = new BacktestPool({ threads: options.threads, dataset });
  try {
    // Warm-up: threads start, load TypeScript and JIT the hot loops before the clock runs.
    await pool.runAll(dataset, specs.slice(count, count + pool.threads * 2));
    const started = performance.now();
    const results = await pool.runAll(dataset, specs.slice(0, count));
    const seconds = (performance.now() - started) / 1000;
    const failed = results.filter((r) => r.error !== undefined);
    if (failed.length > 0) throw new Error(`bench candidate failed: ${failed[0].error}`);
    const simulated = results.reduce((sum, r) => sum + r.decisionCount, 0);
    const statuses: Record<string, number> = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const result: BenchRecommendResult = {
      candidatesPerSecond: count / seconds,
      strategy: strategyType,
      interval,
      candlesPerCandidate: year.length,
      candidates: count,
      threads: pool.threads,
      seconds,
      candlesPerSecond: simulated / seconds,
      simulatedFraction: simulated / (count * year.length),
      statuses,
    };
    log(
      `recommend: ${result.candidatesPerSecond.toFixed(1)} candidates/s (${strategyType} on ${interval}, ${year.length} candles each, ${pool.threads} threads, ${(result.candlesPerSecond / 1e6).toFixed(1)} M candles/s, ${(result.simulatedFraction * 100).toFixed(0)} % of the year simulated on average)`,
    );
    return result;
  } finally {
    await pool.destroy();
  }
}

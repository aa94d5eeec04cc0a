// Worker-thread pool (piscina) for candidate backtests. Candles live in SharedArrayBuffers: every
// thread reads the same memory, and a task carries only the buffer handles (no copy per candidate).
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import type { Candles, VenueName } from '@lq/engine';
import type { CandidateResult, CandidateSpec, RangeAi } from './recommend-run';

/** Candles whose columns sit in SharedArrayBuffers; structurally a `Candles`. */
export type SharedCandles = Candles;

/** Everything a candidate needs besides its parameters, shared once per dataset. */
export interface SharedDataset {
  /** Unique per dataset: threads cache their prepared state under it. */
  readonly id: string;
  readonly symbol: string;
  /** Whose order sizes the instrument follows (getInstrument's venue). */
  readonly venue?: VenueName;
  readonly candles: SharedCandles;
  readonly ai: RangeAi | null;
}

/** A candidate names its dataset; only a dataset the pool was not created with travels along. */
export interface PoolTask {
  readonly datasetId: string;
  readonly dataset?: SharedDataset;
  readonly candidate: CandidateSpec;
}

/** What every thread receives once, at start. */
export interface PoolWorkerData {
  readonly dataset: SharedDataset | null;
}

function sharedCopy(column: Float64Array, length: number): Float64Array {
  const out = new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT));
  out.set(column.subarray(0, length));
  return out;
}

/** Copies candle columns into shared memory (once per dataset). */
export function shareCandles(c: Candles): SharedCandles {
  const n = c.length;
  return {
    length: n,
    intervalMs: c.intervalMs,
    time: sharedCopy(c.time, n),
    open: sharedCopy(c.open, n),
    high: sharedCopy(c.high, n),
    low: sharedCopy(c.low, n),
    close: sharedCopy(c.close, n),
    volume: sharedCopy(c.volume, n),
  };
}

export function shareAi(ai: RangeAi): RangeAi {
  const n = ai.time.length;
  return { intervalMs: ai.intervalMs, time: sharedCopy(ai.time, n), signal: sharedCopy(ai.signal, n), probabilityUp: sharedCopy(ai.probabilityUp, n) };
}

let datasetCounter = 0;
export function createDataset(symbol: string, candles: Candles, ai: RangeAi | null, venue?: VenueName): SharedDataset {
  datasetCounter++;
  return { id: `${process.pid}-${datasetCounter}-${symbol}`, symbol, ...(venue ? { venue } : {}), candles: shareCandles(candles), ai: ai ? shareAi(ai) : null };
}

export interface BacktestPoolOptions {
  /** Threads (default: all cores). */
  readonly threads?: number;
  /** Handed to every thread once at start-up; tasks on it then carry only its id. */
  readonly dataset?: SharedDataset;
}

/** A pool of threads running `runCandidate`; TypeScript is loaded in each thread through tsx. */
export class BacktestPool {
  readonly threads: number;
  private readonly piscina: Piscina<PoolTask, CandidateResult>;
  private readonly boundDatasetId: string | null;

  constructor(options: BacktestPoolOptions = {}) {
    this.threads = Math.max(1, options.threads ?? availableParallelism());
    // Absolute URLs, so the pool works whatever the working directory (repo root, vitest, server).
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    this.boundDatasetId = options.dataset?.id ?? null;
    const workerData: PoolWorkerData = { dataset: options.dataset ?? null };
    this.piscina = new Piscina({
      workerData,
      filename: new URL('./pool-worker.ts', import.meta.url).href,
      execArgv: ['--import', tsx],
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 60_000,
    });
  }

  run(dataset: SharedDataset, candidate: CandidateSpec): Promise<CandidateResult> {
    const task: PoolTask = dataset.id === this.boundDatasetId ? { datasetId: dataset.id, candidate } : { datasetId: dataset.id, dataset, candidate };
    return this.piscina.run(task);
  }

  /** Runs candidates in parallel; results in input order. */
  runAll(dataset: SharedDataset, candidates: readonly CandidateSpec[]): Promise<CandidateResult[]> {
    return Promise.all(candidates.map((candidate) => this.run(dataset, candidate)));
  }

  async destroy(): Promise<void> {
    await this.piscina.destroy();
  }
}

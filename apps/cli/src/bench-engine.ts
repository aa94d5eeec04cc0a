// Engine benchmark on the 1,008,000-candle BTCUSDT 1m file: load time (cold parse and binary
// cache), candles/s of every registry strategy on 1m decisions, and the reference SMA-cross and grid
// strategies next to their hand-written single-loop twins timed in the same run.
// Standalone: `node --import tsx apps/cli/src/bench-engine.ts [--json] [--data <file>]`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  GridStrategy,
  SmaCrossStrategy,
  getInstrument,
  gridBaseline,
  runBacktest,
  sliceRows,
  smaCrossBaseline,
  smaCrossTwin,
  type BacktestConfig,
  type BacktestReport,
  type TwinResult,
  type Candles,
  type Strategy,
} from '@lq/engine';
import { strategies } from '@lq/strategies';
import { loadCandlesFileDetailed } from '@lq/workers';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { join } from 'node:path';
import { parseStrict, runMain, toJson } from './args';

export interface BenchEngineOptions {
  readonly log?: (...parts: unknown[]) => void;
  readonly dataPath?: string;
  /** Timed repetitions per registry strategy; the best is reported (default 7). */
  readonly repeats?: number;
  /**
   * Timed rounds of each reference pair (default 15; a round is a few tens of ms): on a shared
   * machine single runs vary by ±30 %, and the best of more rounds is steadier for both sides.
   */
  readonly referenceRepeats?: number;
  /** Untimed full runs of each function before the timed ones (default 3): JIT compilation done. */
  readonly warmRuns?: number;
  /** Time each reference pair in a worker thread of its own (default true). */
  readonly isolate?: boolean;
  /** Only the reference strategies and their twins (no registry strategies). */
  readonly referenceOnly?: boolean;
}

export interface StrategyFigure {
  strategy: string;
  /** From the best process CPU time of the runs. */
  candlesPerSecond: number;
  /** The hand-written twin: same fills and fees, and the same per-bar tracking as the engine. */
  baselineCandlesPerSecond: number | null;
  ratioToBaseline: number | null;
  /** The bare hand-written loop (fills and fees only, nothing marked to market per bar), for reference. */
  bareLoopCandlesPerSecond?: number | null;
  ratioToBareLoop?: number | null;
  /** The same from the best wall-clock time. */
  wallCandlesPerSecond: number;
  wallBaselineCandlesPerSecond: number | null;
  tradeCount: number;
  status: number;
  /** Parameters of the run (reference strategies) or the registry defaults used. */
  params: Record<string, unknown>;
}

export interface BenchEngineResult {
  /** Time to load the file through the binary cache (what every later run pays). */
  loadSeconds: number;
  /** Cold: gunzip + CSV parse, no cache. */
  parseSeconds: number;
  rows: number;
  timing: string;
  strategies: StrategyFigure[];
  peakRssMB: number;
}

const defaultData = () =>
  resolve(
    process.env.SHARED_DIR ?? resolve(import.meta.dirname, '../../../../shared'),
    'data/binance_BTCUSDT_1m.csv.gz',
  );

interface Timed<T> {
  seconds: number;
  wallSeconds: number;
  result: T;
}

/** Process CPU time (user + system, all threads: JIT and GC included) and wall time of one call. */
function timeOnce<T>(
  run: () => T,
  into: { seconds: number; wallSeconds: number; result: T | undefined },
): void {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  into.result = run();
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  into.seconds = Math.min(into.seconds, (cpu.user + cpu.system) / 1e6);
  into.wallSeconds = Math.min(into.wallSeconds, wall);
}

/**
 * Times `runs` (the engine, its twin, its bare loop) interleaved: warm-up first (`tiny` many times
 * where given: the twins, single long loops, then get optimised as a whole and not only through
 * on-stack replacement, whose code can keep a loop's doubles boxed for the rest of the process and
 * make a twin look 2-3× slower than it is; a short slice twice; then `warm` full runs each, so the
 * compilation is no longer charged to a timed run), then `repeats` rounds, each timing every
 * function once in turn.
 * Reports each function's best process CPU time and best wall time. Interleaving puts the engine
 * and its twin under the same machine load (2 cores, several engineers' test runs); the best of
 * several rounds is each one's speed when not preempted. On a shared machine the wall clock mostly
 * measures the scheduler: a 10 ms loop fits in one time slice while a 50 ms backtest is preempted
 * several times, which skews the ratio.
 */
function bestInterleaved<R extends unknown[]>(
  repeats: number,
  warm: number,
  runs: { [K in keyof R]: { tiny?: () => unknown; warm: () => unknown; run: () => R[K] } },
): { [K in keyof R]: Timed<R[K]> } {
  const list = runs as unknown as {
    tiny?: () => unknown;
    warm: () => unknown;
    run: () => unknown;
  }[];
  for (let k = 0; k < 40; k++) for (const r of list) r.tiny?.();
  for (const r of list) {
    r.warm();
    r.warm();
  }
  const out = list.map(() => ({ seconds: Infinity, wallSeconds: Infinity, result: undefined }));
  for (let k = 0; k < warm; k++) for (const r of list) r.run();
  for (let k = 0; k < repeats; k++) list.forEach((r, j) => timeOnce(r.run, out[j]));
  return out as unknown as { [K in keyof R]: Timed<R[K]> };
}

/** `bestInterleaved` for one function. */
function best<T>(repeats: number, warm: () => void, run: () => T, warmRuns = 1): Timed<T> {
  return bestInterleaved<[T]>(repeats, warmRuns, [{ warm, run }])[0];
}

/** The twin must report what the engine reports: same trades, final equity and drawdown. */
function checkTwin(name: string, r: BacktestReport, t: TwinResult): void {
  const close = (a: number, b: number, tol: number) =>
    Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));
  if (r.tradeCount !== t.trades)
    throw new Error(`${name}: engine ${r.tradeCount} trades, hand-written loop ${t.trades}`);
  const checks: [string, number, number][] = [
    ['finalEquity', r.finalEquity, t.finalEquity ?? NaN],
    ['maxDrawdown', r.maxDrawdown, t.maxDrawdown ?? NaN],
    ['drawdownAmount', r.drawdownAmount, t.drawdownAmount ?? NaN],
    ['longestDrawdownMs', r.longestDrawdownMs, t.longestDrawdownMs ?? NaN],
    ['exposedBars', Math.round(r.exposureTime * r.candleCount), t.exposedBars ?? NaN],
  ];
  for (const [k, a, b] of checks) {
    if (!close(a, b, 1e-9)) throw new Error(`${name}: engine ${k} ${a}, hand-written loop ${b}`);
  }
}

interface PairTiming {
  seconds: number;
  wallSeconds: number;
}

export interface ReferencePair {
  engine: PairTiming;
  twin: PairTiming;
  bare: PairTiming;
  tradeCount: number;
  status: number;
  params: Record<string, unknown>;
}

const tsxApi = pathToFileURL(
  createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/index\.cjs$/, 'index.mjs'),
).href;

const referenceBase = {
  capital: 10_000_000,
  leverage: 10,
  makerFee: 0.0002,
  takerFee: 0.0005,
} as const;

/**
 * One reference strategy in the engine, its twin and its bare loop, timed interleaved; the twin's
 * figures are checked against the engine's report.
 */
export function referencePair(
  kind: 'sma-cross' | 'grid',
  candles: Candles,
  repeats: number,
  warmRuns: number,
): ReferencePair {
  const instrument = getInstrument('BTCUSDT');
  const n = candles.length;
  const warmSlice = sliceRows(candles, 0, Math.min(n, 100_000));
  const tinySlice = sliceRows(candles, 0, Math.min(n, 3_000));
  const base: Omit<BacktestConfig, 'candles'> = { instrument, ...referenceBase };
  const run = (make: () => Strategy, c: Candles) => runBacktest(make(), { ...base, candles: c });
  const timing = (t: Timed<unknown>): PairTiming => ({
    seconds: t.seconds,
    wallSeconds: t.wallSeconds,
  });
  // Same logic in the engine and as one hand-written loop. The twin does what the
  // engine reports at every bar (equity marked to market at each close, drawdown and its duration,
  // exposure, floating PnL extremes, daily returns); the bare loop (fills and fees only) is printed
  // for reference. The twin's figures are checked against the engine's report.
  const track = {
    capital: base.capital,
    time: candles.time,
    barMs: candles.intervalMs,
    high: candles.high,
    low: candles.low,
  };
  const warmTrack = {
    capital: base.capital,
    time: warmSlice.time,
    barMs: warmSlice.intervalMs,
    high: warmSlice.high,
    low: warmSlice.low,
  };
  const tinyTrack = {
    capital: base.capital,
    time: tinySlice.time,
    barMs: tinySlice.intervalMs,
    high: tinySlice.high,
    low: tinySlice.low,
  };
  if (kind === 'sma-cross') {
    const sma = { fast: 50, slow: 200, qty: 1 };
    const smaTwin = (c: Candles, t: typeof track) =>
      smaCrossTwin(
        c.open,
        c.close,
        c.length,
        sma.fast,
        sma.slow,
        sma.qty,
        instrument.contractSize,
        base.takerFee,
        t,
      );
    const smaBareLoop = (c: Candles) =>
      smaCrossBaseline(
        c.open,
        c.close,
        c.length,
        sma.fast,
        sma.slow,
        sma.qty,
        instrument.contractSize,
        base.takerFee,
      );
    const [smaEngine, smaLoop, smaBare] = bestInterleaved<[BacktestReport, TwinResult, TwinResult]>(
      repeats,
      warmRuns,
      [
        {
          warm: () => run(() => new SmaCrossStrategy(sma), warmSlice),
          run: () => run(() => new SmaCrossStrategy(sma), candles),
        },
        {
          tiny: () => smaTwin(tinySlice, tinyTrack),
          warm: () => smaTwin(warmSlice, warmTrack),
          run: () => smaTwin(candles, track),
        },
        {
          tiny: () => smaBareLoop(tinySlice),
          warm: () => smaBareLoop(warmSlice),
          run: () => smaBareLoop(candles),
        },
      ],
    );
    checkTwin('SMA cross', smaEngine.result, smaLoop.result);
    return {
      engine: timing(smaEngine),
      twin: timing(smaLoop),
      bare: timing(smaBare),
      tradeCount: smaEngine.result.tradeCount,
      status: smaEngine.result.status,
      params: { ...sma },
    };
  }
  const grid = { levels: 20, gap: 0.005, qty: 1 };
  // Both the engine and the loops skip the path of a candle that reaches neither the nearest buy
  // nor the nearest sell level (the engine through its trigger index); the twin still marks it.
  const gridLoopOf = (c: Candles, t?: typeof track) =>
    gridBaseline(
      c.open,
      c.high,
      c.low,
      c.close,
      c.length,
      grid.levels,
      grid.gap,
      grid.qty,
      instrument.contractSize,
      base.makerFee,
      true,
      t,
    );
  const [gridEngine, gridLoop, gridBare] = bestInterleaved<
    [BacktestReport, TwinResult, TwinResult]
  >(repeats, warmRuns, [
    {
      warm: () => run(() => new GridStrategy(grid), warmSlice),
      run: () => run(() => new GridStrategy(grid), candles),
    },
    {
      tiny: () => gridLoopOf(tinySlice, tinyTrack),
      warm: () => gridLoopOf(warmSlice, warmTrack),
      run: () => gridLoopOf(candles, track),
    },
    {
      tiny: () => gridLoopOf(tinySlice),
      warm: () => gridLoopOf(warmSlice),
      run: () => gridLoopOf(candles),
    },
  ]);
  checkTwin('grid', gridEngine.result, gridLoop.result);
  return {
    engine: timing(gridEngine),
    twin: timing(gridLoop),
    bare: timing(gridBare),
    tradeCount: gridEngine.result.tradeCount,
    status: gridEngine.result.status,
    params: { ...grid },
  };
}

/** `referencePair` in a worker thread (a fresh V8 isolate); the candles are copied to it. */
function referencePairInWorker(
  kind: 'sma-cross' | 'grid',
  candles: Candles,
  repeats: number,
  warmRuns: number,
): Promise<ReferencePair> {
  const n = candles.length;
  const columns = {
    length: n,
    intervalMs: candles.intervalMs,
    time: candles.time.slice(0, n),
    open: candles.open.slice(0, n),
    high: candles.high.slice(0, n),
    low: candles.low.slice(0, n),
    close: candles.close.slice(0, n),
    volume: candles.volume.slice(0, n),
  };
  return new Promise((resolvePair, reject) => {
    // The thread registers tsx's loader, then imports this module (as the server's backtest threads do).
    const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`;
    const worker = new Worker(boot, {
      eval: true,
      workerData: { benchReferencePair: { kind, candles: columns, repeats, warmRuns } },
    });
    worker.once('message', (m: { pair?: ReferencePair; error?: string }) => {
      if (m.pair) resolvePair(m.pair);
      else reject(new Error(m.error ?? 'reference worker failed'));
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

export async function benchEngine(options: BenchEngineOptions = {}): Promise<BenchEngineResult> {
  const log = options.log ?? (() => {});
  const repeats = options.repeats ?? 7;
  const warmRuns = options.warmRuns ?? 3;
  const referenceRepeats = options.referenceRepeats ?? 15;
  const dataPath = options.dataPath ?? defaultData();
  let peakRss = process.memoryUsage().rss;
  // Also yields to the event loop so a caller's own memory sampler gets to run between runs.
  const sampleRss = async () => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    await new Promise((r) => setImmediate(r));
  };

  // Load: cold parse (no cache), then through a fresh cache directory: fill it, then time a hit.
  const cold = loadCandlesFileDetailed(dataPath, { cache: false });
  log(`[engine] parse ${cold.candles.length} rows: ${cold.seconds.toFixed(3)} s`);
  const cacheDir = mkdtempSync(join(tmpdir(), 'lq-bench-cache-'));
  let loadSeconds: number;
  let candles: Candles;
  try {
    loadCandlesFileDetailed(dataPath, { cacheDir });
    const hit = loadCandlesFileDetailed(dataPath, { cacheDir });
    if (hit.source !== 'cache') throw new Error('binary cache was not used');
    loadSeconds = hit.seconds;
    candles = hit.candles;
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  log(`[engine] cached load: ${loadSeconds.toFixed(3)} s`);
  await sampleRss();

  const instrument = getInstrument('BTCUSDT');
  const n = candles.length;
  const warmSlice = sliceRows(candles, 0, Math.min(n, 100_000));
  const base: Omit<BacktestConfig, 'candles'> = {
    instrument,
    capital: 10_000_000,
    leverage: 10,
    makerFee: 0.0002,
    takerFee: 0.0005,
  };
  const figures: StrategyFigure[] = [];
  const cps = (seconds: number) => (seconds > 0 ? Math.round(n / seconds) : 0);

  // Reference twins: same logic in the engine and as one hand-written loop (see `referencePair`),
  // each pair in a worker thread of its own (a fresh V8 isolate), so neither is timed on code that
  // the JIT compiled for the other strategy's or twin's types (a call site that has seen several
  // strategy classes no longer inlines `onCandle`; that cost is in the registry figures below).
  for (const kind of ['sma-cross', 'grid'] as const) {
    const pair =
      options.isolate === false
        ? referencePair(kind, candles, referenceRepeats, warmRuns)
        : await referencePairInWorker(kind, candles, referenceRepeats, warmRuns);
    const { engine: eng, twin: loop, bare, params } = pair;
    const name = `reference:${kind}`;
    const figure: StrategyFigure = {
      strategy: name,
      candlesPerSecond: cps(eng.seconds),
      baselineCandlesPerSecond: cps(loop.seconds),
      ratioToBaseline: Math.round((loop.seconds / eng.seconds) * 1000) / 1000,
      bareLoopCandlesPerSecond: cps(bare.seconds),
      ratioToBareLoop: Math.round((bare.seconds / eng.seconds) * 1000) / 1000,
      wallCandlesPerSecond: cps(eng.wallSeconds),
      wallBaselineCandlesPerSecond: cps(loop.wallSeconds),
      tradeCount: pair.tradeCount,
      status: pair.status,
      params: { ...params },
    };
    figures.push(figure);
    log(
      `[engine] ${name}: ${(figure.candlesPerSecond / 1e6).toFixed(1)} M candles/s, twin loop ${(figure.baselineCandlesPerSecond! / 1e6).toFixed(1)} M/s, ratio ${figure.ratioToBaseline}` +
        ` (bare loop ${(figure.bareLoopCandlesPerSecond! / 1e6).toFixed(1)} M/s, ratio ${figure.ratioToBareLoop}), ${figure.tradeCount} trades`,
    );
    await sampleRss();
  }

  // Every registry strategy that trades crypto, on 1m decisions, with its default parameters.
  const price = candles.close[0];
  for (const definition of options.referenceOnly === true ? [] : Object.values(strategies)) {
    if (!definition.markets.includes('crypto')) continue;
    const params: Record<string, unknown> = {
      ...definition.defaults(instrument, { capital: 100_000, price }),
      interval: '1m',
    };
    delete params.start;
    delete params.end;
    const make = () => definition.fromInput(params, instrument);
    const config = (c: Candles): BacktestConfig => ({
      ...base,
      capital: 100_000,
      leverage: Number(params.leverage ?? 10),
      candles: c,
    });
    try {
      const r = best(
        repeats,
        () => runBacktest(make(), config(warmSlice)),
        () => runBacktest(make(), config(candles)),
      );
      figures.push({
        strategy: definition.type,
        candlesPerSecond: cps(r.seconds),
        baselineCandlesPerSecond: null,
        ratioToBaseline: null,
        wallCandlesPerSecond: cps(r.wallSeconds),
        wallBaselineCandlesPerSecond: null,
        tradeCount: r.result.tradeCount,
        status: r.result.status,
        params,
      });
      log(
        `[engine] ${definition.type}: ${(cps(r.seconds) / 1e6).toFixed(1)} M candles/s, ${r.result.tradeCount} trades, status ${r.result.status}`,
      );
    } catch (e) {
      log(`[engine] ${definition.type} failed: ${(e as Error).message}`);
    }
    await sampleRss();
  }
  return {
    loadSeconds: Math.round(loadSeconds * 1000) / 1000,
    parseSeconds: Math.round(cold.seconds * 1000) / 1000,
    rows: n,
    timing: `references: best of ${referenceRepeats} rounds after ${warmRuns} full warm-up runs, engine and twins interleaved, each pair in its own worker thread; registry strategies: best of ${repeats} runs; candlesPerSecond from process CPU time, wall* from wall-clock time`,
    strategies: figures,
    peakRssMB: Math.round(peakRss / 2 ** 20),
  };
}

function main(): Promise<void> {
  const v = parseStrict(process.argv.slice(2), {
    json: { type: 'boolean', default: false },
    data: { type: 'string' },
  });
  const log = (...parts: unknown[]) => (v.json ? console.error(...parts) : console.log(...parts));
  return benchEngine({ log, dataPath: v.data }).then((r) => {
    console.log(v.json ? toJson(r) : toJson(r, 2));
  });
}

const job = isMainThread
  ? undefined
  : (
      workerData as {
        benchReferencePair?: {
          kind: 'sma-cross' | 'grid';
          candles: Candles;
          repeats: number;
          warmRuns: number;
        };
      } | null
    )?.benchReferencePair;
if (job !== undefined) {
  try {
    parentPort?.postMessage({
      pair: referencePair(job.kind, job.candles, job.repeats, job.warmRuns),
    });
  } catch (e) {
    parentPort?.postMessage({ error: (e as Error).message });
  }
} else if (isMainThread && import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  await runMain(main);

// Recommended parameters for a strategy on a symbol, capital and range: data + strategy registry +
// optimizer + thread pool. Used by the CLI and by the server's job worker.
import { getInstrument, intervalToMs, lowerBound, prepareCandles, sliceRows, type Candles, type VenueName } from '@lq/engine';
import { fixedOffsetMinutes, getStrategy, needsAi, type SideModeName } from '@lq/strategies';
import { computeAiSignal, scoreAiSignal, type AiOptions, type AiScore } from '../../engine/src/ai/index';
import { optimize, type CandidateMetrics, type EvaluateBatch, type ParamSpace, type Params, type PresetTier, type Rejection } from '../../engine/src/optimize/index';
import { loadCandlesFile } from './load';
import { BacktestPool, createDataset } from './pool';
import { backtestConfigFor, runCandidate, type CandidateResult, type CandidateSpec, type RangeAi } from './recommend-run';

export interface RecommendOptions {
  /** Candles, or a file to load them from. */
  readonly candles?: Candles;
  readonly dataPath?: string;
  readonly symbol: string;
  /** Whose order sizes the presets follow (the data source's venue); absent: the generic sizes. */
  readonly venue?: VenueName;
  readonly strategy: string;
  readonly capital: number;
  /** In-sample candidate backtests (default: sized to the data, see `defaultBudget`). */
  readonly budget?: number;
  readonly seed?: number;
  readonly fromMs?: number;
  readonly toMs?: number;
  /** Fixed parameters (e.g. interval, leverage, side: 'ai'); fixed names are not searched. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Share of the range used in-sample; the rest validates (default 0.7). */
  readonly inSampleFraction?: number;
  /** Fewer in-sample trades rejects a candidate (default 5). */
  readonly minTrades?: number;
  /** Pool threads (default all cores); 0 runs every candidate on the calling thread. */
  readonly threads?: number;
  /** A pool to reuse (not destroyed); otherwise one is created for this run. */
  readonly pool?: BacktestPool;
  readonly ai?: AiOptions;
}

export interface Segment {
  readonly fromMs: number;
  readonly toMs: number;
}

export interface PresetAi {
  readonly inSample: AiScore;
  readonly outOfSample: AiScore;
}

export interface RecommendedPreset {
  readonly tier: PresetTier;
  /** Complete strategy parameters, ready for a backtest or a robot. */
  readonly params: Record<string, unknown>;
  /** Only the searched parameters. */
  readonly searched: Params;
  readonly inSample: CandidateMetrics;
  readonly outOfSample: CandidateMetrics;
  readonly score: number;
  readonly outOfSampleScore: number;
  readonly validated: boolean;
  /** The AI indicator's hit rate and base rate on each part, when these parameters use it. */
  readonly ai: PresetAi | null;
}

export interface RecommendResult {
  readonly strategy: string;
  readonly symbol: string;
  readonly capital: number;
  readonly interval: string;
  readonly seed: number;
  readonly budget: number;
  readonly range: Segment;
  readonly inSample: Segment;
  readonly outOfSample: Segment;
  readonly presets: readonly RecommendedPreset[];
  readonly evaluated: number;
  readonly accepted: number;
  readonly rejected: Readonly<Record<Rejection, number>>;
  readonly validated: number;
  readonly threads: number;
  readonly seconds: number;
  readonly candidatesPerSecond: number;
}

export class RecommendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecommendError';
  }
}

const DAY_MS = 86_400_000;
const MIN_RANGE_DAYS = 7;
/**
 * Input candles simulated per recommendation by default: about 20 s on two cores at the engine's
 * measured speed, so 90 days of 1m candles (91 k in-sample rows) get ~400 candidates, 5–12 s here.
 */
const DEFAULT_CANDLE_WORK = 36_000_000;

/** Default in-sample budget for a range of `inputCandles` rows (validation adds about a fifth). */
export function defaultBudget(inputCandles: number): number {
  return Math.max(30, Math.min(400, Math.floor(DEFAULT_CANDLE_WORK / Math.max(inputCandles, 1))));
}

export async function recommend(options: RecommendOptions, onProgress?: (percent: number) => void): Promise<RecommendResult> {
  const started = performance.now();
  const report = (p: number) => onProgress?.(Math.max(0, Math.min(100, Math.floor(p))));
  const definition = getStrategy(options.strategy);
  const instrument = getInstrument(options.symbol.toUpperCase(), options.venue);
  if (!definition.markets.includes(instrument.market)) {
    throw new RecommendError(`strategy ${definition.type} does not trade ${instrument.market} (${instrument.symbol})`);
  }
  if (!(options.capital >= 1000)) throw new RecommendError('capital must be at least 1000');
  const source = options.candles ?? (options.dataPath ? loadCandlesFile(options.dataPath) : null);
  if (!source || source.length === 0) throw new RecommendError('no candles');
  report(0);

  // Range, and the split on a decision-candle boundary so both parts resample like the whole.
  const fromMs = options.fromMs ?? source.time[0];
  const toMs = options.toMs ?? source.time[source.length - 1] + source.intervalMs;
  const price = source.close[Math.min(lowerBound(source.time, source.length, fromMs), source.length - 1)];
  const fixed = options.params ?? {};
  const base: Record<string, unknown> = {
    ...definition.defaults(instrument, { capital: options.capital, price }),
    interval: defaultInterval(source.intervalMs, toMs - fromMs),
    ...fixed,
    capital: options.capital,
    symbol: instrument.symbol,
    market: instrument.market,
  };
  const intervalMs = intervalToMs(String(base.interval));
  if (intervalMs % source.intervalMs !== 0) throw new RecommendError(`interval ${String(base.interval)} is finer than the data`);
  const { decision, input } = prepareCandles(backtestConfigFor(base, instrument, source, { fromMs, toMs }, null));
  if (decision.length < 2 || toMs - fromMs < MIN_RANGE_DAYS * DAY_MS) {
    throw new RecommendError(`the range must cover at least ${MIN_RANGE_DAYS} days of data`);
  }
  const fraction = options.inSampleFraction ?? 0.7;
  const splitMs = splitAt(decision, Math.floor(decision.length * fraction), fromMs, toMs, utcOffsetMinutesOf(base));
  const inSample = { fromMs, toMs: splitMs };
  const outOfSample = { fromMs: splitMs, toMs };

  // The AI indicator is trained walk-forward over the whole range once; candidates share it.
  const searchSpace: ParamSpace = definition.searchSpace(instrument).filter((p) => !(p.name in fixed));
  const usesAi = needsAi({ side: (base.side ?? 'long') as SideModeName, useAiIndicator: base.useAiIndicator === true });
  let ai: RangeAi | null = null;
  let aiScores: PresetAi | null = null;
  if (usesAi) {
    // Each window gets the AI signal a backtest of that window computes: walk-forward from the
    // window's start. The in-sample window starts the range, so it is the whole range's prefix
    // (the retrain schedule never depends on the data's length); the out-of-sample window is
    // computed on its own candles, as a backtest over it would.
    const aiOptions = { seed: options.seed ?? 1, ...options.ai };
    const whole = computeAiSignal(decision, aiOptions);
    const split = lowerBound(decision.time, decision.length, splitMs);
    const after = sliceRows(decision, split, decision.length);
    const own = computeAiSignal(after, aiOptions);
    const signal = Float64Array.from(whole.signal.signal);
    const probabilityUp = Float64Array.from(whole.signal.probabilityUp);
    signal.set(own.signal.signal, split);
    probabilityUp.set(own.signal.probabilityUp, split);
    ai = { intervalMs: decision.intervalMs, time: decision.time.slice(0, decision.length), signal, probabilityUp };
    const horizon = options.ai?.horizon ?? 12;
    aiScores = {
      inSample: scoreAiSignal(decision.close, whole.signal.signal, horizon, 0, split),
      outOfSample: scoreAiSignal(after.close, own.signal.signal, horizon, 0, after.length),
    };
  }
  report(3);

  const seed = options.seed ?? 1;
  const budget = Math.max(1, Math.floor(options.budget ?? defaultBudget(Math.round(input.length * fraction))));
  const spec = (params: Params, segment: 'inSample' | 'outOfSample'): CandidateSpec => ({
    strategy: definition.type,
    params: { ...base, ...params },
    ...(segment === 'inSample' ? inSample : outOfSample),
  });
  const threads = options.pool ? options.pool.threads : (options.threads ?? undefined);
  let evaluate: EvaluateBatch;
  let pool: BacktestPool | null = null;
  let ownPool = false;
  if (threads === 0) {
    evaluate = (batch) => Promise.resolve(batch.map((r) => runCandidate(source, instrument, ai, spec(r.params, r.segment))));
  } else {
    const dataset = createDataset(instrument.symbol, source, ai, options.venue);
    pool = options.pool ?? new BacktestPool({ threads, dataset });
    ownPool = !options.pool;
    const p = pool;
    evaluate = (batch) => p.runAll(dataset, batch.map((r) => spec(r.params, r.segment)));
  }
  try {
    const result = await optimize(
      {
        space: searchSpace,
        budget,
        seed,
        minTrades: options.minTrades ?? 5,
        batchSize: Math.max(16, 4 * (pool?.threads ?? 1)),
        onProgress: (p) => report(3 + p * 0.97),
      },
      evaluate,
    );
    const seconds = (performance.now() - started) / 1000;
    const presets = result.presets.map((p): RecommendedPreset => {
      const params = { ...base, ...p.params };
      const presetUsesAi = needsAi({ side: params.side as SideModeName, useAiIndicator: params.useAiIndicator === true });
      return { ...p, params, searched: p.params, ai: presetUsesAi ? aiScores : null };
    });
    report(100);
    return {
      strategy: definition.type,
      symbol: instrument.symbol,
      capital: options.capital,
      interval: String(base.interval),
      seed,
      budget,
      range: { fromMs, toMs },
      inSample,
      outOfSample,
      presets,
      evaluated: result.evaluated,
      accepted: result.accepted,
      rejected: result.rejected,
      validated: result.validated,
      threads: pool?.threads ?? 0,
      seconds,
      candidatesPerSecond: (result.evaluated + result.validated) / seconds,
    };
  } finally {
    if (ownPool) await pool!.destroy();
  }
}

/**
 * The in-sample / out-of-sample split: the first decision candle at or after the start of the
 * (params' timezone) day holding decision candle `index`, so the out-of-sample window is whole days
 * and a backtest with start = that day, end = the range's last day runs exactly over it.
 */
export function splitAt(decision: Candles, index: number, fromMs: number, toMs: number, utcOffsetMinutes: number): number {
  const offset = utcOffsetMinutes * 60_000;
  const at = decision.time[Math.max(1, Math.min(decision.length - 1, index))];
  const dayStart = Math.floor((at + offset) / DAY_MS) * DAY_MS - offset;
  for (const day of [dayStart, dayStart + DAY_MS]) {
    if (day > fromMs && day < toMs) {
      const k = lowerBound(decision.time, decision.length, day);
      if (k > 0 && k < decision.length) return day;
    }
  }
  return at;
}

function utcOffsetMinutesOf(params: Record<string, unknown>): number {
  return fixedOffsetMinutes(typeof params.timezone === 'string' ? params.timezone : 'UTC') ?? 0;
}

const INTERVAL_NAMES: Record<number, string> = {
  60_000: '1m',
  300_000: '5m',
  900_000: '15m',
  1_800_000: '30m',
  3_600_000: '1h',
  14_400_000: '4h',
  86_400_000: '1d',
};

/**
 * Decision interval when the parameters give none: the data's own when it is 1h or coarser, else
 * the coarsest of 1h / 15m / 5m that still gives 2000 decisions over the range (enough trades
 * for the in-sample score and the AI indicator's warm-up), else the data's.
 */
export function defaultInterval(dataIntervalMs: number, rangeMs: number): string {
  if (dataIntervalMs >= 3_600_000) return INTERVAL_NAMES[dataIntervalMs] ?? '1h';
  for (const ms of [3_600_000, 900_000, 300_000]) {
    if (ms >= dataIntervalMs && ms % dataIntervalMs === 0 && rangeMs / ms >= 2000) return INTERVAL_NAMES[ms];
  }
  return INTERVAL_NAMES[dataIntervalMs] ?? '1m';
}

export type { CandidateResult };

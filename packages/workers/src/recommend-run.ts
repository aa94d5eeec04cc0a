// One candidate backtest: parameters → strategy + backtest config → the metrics the search needs.
// The same function runs on the pool threads and on the calling thread (tests compare the two).
import { intervalToMs, lowerBound, runBacktest, type AiSignal, type BacktestConfig, type Candles, type Instrument } from '@lq/engine';
import { fixedOffsetMinutes, getStrategy } from '@lq/strategies';
import type { CandidateMetrics } from '../../engine/src/optimize/index';

/** Fee rates when the parameters give none: Binance USDT-M futures; forex pays the spread only. */
export const DEFAULT_FEES = {
  crypto: { makerFee: 0.0002, takerFee: 0.0005 },
  forex: { makerFee: 0, takerFee: 0 },
} as const;

/** The AI indicator over the whole range's decision candles, with their open times. */
export interface RangeAi {
  /** Decision interval: a candle opening up to one interval before a segment's start is its first. */
  readonly intervalMs: number;
  readonly time: Float64Array;
  readonly signal: Float64Array;
  readonly probabilityUp: Float64Array;
}

export interface CandidateSpec {
  readonly strategy: string;
  /** Complete strategy parameters (schema input). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly fromMs: number;
  readonly toMs: number;
}

export interface CandidateResult extends CandidateMetrics {
  readonly finalEquity: number;
  readonly profitFactor: number;
  readonly decisionCount: number;
}

/** The AI rows of the decision candles that hold input candles in [fromMs, toMs) (the first may start earlier). */
export function sliceAi(ai: RangeAi, fromMs: number, toMs: number): AiSignal {
  const a = lowerBound(ai.time, ai.time.length, fromMs - ai.intervalMs + 1);
  const b = lowerBound(ai.time, ai.time.length, toMs);
  return { signal: ai.signal.subarray(a, b), probabilityUp: ai.probabilityUp.subarray(a, b) };
}

export function backtestConfigFor(
  params: Record<string, unknown>,
  instrument: Instrument,
  candles: Candles,
  range: { fromMs: number; toMs: number },
  ai: AiSignal | null,
): BacktestConfig {
  const fees = DEFAULT_FEES[instrument.market];
  return {
    instrument,
    candles,
    intervalMs: intervalToMs(typeof params.interval === 'string' ? params.interval : '1m'),
    capital: Number(params.capital),
    leverage: Number(params.leverage),
    makerFee: typeof params.makerFee === 'number' ? params.makerFee : fees.makerFee,
    takerFee: typeof params.takerFee === 'number' ? params.takerFee : fees.takerFee,
    spreadPoints: typeof params.spread === 'number' ? params.spread : 0,
    fromMs: range.fromMs,
    toMs: range.toMs,
    ai,
    utcOffsetMinutes: fixedOffsetMinutes(typeof params.timezone === 'string' ? params.timezone : 'UTC') ?? 0,
    recordEquity: false,
    recordFills: false,
  };
}

export function runCandidate(candles: Candles, instrument: Instrument, ai: RangeAi | null, spec: CandidateSpec): CandidateResult {
  try {
    const definition = getStrategy(spec.strategy);
    const parsed = definition.schema.parse(spec.params);
    const strategy = definition.create(parsed, instrument);
    const params = parsed as Record<string, unknown>;
    const config = backtestConfigFor(params, instrument, candles, spec, ai ? sliceAi(ai, spec.fromMs, spec.toMs) : null);
    const r = runBacktest(strategy, config);
    return {
      status: r.status,
      totalReturn: r.totalReturn,
      maxDrawdown: r.maxDrawdown,
      winRate: r.winRate,
      tradeCount: r.tradeCount,
      sharpe: r.sharpe,
      finalEquity: r.finalEquity,
      profitFactor: r.profitFactor,
      decisionCount: r.decisionCount,
    };
  } catch (e) {
    return { status: 3, totalReturn: NaN, maxDrawdown: NaN, winRate: NaN, tradeCount: 0, sharpe: NaN, finalEquity: NaN, profitFactor: NaN, decisionCount: 0, error: (e as Error).message };
  }
}

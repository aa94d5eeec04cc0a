// The CPU work of a backtest or a recommendation, as plain functions of candles and parameters.
// Runs inside a worker thread (thread.ts); no database, no Fastify. Mirrors apps/cli/src/backtest.ts.
import {
  getInstrument,
  intervalName,
  prepareCandles,
  runBacktest,
  type BacktestConfig,
  type Candles,
  type Strategy,
  type VenueName,
} from '@lq/engine';
import { getStrategy, needsAi, runSettings, StrategyParamError, type SideModeName } from '@lq/strategies';
import { computeAiSignal, scoreAiSignal } from '../../../../packages/engine/src/ai/index';
import { recommend, type RecommendResult } from '../../../../packages/workers/src/recommend';

/** Trade row as stored in backtest_results.trades (compact): see `TRADE_COLUMNS`. */
export type StoredTrade = [
  side: 0 | 1,
  lots: number,
  entryTime: number,
  entryPrice: number,
  exitTime: number,
  exitPrice: number,
  pnl: number,
  fee: number,
  reason: string,
];

export interface BacktestTask {
  readonly kind: 'backtest';
  readonly symbol: string;
  /** Whose order sizes apply (the data source's venue). */
  readonly venue?: VenueName;
  readonly strategy: string;
  /** Validated parameters (strategy schema output). */
  readonly params: Record<string, unknown>;
  readonly candles: Candles;
}

export interface BacktestOutcome {
  readonly status: 2 | 3 | 4 | 5;
  readonly statusReason: string;
  /** Report figures without the long arrays (NaN / Infinity already replaced by null). */
  readonly summary: Record<string, number | string | null>;
  readonly equity: [number, number][];
  readonly trades: StoredTrade[];
  readonly monthly: { month: string; return: number }[];
  readonly ai: { hitRate: number | null; baseRate: number | null; predictions: number } | null;
}

export interface RecommendTask {
  readonly kind: 'recommend';
  readonly symbol: string;
  readonly venue?: VenueName;
  readonly strategy: string;
  readonly capital: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly budget: number | undefined;
  readonly seed: number;
  readonly params: Record<string, unknown>;
  readonly candles: Candles;
  readonly threads: number;
}

export type Task = BacktestTask | RecommendTask;

/** A user error found while computing (bad size for the instrument, interval finer than the data). */
export class ComputeError extends Error {
  constructor(
    readonly key: string,
    readonly field: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'ComputeError';
  }
}

export const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Progress of the engine's decision loop without changing the engine: a pass-through strategy. */
function withProgress(inner: Strategy, total: number, onProgress: (done: number) => void): Strategy {
  const step = Math.max(1, Math.floor(total / 200));
  const wrapped: Strategy = {
    onCandle(view, out) {
      if (view.index % step === 0) onProgress(view.index);
      inner.onCandle(view, out);
    },
  };
  if (inner.onFill) wrapped.onFill = (fill, view, out) => inner.onFill!(fill, view, out);
  return wrapped;
}

/** Where a run is: the phase and its candles done of the phase's total. */
export interface ProgressStep {
  phase: 'ai' | 'simulating';
  done: number;
  total: number;
}

export function computeBacktest(task: BacktestTask, onProgress: (percent: number, step?: ProgressStep) => void): BacktestOutcome {
  const instrument = getInstrument(task.symbol, task.venue);
  const definition = getStrategy(task.strategy);
  const parsed = definition.schema.parse(task.params);
  let strategy: Strategy;
  try {
    strategy = definition.create(parsed, instrument);
  } catch (e) {
    if (e instanceof StrategyParamError) throw new ComputeError(e.messageKey, e.field, e.message);
    throw e;
  }
  const settings = runSettings(parsed, instrument);
  const candles = task.candles;
  const intervalMs = settings.intervalMs ?? candles.intervalMs;
  if (intervalMs < candles.intervalMs || intervalMs % candles.intervalMs !== 0) {
    throw new ComputeError(
      'backtest.intervalTooFine',
      'interval',
      `interval ${intervalName(intervalMs)} is finer than the data (${intervalName(candles.intervalMs)})`,
    );
  }
  const config: BacktestConfig = {
    instrument,
    candles,
    intervalMs,
    capital: settings.capital,
    leverage: settings.leverage,
    makerFee: settings.makerFee,
    takerFee: settings.takerFee,
    spreadPoints: settings.spreadPoints,
    fromMs: settings.fromMs,
    toMs: settings.toMs,
    utcOffsetMinutes: settings.utcOffsetMinutes,
    recordFills: false,
    maxEquityPoints: 2000,
  };
  const params = parsed as Record<string, unknown>;
  let ai: BacktestOutcome['ai'] = null;
  let runConfig = config;
  let simFrom = 2;
  const { decision } = prepareCandles(config);
  if (needsAi({ side: params.side as SideModeName, useAiIndicator: params.useAiIndicator === true })) {
    onProgress(3, { phase: 'ai', done: 0, total: decision.length });
    // The AI signal is most of an AI run's time: 3 → 40 %.
    const result = computeAiSignal(decision, { seed: 1 }, (done, total) => onProgress(3 + (37 * done) / Math.max(1, total), { phase: 'ai', done, total }));
    const score = scoreAiSignal(decision.close, result.signal.signal, 12, 0, decision.length);
    ai = { hitRate: finite(score.hitRate), baseRate: finite(score.baseRate), predictions: score.predictions };
    runConfig = { ...config, ai: result.signal };
    simFrom = 40;
  }
  const total = decision.length;
  onProgress(simFrom, { phase: 'simulating', done: 0, total });
  const span = 97 - simFrom;
  const report = runBacktest(
    withProgress(strategy, Math.max(1, total), (done) => onProgress(simFrom + (done / Math.max(1, total)) * span, { phase: 'simulating', done, total })),
    runConfig,
  );
  onProgress(97, { phase: 'simulating', done: total, total });
  const summary: Record<string, number | string | null> = {
    symbol: report.symbol,
    intervalMs: report.intervalMs,
    inputIntervalMs: report.inputIntervalMs,
    fromMs: report.fromMs,
    toMs: report.toMs,
    candleCount: report.candleCount,
    decisionCount: report.decisionCount,
    capital: report.capital,
    finalEquity: finite(report.finalEquity),
    totalReturn: finite(report.totalReturn),
    realisedPnl: finite(report.realisedPnl),
    floatingPnl: finite(report.floatingPnl),
    tradeCount: report.tradeCount,
    winRate: finite(report.winRate),
    maxDrawdown: finite(report.maxDrawdown),
    drawdownAmount: finite(report.drawdownAmount),
    maxFloatingLoss: finite(report.maxFloatingLoss),
    maxFloatingProfit: finite(report.maxFloatingProfit),
    riskReward: finite(report.riskReward),
    totalFees: finite(report.totalFees),
    totalFunding: finite(report.totalFunding),
    annualisedReturn: finite(report.annualisedReturn),
    sharpe: finite(report.sharpe),
    sortino: finite(report.sortino),
    calmar: finite(report.calmar),
    profitFactor: finite(report.profitFactor),
    expectancy: finite(report.expectancy),
    exposureTime: finite(report.exposureTime),
    longestDrawdownMs: finite(report.longestDrawdownMs),
    openPositions: report.openTickets.length,
    makerFee: settings.makerFee,
    takerFee: settings.takerFee,
  };
  return {
    status: report.status === 1 ? 2 : report.status,
    statusReason: report.statusReason,
    summary,
    equity: report.equity.map((p) => [p.time, p.equity]),
    trades: report.trades.map((t) => [
      t.side === 'long' ? 0 : 1,
      t.lots,
      t.entryTime,
      t.entryPrice,
      t.exitTime,
      t.exitPrice,
      t.pnl,
      t.fee,
      t.reason,
    ]),
    monthly: report.monthlyReturns.map((m) => ({ month: m.month, return: m.return })),
    ai,
  };
}

export async function computeRecommend(task: RecommendTask, onProgress: (percent: number) => void): Promise<RecommendResult> {
  return recommend(
    {
      candles: task.candles,
      symbol: task.symbol,
      ...(task.venue ? { venue: task.venue } : {}),
      strategy: task.strategy,
      capital: task.capital,
      fromMs: task.fromMs,
      toMs: task.toMs,
      ...(task.budget !== undefined ? { budget: task.budget } : {}),
      seed: task.seed,
      params: task.params,
      threads: task.threads,
    },
    onProgress,
  );
}

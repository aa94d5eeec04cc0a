import { z } from 'zod';
import type { BACKTEST_STATUS } from './constants';

// Backtests and parameter recommendations: `order/api/backtest/...` (docs/api.md, "Backtests").
//
// Strategy parameters are NOT validated here: `params` is checked on the server by the strategy's
// own zod schema (`@lq/strategies`, the same schemas the web imports from `@lq/strategies/schemas`).
// Figures are simulation results, not wallet money: plain JSON numbers, rounded at the boundary
// (money to 2 decimals, ratios to 6, prices to the instrument's digits). Times are ms since the
// epoch (UTC) unless the field is an ISO text (`start`, `end`, `createdAt` …).
// Non-finite figures (e.g. a profit factor without losing trades) are sent as null ("--" on screen).

/** One page of a list: the rows, the total and whether more follow. */
const pagedOf = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number(), page: z.number(), pageSize: z.number(), hasMore: z.boolean() });

/** Spec §4 (BACKTEST_STATUS of constants): 1 running, 2 success, 3 fail, 4 liquidate, 5 capital (insufficient principal). */
export type BacktestStatus = (typeof BACKTEST_STATUS)[keyof typeof BACKTEST_STATUS];
export const backtestStatus = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);

/** Record tabs: running = status 1, completed = 2, failed = 3, 4 and 5. */
export const BACKTEST_TABS = ['running', 'completed', 'failed'] as const;
export type BacktestTab = (typeof BACKTEST_TABS)[number];
export const BACKTEST_TAB_STATUSES: Record<BacktestTab, readonly BacktestStatus[]> = {
  running: [1],
  completed: [2],
  failed: [3, 4, 5],
};

export const PAGE_SIZE_MAX = 100;
export const BACKTEST_PAGE_SIZE_DEFAULT = 20;
export const TRADES_PAGE_SIZE_DEFAULT = 50;
/** Most candles the K-line call returns (it resamples to a coarser interval above this). */
export const KLINE_MAX_CANDLES = 3000;
/**
 * Trade events (entries + exits) up to which the K-line call returns every marker of its
 * window; above, bars holding more than one event get one grouped marker (count, net side).
 */
export const KLINE_EXACT_MARKERS = 800;
/** The K-line's intervals, finest first, with their length in ms. */
export const KLINE_INTERVALS = [
  ['1m', 60_000],
  ['5m', 300_000],
  ['15m', 900_000],
  ['30m', 1_800_000],
  ['1h', 3_600_000],
  ['4h', 14_400_000],
  ['1d', 86_400_000],
] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number][0];

/**
 * The interval the K-line call uses for a window: the finest multiple of the data's interval (and
 * at least `wantedMs`) that keeps the window within `maxCandles`; 1d when none does. Shared by the
 * server and the chart, which asks again only when the answer for its view changes.
 */
export function klineIntervalFor(spanMs: number, dataMs: number, maxCandles: number, wantedMs = dataMs): { name: KlineInterval; ms: number } {
  const floor = Math.max(wantedMs, dataMs);
  for (const [name, ms] of KLINE_INTERVALS) {
    if (ms >= floor && ms % dataMs === 0 && spanMs / ms <= maxCandles) return { name, ms };
  }
  const [name, ms] = KLINE_INTERVALS[KLINE_INTERVALS.length - 1];
  return { name, ms };
}
/** Most points of the equity curve call. */
export const EQUITY_MAX_POINTS = 2000;
/** Recommendation budget (in-sample candidate backtests) a caller may ask for. */
export const RECOMMEND_BUDGET_MAX = 1000;

/** Nullable number: NaN / ±Infinity are sent as null. */
const figure = z.number().nullable();
const idParam = z.coerce.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER);

// ---------------------------------------------------------------- requests

/**
 * POST order/api/backtest/create. `params` is the strategy form: every field of the strategy's
 * schema (capital, leverage, start, end, timezone, side, takeProfit, stopLoss, makerFee, takerFee,
 * spread, unit, interval, firstLots … gridNumber, gap, lotsPerGrid …). `start` and `end` are
 * required for a backtest. `market` and `symbol` inside `params` may be omitted (taken from
 * `dataSource` and `symbol`); when present they must agree.
 */
export const backtestCreateBody = z.strictObject({
  /** Create-order type; 0 = backtest (the only one this call accepts). */
  type: z.literal(0, { error: 'validation.invalidOption' }).default(0),
  /** Strategy type: single, day-single, week-single, month-single, grid, contrarian-martin, pegasus, marco-hunt, blue-bands, purge-revert, inversion-revert. */
  strategy: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(40),
  /** mt5 (forex) or binance (crypto). */
  dataSource: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(32),
  symbol: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(32),
  params: z.record(z.string(), z.unknown(), { error: 'validation.required' }),
});
export type BacktestCreateBody = z.input<typeof backtestCreateBody>;

/** GET order/api/backtest/list */
export const backtestListQuery = z.object({
  tab: z.enum(BACKTEST_TABS, { error: 'validation.invalidOption' }).default('running'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(BACKTEST_PAGE_SIZE_DEFAULT),
});
export type BacktestListQuery = z.input<typeof backtestListQuery>;

/** `?id=` of detail, report, equity, robot-prefill; body `{ id }` of cancel and delete. */
export const backtestIdQuery = z.object({ id: idParam });
export type BacktestIdQuery = z.input<typeof backtestIdQuery>;
export const backtestIdBody = z.strictObject({ id: idParam });
export type BacktestIdBody = z.input<typeof backtestIdBody>;

/** GET order/api/backtest/trades: the order log, newest first by default. */
export const backtestTradesQuery = z.object({
  id: idParam,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(TRADES_PAGE_SIZE_DEFAULT),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type BacktestTradesQuery = z.input<typeof backtestTradesQuery>;

/** GET order/api/backtest/equity */
export const backtestEquityQuery = z.object({
  id: idParam,
  maxPoints: z.coerce.number().int().min(10).max(EQUITY_MAX_POINTS).default(500),
});
export type BacktestEquityQuery = z.input<typeof backtestEquityQuery>;

/**
 * GET order/api/backtest/kline: candles of a time window (default: the whole backtest range),
 * resampled to the finest of 1m 5m 15m 30m 1h 4h 1d that gives at most `maxCandles`, plus every
 * entry and exit inside the window: one marker each up to KLINE_EXACT_MARKERS, else one group per
 * bar that holds several (a bar with a single event keeps its exact marker). Nothing is dropped:
 * `eventCount` = markers + the counts of the groups.
 */
export const backtestKlineQuery = z.object({
  id: idParam,
  /** ms since the epoch; default the backtest's start / end. */
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
  /** Ask for a specific interval (coarser than the data); raised when it would exceed maxCandles. */
  interval: z.enum(KLINE_INTERVALS.map(([name]) => name) as [KlineInterval, ...KlineInterval[]]).optional(),
  /**
   * Candles wanted for the window: the interval is the finest that stays within it. A window
   * longer than maxCandles days still gets all its daily candles, up to KLINE_MAX_CANDLES.
   */
  maxCandles: z.coerce.number().int().min(10).max(KLINE_MAX_CANDLES).default(KLINE_MAX_CANDLES),
});
export type BacktestKlineQuery = z.input<typeof backtestKlineQuery>;

/** POST order/api/backtest/recommend/create */
export const recommendCreateBody = z.strictObject({
  strategy: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(40),
  dataSource: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(32),
  symbol: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(32),
  capital: z.number({ error: 'validation.required' }).gte(1000, { error: 'validation.capitalMin' }).max(1e12),
  /** ISO date or date-time (UTC unless an offset is given); range ≥ 7 days, start ≤ end. */
  start: z.string({ error: 'validation.required' }).max(40),
  end: z.string({ error: 'validation.required' }).max(40),
  /** Fixed parameters the search does not vary (leverage, side, interval, useAiIndicator …). */
  params: z.record(z.string(), z.unknown()).optional(),
  /** In-sample candidate backtests; default sized to the data (about 20 s of work). */
  budget: z.number().int().min(1).max(RECOMMEND_BUDGET_MAX).optional(),
  seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
});
export type RecommendCreateBody = z.input<typeof recommendCreateBody>;

export const recommendIdQuery = backtestIdQuery;
export const recommendIdBody = backtestIdBody;

// ---------------------------------------------------------------- responses

/** The headline figures of a finished backtest (list cards and detail). */
export const backtestSummary = z.object({
  finalEquity: z.number(),
  /** finalEquity − capital */
  profit: z.number(),
  totalReturn: z.number(),
  tradeCount: z.number(),
  winRate: z.number(),
  maxDrawdown: z.number(),
  drawdownAmount: z.number(),
  maxFloatingLoss: z.number(),
  maxFloatingProfit: z.number(),
  riskReward: figure,
  totalFees: z.number(),
});
export type BacktestSummary = z.infer<typeof backtestSummary>;

/** A backtest as the record list and the detail show it. */
export const backtestItem = z.object({
  id: z.number(),
  status: backtestStatus,
  /** Localized reason of a fail / liquidate / capital status (or a cancel), else null. */
  statusReason: z.string().nullable(),
  /** Machine key of the reason (`cancelled`, `interrupted`, `noData`, `liquidated`, `insufficientCapital`, `error`). */
  statusReasonKey: z.string().nullable(),
  /** 0–100 */
  progress: z.number(),
  /** While running: the phase and its candles done of its total (null before the first report and once finished). */
  progressStep: z.object({ phase: z.enum(['loading', 'ai', 'simulating']), done: z.number(), total: z.number() }).nullable(),
  strategy: z.string(),
  dataSource: z.string(),
  market: z.enum(['crypto', 'forex']),
  symbol: z.string(),
  interval: z.string(),
  timezone: z.string(),
  capital: z.number(),
  leverage: z.number(),
  /** The form's start / end as entered. */
  start: z.string(),
  end: z.string(),
  /** The simulated range, ms UTC. */
  startTime: z.number(),
  endTime: z.number(),
  /** Range in days. */
  range: z.number(),
  takeProfit: z.number().nullable(),
  stopLoss: z.number().nullable(),
  makerFee: z.number(),
  takerFee: z.number(),
  /** Base units per contract / lot (ctVal × ctMult; forex 100 000, XAUUSD 100). */
  contractValue: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  summary: backtestSummary.nullable(),
});
export type BacktestItem = z.infer<typeof backtestItem>;

/** Detail = the item plus the validated parameters. */
export const backtestDetail = backtestItem.extend({
  params: z.record(z.string(), z.unknown()),
});
export type BacktestDetail = z.infer<typeof backtestDetail>;

/** A size auto-corrected to the lot step (spec §5), returned by create. */
export const sizeNotice = z.object({
  field: z.string(),
  value: z.number(),
  qty: z.number(),
  /** Localized "corrected to a multiple of the step" message. */
  message: z.string(),
});
export type SizeNotice = z.infer<typeof sizeNotice>;

export const backtestCreateResult = z.object({
  backtest: backtestDetail,
  notices: z.array(sizeNotice),
});
export type BacktestCreateResult = z.infer<typeof backtestCreateResult>;

export const backtestList = pagedOf(backtestItem);
export type BacktestList = z.infer<typeof backtestList>;

export const aiScore = z.object({
  /** Share of the AI indicator's predictions whose sign was right (out of sample: walk-forward). */
  hitRate: figure,
  /** Share of the more frequent direction over the same bars (what always guessing it would score). */
  baseRate: figure,
  predictions: z.number(),
});
export type AiScore = z.infer<typeof aiScore>;

export const monthlyReturn = z.object({ month: z.string(), return: z.number() });

/** GET order/api/backtest/report: every metric of strategies.md. */
export const backtestReport = z.object({
  id: z.number(),
  status: backtestStatus,
  statusReason: z.string().nullable(),
  statusReasonKey: z.string().nullable(),
  strategy: z.string(),
  symbol: z.string(),
  market: z.enum(['crypto', 'forex']),
  interval: z.string(),
  timezone: z.string(),
  startTime: z.number(),
  endTime: z.number(),
  candleCount: z.number(),
  capital: z.number(),
  leverage: z.number(),
  makerFee: z.number(),
  takerFee: z.number(),
  contractValue: z.number(),
  finalEquity: z.number(),
  profit: z.number(),
  totalReturn: z.number(),
  annualisedReturn: figure,
  realisedPnl: z.number(),
  floatingPnl: z.number(),
  tradeCount: z.number(),
  winRate: z.number(),
  maxDrawdown: z.number(),
  drawdownAmount: z.number(),
  maxFloatingLoss: z.number(),
  maxFloatingProfit: z.number(),
  riskReward: figure,
  totalFees: z.number(),
  totalFunding: z.number(),
  sharpe: figure,
  sortino: figure,
  calmar: figure,
  profitFactor: figure,
  expectancy: figure,
  /** Fraction of the time with an open position. */
  exposureTime: z.number(),
  longestDrawdownMs: z.number(),
  /** Positions still open at the end (marked to market in finalEquity). */
  openPositions: z.number(),
  monthlyReturns: z.array(monthlyReturn),
  /** The AI indicator over the run (walk-forward, so every prediction is out of sample); null when not used. */
  ai: aiScore.nullable(),
});
export type BacktestReport = z.infer<typeof backtestReport>;

export const tradeRow = z.object({
  /** 1-based position in the order log (chronological by exit). */
  no: z.number(),
  side: z.enum(['long', 'short']),
  lots: z.number(),
  entryTime: z.number(),
  entryPrice: z.number(),
  exitTime: z.number(),
  exitPrice: z.number(),
  /** Net of fees. */
  pnl: z.number(),
  fee: z.number(),
  /** signal, takeProfit, stopLoss, orderTakeProfit, orderStopLoss, trailingStop, gridTakeProfit, cycleTakeProfit, windowEnd, liquidation, endOfData, manual */
  reason: z.string(),
});
export type TradeRow = z.infer<typeof tradeRow>;

export const backtestTrades = pagedOf(tradeRow);
export type BacktestTrades = z.infer<typeof backtestTrades>;

export const backtestEquity = z.object({
  capital: z.number(),
  /** [time ms, equity] pairs, ascending. */
  points: z.array(z.tuple([z.number(), z.number()])),
});
export type BacktestEquity = z.infer<typeof backtestEquity>;

export const klineMarker = z.object({
  /** Candle open time (ms) of the candle the event falls in. */
  time: z.number(),
  /** Exact event time. */
  at: z.number(),
  price: z.number(),
  kind: z.enum(['entry', 'exit']),
  side: z.enum(['long', 'short']),
  lots: z.number(),
  /** Trade number in the order log. */
  trade: z.number(),
  /** Exit only. */
  pnl: z.number().nullable(),
  reason: z.string().nullable(),
});
export type KlineMarker = z.infer<typeof klineMarker>;

/** Several trade events on one bar of a zoomed-out K-line. */
export const klineMarkerGroup = z.object({
  /** Candle open time (ms). */
  time: z.number(),
  /** Entries + exits on the bar. */
  count: z.number(),
  entries: z.number(),
  exits: z.number(),
  /** Buy orders: long entries and short exits. */
  buys: z.number(),
  /** Sell orders: short entries and long exits. */
  sells: z.number(),
  /** Net result of the exits on the bar. */
  pnl: z.number(),
  /** First and last trade numbers on the bar (order log). */
  firstTrade: z.number(),
  lastTrade: z.number(),
});
export type KlineMarkerGroup = z.infer<typeof klineMarkerGroup>;

export const backtestKline = z.object({
  symbol: z.string(),
  interval: z.string(),
  /** The data's own interval (the finest the chart can ask for). */
  dataInterval: z.string(),
  /** Window of the answer (ms): the candles and events returned cover [from, to). */
  from: z.number(),
  to: z.number(),
  /** The backtest's whole range (ms), for "fit" and for how far the chart may ask. */
  rangeFrom: z.number(),
  rangeTo: z.number(),
  /** Price digits of the instrument (for the chart's price format). */
  digits: z.number(),
  /** [time ms, open, high, low, close, volume], ascending. */
  candles: z.array(z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number()])),
  markers: z.array(klineMarker),
  groups: z.array(klineMarkerGroup),
  /** Entries + exits inside the window, all of them counted in markers or groups. */
  eventCount: z.number(),
});
export type BacktestKline = z.infer<typeof backtestKline>;

/** GET order/api/backtest/robot-prefill: the robot form (create-order type 1) from a finished backtest. */
export const robotPrefill = z.object({
  type: z.literal(1),
  strategy: z.string(),
  dataSource: z.string(),
  symbol: z.string(),
  /** The strategy parameters without the backtest-only fields (start, end). */
  params: z.record(z.string(), z.unknown()),
  fromBacktest: z.number(),
});
export type RobotPrefill = z.infer<typeof robotPrefill>;

// ---------------------------------------------------------------- recommendations

export const RECOMMEND_STATUSES = ['running', 'done', 'failed', 'cancelled'] as const;
export type RecommendStatus = (typeof RECOMMEND_STATUSES)[number];

export const candidateMetrics = z.object({
  status: z.number(),
  totalReturn: z.number(),
  maxDrawdown: z.number(),
  winRate: z.number(),
  tradeCount: z.number(),
  sharpe: figure,
});
export type CandidateMetrics = z.infer<typeof candidateMetrics>;

export const recommendPreset = z.object({
  tier: z.enum(['conservative', 'balanced', 'aggressive']),
  /** Complete strategy parameters (without start / end): ready for backtest/create or the robot form. */
  params: z.record(z.string(), z.unknown()),
  /** The searched parameters only. */
  searched: z.record(z.string(), z.unknown()),
  inSample: candidateMetrics,
  outOfSample: candidateMetrics,
  /** True when the out-of-sample run did not liquidate and traded. */
  validated: z.boolean(),
  ai: z.object({ inSample: aiScore, outOfSample: aiScore }).nullable(),
});
export type RecommendPreset = z.infer<typeof recommendPreset>;

export const recommendation = z.object({
  id: z.number(),
  status: z.enum(RECOMMEND_STATUSES),
  progress: z.number(),
  strategy: z.string(),
  dataSource: z.string(),
  symbol: z.string(),
  capital: z.number(),
  startTime: z.number(),
  endTime: z.number(),
  budget: z.number().nullable(),
  seed: z.number(),
  /** Localized reason when failed / cancelled. */
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Present when done. */
  result: z
    .object({
      interval: z.string(),
      inSample: z.object({ from: z.number(), to: z.number() }),
      outOfSample: z.object({ from: z.number(), to: z.number() }),
      presets: z.array(recommendPreset),
      evaluated: z.number(),
      accepted: z.number(),
      seconds: z.number(),
    })
    .nullable(),
});
export type Recommendation = z.infer<typeof recommendation>;

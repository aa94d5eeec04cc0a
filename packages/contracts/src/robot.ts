import { z } from 'zod';

// Robot orders (create-order type 1), seats and tickers: `order/api/robot/...` and
// `order/api/market/tickers` (docs/api.md, "Robots").
//
// As for backtests, strategy parameters are NOT validated here: `params` is checked on the server
// by the strategy's own zod schema (`@lq/strategies`, the same schemas the web imports from
// `@lq/strategies/schemas`) with the same spec §5 rules as a backtest create (capital ≥ 1000,
// leverage per market, sizes snapped to the lot step with a notice …). `params` carries every field
// of the strategy form: capital, leverage (the spec's "lever"), interval, side, useAiIndicator,
// addImmediately, gridNumber, orderNumber, lotsPerGrid / firstLots (the per-lot amount) … exactly
// as `order/api/backtest/create` takes them; `start` / `end` (backtest-only) are ignored.
//
// Money that accumulates from fills (income) is a decimal string; live figures the runner measured
// are JSON numbers (null when unknown). Times: ISO texts for row times, ms since the epoch for
// market times (`at`).

const pagedOf = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number(), page: z.number(), pageSize: z.number(), hasMore: z.boolean() });

const idParam = z.coerce.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER);
const idValue = z.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER);
const text = (max: number) =>
  z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(max);

/**
 * running → paused (user, or an error the runner cannot retry) → running (continue);
 * running | paused → stopping (user stop: the runner cancels orders and closes positions) → stopped.
 */
export const ROBOT_STATUSES = ['running', 'paused', 'stopping', 'stopped'] as const;
export type RobotStatus = (typeof ROBOT_STATUSES)[number];
export const robotStatus = z.enum(ROBOT_STATUSES);

/** live: the account's venue; paper: the simulated venue on live candles (same fill rules as backtests). */
export const ROBOT_MODES = ['live', 'paper'] as const;
export type RobotMode = (typeof ROBOT_MODES)[number];

/** List tabs: active = running | paused | stopping, history = stopped. */
export const ROBOT_TABS = ['active', 'history'] as const;
export type RobotTab = (typeof ROBOT_TABS)[number];
export const ROBOT_TAB_STATUSES: Record<RobotTab, readonly RobotStatus[]> = {
  active: ['running', 'paused', 'stopping'],
  history: ['stopped'],
};

export const ROBOT_PAGE_SIZE_DEFAULT = 20;
export const ROBOT_FILLS_PAGE_SIZE_DEFAULT = 50;
const PAGE_SIZE_MAX = 100;

/** Pause / stop reasons the API itself writes; the runner writes its own keys (+ the venue's message). */
export const ROBOT_REASON_USER = 'user';

/** A pause or stop reason as stored: `user`, `key: the venue's message`, or plain text. */
export interface RobotReason {
  /** Machine key (`user`, `insufficientFunds` …) or null when the reason is plain text. */
  key: string | null;
  /** The venue's / runner's message after the key, or the whole plain text. */
  detail: string | null;
}

/** `user` → {key:user}; `insufficientFunds: Margin is insufficient` → key + detail; plain text → detail. */
export function splitReason(reason: string | null | undefined): RobotReason | null {
  const s = reason?.trim();
  if (!s) return null;
  const m = /^([A-Za-z][\w.-]*)(?::\s*([\s\S]*))?$/.exec(s);
  if (m) return { key: m[1], detail: m[2]?.trim() || null };
  return { key: null, detail: s };
}

// ---------------------------------------------------------------- requests

/**
 * POST order/api/robot/create: create-order type 1. `params` as described above. The robot runs on
 * the account `accountId` (the caller's, not unbound, not frozen, of the data source's market).
 */
export const robotCreateBody = z.strictObject({
  /** Create-order type; 1 = robot (the only one this call accepts). */
  type: z.literal(1, { error: 'validation.invalidOption' }).default(1),
  strategy: text(40),
  /** mt5 (forex) or binance (crypto). */
  dataSource: text(32),
  symbol: text(32),
  /** Trading pair as the venue names it (BTC/USDT:USDT, BTC-USDT-SWAP, EURUSD.m …); default from the symbol. */
  tradingPair: z.string().trim().min(1).max(64).optional(),
  /** The trading account; missing → ACCOUNT_REQUIRED ("choose a trading account first"). */
  accountId: idValue.optional(),
  params: z.record(z.string(), z.unknown(), { error: 'validation.required' }),
  mode: z.enum(ROBOT_MODES, { error: 'validation.invalidOption' }).default('live'),
  /** The backtest the form was prefilled from (`robot-prefill`'s `fromBacktest`), if any. */
  sourceBacktestId: idValue.optional(),
});
export type RobotCreateBody = z.input<typeof robotCreateBody>;

/** GET order/api/robot/list (status default active) and order/api/robot/history (always stopped). */
export const robotListQuery = z.object({
  /** Only robots of this data source's market; all markets when omitted. */
  dataSource: z.string().trim().min(1).max(32).optional(),
  status: z.enum(ROBOT_TABS, { error: 'validation.invalidOption' }).default('active'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(ROBOT_PAGE_SIZE_DEFAULT),
});
export type RobotListQuery = z.input<typeof robotListQuery>;

/** `?id=` of detail and orders; body `{ id }` of pause, continue and stop. */
export const robotIdQuery = z.object({ id: idParam });
export type RobotIdQuery = z.input<typeof robotIdQuery>;
export const robotIdBody = z.strictObject({ id: idValue });
export type RobotIdBody = z.input<typeof robotIdBody>;

/** GET order/api/robot/fills: newest first. */
export const robotFillsQuery = z.object({
  id: idParam,
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(ROBOT_FILLS_PAGE_SIZE_DEFAULT),
});
export type RobotFillsQuery = z.input<typeof robotFillsQuery>;

/** GET order/api/robot/seats and GET order/api/market/tickers. */
export const robotSeatsQuery = z.object({ dataSource: text(32) });
export type RobotSeatsQuery = z.input<typeof robotSeatsQuery>;
export const tickersQuery = z.object({ dataSource: text(32) });
export type TickersQuery = z.input<typeof tickersQuery>;

// ---------------------------------------------------------------- responses

/** Latest mark-to-market figures the runner saw; null figures are unknown ("--"). */
export const robotLive = z.object({
  equity: z.number().nullable(),
  /** Unrealised PnL of the open position. */
  floating: z.number().nullable(),
  /** Net position in the order unit (contracts / lots): > 0 long, < 0 short, 0 flat. */
  position: z.number().nullable(),
  /** Last price. */
  price: z.number().nullable(),
  /** ms since the epoch of the figures. */
  at: z.number().nullable(),
});
export type RobotLive = z.infer<typeof robotLive>;

export const robotAccountRef = z.object({
  id: z.number(),
  name: z.string(),
  /** binance | okx | mt5 */
  exchange: z.string(),
  /** The account was unbound since (history still names it). */
  unbound: z.boolean(),
  frozen: z.boolean(),
});
export type RobotAccountRef = z.infer<typeof robotAccountRef>;

/** A robot as the robot order list and the history show it. */
export const robotItem = z.object({
  id: z.number(),
  strategy: z.string(),
  /** The data source of the robot's market (mt5 | binance). */
  dataSource: z.string(),
  market: z.enum(['crypto', 'forex']),
  mode: z.enum(ROBOT_MODES),
  symbol: z.string(),
  tradingPair: z.string().nullable(),
  interval: z.string(),
  account: robotAccountRef,
  status: robotStatus,
  /** Why it is paused: `user`, or the runner's reason key (+ `: ` and the venue's message). */
  pauseReason: z.string().nullable(),
  /** Why it stopped: `user`, or the runner's reason key (+ detail). */
  stopReason: z.string().nullable(),
  capital: z.number(),
  leverage: z.number(),
  /** Accumulated income: realised PnL − fees, decimal string. */
  income: z.string(),
  live: robotLive.nullable(),
  sourceBacktestId: z.number().nullable(),
  createdAt: z.string(),
  stoppedAt: z.string().nullable(),
});
export type RobotItem = z.infer<typeof robotItem>;

export const robotList = pagedOf(robotItem);
export type RobotList = z.infer<typeof robotList>;

/** An order intent (robot_intents): stored before it leaves, keyed by the client order id. */
export const robotOrder = z.object({
  id: z.number(),
  clientOrderId: z.string(),
  tag: z.string(),
  /** open | close */
  action: z.string(),
  /** long | short */
  positionSide: z.string(),
  /** buy | sell, as sent to the venue (null when unknown). */
  side: z.string().nullable(),
  /** market | limit … */
  type: z.string().nullable(),
  amount: z.number().nullable(),
  price: z.number().nullable(),
  reduceOnly: z.boolean(),
  /** queued | sending | open | unknown | filled | canceled | rejected */
  state: z.string(),
  filled: z.string(),
  average: z.string().nullable(),
  venueOrderId: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RobotOrder = z.infer<typeof robotOrder>;

export const robotFill = z.object({
  id: z.number(),
  clientOrderId: z.string(),
  fillKey: z.string(),
  action: z.string(),
  positionSide: z.string(),
  qty: z.string(),
  price: z.string(),
  fee: z.string(),
  pnl: z.string(),
  reason: z.string().nullable(),
  filledAt: z.string(),
});
export type RobotFill = z.infer<typeof robotFill>;
export const robotFills = pagedOf(robotFill);
export type RobotFills = z.infer<typeof robotFills>;

/** An open position, from the runner's live figures. */
export const robotPosition = z.object({
  side: z.enum(['long', 'short']),
  qty: z.number(),
  price: z.number().nullable(),
  floating: z.number().nullable(),
  at: z.number().nullable(),
});
export type RobotPosition = z.infer<typeof robotPosition>;

/** started, paused, continued, stopping, stopped, error, reconciled … */
export const robotEvent = z.object({
  id: z.number(),
  kind: z.string(),
  /** Machine key of the message, or a plain text from the runner. */
  message: z.string().nullable(),
  detail: z.unknown().nullable(),
  createdAt: z.string(),
});
export type RobotEvent = z.infer<typeof robotEvent>;

/** GET order/api/robot/detail: the item plus its parameters, orders, fills, positions and events. */
export const robotDetail = robotItem.extend({
  /** Validated strategy parameters (the strategy schema's output). */
  params: z.record(z.string(), z.unknown()),
  /** The latest order intents (newest first, up to 100; all of them through `orders`). */
  orders: z.array(robotOrder),
  /** The latest fills (newest first, up to 50; pages through `fills`). */
  fills: z.array(robotFill),
  positions: z.array(robotPosition),
  /** Newest first (up to 100). */
  events: z.array(robotEvent),
  /** The latest error event (the runner's pause / stop reason with its detail), if any. */
  error: robotEvent.nullable(),
  /** Stop details: who / why, when, final income; null until stopped. */
  stop: z
    .object({ reason: z.string().nullable(), stoppedAt: z.string().nullable(), income: z.string() })
    .nullable(),
  lastCandleAt: z.number().nullable(),
  heartbeatAt: z.string().nullable(),
});
export type RobotDetail = z.infer<typeof robotDetail>;

/** GET order/api/robot/orders: every intent of the robot, newest first. */
export const robotOrders = z.array(robotOrder);
export type RobotOrders = z.infer<typeof robotOrders>;

/** A size auto-corrected to the lot step (spec §5), as the backtest create returns it. */
const sizeNoticeShape = z.object({ field: z.string(), value: z.number(), qty: z.number(), message: z.string() });

export const robotCreateResult = z.object({
  robot: robotDetail,
  notices: z.array(sizeNoticeShape),
});
export type RobotCreateResult = z.infer<typeof robotCreateResult>;

/**
 * Seats of one market: what an ACCOUNT needs to run robots. In use = accounts with at least one
 * robot running, paused or stopping; total = the basic 1 + unexpired seat grants of that market.
 * Also the `data` of the NO_FREE_SEAT error ({market, used, total}) so the web can offer a seat.
 */
export const seatSummary = z.object({
  market: z.enum(['crypto', 'forex']),
  used: z.number(),
  total: z.number(),
  free: z.number(),
  /** The accounts holding a seat (robots = their robots in running | paused | stopping). */
  accounts: z.array(z.object({ id: z.number(), name: z.string(), exchange: z.string(), robots: z.number() })),
});
export type SeatSummary = z.infer<typeof seatSummary>;

/** GET order/api/market/tickers: one row per tradable symbol of the market; nulls without data. */
export const tickerItem = z.object({
  symbol: z.string(),
  /** Last close of the latest stored 1m candle. */
  price: z.number().nullable(),
  /** Close of the candle 24 h before the latest. */
  open24h: z.number().nullable(),
  /** (price − open24h) / open24h, a fraction (0.0123 = +1.23 %). */
  change24h: z.number().nullable(),
  /** Open time (ms) of the latest candle. */
  at: z.number().nullable(),
  /** Candle source the figures come from. */
  source: z.string().nullable(),
});
export type TickerItem = z.infer<typeof tickerItem>;
export const tickerList = z.object({
  market: z.enum(['crypto', 'forex']),
  list: z.array(tickerItem),
});
export type TickerList = z.infer<typeof tickerList>;

// ---- the drift monitor (issue 33): "Live vs backtest" ----

/** Why a trade has no partner on the other side. */
export const DRIFT_CAUSES = ['refused', 'notFilled', 'paused', 'stopped', 'venueDown', 'stopCloseOut', 'reconciled', 'openMissed', 'unknown'] as const;
export type DriftCause = (typeof DRIFT_CAUSES)[number];

/** GET order/api/robot/drift/{id} */
export const robotDriftParams = z.strictObject({ id: z.coerce.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER) });

const driftTrade = z.object({
  clientOrderId: z.string(),
  action: z.enum(['open', 'close']),
  side: z.enum(['long', 'short']),
  qty: z.number(),
  price: z.number(),
  fee: z.number(),
  /** Realised PnL of a closing trade (before fees). */
  pnl: z.number(),
  /** The first fill's time (ms). */
  time: z.number(),
  fills: z.number(),
  reason: z.string().nullable(),
});
export type DriftTrade = z.infer<typeof driftTrade>;

const driftSide = z.object({
  /** Realised PnL net of fees and funding, quote currency. */
  pnl: z.number(),
  fees: z.number(),
  /** Funding received (negative: paid); the backtest's is 0 (it models none). */
  funding: z.number(),
  trades: z.number(),
  /** pnl ÷ capital, percent. */
  returnPct: z.number(),
});

export const driftPair = z.object({
  shadow: driftTrade,
  live: driftTrade,
  /** leg: the same order id; time: the same action and side at the nearest time. */
  by: z.enum(['leg', 'time']),
  offsetMs: z.number(),
  /** The market's move between the two times, against the trader (the timing part of this pair), in points and money. */
  movePoints: z.number(),
  moveMoney: z.number(),
  /** The price's difference beyond that move (the venue's execution), in points and money. */
  slippagePoints: z.number(),
  slippageMoney: z.number(),
  feeDiff: z.number(),
  qtyShort: z.number(),
  /** Funding received (negative: paid) on the live position this pair's trade opened while it was held: its share of each settlement by size. */
  funding: z.number(),
});
export type DriftPair = z.infer<typeof driftPair>;

export const driftUnpaired = z.object({
  /** shadow: a trade the robot missed; live: an extra one. */
  on: z.enum(['shadow', 'live']),
  trade: driftTrade,
  cause: z.enum(DRIFT_CAUSES),
  detail: z.string().nullable(),
  /** As a pair's, for an extra opening trade (0 for a missed one). */
  funding: z.number(),
});
export type DriftUnpaired = z.infer<typeof driftUnpaired>;

export const robotDrift = z.object({
  robotId: z.number(),
  /** Up to which 1m candle both sides are held against each other (ms); null: no candle yet. */
  cursor: z.number().nullable(),
  fromMs: z.number().nullable(),
  toleranceMs: z.number(),
  capital: z.number(),
  live: driftSide,
  shadow: driftSide,
  /** live − shadow, and its parts: price slippage, fees, funding, trades missed, trades extra, timing and size (the rest). */
  gap: z.object({ total: z.number(), pct: z.number(), slippage: z.number(), fees: z.number(), funding: z.number(), missed: z.number(), extra: z.number(), timing: z.number() }),
  pairs: z.array(driftPair),
  unpaired: z.array(driftUnpaired),
  /** When the owner is told: the gap past `gapPct` percent of capital (once per crossing), and at each missed trade if `onMissed`. */
  alert: z.object({ gapPct: z.number(), onMissed: z.boolean() }),
  /** Realised equity of each side over time: capital, then after each trade (and each funding payment). */
  curves: z.object({ live: z.array(z.object({ time: z.number(), value: z.number() })), shadow: z.array(z.object({ time: z.number(), value: z.number() })) }),
});
export type RobotDrift = z.infer<typeof robotDrift>;

export const DRIFT_ALERT_PCT_DEFAULT = 2;
/** POST order/api/robot/drift/alert: when the owner is told of the robot's drift. */
export const robotDriftAlertBody = z.strictObject({
  id: idValue,
  /** Percent of capital, 0.1–100, at most 2 decimals. */
  gapPct: z
    .number({ error: 'validation.invalidType' })
    .min(0.1)
    .max(100)
    .refine((v) => Math.round(v * 100) === v * 100, { error: 'validation.invalidFormat' }),
  onMissed: z.boolean({ error: 'validation.invalidType' }),
});
export type RobotDriftAlertBody = z.input<typeof robotDriftAlertBody>;

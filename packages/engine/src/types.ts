// The engine's public contracts: what a strategy sees, what it may ask for, and what a run reports.
// Strategies depend only on these; backtest, paper and live differ by what is injected behind them.

export type Market = 'crypto' | 'forex';
export type PositionSide = 'long' | 'short';
/** `side` parameter of every strategy. */
export type SideMode = 'long' | 'short' | 'ai' | 'aiLongOnly' | 'aiShortOnly';
export type OrderType = 'market' | 'limit' | 'stop';

/** Columnar candles; `time` is the candle open time in ms UTC. Only rows [0, length) are valid. */
export interface Candles {
  readonly length: number;
  /** Candle duration in ms (60_000 for 1m). */
  readonly intervalMs: number;
  readonly time: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
}

export interface Instrument {
  readonly symbol: string;
  readonly market: Market;
  /** Quote currency of the price (USDT, USD, JPY, …). */
  readonly quote: string;
  /** Smallest price step. */
  readonly tickSize: number;
  /** Decimal digits of a price. */
  readonly digits: number;
  /**
   * Units of the base asset per 1 of order quantity: crypto ctVal × ctMult per contract (ZHANG),
   * forex contract size per lot (100 000, XAUUSD 100).
   */
  readonly contractSize: number;
  /** Minimum order quantity and its step, in order units (contracts or lots). */
  readonly minQty: number;
  readonly qtyStep: number;
  readonly maxLeverage: number;
  /** Maintenance margin as a fraction of position notional. */
  readonly maintenanceMarginRate: number;
  /** Forex: the point (0.00001 EURUSD, 0.001 USDJPY, 0.01 XAUUSD). Crypto: tickSize. */
  readonly point: number;
  /** Whose size rules `minQty` / `qtyStep` are (see `getInstrument(symbol, venue)`); absent: the generic ones. */
  readonly venue?: VenueName;
  /** Largest order quantity in order units; absent: none known. */
  readonly maxQty?: number;
  /** Smallest order value in the quote currency (Binance's MIN_NOTIONAL); absent or 0: none. */
  readonly minNotional?: number;
  /** Units of the base asset per 1 of the venue's order amount (1 coin on Binance, ctVal on OKX, the lot on MT5). */
  readonly venueUnit?: number;
}

/** Venues whose size rules the catalog knows. */
export type VenueName = 'binance' | 'okx' | 'mt5';

/** Why a leg or a whole position was closed. */
export type ExitReason =
  | 'signal'
  | 'takeProfit'
  | 'stopLoss'
  | 'orderTakeProfit'
  | 'orderStopLoss'
  | 'trailingStop'
  | 'gridTakeProfit'
  | 'cycleTakeProfit'
  | 'windowEnd'
  | 'liquidation'
  | 'endOfData'
  | 'manual';

/**
 * Open a position leg (a "ticket"). `tag` is unique per strategy run and stable across replays:
 * it is the (signal, leg) part of the client order id in live trading.
 * `takeProfit` / `stopLoss` are absolute prices attached to the resulting ticket: the broker closes
 * the ticket when the price path touches them (TP as a limit order, SL as a stop order).
 */
export interface OpenIntent {
  readonly kind: 'open';
  readonly tag: string;
  readonly side: PositionSide;
  /** Quantity in order units (contracts or lots), already a multiple of `qtyStep` and ≥ `minQty`. */
  readonly qty: number;
  readonly type: OrderType;
  /** Limit or stop trigger price; ignored for market orders. */
  readonly price?: number;
  readonly takeProfit?: number;
  readonly stopLoss?: number;
  /** Exit reason recorded when the attached TP / SL fires (default `orderTakeProfit` / `orderStopLoss`). */
  readonly takeProfitReason?: ExitReason;
  readonly stopLossReason?: ExitReason;
}

/** Close one open ticket (identified by the tag of the intent that opened it). */
export interface CloseIntent {
  readonly kind: 'close';
  readonly tag: string;
  readonly ticket: string;
  readonly type: OrderType;
  readonly price?: number;
  readonly reason: ExitReason;
}

/** Change the TP/SL attached to an open ticket (trailing stops). */
export interface AmendIntent {
  readonly kind: 'amend';
  readonly ticket: string;
  readonly takeProfit?: number | null;
  readonly stopLoss?: number | null;
  /** Exit reason recorded when the amended TP / SL fires (e.g. `trailingStop`); unchanged when omitted. */
  readonly takeProfitReason?: ExitReason;
  readonly stopLossReason?: ExitReason;
}

/** Cancel a pending (unfilled) open or close order by its tag. */
export interface CancelIntent {
  readonly kind: 'cancel';
  readonly tag: string;
}

/** Cancel every pending order and close every ticket at market. */
export interface CloseAllIntent {
  readonly kind: 'closeAll';
  readonly reason: ExitReason;
}

/** The strategy is finished (e.g. overall stop loss hit): no more candles are fed to it. */
export interface HaltIntent {
  readonly kind: 'halt';
  readonly reason: string;
}

export type Intent =
  | OpenIntent
  | CloseIntent
  | AmendIntent
  | CancelIntent
  | CloseAllIntent
  | HaltIntent;

/** An open position leg. */
export interface Ticket {
  readonly tag: string;
  readonly side: PositionSide;
  readonly qty: number;
  readonly entryPrice: number;
  readonly entryTime: number;
  readonly takeProfit: number | null;
  readonly stopLoss: number | null;
}

export interface PendingOrder {
  readonly tag: string;
  readonly intent: OpenIntent | CloseIntent;
}

export interface Fill {
  readonly tag: string;
  /** Tag of the ticket opened or closed by this fill. */
  readonly ticket: string;
  readonly action: 'open' | 'close';
  readonly side: PositionSide;
  readonly qty: number;
  readonly price: number;
  readonly fee: number;
  readonly time: number;
  readonly maker: boolean;
  /** Realised PnL of a closing fill (before fees), 0 for an opening fill. */
  readonly pnl: number;
  readonly reason: ExitReason | null;
}

/** AI indicator output, aligned with the decision candles: +1 long, −1 short, 0 flat, NaN unknown. */
export interface AiSignal {
  readonly signal: Float64Array;
  readonly probabilityUp: Float64Array;
}

/**
 * Read-only state handed to a strategy at each decision candle. A strategy may read candle rows
 * up to and including `index` only (the no-look-ahead property test checks this).
 */
export interface StrategyView {
  readonly index: number;
  readonly candles: Candles;
  readonly instrument: Instrument;
  readonly tickets: readonly Ticket[];
  readonly pending: readonly PendingOrder[];
  readonly capital: number;
  readonly equity: number;
  readonly balance: number;
  readonly floatingPnl: number;
  readonly freeMargin: number;
  readonly leverage: number;
  /** Present when the run was given an AI indicator. */
  readonly ai: AiSignal | null;
  /** Minutes east of UTC of the strategy's timezone (trading windows). */
  readonly utcOffsetMinutes: number;
}

/**
 * A strategy receives events and returns intents by pushing them onto `out`; it never does I/O
 * and never reads the clock. The same object runs in backtest, paper and live.
 */
export interface Strategy {
  /** Called once per closed decision candle. */
  onCandle(view: StrategyView, out: Intent[]): void;
  /** Called after each fill, before the next candle; optional. */
  onFill?(fill: Fill, view: StrategyView, out: Intent[]): void;
}

/** Backtest / paper status codes of the spec. */
export const RunStatus = {
  running: 1,
  success: 2,
  fail: 3,
  liquidate: 4,
  capital: 5,
} as const;
export type RunStatusCode = (typeof RunStatus)[keyof typeof RunStatus];

// ---------------------------------------------------------------------------------------------
// Backtest configuration and report (added; the names above are stable).

export interface BacktestConfig {
  readonly instrument: Instrument;
  /** Input candles (e.g. 1m); fills are simulated on these. */
  readonly candles: Candles;
  /** Decision interval in ms; must be a multiple of `candles.intervalMs` (default: the input interval). */
  readonly intervalMs?: number;
  readonly capital: number;
  readonly leverage: number;
  /** Fee rates as fractions of notional (0.0002 = 0.02 %). */
  readonly makerFee: number;
  readonly takerFee: number;
  /** Forex: spread in points added to the bid to get the ask. */
  readonly spreadPoints?: number;
  /** Slippage in points applied against market and stop fills (default 0). */
  readonly slippagePoints?: number;
  readonly fromMs?: number;
  readonly toMs?: number;
  /** AI indicator aligned with the decision candles. */
  readonly ai?: AiSignal | null;
  /** Minutes east of UTC: trading windows, day boundaries of daily returns, monthly returns. */
  readonly utcOffsetMinutes?: number;
  /** Record the equity curve (default true). */
  readonly recordEquity?: boolean;
  /** Downsample the equity curve to at most this many points (default 2000). */
  readonly maxEquityPoints?: number;
  /** Record every fill in the report (default true). */
  readonly recordFills?: boolean;
  /**
   * Funding (crypto) / swap (forex) rates aligned with the input candles (before `fromMs`/`toMs`
   * slicing): a fraction of notional paid by longs and received by shorts at the close of candle i
   * (0 or NaN = none). Absent = no funding.
   */
  readonly fundingRates?: Float64Array | null;
}

/** One closed round trip (a ticket opened and closed). */
export interface TradeRecord {
  readonly tag: string;
  readonly side: PositionSide;
  /** Quantity in order units (contracts or lots). */
  readonly qty: number;
  /** Same as `qty` (the spec calls it lots). */
  readonly lots: number;
  readonly entryTime: number;
  readonly entryPrice: number;
  readonly exitTime: number;
  readonly exitPrice: number;
  /** Net PnL in the account currency: gross − entry fee − exit fee. */
  readonly pnl: number;
  /** Gross PnL before fees. */
  readonly grossPnl: number;
  /** Entry + exit fees. */
  readonly fee: number;
  readonly reason: ExitReason;
}

export interface EquityPoint {
  readonly time: number;
  readonly equity: number;
}

export interface MonthlyReturn {
  /** "YYYY-MM" in the run's timezone. */
  readonly month: string;
  readonly return: number;
}

export interface BacktestReport {
  readonly status: RunStatusCode;
  readonly statusReason: string;
  readonly symbol: string;
  readonly intervalMs: number;
  readonly inputIntervalMs: number;
  readonly fromMs: number;
  readonly toMs: number;
  /** Input candles simulated. */
  readonly candleCount: number;
  readonly decisionCount: number;
  readonly capital: number;
  readonly finalEquity: number;
  readonly totalReturn: number;
  readonly realisedPnl: number;
  readonly floatingPnl: number;
  readonly tradeCount: number;
  readonly winRate: number;
  readonly maxDrawdown: number;
  readonly drawdownAmount: number;
  readonly maxFloatingLoss: number;
  readonly maxFloatingProfit: number;
  readonly riskReward: number;
  readonly totalFees: number;
  readonly totalFunding: number;
  readonly annualisedReturn: number;
  readonly sharpe: number;
  readonly sortino: number;
  readonly calmar: number;
  readonly profitFactor: number;
  readonly expectancy: number;
  /** Fraction of the run's time with an open position. */
  readonly exposureTime: number;
  readonly longestDrawdownMs: number;
  readonly monthlyReturns: readonly MonthlyReturn[];
  readonly equity: readonly EquityPoint[];
  readonly trades: readonly TradeRecord[];
  readonly fills: readonly Fill[];
  /** Tickets still open at the end (marked to market in `finalEquity`, not in `trades`). */
  readonly openTickets: readonly Ticket[];
}

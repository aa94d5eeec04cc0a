import { z } from 'zod';

// Market data and the reference calls of spec §7. Queries are loose objects (extra parameters such
// as cache busters are ignored); every value that matters is checked.

/** Decision intervals of the `tacticsInterval` dictionary, shortest first. */
export const TACTICS_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
export type TacticsInterval = (typeof TACTICS_INTERVALS)[number];

/** Labels `user/common/dict-type/list` knows. */
export const DICT_LABELS = ['tacticsInterval'] as const;

const dataSourceParam = z.string().trim().min(1).max(32);
const boolParam = z
  .enum(['true', 'false', '1', '0'], { error: 'validation.invalidOption' })
  .transform((v) => v === 'true' || v === '1');

export const tacticsSelectionQuery = z.object({
  dataSource: dataSourceParam,
  /** Strategies for robots (default, as the spec says) or for backtests. */
  robot: boolParam.default(true),
});
export type TacticsSelectionQuery = z.infer<typeof tacticsSelectionQuery>;

export const tacticsItem = z.object({
  /** Strategy type of the registry (single, grid, …): the value to send back. */
  type: z.string(),
  /** Message-catalog key of the display name (strategy.<type>). */
  nameKey: z.string(),
  /** The spec's create-order page for this market: pages/createOrder/<page>. */
  page: z.string(),
});
export const tacticsSelection = z.array(tacticsItem);
export type TacticsItem = z.infer<typeof tacticsItem>;

export const dictTypeQuery = z.object({
  label: z.enum(DICT_LABELS),
});
export const dictItem = z.object({ label: z.string(), value: z.string() });
export const dictList = z.array(dictItem);
export type DictItem = z.infer<typeof dictItem>;

export const currencyListQuery = z.object({
  dataSource: dataSourceParam,
  /** Candle source to restrict to (binance, okx, dukascopy, oanda, fxcm, …); all when omitted. */
  exchangeType: z
    .string()
    .trim()
    .max(32)
    .regex(/^[a-zA-Z0-9_-]*$/, { error: 'validation.invalidFormat' })
    .optional()
    .transform((v) => (v ? v.toLowerCase() : undefined)),
});
export type CurrencyListQuery = z.infer<typeof currencyListQuery>;

export const dataRange = z.object({
  /** Candle source (candle_chunks.source): binance, okx, dukascopy, oanda, fxcm, file, … */
  source: z.string(),
  timeframe: z.string(),
  /** Open time (ms, UTC) of the first and the last stored candle. */
  firstTime: z.number(),
  lastTime: z.number(),
  count: z.number(),
});
export type DataRange = z.infer<typeof dataRange>;

export const instrumentFacts = z.object({
  market: z.enum(['crypto', 'forex']),
  quote: z.string(),
  tickSize: z.number(),
  digits: z.number(),
  /** Coins per contract (crypto) or units per lot (forex). */
  contractSize: z.number(),
  /** Order sizes as the data source's venue takes them (order units: contracts or lots). */
  minQty: z.number(),
  qtyStep: z.number(),
  maxLeverage: z.number(),
  /** Largest order size the venue takes, when it states one. */
  maxQty: z.number().optional(),
  /** Smallest order value in the quote currency (Binance's MIN_NOTIONAL); 0: none. */
  minNotional: z.number().optional(),
  /** Whose sizes these are (binance, okx, mt5). */
  venue: z.string().optional(),
  /** The sizes of every venue of the market, for a robot on an account of another exchange. */
  venueSizes: z
    .array(z.object({ venue: z.string(), minQty: z.number(), qtyStep: z.number(), maxQty: z.number().optional(), minNotional: z.number() }))
    .optional(),
});
export type InstrumentFacts = z.infer<typeof instrumentFacts>;

export const currencyItem = z.object({
  symbol: z.string(),
  instrument: instrumentFacts,
  ranges: z.array(dataRange),
});
export const currencyList = z.array(currencyItem);
export type CurrencyItem = z.infer<typeof currencyItem>;

export const contractInfoQuery = z.object({
  /** OKX style (BTC-USDT-SWAP) or plain (BTCUSDT, EURUSD). */
  instId: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+){0,2}$/, { error: 'validation.invalidFormat' }),
});
/** Spec §7: ctVal, ctMult, minSz (decimal strings, as the exchange gives them); null when unknown. */
export const contractInfo = z
  .object({ instId: z.string(), ctVal: z.string(), ctMult: z.string(), minSz: z.string() })
  .nullable();
export type ContractInfo = z.infer<typeof contractInfo>;

export const importRunItem = z.object({
  id: z.number(),
  /** file | ccxt | dukascopy */
  kind: z.string(),
  source: z.string(),
  symbol: z.string(),
  timeframe: z.string(),
  /** queued | running | done | failed */
  status: z.string(),
  progress: z.number(),
  rows: z.number(),
  /** Plain reason when failed (e.g. "binance is unreachable: …"). */
  message: z.string().nullable(),
  updatedAt: z.string(),
});
export type ImportRunItem = z.infer<typeof importRunItem>;

export const marketDataStatus = z.object({
  series: z.array(dataRange.extend({ symbol: z.string() })),
  /** Newest import runs first. */
  imports: z.array(importRunItem),
  /** Per candle source, the outcome of its latest import run: what a data page says plainly. */
  sources: z.array(
    z.object({
      source: z.string(),
      status: z.string(),
      message: z.string().nullable(),
      updatedAt: z.string(),
    }),
  ),
});
export type MarketDataStatus = z.infer<typeof marketDataStatus>;

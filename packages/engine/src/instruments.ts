// Instrument catalog and size / price helpers.
// Crypto: linear USDT-margined perpetuals, sizes in contracts (ZHANG) of ctVal × ctMult coins as on
// OKX; Binance-style coin sizes (KE) convert with `coinsToContracts`. Forex: lots of contractSize
// units of the base currency. PnL is in the quote currency; `quoteToAccount` converts it to USD
// (USD / USDT quote: as is; USD base, e.g. USDJPY: divide by the price).
import { Decimal } from 'decimal.js';
import type { Instrument, VenueName } from './types';

export const SYMBOL_FORMAT = /^[A-Z]+(?:USDT|USD)$/;

const crypto = (
  base: string,
  contractSize: number,
  tickSize: number,
  digits: number,
  maintenanceMarginRate: number,
): Instrument => ({
  symbol: `${base}USDT`,
  market: 'crypto',
  quote: 'USDT',
  tickSize,
  digits,
  contractSize,
  minQty: 0.01,
  qtyStep: 0.01,
  maxLeverage: 125,
  maintenanceMarginRate,
  point: tickSize,
});

const forex = (symbol: string, quote: string, point: number, digits: number, contractSize: number): Instrument => ({
  symbol,
  market: 'forex',
  quote,
  tickSize: point,
  digits,
  contractSize,
  minQty: 0.01,
  qtyStep: 0.01,
  maxLeverage: 500,
  // Stop-out: with leverage L the effective rate is min(this, 0.5 / L), i.e. 50 % margin level at most.
  maintenanceMarginRate: 0.01,
  point,
});

export const instruments: readonly Instrument[] = [
  crypto('BTC', 0.01, 0.1, 1, 0.004),
  crypto('ETH', 0.1, 0.01, 2, 0.005),
  crypto('SOL', 1, 0.01, 2, 0.01),
  crypto('BNB', 0.01, 0.01, 2, 0.01),
  crypto('XRP', 100, 0.0001, 4, 0.01),
  crypto('DOGE', 1000, 0.00001, 5, 0.01),
  forex('EURUSD', 'USD', 0.00001, 5, 100_000),
  forex('GBPUSD', 'USD', 0.00001, 5, 100_000),
  forex('USDJPY', 'JPY', 0.001, 3, 100_000),
  forex('XAUUSD', 'USD', 0.01, 2, 100),
];

const bySymbol = new Map(instruments.map((i) => [i.symbol, i]));

/**
 * A venue's order-size rules for one symbol in the venue's own units: what ccxt reports as
 * `contractSize`, `precision.amount`, `limits.amount` and `limits.cost` (Binance, OKX), or an MT5
 * symbol's volume min / step / max. The one place sizes of a venue are written down; the live
 * market of an account's venue overrides it where it is known (`withVenueSizes`).
 */
export interface VenueSizeSpec {
  /** Units of the base asset per 1 of amount: 1 (Binance coins), ctVal (OKX contracts), the lot (MT5). */
  readonly unit: number;
  readonly amountStep: number;
  readonly minAmount: number;
  /** null: the venue states none. */
  readonly maxAmount: number | null;
  /** Smallest order value in the quote currency; 0: none. */
  readonly minNotional: number;
}

const binance = (amountStep: number, maxAmount: number, minNotional: number): VenueSizeSpec => ({
  unit: 1,
  amountStep,
  minAmount: amountStep,
  maxAmount,
  minNotional,
});
const okx = (ctVal: number, lotSz: number): VenueSizeSpec => ({ unit: ctVal, amountStep: lotSz, minAmount: lotSz, maxAmount: null, minNotional: 0 });
const mt5 = (lot: number): VenueSizeSpec => ({ unit: lot, amountStep: 0.01, minAmount: 0.01, maxAmount: 100, minNotional: 0 });

/** Binance USDⓈ-M and OKX USDT swaps as their exchange info states them; MT5 as a typical broker's. */
export const VENUE_SIZE_SPECS: Readonly<Record<VenueName, Readonly<Record<string, VenueSizeSpec>>>> = {
  binance: {
    BTCUSDT: binance(0.001, 1000, 100),
    ETHUSDT: binance(0.001, 10_000, 20),
    SOLUSDT: binance(1, 1_000_000, 5),
    BNBUSDT: binance(0.01, 100_000, 5),
    XRPUSDT: binance(0.1, 10_000_000, 5),
    DOGEUSDT: binance(1, 50_000_000, 5),
  },
  okx: {
    BTCUSDT: okx(0.01, 0.01),
    ETHUSDT: okx(0.1, 0.01),
    SOLUSDT: okx(1, 0.01),
    BNBUSDT: okx(0.01, 0.01),
    XRPUSDT: okx(100, 0.01),
    DOGEUSDT: okx(1000, 0.01),
  },
  mt5: {
    EURUSD: mt5(100_000),
    GBPUSD: mt5(100_000),
    USDJPY: mt5(100_000),
    XAUUSD: mt5(100),
  },
};

/** True for a venue the catalog has sizes of. */
export function isVenueName(name: string): name is VenueName {
  return Object.hasOwn(VENUE_SIZE_SPECS, name);
}

/** The venues the catalog has sizes of for `symbol` (Binance and OKX for crypto, MT5 for forex). */
export function venuesOf(symbol: string): VenueName[] {
  return (Object.keys(VENUE_SIZE_SPECS) as VenueName[]).filter((v) => VENUE_SIZE_SPECS[v][symbol] !== undefined);
}

const exact = (x: number) => Number(x.toPrecision(12));

/**
 * The instrument with a venue's size rules, converted to order units (contracts of
 * `contractSize`, or lots) — the one place venue amounts and our contracts meet.
 */
export function withVenueSizes(instrument: Instrument, venue: VenueName, spec: VenueSizeSpec): Instrument {
  const perAmount = spec.unit / instrument.contractSize;
  const qtyStep = exact(spec.amountStep * perAmount);
  return {
    ...instrument,
    venue,
    qtyStep,
    minQty: exact(Math.max(spec.minAmount, spec.amountStep) * perAmount),
    maxQty: spec.maxAmount === null ? undefined : exact(spec.maxAmount * perAmount),
    minNotional: spec.minNotional,
    venueUnit: spec.unit,
  };
}

/** Order units → the venue's amount (coins on Binance, contracts on OKX, lots on MT5). */
export function toVenueAmount(qty: number, instrument: Instrument): number {
  return exact((qty * instrument.contractSize) / (instrument.venueUnit ?? instrument.contractSize));
}

/** The venue's amount → order units. */
export function fromVenueAmount(amount: number, instrument: Instrument): number {
  return exact((amount * (instrument.venueUnit ?? instrument.contractSize)) / instrument.contractSize);
}

/** Value of `qty` order units at `price`, in the quote currency. */
export function notionalOf(qty: number, price: number, instrument: Instrument): number {
  return qty * instrument.contractSize * price;
}

/** Value of a fill of `qty` order units at `price` in the account currency (USD / USDT), unsigned: what volume counts. */
export function accountNotionalOf(qty: number, price: number, instrument: Instrument): number {
  return Math.abs(notionalOf(qty, price, instrument)) * quoteToAccount(instrument, price);
}

/**
 * The smallest quantity the venue takes at `price`: the minimum, raised to a multiple of the step
 * whose value reaches the minimum notional.
 */
export function minOrderQty(instrument: Instrument, price: number): number {
  const notional = instrument.minNotional ?? 0;
  if (!(notional > 0) || !(price > 0)) return instrument.minQty;
  const step = instrument.qtyStep;
  const byNotional = Math.ceil(notional / (price * instrument.contractSize) / step - 1e-9) * step;
  return roundTo(Math.max(instrument.minQty, byNotional), stepDecimals(step));
}

export class InstrumentError extends Error {
  constructor(
    message: string,
    readonly code: 'invalidSymbolFormat' | 'unknownSymbol' | 'qtyBelowMin' | 'invalidQty',
  ) {
    super(message);
    this.name = 'InstrumentError';
  }
}

export function isValidSymbol(symbol: string): boolean {
  return SYMBOL_FORMAT.test(symbol);
}

/**
 * The catalog entry of a symbol (case-insensitive). With a venue: its order sizes as that venue
 * takes them (`VENUE_SIZE_SPECS`); without: the generic 0.01 / 0.01.
 */
export function getInstrument(symbol: string, venue?: VenueName): Instrument {
  const s = symbol.trim().toUpperCase();
  // USDJPY is a six-letter pair outside the letters+USD(T) rule; the catalog knows it.
  const known = bySymbol.get(s);
  if (known) {
    const spec = venue ? VENUE_SIZE_SPECS[venue][s] : undefined;
    return spec && venue ? withVenueSizes(known, venue, spec) : known;
  }
  if (!isValidSymbol(s)) throw new InstrumentError('Invalid symbol format', 'invalidSymbolFormat');
  throw new InstrumentError(`Unknown symbol ${s} (known: ${instruments.map((i) => i.symbol).join(', ')})`, 'unknownSymbol');
}

/** Account currency (USD / USDT) per 1 unit of quote currency at `price`. */
export function quoteToAccount(instrument: Instrument, price: number): number {
  return quoteIsAccount(instrument) ? 1 : 1 / price;
}

/** True when the quote currency is the account currency (USD, USDT); false for USD-based pairs such as USDJPY. */
export function quoteIsAccount(instrument: Instrument): boolean {
  return instrument.quote === 'USD' || instrument.quote === 'USDT';
}

/** Decimal places of a step such as 0.01 → 2 (handles 1e-7 style). */
export function stepDecimals(step: number): number {
  if (!(step > 0)) return 0;
  let d = 0;
  while (d < 12 && Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) > 1e-9 * 10 ** d) d++;
  return d;
}

function roundTo(value: number, decimals: number): number {
  return Number(value.toFixed(decimals));
}

export interface SnappedQty {
  qty: number;
  /** True when the requested size was not a multiple of the step and was reduced. */
  adjusted: boolean;
  /** Human text when adjusted, else ''. */
  message: string;
  /** Stable key for localisation when adjusted (`validation.qtyStepAdjusted`), else ''. */
  messageKey: string;
}

/**
 * Snaps an order size DOWN to the instrument's step. Throws `InstrumentError` (code `qtyBelowMin`)
 * when the snapped size is below the minimum, (code `invalidQty`) when not a positive number.
 */
export function snapQty(qty: number, instrument: Instrument): SnappedQty {
  if (!(qty > 0) || !Number.isFinite(qty)) {
    throw new InstrumentError(`Order size must be a positive number, got ${qty}`, 'invalidQty');
  }
  const step = instrument.qtyStep;
  const decimals = stepDecimals(step);
  // The epsilon keeps 0.3 / 0.1 = 2.9999999999999996 from snapping to 0.2.
  const snapped = roundTo(Math.floor(qty / step + 1e-9) * step, decimals);
  if (snapped < instrument.minQty - 1e-12) {
    throw new InstrumentError(
      `Order size ${qty} is below the minimum ${instrument.minQty} for ${instrument.symbol}`,
      'qtyBelowMin',
    );
  }
  const adjusted = Math.abs(snapped - qty) > 1e-12 * Math.max(1, qty);
  return {
    qty: snapped,
    adjusted,
    message: adjusted ? `Order size ${qty} adjusted to ${snapped} (lot step ${step})` : '',
    messageKey: adjusted ? 'validation.qtyStepAdjusted' : '',
  };
}

export type SizeUnit = 'ZHANG' | 'KE';

/** Coins → contracts (KE → ZHANG): coins / contractSize (not yet snapped). */
export function coinsToContracts(coins: number, instrument: Instrument): number {
  return coins / instrument.contractSize;
}

export function contractsToCoins(contracts: number, instrument: Instrument): number {
  return contracts * instrument.contractSize;
}

/** A size in the given unit → order units (contracts for crypto, lots for forex), snapped. */
export function toOrderQty(size: number, unit: SizeUnit, instrument: Instrument): SnappedQty {
  const raw = instrument.market === 'crypto' && unit === 'KE' ? coinsToContracts(size, instrument) : size;
  return snapQty(raw, instrument);
}

/** Nearest multiple of the tick size, at the instrument's digits. */
export function roundPrice(price: number, instrument: Instrument): number {
  return roundTo(Math.round(price / instrument.tickSize) * instrument.tickSize, instrument.digits);
}

/** Rounds down (buy limits, sell stops stay on the safe side) or up to the tick. */
export function floorPrice(price: number, instrument: Instrument): number {
  return roundTo(Math.floor(price / instrument.tickSize + 1e-9) * instrument.tickSize, instrument.digits);
}
export function ceilPrice(price: number, instrument: Instrument): number {
  return roundTo(Math.ceil(price / instrument.tickSize - 1e-9) * instrument.tickSize, instrument.digits);
}

/** Money in the account currency is reported to this many decimals (USDT 8, USD 2). */
export function moneyDigits(instrument: Instrument): number {
  return instrument.market === 'crypto' ? 8 : 2;
}

/** Rounds money to `digits` decimals (half away from zero, as the decimal library does). */
export function roundMoney(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  const p = 10 ** digits;
  const scaled = x * p;
  // Math.round of an exactly representable scaled value then one division gives the nearest double
  // of the decimal result; beyond 2^52 the decimal library does it.
  if (Math.abs(scaled) < 2 ** 52) return (scaled < 0 ? -Math.round(-scaled) : Math.round(scaled)) / p;
  return new Decimal(x).toDecimalPlaces(digits).toNumber();
}

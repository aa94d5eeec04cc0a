// Instrument catalog and size / price helpers.
// Crypto: linear USDT-margined perpetuals, sizes in contracts (ZHANG) of ctVal × ctMult coins as on
// OKX; Binance-style coin sizes (KE) convert with `coinsToContracts`. Forex: lots of contractSize
// units of the base currency. PnL is in the quote currency; `quoteToAccount` converts it to USD
// (USD / USDT quote: as is; USD base, e.g. USDJPY: divide by the price).
import { Decimal } from 'decimal.js';
import type { Instrument } from './types';

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

/** The catalog entry of a symbol (case-insensitive). */
export function getInstrument(symbol: string): Instrument {
  const s = symbol.trim().toUpperCase();
  // USDJPY is a six-letter pair outside the letters+USD(T) rule; the catalog knows it.
  const known = bySymbol.get(s);
  if (known) return known;
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

// Position and risk calculators: pure functions, unit-tested (apps/web/test/tools.test.ts).
// Instruments follow the engine's catalog (packages/engine/src/instruments.ts): crypto sizes are
// contracts of `contractSize` coins (linear USDT perpetuals), forex sizes are lots of
// `contractSize` units of the base currency, 1 pip = 10 points (spec §5).

export type CalcMarket = 'forex' | 'crypto';

export interface CalcInstrument {
  symbol: string;
  market: CalcMarket;
  /** Quote currency: USD / USDT (pip value as is) or another (USDJPY: divided by the price). */
  quote: string;
  /** Smallest price step (forex: one point). */
  tickSize: number;
  digits: number;
  /** Coins per contract (crypto) or units per lot (forex). */
  contractSize: number;
  minQty: number;
  qtyStep: number;
  maxLeverage?: number;
  /** Maintenance margin rate the venue applies, when known (crypto). */
  maintenanceMarginRate?: number;
}

const crypto = (base: string, contractSize: number, tickSize: number, digits: number, maintenanceMarginRate: number): CalcInstrument => ({
  symbol: `${base}USDT`, market: 'crypto', quote: 'USDT', tickSize, digits, contractSize, minQty: 0.01, qtyStep: 0.01, maxLeverage: 125, maintenanceMarginRate,
});
const forex = (symbol: string, quote: string, point: number, digits: number, contractSize: number): CalcInstrument => ({
  symbol, market: 'forex', quote, tickSize: point, digits, contractSize, minQty: 0.01, qtyStep: 0.01, maxLeverage: 500,
});

/** Local copy of the engine's instrument catalog: used when the server's currency list is unavailable. */
export const LOCAL_INSTRUMENTS: readonly CalcInstrument[] = [
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

/** A finite number from a text input ("1,000.5" → 1000.5); undefined when empty or not a number. */
export function parseInput(text: string): number | undefined {
  const s = text.trim().replace(/,/g, '');
  if (s === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

const isAccountCurrency = (quote: string) => quote === 'USD' || quote === 'USDT';

/** Decimals of a step such as 0.01 → 2. */
export function stepDecimals(step: number): number {
  if (!(step > 0)) return 0;
  let d = 0;
  while (d < 12 && Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) > 1e-9 * 10 ** d) d++;
  return d;
}

/** Rounds a size DOWN to a multiple of `step` (never more risk than asked). */
export function floorToStep(value: number, step: number): number {
  if (!(step > 0) || !Number.isFinite(value)) return value;
  const d = stepDecimals(step);
  // A small epsilon keeps 0.3 / 0.1 from becoming 2.999….
  const units = Math.floor(value / step + 1e-9);
  return Number((units * step).toFixed(d));
}

/** Forex pip size: 10 points (spec §5), e.g. 0.0001 for EURUSD, 0.01 for USDJPY, 0.1 for XAUUSD. */
export const pipSize = (instrument: Pick<CalcInstrument, 'tickSize'>) => Number((instrument.tickSize * 10).toPrecision(12));

/**
 * Value of one pip for one lot in the account currency (USD). Quote USD: contractSize × pip; USD
 * base (USDJPY): divided by the price; any other quote needs `quoteToUsd` (USD per 1 quote unit).
 */
export function pipValuePerLot(instrument: CalcInstrument, price?: number, quoteToUsd?: number): number | undefined {
  const inQuote = instrument.contractSize * pipSize(instrument);
  if (isAccountCurrency(instrument.quote)) return inQuote;
  if (quoteToUsd !== undefined && quoteToUsd > 0) return inQuote * quoteToUsd;
  if (instrument.symbol.startsWith('USD') && price !== undefined && price > 0) return inQuote / price;
  return undefined;
}

export interface PositionInput {
  instrument: CalcInstrument;
  /** Account size in USD / USDT. */
  balance: number;
  /** Risk per trade in percent of the balance (1 = 1 %). */
  riskPercent: number;
  /** Forex: stop distance in pips or points (`stopUnit`); crypto: price distance in USDT. */
  stopDistance: number;
  stopUnit?: 'pips' | 'points' | 'price';
  /** Current / entry price: needed for USD-based forex pairs, used for notional and margin. */
  price?: number;
  /** Forex pip value per lot typed by the user (crosses), overrides the computed one. */
  pipValueOverride?: number;
  leverage?: number;
}

export type PositionError = 'balance' | 'riskPercent' | 'stopDistance' | 'stopTooSmall' | 'stopTooLarge' | 'price' | 'pipValue' | 'leverage';

export interface PositionResult {
  /** Money at risk: balance × risk %. */
  riskAmount: number;
  /** Exact size before rounding: lots (forex) or contracts (crypto). */
  rawSize: number;
  /** Size rounded down to the step: lots or contracts; 0 when below the minimum. */
  size: number;
  /** True when the exact size is below the instrument's minimum (the minimum would risk more). */
  belowMin: boolean;
  /** Coins (crypto) or units of base currency (forex) of `size`. */
  units: number;
  /** Loss if the stop is hit with `size`. */
  actualRisk: number;
  /** Actual risk as a percent of the balance. */
  actualRiskPercent: number;
  /** Forex: pip value per lot used. */
  pipValue?: number;
  /** Stop distance in price units. */
  stopPrice: number;
  /** Position value at `price` (account currency), when the price is known. */
  notional?: number;
  /** notional / leverage, when both are known. */
  margin?: number;
  /** The margin is more than the balance: the venue would refuse this position. */
  marginAboveBalance: boolean;
}

export type Checked<T, E extends string> = { ok: true; value: T } | { ok: false; errors: E[] };

/**
 * Position size from the money one is ready to lose: risk = balance × risk %; forex lots = risk /
 * (stop pips × pip value per lot); crypto contracts = risk / (stop price distance × coins per
 * contract). Rounded down to the size step.
 */
export function positionSize(input: PositionInput): Checked<PositionResult, PositionError> {
  const { instrument: ins, balance, riskPercent, stopDistance, price, leverage } = input;
  const errors: PositionError[] = [];
  if (!(balance > 0)) errors.push('balance');
  if (!(riskPercent > 0 && riskPercent <= 100)) errors.push('riskPercent');
  if (!(stopDistance > 0)) errors.push('stopDistance');
  if (price !== undefined && !(price > 0)) errors.push('price');
  if (leverage !== undefined && !(leverage >= 1)) errors.push('leverage');
  const riskAmount = balance * (riskPercent / 100);
  let perSizeLoss: number;
  let stopPrice: number;
  let pipValue: number | undefined;
  if (ins.market === 'forex') {
    const unit = input.stopUnit ?? 'pips';
    const pips = unit === 'points' ? stopDistance / 10 : unit === 'price' ? stopDistance / pipSize(ins) : stopDistance;
    stopPrice = pips * pipSize(ins);
    pipValue = input.pipValueOverride !== undefined && input.pipValueOverride > 0 ? input.pipValueOverride : pipValuePerLot(ins, price);
    if (pipValue === undefined) {
      if (!errors.includes('price') && price === undefined && ins.symbol.startsWith('USD')) errors.push('price');
      else errors.push('pipValue');
    }
    perSizeLoss = pips * (pipValue ?? NaN);
  } else {
    stopPrice = stopDistance;
    perSizeLoss = stopDistance * ins.contractSize;
  }
  // A stop nearer than one price step cannot be placed (0.005 pip asked 2,000 lots); one at or
  // beyond the price itself is no stop either.
  if (!errors.includes('stopDistance') && stopPrice < ins.tickSize * (1 - 1e-9)) errors.push('stopTooSmall');
  if (!errors.includes('stopDistance') && price !== undefined && price > 0 && stopPrice >= price) errors.push('stopTooLarge');
  if (errors.length) return { ok: false, errors };
  const rawSize = riskAmount / perSizeLoss;
  const rounded = floorToStep(rawSize, ins.qtyStep);
  const belowMin = rounded < ins.minQty;
  const size = belowMin ? 0 : rounded;
  const units = Number((size * ins.contractSize).toPrecision(12));
  const actualRisk = size * perSizeLoss;
  const result: PositionResult = {
    riskAmount,
    rawSize,
    size,
    belowMin,
    units,
    actualRisk,
    actualRiskPercent: (actualRisk / balance) * 100,
    stopPrice,
    marginAboveBalance: false,
  };
  if (pipValue !== undefined) result.pipValue = pipValue;
  if (price !== undefined) {
    const quoteValue = units * price;
    const notional = ins.market === 'forex' && !isAccountCurrency(ins.quote) ? (ins.symbol.startsWith('USD') ? units : undefined) : quoteValue;
    if (notional !== undefined) {
      result.notional = notional;
      if (leverage !== undefined) {
        result.margin = notional / leverage;
        result.marginAboveBalance = result.margin > balance;
      }
    }
  }
  return { ok: true, value: result };
}

export interface RiskInput {
  side: 'long' | 'short';
  entry: number;
  /** Position size in base units (coins; forex: lots × contract size). */
  quantity: number;
  leverage: number;
  /** Maintenance margin rate as a fraction (0.005 = 0.5 %). */
  maintenanceMarginRate: number;
  /** Cross margin: extra balance beyond the initial margin that also backs the position. */
  extraMargin?: number;
}

export type RiskError = 'entry' | 'quantity' | 'leverage' | 'maintenanceMarginRate' | 'extraMargin';

export interface RiskResult {
  /** entry × quantity. */
  notional: number;
  /** Initial margin: notional / leverage. */
  initialMargin: number;
  /** Maintenance margin at the entry price: notional × rate. */
  maintenanceMargin: number;
  /** Price at which equity falls to the maintenance margin; 0 for a long that cannot be liquidated. */
  liquidationPrice: number;
  /** Distance from entry to liquidation as a fraction of the entry (always ≥ 0). */
  liquidationDistance: number;
  /** Loss at the liquidation price (money). */
  lossAtLiquidation: number;
}

/**
 * Margin and liquidation price of a linear (USDT-margined) position, fees and funding ignored:
 *   initial margin IM = E × Q / L;  maintenance MM(P) = P × Q × m
 *   long:  IM + X + Q × (P − E) = P × Q × m   ⇒  P = (E − (IM + X) / Q) / (1 − m)
 *   short: IM + X + Q × (E − P) = P × Q × m   ⇒  P = (E + (IM + X) / Q) / (1 + m)
 * With X = 0 these are E × (1 − 1/L) / (1 − m) and E × (1 + 1/L) / (1 + m).
 */
export function riskFigures(input: RiskInput): Checked<RiskResult, RiskError> {
  const { side, entry, quantity, leverage, maintenanceMarginRate: m } = input;
  const extra = input.extraMargin ?? 0;
  const errors: RiskError[] = [];
  if (!(entry > 0)) errors.push('entry');
  if (!(quantity > 0)) errors.push('quantity');
  if (!(leverage >= 1)) errors.push('leverage');
  if (!(m >= 0 && m < 1)) errors.push('maintenanceMarginRate');
  if (!(extra >= 0)) errors.push('extraMargin');
  if (errors.length) return { ok: false, errors };
  const notional = entry * quantity;
  const initialMargin = notional / leverage;
  const backing = (initialMargin + extra) / quantity;
  const raw = side === 'long' ? (entry - backing) / (1 - m) : (entry + backing) / (1 + m);
  const liquidationPrice = Math.max(0, raw);
  const lossAtLiquidation = Math.abs(liquidationPrice - entry) * quantity;
  return {
    ok: true,
    value: {
      notional,
      initialMargin,
      maintenanceMargin: notional * m,
      liquidationPrice,
      liquidationDistance: Math.abs(liquidationPrice - entry) / entry,
      lossAtLiquidation,
    },
  };
}

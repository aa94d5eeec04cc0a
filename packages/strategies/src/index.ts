// The strategy registry: every strategy type with its schema, factory, pages and search space.
import { minOrderQty, type Instrument, type Strategy } from '@lq/engine';
import type { z } from 'zod';
import { createBlueBands } from './blue-bands/strategy';
import { createContrarianMartin } from './contrarian-martin/strategy';
import { createDaySingle } from './day-single/strategy';
import { createGrid } from './grid/strategy';
import { createInversionRevert } from './inversion-revert/strategy';
import { createMarcoHunt } from './marco-hunt/strategy';
import { createMonthSingle } from './month-single/strategy';
import { createPegasus } from './pegasus/strategy';
import { createPurgeRevert } from './purge-revert/strategy';
import { createSingle } from './single/strategy';
import { createWeekSingle } from './week-single/strategy';
import { STRATEGY_TYPES, checkQty, clampSize, qtyRulesFor, strategyParamSchemas } from './schemas';
import type { StrategyType, UnitName } from './schemas';

export * from './schemas';
export { StrategyParamError, needsAi, openTag, closeTag, legOf } from './common/runtime';
export { DEFAULT_FEES, intervalMsOf, runSettings, utcOffsetMinutes } from './common/config';
export type { RunSettings } from './common/config';

/** One tunable parameter for the recommendation search. */
export interface ParamSpec {
  /** The parameter name, exactly as in the schema. */
  readonly name: string;
  readonly kind: 'int' | 'float' | 'choice';
  readonly min?: number;
  readonly max?: number;
  /** Sample on a log scale (distances, multiples). */
  readonly log?: boolean;
  readonly choices?: readonly (string | number | boolean)[];
}
export type ParamSpace = readonly ParamSpec[];

export interface StrategyDefinition<T extends StrategyType = StrategyType> {
  readonly type: T;
  /** Message-catalog key of the display name (strategy.<type>). */
  readonly displayNameKey: string;
  readonly markets: readonly ('crypto' | 'forex')[];
  /** The spec's createOrder page names. */
  readonly pages: readonly string[];
  readonly schema: (typeof strategyParamSchemas)[T];
  /** Builds the strategy from parsed parameters; throws StrategyParamError for sizes the instrument cannot take. */
  create(params: z.output<(typeof strategyParamSchemas)[T]>, instrument: Instrument): Strategy;
  /** Parses raw parameters (`--params`, a form, an API body) and builds the strategy. */
  fromInput(input: unknown, instrument: Instrument): Strategy;
  /** Tunable parameters and their ranges for this instrument's market. */
  searchSpace(instrument: Instrument): ParamSpace;
  /**
   * A complete, valid parameter set (schema input) for this instrument: sizes from `capital` and a
   * reference `price` (orders of 2–5 % of capital in notional), the other fields at sensible values.
   */
  defaults(instrument: Instrument, options: { capital: number; price: number }): Record<string, unknown>;
}

const pct = (crypto: [number, number], forex: [number, number]) => (i: Instrument) => (i.market === 'crypto' ? crypto : forex);
const dist = (name: string, range: (i: Instrument) => [number, number]) => (i: Instrument): ParamSpec => {
  const [min, max] = range(i);
  return { name, kind: 'float', min, max, log: true };
};
const sideSpec: ParamSpec = { name: 'side', kind: 'choice', choices: ['long', 'short'] };

// Distance ranges: crypto in percent of price, forex in points.
const gapRange = pct([0.2, 5], [50, 1000]);
const wideRange = pct([0.3, 8], [50, 2000]);
const orderRange = pct([0.3, 6], [50, 1500]);

/**
 * Size of one order worth `fraction` of capital at `price`, snapped to the instrument (schema input
 * units); never below what the venue takes at that price (minimum amount and notional).
 */
function sizeFor(instrument: Instrument, capital: number, price: number, fraction: number): number {
  const units = (capital * fraction) / (price * instrument.contractSize);
  return clampSize(units, minOrderQty(instrument, price), instrument.qtyStep);
}

function commonDefaults(instrument: Instrument, capital: number): Record<string, unknown> {
  const base: Record<string, unknown> = {
    market: instrument.market,
    symbol: instrument.symbol,
    capital,
    leverage: instrument.market === 'crypto' ? 10 : 100,
    side: 'long',
  };
  if (instrument.market === 'forex') base.spread = instrument.symbol === 'XAUUSD' ? 30 : 10;
  return base;
}

const trendSpace = (i: Instrument): ParamSpace => [
  sideSpec,
  dist('gap', orderRange)(i),
  dist('orderTakeProfit', wideRange)(i),
  dist('orderStopLoss', orderRange)(i),
];
const trendDefaults = (i: Instrument, o: { capital: number; price: number }) => {
  const lots = sizeFor(i, o.capital, o.price, 0.03);
  const far = i.market === 'crypto' ? 2 : 500;
  return { ...commonDefaults(i, o.capital), firstLots: lots, secondLots: lots, thirdLots: lots, gap: far / 2, orderTakeProfit: far * 2, orderStopLoss: far };
};

function define<T extends StrategyType>(
  type: T,
  markets: StrategyDefinition['markets'],
  pages: string[],
  create: (params: z.output<(typeof strategyParamSchemas)[T]>, instrument: Instrument) => Strategy,
  searchSpace: (instrument: Instrument) => ParamSpace,
  defaults: StrategyDefinition['defaults'],
): StrategyDefinition<T> {
  const schema = strategyParamSchemas[type];
  return {
    type,
    displayNameKey: `strategy.${type}`,
    markets,
    pages,
    schema,
    create,
    fromInput: (input, instrument) => create(schema.parse(input) as z.output<(typeof strategyParamSchemas)[T]>, instrument),
    searchSpace,
    defaults,
  };
}

export const strategies: { readonly [T in StrategyType]: StrategyDefinition<T> } = {
  single: define('single', ['crypto', 'forex'], ['crypto_single', 'forex_single'], createSingle, trendSpace, trendDefaults),
  'day-single': define('day-single', ['forex'], ['forex_dmy'], createDaySingle, trendSpace, (i, o) => ({
    ...trendDefaults(i, o),
    windowStart: '07:00',
    windowEnd: '20:00',
  })),
  'week-single': define('week-single', ['forex'], ['forex_dmy'], createWeekSingle, trendSpace, trendDefaults),
  'month-single': define('month-single', ['forex'], ['forex_dmy'], createMonthSingle, trendSpace, trendDefaults),
  grid: define(
    'grid',
    ['crypto', 'forex'],
    ['crypto_grid', 'forex_grid'],
    createGrid,
    (i) => [sideSpec, { name: 'gridNumber', kind: 'int', min: 4, max: 60 }, dist('gap', gapRange)(i)],
    (i, o) => ({
      ...commonDefaults(i, o.capital),
      gridNumber: 10,
      gap: i.market === 'crypto' ? 0.5 : 100,
      lotsPerGrid: sizeFor(i, o.capital, o.price, 0.05),
    }),
  ),
  'contrarian-martin': define(
    'contrarian-martin',
    ['crypto', 'forex'],
    ['crypto_martin', 'forex_martin'],
    createContrarianMartin,
    (i) => [
      sideSpec,
      { name: 'multiplier', kind: 'float', min: 1, max: 2.5 },
      dist('refillInterval', gapRange)(i),
      { name: 'orderNumber', kind: 'int', min: 2, max: 8 },
      dist('cycleTakeProfit', gapRange)(i),
    ],
    (i, o) => ({
      ...commonDefaults(i, o.capital),
      firstLots: sizeFor(i, o.capital, o.price, 0.02),
      multiplier: 1.5,
      refillInterval: i.market === 'crypto' ? 1 : 200,
      orderNumber: 5,
      cycleTakeProfit: i.market === 'crypto' ? 0.5 : 100,
    }),
  ),
  pegasus: define(
    'pegasus',
    ['crypto', 'forex'],
    ['crypto_pegasus', 'forex_pegasus'],
    createPegasus,
    (i) => [
      sideSpec,
      { name: 'lookback', kind: 'int', min: 10, max: 120 },
      { name: 'atrStop', kind: 'float', min: 1, max: 4 },
      { name: 'atrTrail', kind: 'float', min: 1.5, max: 6 },
      { name: 'orderNumber', kind: 'int', min: 1, max: 4 },
      dist('gap', orderRange)(i),
    ],
    (i, o) => ({
      ...commonDefaults(i, o.capital),
      firstLots: sizeFor(i, o.capital, o.price, 0.02),
      // A slower channel than the schema's 20 bars: fewer, larger breakouts survive fees on short bars.
      lookback: 60,
      atrStop: 3,
      atrTrail: 4,
      orderNumber: 2,
      gap: i.market === 'crypto' ? 1 : 200,
    }),
  ),
  'marco-hunt': define(
    'marco-hunt',
    ['crypto', 'forex'],
    ['crypto_marco', 'forex_marco'],
    createMarcoHunt,
    (i) => [
      sideSpec,
      dist('orderTakeProfit', orderRange)(i),
      dist('orderStopLoss', orderRange)(i),
      { name: 'orderNumber', kind: 'int', min: 1, max: 5 },
      dist('refillInterval', gapRange)(i),
      { name: 'multiplier', kind: 'float', min: 1, max: 2 },
    ],
    (i, o) => ({
      ...commonDefaults(i, o.capital),
      firstLots: sizeFor(i, o.capital, o.price, 0.03),
      orderTakeProfit: i.market === 'crypto' ? 1 : 200,
      orderStopLoss: i.market === 'crypto' ? 1 : 200,
      orderNumber: 2,
      refillInterval: i.market === 'crypto' ? 0.5 : 100,
      multiplier: 1,
    }),
  ),
  'blue-bands': define(
    'blue-bands',
    ['crypto', 'forex'],
    ['crypto_blue'],
    createBlueBands,
    (i) => [
      sideSpec,
      dist('orderStopLoss', wideRange)(i),
      dist('gap', gapRange)(i),
      { name: 'multiplier', kind: 'float', min: 1, max: 2 },
      { name: 'orderNumber', kind: 'int', min: 1, max: 5 },
      { name: 'bbPeriod', kind: 'int', min: 10, max: 60 },
      { name: 'bbDeviation', kind: 'float', min: 1.5, max: 3 },
    ],
    (i, o) => ({
      ...commonDefaults(i, o.capital),
      firstLots: sizeFor(i, o.capital, o.price, 0.01),
      orderStopLoss: i.market === 'crypto' ? 2 : 300,
      gap: i.market === 'crypto' ? 0.5 : 100,
      orderNumber: 3,
      bbDeviation: 2.5,
    }),
  ),
  'purge-revert': define(
    'purge-revert',
    ['crypto', 'forex'],
    ['prt'],
    createPurgeRevert,
    (i) => [
      sideSpec,
      { name: 'lookback', kind: 'int', min: 10, max: 120 },
      { name: 'sweep', kind: 'float', min: 0, max: i.market === 'crypto' ? 0.5 : 100 },
      { name: 'buffer', kind: 'float', min: 0, max: i.market === 'crypto' ? 0.5 : 100 },
      { name: 'rr', kind: 'float', min: 1, max: 4 },
    ],
    (i, o) => ({
      ...commonDefaults(i, o.capital),
      firstLots: sizeFor(i, o.capital, o.price, 0.02),
      lookback: 60,
      sweep: i.market === 'crypto' ? 0.1 : 20,
      buffer: i.market === 'crypto' ? 0.05 : 10,
    }),
  ),
  'inversion-revert': define(
    'inversion-revert',
    ['crypto', 'forex'],
    ['irl'],
    createInversionRevert,
    (i) => [
      sideSpec,
      dist('orderTakeProfit', orderRange)(i),
      dist('orderStopLoss', orderRange)(i),
      { name: 'orderNumber', kind: 'int', min: 1, max: 5 },
      dist('gap', gapRange)(i),
      { name: 'multiplier', kind: 'float', min: 1, max: 2 },
      { name: 'rsiPeriod', kind: 'int', min: 7, max: 28 },
      { name: 'overbought', kind: 'float', min: 60, max: 85 },
      { name: 'oversold', kind: 'float', min: 15, max: 40 },
    ],
    (i, o) => ({
      ...commonDefaults(i, o.capital),
      firstLots: sizeFor(i, o.capital, o.price, 0.03),
      orderTakeProfit: i.market === 'crypto' ? 1 : 200,
      orderStopLoss: i.market === 'crypto' ? 1 : 200,
      orderNumber: 2,
      gap: i.market === 'crypto' ? 0.5 : 100,
    }),
  ),
};

/** The definition of a strategy type; throws for an unknown type, naming the known ones. */
export function getStrategy(type: string): StrategyDefinition {
  if (!(STRATEGY_TYPES as readonly string[]).includes(type)) {
    throw new Error(`Unknown strategy type "${type}". Known types: ${STRATEGY_TYPES.join(', ')}`);
  }
  return strategies[type as StrategyType];
}

/** Display names of the message catalogs → strategy types (see README). */
export const displayNameToType = {
  trend: 'single',
  'intraday trend': 'day-single',
  'weekly trend': 'week-single',
  'monthly trend': 'month-single',
  grid: 'grid',
  scalping: 'blue-bands',
  'money-mouse': 'contrarian-martin',
} as const satisfies Record<string, StrategyType>;

/** The size fields of the strategies, in the unit the user types. */
export const SIZE_FIELDS = ['firstLots', 'secondLots', 'thirdLots', 'lotsPerGrid'] as const;

export interface SizeNotice {
  readonly field: (typeof SIZE_FIELDS)[number];
  readonly value: number;
  /** The size that will be used (snapped down to the step). */
  readonly qty: number;
  /** `validation.qtyStepAdjusted` (a notice: auto-corrected) or an error key (`validation.qtyBelowMin`). */
  readonly message: string;
  readonly error: boolean;
}

/**
 * Checks every size parameter against the instrument's minimum and step (spec §5: off-step sizes
 * are corrected with a message, sizes below the minimum are errors). Empty when all sizes are fine.
 */
export function checkSizes(params: Record<string, unknown>, instrument: Instrument): SizeNotice[] {
  const rules = qtyRulesFor(instrument, (params.unit as UnitName | undefined) ?? 'ZHANG');
  const notices: SizeNotice[] = [];
  for (const field of SIZE_FIELDS) {
    const value = params[field];
    if (typeof value !== 'number') continue;
    const c = checkQty(value, rules);
    if (c.error !== null) notices.push({ field, value, qty: c.qty, message: c.error, error: true });
    else if (c.message !== null) notices.push({ field, value, qty: c.qty, message: c.message, error: false });
  }
  return notices;
}

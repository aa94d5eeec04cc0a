// Common strategy parameters, shared by every strategy form, the API and the command line.
// This file imports only zod: the web app reuses it through `@lq/strategies/schemas`.
// Messages are stable keys (`validation.*`) that the UI and the server localize.
import { z } from 'zod';

export const MARKETS = ['crypto', 'forex'] as const;
export const INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d'] as const;
export const SIDE_MODES = ['long', 'short', 'ai', 'aiLongOnly', 'aiShortOnly'] as const;
export const UNITS = ['ZHANG', 'KE'] as const;

export type MarketName = (typeof MARKETS)[number];
export type IntervalName = (typeof INTERVALS)[number];
export type SideModeName = (typeof SIDE_MODES)[number];
export type UnitName = (typeof UNITS)[number];

export const MIN_CAPITAL = 1000;
export const MIN_RANGE_DAYS = 7;
export const MAX_LEVERAGE = { crypto: 125, forex: 500 } as const;
export const MIN_MULTIPLIER = 0.01;
export const MIN_GRID_NUMBER = 2;
const DAY_MS = 86_400_000;

/** Every message key the common schema can produce. */
export const commonMessageKeys = [
  'validation.required',
  'validation.invalidType',
  'validation.invalidOption',
  'validation.invalidFormat',
  'validation.integer',
  'validation.invalidSymbolFormat',
  'validation.capitalMin',
  'validation.leverageRequired',
  'validation.leverageRangeCrypto',
  'validation.leverageRangeForex',
  'validation.takeProfitPositive',
  'validation.stopLossPositive',
  'validation.feeRange',
  'validation.takerFeeRange',
  'validation.spreadPositive',
  'validation.spreadRequired',
  'validation.invalidDate',
  'validation.invalidTimezone',
  'validation.rangeMin7Days',
  'validation.startAfterEnd',
  'validation.lotsPositive',
  'validation.qtyBelowMin',
  'validation.qtyStepAdjusted',
  'validation.invalidTime',
] as const;

/** Error map of a missing (`validation.required`) or mistyped (`validation.invalidType`) field. */
export const typeError = (iss: { input?: unknown }) =>
  iss.input === undefined ? 'validation.required' : 'validation.invalidType';

/** A finite number; missing → `validation.required`, not a number → `validation.invalidType`. */
export const num = () => z.number({ error: typeError });
export const int = () => num().int({ error: 'validation.integer' });
/** A number strictly greater than 0 with the given message key. */
export const positive = (key: string) => num().gt(0, { error: key });
/** Order lots: > 0; snapping to the instrument's step is `checkQty`. */
export const lots = () => positive('validation.lotsPositive');
export const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (iss) => (iss.input === undefined ? 'validation.required' : 'validation.invalidOption') });
export const flag = () => z.boolean({ error: typeError });

/** Letters followed by USDT or USD (spec §5), or a six-letter forex pair such as USDJPY (documented extension). */
export const SYMBOL_PATTERN = /^(?:[A-Z]+(?:USDT|USD)|[A-Z]{6})$/;
export const symbolSchema = z
  .string({ error: typeError })
  .trim()
  .toUpperCase()
  .regex(SYMBOL_PATTERN, { error: 'validation.invalidSymbolFormat' });

// --- dates, without the Date global (strategies are pure) -------------------------------------

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function daysFromCivil(y: number, m: number, d: number): number {
  // Howard Hinnant's algorithm: days since 1970-01-01 of a proleptic Gregorian date.
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Days in a month (1-12) of a year. */
export function daysInMonth(y: number, m: number): number {
  return m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/**
 * Parses an ISO-8601 date or date-time to ms since the epoch. Without an offset the value is a
 * wall-clock time, returned as if it were UTC (both ends of a range share the timezone).
 * Returns NaN when the text is not a valid date.
 */
export function parseIsoMs(text: string): number {
  const m = ISO_PATTERN.exec(text.trim());
  if (!m) return NaN;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => (v === undefined ? 0 : Number(v)));
  const ms = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'));
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) return NaN;
  let offsetMin = 0;
  const tz = m[8];
  if (tz !== undefined && tz !== 'Z') {
    const digits = tz.slice(1).replace(':', '');
    offsetMin = (tz[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  return daysFromCivil(y, mo, d) * DAY_MS + ((h * 60 + mi - offsetMin) * 60 + s) * 1000 + ms;
}

export const isoDateSchema = z
  .string({ error: typeError })
  .refine((s) => !Number.isNaN(parseIsoMs(s)), { error: 'validation.invalidDate' });

/** "HH:mm", 00:00–23:59. */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const timeOfDaySchema = z.string({ error: typeError }).regex(TIME_OF_DAY_PATTERN, { error: 'validation.invalidTime' });
/** Minutes after midnight of an "HH:mm" text. */
export function timeOfDayMinutes(text: string): number {
  return Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
}

/** IANA zone name ("Asia/Shanghai"), "UTC", or a fixed offset ("UTC+08:00", "+08:00"). */
const OFFSET_PATTERN = /^(?:UTC|GMT)?([+-])(\d{2}):?(\d{2})$/;
export function isValidTimezone(tz: string): boolean {
  if (tz === 'UTC' || OFFSET_PATTERN.test(tz)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
/** Minutes east of UTC for a fixed-offset timezone text, or null for a named zone. */
export function fixedOffsetMinutes(tz: string): number | null {
  if (tz === 'UTC' || tz === 'GMT') return 0;
  const m = OFFSET_PATTERN.exec(tz);
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}
export const timezoneSchema = z.string({ error: typeError }).refine(isValidTimezone, { error: 'validation.invalidTimezone' });

// --- the common fields ------------------------------------------------------------------------

const feeRate = () => num().gte(0, { error: 'validation.feeRange' }).lt(1, { error: 'validation.feeRange' });

/** The fields of every strategy (strategies.md "Common parameters"). Spread into each strategy's object. */
export const commonShape = {
  market: choice(MARKETS),
  symbol: symbolSchema,
  /** Decision interval; absent = the interval of the data. */
  interval: choice(INTERVALS).optional(),
  capital: num().gte(MIN_CAPITAL, { error: 'validation.capitalMin' }),
  leverage: z
    .number({ error: (iss) => (iss.input === undefined || iss.input === null ? 'validation.leverageRequired' : 'validation.invalidType') })
    .int({ error: 'validation.integer' })
    .gte(1, { error: 'validation.leverageRequired' }),
  side: choice(SIDE_MODES).default('long'),
  useAiIndicator: flag().default(false),
  addImmediately: flag().default(false),
  /** Overall take profit / stop loss on the whole position's floating PnL, in money. */
  takeProfit: positive('validation.takeProfitPositive').optional(),
  stopLoss: positive('validation.stopLossPositive').optional(),
  /** Crypto order unit: contracts (ZHANG) or coins (KE). Ignored for forex (lots). */
  unit: choice(UNITS).default('ZHANG'),
  /** Fee rates as fractions (0.0005 = 0.05 %); absent → the engine's default for the market. */
  makerFee: feeRate().optional(),
  takerFee: num().gte(0, { error: 'validation.feeRange' }).lt(1, { error: 'validation.takerFeeRange' }).optional(),
  /** Forex: points added to the bid to get the ask. Required for forex. */
  spread: positive('validation.spreadPositive').optional(),
  start: isoDateSchema.optional(),
  end: isoDateSchema.optional(),
  timezone: timezoneSchema.default('UTC'),
};

export interface CommonParamsInput {
  market: MarketName;
  leverage: number;
  spread?: number;
  start?: string;
  end?: string;
}

/** The cross-field rules of the common fields; every strategy schema runs them. */
export function checkCommon(v: CommonParamsInput, ctx: z.RefinementCtx): void {
  if (v.market === 'crypto' && v.leverage > MAX_LEVERAGE.crypto) {
    ctx.addIssue({ code: 'custom', path: ['leverage'], message: 'validation.leverageRangeCrypto' });
  }
  if (v.market === 'forex' && v.leverage > MAX_LEVERAGE.forex) {
    ctx.addIssue({ code: 'custom', path: ['leverage'], message: 'validation.leverageRangeForex' });
  }
  if (v.market === 'forex' && v.spread === undefined) {
    ctx.addIssue({ code: 'custom', path: ['spread'], message: 'validation.spreadRequired' });
  }
  if (v.start !== undefined && v.end !== undefined) {
    const start = parseIsoMs(v.start);
    const end = parseIsoMs(v.end);
    if (start > end) ctx.addIssue({ code: 'custom', path: ['end'], message: 'validation.startAfterEnd' });
    else if (end - start < MIN_RANGE_DAYS * DAY_MS) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'validation.rangeMin7Days' });
    }
  }
}

/**
 * An object schema with its cross-field rules run even when some fields failed, so a form shows
 * every error at once (the 7-day range used to appear only after capital and grid errors were
 * fixed). The rules read what parsed; a field that already has an error gets no second one, and a
 * rule that cannot read a malformed value is skipped (that value's own error says why).
 */
function withCrossFieldRules<T extends z.ZodObject>(object: T, rules: (value: z.output<T>, ctx: z.RefinementCtx<z.output<T>>) => void) {
  return object.superRefine(
    (value, ctx) => {
      const failed = new Set(ctx.issues.map((issue) => issue.path?.map(String).join('.') ?? ''));
      const guarded = Object.create(ctx) as typeof ctx;
      guarded.addIssue = (issue) => {
        const path = typeof issue === 'string' ? '' : (issue.path ?? []).map(String).join('.');
        if (!failed.has(path)) ctx.addIssue(issue);
      };
      try {
        rules(value, guarded);
      } catch {
        // a malformed value the rule could not read: its field's error is already there
      }
    },
    { when: () => true },
  );
}

/** The common object alone (useful for forms that pick the strategy later). */
export const commonParamsSchema = withCrossFieldRules(z.object(commonShape), (value, ctx) => checkCommon(value as unknown as CommonParamsInput, ctx));
export type CommonParams = z.output<typeof commonParamsSchema>;

/** Builds a strategy schema: the common fields + its own, with the common rules and its own rules. */
export function strategySchema<S extends z.ZodRawShape>(
  shape: S,
  check?: (value: z.output<z.ZodObject<typeof commonShape & S>>, ctx: z.RefinementCtx) => void,
) {
  return withCrossFieldRules(z.object({ ...commonShape, ...shape }), (value, ctx) => {
    checkCommon(value as unknown as CommonParamsInput, ctx);
    check?.(value, ctx);
  });
}

// --- order size -------------------------------------------------------------------------------

export interface QtyRules {
  readonly minQty: number;
  readonly qtyStep: number;
}
export interface QtyCheck {
  /** The quantity to use: the input snapped down to a multiple of the step. */
  readonly qty: number;
  /** `validation.qtyStepAdjusted` when the input was corrected (a notice), null otherwise. */
  readonly message: 'validation.qtyStepAdjusted' | null;
  /** `validation.qtyBelowMin` / `validation.lotsPositive` when the size cannot be used, null otherwise. */
  readonly error: 'validation.qtyBelowMin' | 'validation.lotsPositive' | null;
}

function stepDecimals(step: number): number {
  const text = step.toString();
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Snaps a size down to a multiple of `qtyStep` (float-noise tolerant). */
export function snapToStep(qty: number, qtyStep: number): number {
  const steps = Math.floor(qty / qtyStep + 1e-9);
  return Number((steps * qtyStep).toFixed(stepDecimals(qtyStep)));
}

/** Checks an order size against the instrument's minimum and step (spec §5: auto-corrected with a message). */
export function checkQty(qty: number, rules: QtyRules): QtyCheck {
  if (!(qty > 0) || !Number.isFinite(qty)) return { qty: 0, message: null, error: 'validation.lotsPositive' };
  const snapped = snapToStep(qty, rules.qtyStep);
  const message = Math.abs(snapped - qty) > rules.qtyStep * 1e-9 ? 'validation.qtyStepAdjusted' : null;
  const error = snapped < rules.minQty - rules.qtyStep * 1e-9 ? 'validation.qtyBelowMin' : null;
  return { qty: snapped, message, error };
}

/**
 * Size rules in the unit the user types: crypto contracts (ZHANG) or coins (KE = contracts ×
 * contract value), forex lots.
 */
export function qtyRulesFor(
  instrument: QtyRules & { readonly market: MarketName; readonly contractSize: number },
  unit: UnitName,
): QtyRules {
  if (instrument.market !== 'crypto' || unit === 'ZHANG') return { minQty: instrument.minQty, qtyStep: instrument.qtyStep };
  const d = stepDecimals(instrument.qtyStep) + stepDecimals(instrument.contractSize);
  return {
    minQty: Number((instrument.minQty * instrument.contractSize).toFixed(d)),
    qtyStep: Number((instrument.qtyStep * instrument.contractSize).toFixed(d)),
  };
}

// --- field builders shared by several strategies ---------------------------------------------

export const strategyMessageKeys = [
  'validation.gapPositive',
  'validation.gapRequired',
  'validation.orderTakeProfitPositive',
  'validation.orderStopLossPositive',
  'validation.maxThreeOrders',
  'validation.secondLotsRequired',
  'validation.windowEmpty',
  'validation.gridNumberMin',
  'validation.gridNumberMax',
  'validation.multiplierMin',
  'validation.refillIntervalPositive',
  'validation.refillIntervalRequired',
  'validation.orderNumberMin',
  'validation.orderNumberMax',
  'validation.cycleTakeProfitPositive',
  'validation.lookbackMin',
  'validation.atrMultiplePositive',
  'validation.nonNegative',
  'validation.rrPositive',
  'validation.periodMin',
  'validation.deviationPositive',
  'validation.rsiLevels',
] as const;

export const MAX_ORDER_NUMBER = 50;
/** Distance in points (forex) or percent of price (crypto); > 0 (spec §5). */
export const gap = () => positive('validation.gapPositive');
export const multiplier = () => num().gte(MIN_MULTIPLIER, { error: 'validation.multiplierMin' });
export const refillInterval = () => positive('validation.refillIntervalPositive');
export const orderNumber = () =>
  int().gte(1, { error: 'validation.orderNumberMin' }).lte(MAX_ORDER_NUMBER, { error: 'validation.orderNumberMax' });
export const lookback = () => int().gte(2, { error: 'validation.lookbackMin' }).lte(10_000, { error: 'validation.lookbackMin' });
export const period = () => int().gte(2, { error: 'validation.periodMin' }).lte(10_000, { error: 'validation.periodMin' });
export const nonNegative = () => num().gte(0, { error: 'validation.nonNegative' });


/** Snaps a computed size down to the step, never below the minimum. */
export function clampSize(qty: number, minQty: number, qtyStep: number): number {
  const snapped = snapToStep(qty, qtyStep);
  return snapped < minQty ? minQty : snapped;
}

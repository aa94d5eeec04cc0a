// Strategy schema (zod, from @lq/strategies/schemas) → form fields, and form values ↔ strategy
// params. The form checks the same schema as the server; this module is pure and unit-tested.
import type { z } from 'zod';
import type { Market } from './strategies';

export type FieldKind = 'number' | 'integer' | 'enum' | 'boolean' | 'date' | 'time' | 'timezone' | 'symbol' | 'distances' | 'text';
export type FieldGroup = 'basic' | 'strategy' | 'risk';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  group: FieldGroup;
  /** Absent input is fine (optional or defaulted in the schema). */
  optional: boolean;
  /** Schema default, if any. */
  defaultValue?: unknown;
  options?: string[];
  min?: number;
  max?: number;
  /** Shown value = param × scale (fee rates are typed in percent). */
  scale?: number;
}

export type FormValues = Record<string, string | boolean>;

interface Def {
  type: string;
  innerType?: Schema;
  out?: Schema;
  in?: Schema;
  element?: Schema;
  defaultValue?: unknown;
  entries?: Record<string, string>;
}
interface Schema {
  _zod: { def: Def };
  format?: string | null;
  minValue?: number | null;
  maxValue?: number | null;
  shape?: Record<string, Schema>;
}

/** Fields the page sets itself, never typed by the user. */
const HIDDEN = new Set(['market']);
const BASIC = ['symbol', 'interval', 'capital', 'leverage', 'side', 'useAiIndicator', 'addImmediately', 'start', 'end', 'timezone'];
const RISK = ['takeProfit', 'stopLoss', 'unit', 'spread', 'makerFee', 'takerFee'];
const STRING_KINDS: Record<string, FieldKind> = { symbol: 'symbol', start: 'date', end: 'date', timezone: 'timezone', windowStart: 'time', windowEnd: 'time' };
const SCALE: Record<string, number> = { makerFee: 100, takerFee: 100 };

function describe(name: string, schema: Schema): FieldSpec {
  let s: Schema | undefined = schema;
  let optional = false;
  let defaultValue: unknown;
  let kind: FieldKind = 'text';
  let options: string[] | undefined;
  let min: number | undefined;
  let max: number | undefined;
  while (s) {
    const def: Def = s._zod.def;
    if (def.type === 'optional' || def.type === 'nullable') {
      optional = true;
      s = def.innerType;
    } else if (def.type === 'default') {
      optional = true;
      defaultValue = def.defaultValue;
      s = def.innerType;
    } else if (def.type === 'pipe') {
      s = def.out;
    } else if (def.type === 'array') {
      kind = 'distances';
      break;
    } else if (def.type === 'number') {
      kind = s.format === 'safeint' || s.format === 'int32' ? 'integer' : 'number';
      min = typeof s.minValue === 'number' && Number.isFinite(s.minValue) ? s.minValue : undefined;
      max = typeof s.maxValue === 'number' && Number.isFinite(s.maxValue) ? s.maxValue : undefined;
      break;
    } else if (def.type === 'enum') {
      kind = 'enum';
      options = Object.values(def.entries ?? {});
      break;
    } else if (def.type === 'boolean') {
      kind = 'boolean';
      break;
    } else {
      kind = STRING_KINDS[name] ?? 'text';
      break;
    }
  }
  const group: FieldGroup = BASIC.includes(name) ? 'basic' : RISK.includes(name) ? 'risk' : 'strategy';
  const spec: FieldSpec = { name, kind, group, optional };
  if (defaultValue !== undefined) spec.defaultValue = defaultValue;
  if (options) spec.options = options;
  if (min !== undefined) spec.min = min;
  if (max !== undefined) spec.max = max;
  if (SCALE[name]) spec.scale = SCALE[name];
  return spec;
}

/**
 * The fields of a strategy form in display order: basic, the strategy's own, then risk and fees.
 * `spread` is forex only, `unit` crypto only.
 */
export function describeFields(schema: z.ZodType, market: Market): FieldSpec[] {
  const shape = (schema as unknown as Schema).shape ?? {};
  const all = Object.entries(shape)
    .filter(([name]) => !HIDDEN.has(name))
    .filter(([name]) => !(market === 'crypto' && name === 'spread') && !(market === 'forex' && name === 'unit'))
    .map(([name, s]) => describe(name, s));
  const rank = (f: FieldSpec) => (f.group === 'basic' ? BASIC.indexOf(f.name) : f.group === 'strategy' ? 100 : 200 + RISK.indexOf(f.name));
  return all.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
}

export const DISTANCE_SLOTS = 3;
export const slotName = (name: string, i: number) => `${name}__${i}`;

const scaled = (n: number, scale = 1) => (scale === 1 ? n : Number((n * scale).toPrecision(12)));

/** A param value as the text of its input. */
function toText(value: unknown, scale?: number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(scaled(value, scale)) : '';
  if (typeof value === 'string') return value;
  return '';
}

/** Form values from params (a preset, a prefill, the schema defaults). Missing fields are empty. */
export function valuesFromParams(fields: FieldSpec[], params: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const f of fields) {
    const v = params[f.name] !== undefined ? params[f.name] : f.defaultValue;
    if (f.kind === 'boolean') values[f.name] = v === true;
    else if (f.kind === 'distances') {
      const list = Array.isArray(v) ? (v as unknown[]) : typeof v === 'number' ? [v, v, v] : [];
      for (let i = 0; i < DISTANCE_SLOTS; i++) values[slotName(f.name, i)] = toText(list[i], f.scale);
    } else values[f.name] = toText(v, f.scale);
  }
  return values;
}

/** Params for the schema from form values: numbers parsed (NaN kept so the schema names it), empty → absent. */
export function paramsFromValues(fields: FieldSpec[], values: FormValues): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const text = (name: string) => {
    const v = values[name];
    return typeof v === 'string' ? v.trim().replace(/,/g, '') : '';
  };
  for (const f of fields) {
    if (f.kind === 'boolean') {
      params[f.name] = values[f.name] === true;
    } else if (f.kind === 'number' || f.kind === 'integer') {
      const s = text(f.name);
      if (s !== '') params[f.name] = f.scale ? Number((Number(s) / f.scale).toPrecision(12)) : Number(s);
    } else if (f.kind === 'distances') {
      const list: (number | null)[] = [];
      for (let i = 0; i < DISTANCE_SLOTS; i++) {
        const s = text(slotName(f.name, i));
        list.push(s === '' ? null : Number(s));
      }
      while (list.length && list[list.length - 1] === null) list.pop();
      if (list.length) params[f.name] = list;
    } else {
      const s = text(f.name);
      if (s !== '') params[f.name] = s;
    }
  }
  return params;
}

export interface Issue {
  path: PropertyKey[];
  message: string;
}

/** Form field of a schema issue: `orderTakeProfit.1` → `orderTakeProfit__1`. */
export function fieldOfIssue(issue: Issue, fields: FieldSpec[]): string {
  const [head, index] = issue.path;
  const name = typeof head === 'string' ? head : '';
  const field = fields.find((f) => f.name === name);
  if (field?.kind === 'distances') return slotName(name, typeof index === 'number' ? index : 0);
  return name || 'root';
}

/** i18n key of a schema message: our validation keys as they are, anything else "invalid". */
export const messageKey = (message: string) => (/^validation\.[A-Za-z0-9]+$/.test(message) ? message : 'validation.invalid');

export type CheckResult = { ok: true; params: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** Checks form values with the strategy schema; errors are message keys per form field (first one wins). */
export function checkValues(schema: z.ZodType, fields: FieldSpec[], values: FormValues, fixed: Record<string, unknown>): CheckResult {
  const params = { ...paramsFromValues(fields, values), ...fixed };
  const result = schema.safeParse(params);
  if (result.success) return { ok: true, params: result.data as Record<string, unknown> };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = fieldOfIssue(issue, fields);
    errors[field] ??= messageKey(issue.message);
  }
  return { ok: false, errors };
}

/** What we fill in when neither a preset nor the query says otherwise (points for forex, % for crypto). */
export function starterParams(market: Market): Record<string, unknown> {
  const forex = market === 'forex';
  return {
    capital: 10_000,
    leverage: forex ? 100 : 5,
    firstLots: forex ? 0.1 : 1,
    lotsPerGrid: forex ? 0.1 : 1,
    gridNumber: 10,
    gap: forex ? 100 : 0.5,
    multiplier: 1.5,
    refillInterval: forex ? 200 : 1,
    orderNumber: 3,
    cycleTakeProfit: forex ? 100 : 1,
    orderTakeProfit: forex ? [300] : [2],
    orderStopLoss: forex ? [200] : [1],
    spread: forex ? 10 : undefined,
    interval: '1h',
  };
}

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Default backtest range: the last `days` days of the symbol's data (UTC dates), clipped to where
 * the data starts; without a known range, the last `days` days before `now`.
 */
export function defaultRange(dataFrom: number | undefined, dataTo: number | undefined, now: number, days = 90): { start: string; end: string } {
  const end = dataTo !== undefined && Number.isFinite(dataTo) ? dataTo : now;
  let start = end - days * DAY;
  if (dataFrom !== undefined && Number.isFinite(dataFrom) && start < dataFrom) start = Math.ceil(dataFrom / DAY) * DAY;
  return { start: isoDay(start), end: isoDay(end) };
}

/** Reads `params` of the query (JSON of a preset or a robot prefill); anything else → {}. */
export function parseParamsQuery(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

// ---- robots (create-order type 1) ----

/** Backtest-only fields a robot form does not show (a robot runs from now on). */
export const BACKTEST_ONLY_FIELDS = new Set(['start', 'end']);

/** The fields of the robot form: the strategy's fields without the backtest range. */
export const robotFields = (fields: FieldSpec[]): FieldSpec[] => fields.filter((f) => !BACKTEST_ONLY_FIELDS.has(f.name));

export type RobotMode = 'live' | 'paper';

export interface RobotCreateInput {
  strategy: string;
  dataSource: string;
  /** Checked strategy params (checkValues' output). */
  params: Record<string, unknown>;
  accountId: number | undefined;
  mode: RobotMode;
  /** The backtest the form was prefilled from (`?from=`), if any. */
  sourceBacktestId?: number | undefined;
}

/** Body of POST order/api/robot/create (contracts robotCreateBody) from the robot form. */
export function robotCreateBody(input: RobotCreateInput) {
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input.params)) if (!BACKTEST_ONLY_FIELDS.has(k) && k !== 'market') params[k] = v;
  const symbol = typeof input.params.symbol === 'string' ? input.params.symbol : '';
  return {
    type: 1 as const,
    strategy: input.strategy,
    dataSource: input.dataSource,
    symbol,
    params,
    mode: input.mode,
    ...(input.accountId !== undefined ? { accountId: input.accountId } : {}),
    ...(input.sourceBacktestId !== undefined && Number.isSafeInteger(input.sourceBacktestId) && input.sourceBacktestId > 0 ? { sourceBacktestId: input.sourceBacktestId } : {}),
  };
}

/** A positive integer id from a query value (`?from=12`), else undefined. */
export function idFromQuery(text: string | null): number | undefined {
  if (!text || !/^\d{1,15}$/.test(text)) return undefined;
  const n = Number(text);
  return n > 0 ? n : undefined;
}

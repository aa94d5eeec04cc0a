// Number display rules of spec §5 and ui.md: "--" for anything that is not a finite number,
// thousands separators, 万/亿 (萬/億) units in Chinese locales, signed percentages, and prices
// cut to the symbol's decimals then rounded down to its step.

export const EMPTY = '--';

/** The number a display value stands for, or undefined when it is not a finite number. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const s = value.trim().replace(/,/g, '');
    if (s === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(s)) return undefined;
    const n = Number(s);
    return Number.isFinite(n) ? n : undefined;
  }
  if (typeof value === 'bigint') return Number(value);
  return undefined;
}

/** Inserts commas every three digits of the integer part of a plain decimal string. */
export function groupThousands(plain: string): string {
  const negative = plain.startsWith('-');
  const body = negative ? plain.slice(1) : plain;
  const [int, frac] = body.split('.');
  const grouped = (int ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (negative ? '-' : '') + grouped + (frac !== undefined ? `.${frac}` : '');
}

/** Fixed-point string without exponent notation. Rounds half away from zero. */
function toFixedPlain(n: number, decimals: number): string {
  const fixed = Math.abs(n) < 1e21 ? n.toFixed(decimals) : n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: decimals, minimumFractionDigits: decimals });
  return /^-0(\.0*)?$/.test(fixed) ? fixed.slice(1) : fixed;
}

export interface NumberOptions {
  /** Fixed number of decimals; when omitted up to `maxDecimals` significant decimals are kept. */
  decimals?: number;
  maxDecimals?: number;
}

/** `1234567.8` → `1,234,567.8`; non-numbers → `--`. */
export function formatNumber(value: unknown, options: NumberOptions = {}): string {
  const n = toNumber(value);
  if (n === undefined) return EMPTY;
  if (options.decimals !== undefined) return groupThousands(toFixedPlain(n, options.decimals));
  const max = options.maxDecimals ?? 8;
  const trimmed = toFixedPlain(n, max).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return groupThousands(trimmed);
}

const CJK_UNITS: Record<'zh-CN' | 'zh-TW', [string, string]> = {
  'zh-CN': ['万', '亿'],
  'zh-TW': ['萬', '億'],
};
const WESTERN_UNITS: [number, string][] = [
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/**
 * Large amounts with units: 10 thousand (万) and 100 million (亿) in Chinese locales, K/M/B
 * elsewhere. Values below the first unit are shown in full with separators.
 */
export function formatCompact(value: unknown, locale: string, decimals = 2): string {
  const n = toNumber(value);
  if (n === undefined) return EMPTY;
  const abs = Math.abs(n);
  const cjk = locale === 'zh-CN' || locale === 'zh-TW' ? CJK_UNITS[locale] : undefined;
  const cut = (x: number) => toFixedPlain(x, decimals).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  if (cjk) {
    if (abs >= 1e8) return groupThousands(cut(n / 1e8)) + cjk[1];
    if (abs >= 1e4) return groupThousands(cut(n / 1e4)) + cjk[0];
    return formatNumber(n, { maxDecimals: decimals });
  }
  for (const [size, unit] of WESTERN_UNITS) if (abs >= size) return groupThousands(cut(n / size)) + unit;
  return formatNumber(n, { maxDecimals: decimals });
}

/** A ratio as a signed percentage: `0.1234` → `+12.34%`, `-0.05` → `-5.00%`, `0` → `0.00%`. */
export function formatPercent(ratio: unknown, decimals = 2): string {
  const n = toNumber(ratio);
  if (n === undefined) return EMPTY;
  const body = toFixedPlain(n * 100, decimals);
  const isZero = Number(body) === 0;
  const sign = isZero ? '' : n > 0 ? '+' : '';
  return `${sign}${isZero ? body.replace(/^-/, '') : body}%`;
}

/** Number of decimals of a step such as 0.001 or 1e-5. */
export function decimalsOf(step: number): number {
  if (!Number.isFinite(step) || step <= 0) return 0;
  const s = step.toString();
  const exp = /e-(\d+)$/.exec(s);
  if (exp) return Number(exp[1]) + (s.split('e')[0]?.split('.')[1]?.length ?? 0);
  return s.split('.')[1]?.length ?? 0;
}

/**
 * Price input of spec §5: cut (never rounded) to `decimals`, then rounded down to a multiple of
 * `step`. Works on decimal strings so 0.1 + 0.2 style errors cannot appear. Returns `--` for
 * non-numbers.
 */
export function formatPrice(value: unknown, decimals: number, step?: number): string {
  const n = toNumber(value);
  if (n === undefined) return EMPTY;
  const d = Math.max(0, Math.floor(decimals));
  const plain = typeof value === 'string' ? value.trim().replace(/,/g, '') : toFixedPlain(n, Math.min(20, d + 6));
  const negative = plain.startsWith('-');
  const [intPart = '0', fracPart = ''] = plain.replace(/^[-+]/, '').split('.');
  const unitsStr = (intPart.replace(/^0+(?=\d)/, '') || '0') + fracPart.padEnd(d, '0').slice(0, d);
  let units = BigInt(/e/i.test(plain) ? Math.trunc(Math.abs(n) * 10 ** d).toString() : unitsStr);
  if (step !== undefined && step > 0) {
    const stepUnits = BigInt(Math.max(1, Math.round(step * 10 ** d)));
    units = (units / stepUnits) * stepUnits;
  }
  const digits = units.toString().padStart(d + 1, '0');
  const body = d > 0 ? `${digits.slice(0, -d)}.${digits.slice(-d)}` : digits;
  return (negative && units !== 0n ? '-' : '') + body;
}

/**
 * BCP 47 tag of an app locale for Intl (in_ID is spelled as the spec spells it; Intl wants id-ID),
 * always in the Gregorian calendar: Thai would otherwise show Buddhist-era years (2563) beside the
 * date fields, which are Gregorian — one calendar per screen. Number formats ignore the extension.
 */
export const localeTag = (locale: string): string => `${locale === 'in_ID' ? 'id-ID' : locale}-u-ca-gregory`;

/** A moment as the locale writes a date and time (medium date, short time, Gregorian): "Dec 3, 2026, 8:14 AM". */
export const formatDateTime = (at: string | number | Date, locale: string): string =>
  new Intl.DateTimeFormat(localeTag(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at));

/**
 * A duration in the locale's own words and units (days from 1 d, hours from 1 h, else minutes):
 * "17.5 days" / "17.5天" / "17,5 ngày", never a hard-coded "d" or "min".
 */
export function formatDuration(ms: unknown, locale: string): string {
  const n = toNumber(ms);
  if (n === undefined) return EMPTY;
  const [value, unit, digits] = n >= 86_400_000 ? [n / 86_400_000, 'day', 1] : n >= 3_600_000 ? [n / 3_600_000, 'hour', 1] : [n / 60_000, 'minute', 0];
  try {
    return new Intl.NumberFormat(localeTag(locale), { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: digits }).format(value);
  } catch {
    return `${formatNumber(value, { decimals: digits })} ${unit}`;
  }
}

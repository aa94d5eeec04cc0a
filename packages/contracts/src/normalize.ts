// Spec §7: full-width characters in data values are converted to half-width. Applied deeply to
// string values (never to keys) of bodies and query strings before validation.

const FULLWIDTH_START = 0xff01; // ！
const FULLWIDTH_END = 0xff5e; // ～
const FULLWIDTH_OFFSET = 0xfee0;
const IDEOGRAPHIC_SPACE = 0x3000;

/** Full-width ASCII variants (U+FF01–U+FF5E) and the ideographic space to their ASCII forms. */
export function toHalfWidth(value: string): string {
  let changed = false;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= FULLWIDTH_START && c <= FULLWIDTH_END) {
      out += String.fromCharCode(c - FULLWIDTH_OFFSET);
      changed = true;
    } else if (c === IDEOGRAPHIC_SPACE) {
      out += ' ';
      changed = true;
    } else {
      out += value[i];
    }
  }
  return changed ? out : value;
}

/** Deep copy of `value` with every string value converted to half-width. */
export function normalizeFullWidth<T>(value: T): T {
  return normalizeAny(value, 0) as T;
}

const MAX_DEPTH = 64;

function normalizeAny(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return toHalfWidth(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => normalizeAny(v, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = normalizeAny(v, depth + 1);
  return out;
}

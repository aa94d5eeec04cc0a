// Hand-rolled CSV scanner for candle files: one pass over the characters, no split(), no regex,
// no per-row objects. Formats:
//  - common:   header `time,open,high,low,close,volume` (any order, extra columns ignored), ms UTC
//  - Binance:  kline dumps without header (open_time,open,high,low,close,volume,close_time,…),
//              open_time in ms or µs (µs → ms)
//  - MT5:      history export `<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>`
//              (`<TIME>` optional on daily exports), times as exported (treated as UTC)
// Times may also be seconds (< 1e11 → ×1000) or text dates (`2012-02-01 00:00:00+00:00`).
import type { Candles } from './types';

export class CandleParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(line > 0 ? `line ${line}: ${message}` : message);
    this.name = 'CandleParseError';
  }
}

export type CandleFormat = 'common' | 'binance' | 'mt5';

const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

const TIME_NAMES = new Set(['time', 'timestamp', 'open_time', 'opentime', 'date', 'datetime', 'ts']);
const COLS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

interface Layout {
  format: CandleFormat;
  sep: number;
  /** Column index of time, open, high, low, close, volume (volume −1 = absent). */
  col: Int32Array;
  /** MT5: column of `<TIME>` (−1 when the export has only dates). */
  timeOfDayCol: number;
  headerLines: number;
}

function detectLayout(firstLine: string): Layout {
  const sep = firstLine.includes('\t') ? 9 : firstLine.includes(',') ? 44 : firstLine.includes(';') ? 59 : 44;
  const names = firstLine.split(String.fromCharCode(sep)).map((s) => s.trim().toLowerCase());
  if (names[0]?.startsWith('<date>')) {
    const find = (n: string) => names.indexOf(`<${n}>`);
    const vol = find('tickvol') >= 0 ? find('tickvol') : find('vol');
    const col = Int32Array.from([find('date'), find('open'), find('high'), find('low'), find('close'), vol]);
    for (let k = 1; k < 5; k++) if (col[k] < 0) throw new CandleParseError(`MT5 header lacks <${COLS[k].toUpperCase()}>`, 1);
    return { format: 'mt5', sep, col, timeOfDayCol: find('time'), headerLines: 1 };
  }
  const first = firstLine.charCodeAt(0);
  if ((first >= 48 && first <= 57) || first === 45 || first === 43) {
    // No header: Binance kline layout (and any time,o,h,l,c[,v] file).
    if (names.length < 5) throw new CandleParseError(`expected at least 5 columns (time,open,high,low,close), got ${names.length}`, 1);
    return { format: 'binance', sep, col: Int32Array.from([0, 1, 2, 3, 4, names.length > 5 ? 5 : -1]), timeOfDayCol: -1, headerLines: 0 };
  }
  const col = new Int32Array(6).fill(-1);
  names.forEach((raw, i) => {
    const n = raw.replace(/^"|"$/g, '');
    if (TIME_NAMES.has(n) && col[0] < 0) col[0] = i;
    const k = (COLS as readonly string[]).indexOf(n);
    if (k > 0 && col[k] < 0) col[k] = i;
    if ((n === 'vol' || n === 'tickvol') && col[5] < 0) col[5] = i;
  });
  for (let k = 0; k < 5; k++) {
    if (col[k] < 0) throw new CandleParseError(`header has no "${COLS[k]}" column (found: ${names.join(',')})`, 1);
  }
  return { format: 'common', sep, col, timeOfDayCol: -1, headerLines: 1 };
}

/** ms since epoch of a proleptic Gregorian UTC date. */
function utcMs(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const yy = mo <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return ((era * 146097 + doe - 719468) * 86400 + h * 3600 + mi * 60 + s) * 1000;
}

const DATE_TEXT = /^(\d{4})[-./](\d{2})[-./](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/** Parses a text date (`2024-01-02 03:04:05+00:00`, `2024.01.02`, …) to ms UTC, NaN if not a date. */
export function parseDateText(text: string): number {
  const m = DATE_TEXT.exec(text.trim().replace(/^"|"$/g, ''));
  if (!m) return NaN;
  const num = (i: number) => (m[i] === undefined ? 0 : Number(m[i]));
  const [y, mo, d, h, mi, s] = [num(1), num(2), num(3), num(4), num(5), num(6)];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return NaN;
  const frac = m[7] === undefined ? 0 : Math.round(Number(`0.${m[7]}`) * 1000);
  let offset = 0;
  const tz = m[8];
  if (tz !== undefined && tz !== 'Z') {
    const digits = tz.slice(1).replace(':', '');
    offset = (tz[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return utcMs(y, mo, d, h, mi, s) + frac - offset;
}

/** Seconds → ms, µs → ms, ms unchanged. */
function normaliseEpoch(t: number): number {
  if (t >= 1e14) return Math.floor(t / 1000);
  if (t < 1e11) return t * 1000;
  return t;
}

export interface ParseOptions {
  /** Candle duration; inferred from the smallest time step when omitted. */
  intervalMs?: number;
}

/**
 * Parses candle CSV text into columns. Throws `CandleParseError` naming the line on a malformed
 * number, a non-increasing time or an OHLC row that is not a candle (high < max(open, close), …).
 */
export function parseCandlesCsv(text: string, intervalMs?: number): Candles & { format: CandleFormat } {
  let firstEnd = text.indexOf('\n');
  if (firstEnd < 0) firstEnd = text.length;
  let firstLine = text.slice(0, firstEnd);
  if (firstLine.charCodeAt(0) === 0xfeff) firstLine = firstLine.slice(1);
  firstLine = firstLine.replace(/\r$/, '');
  if (firstLine.trim() === '') throw new CandleParseError('empty file: no candles', 0);
  const layout = detectLayout(firstLine);

  // Exact row capacity: count line ends.
  let capacity = 1;
  for (let p = text.indexOf('\n'); p >= 0; p = text.indexOf('\n', p + 1)) capacity++;
  const time = new Float64Array(capacity);
  const open = new Float64Array(capacity);
  const high = new Float64Array(capacity);
  const low = new Float64Array(capacity);
  const close = new Float64Array(capacity);
  const volume = new Float64Array(capacity);

  const len = text.length;
  const sep = layout.sep;
  const col = layout.col;
  const lastWanted = Math.max(col[0], col[1], col[2], col[3], col[4], col[5], layout.timeOfDayCol);
  const isMt5 = layout.format === 'mt5';
  let pos = layout.headerLines > 0 ? (firstEnd < len ? firstEnd + 1 : len) : 0;
  if (layout.headerLines === 0 && text.charCodeAt(0) === 0xfeff) pos = 1;
  let line = layout.headerLines;
  let n = 0;
  let prevTime = -Infinity;
  const fields = new Float64Array(8);

  const fail = (msg: string): never => {
    throw new CandleParseError(msg, line);
  };
  const fieldText = (start: number): string => {
    let e = start;
    while (e < len) {
      const ch = text.charCodeAt(e);
      if (ch === sep || ch === 10 || ch === 13) break;
      e++;
    }
    return text.slice(start, e);
  };

  /** Reads a decimal number at `pos`, leaving `pos` on the character after it. NaN when malformed. */
  const readNumber = (): number => {
    const start = pos;
    let ch = text.charCodeAt(pos);
    let neg = false;
    if (ch === 45 || ch === 43) {
      neg = ch === 45;
      ch = text.charCodeAt(++pos);
    }
    let mant = 0;
    let digits = 0;
    let scale = 0;
    while (ch >= 48 && ch <= 57) {
      mant = mant * 10 + (ch - 48);
      digits++;
      ch = text.charCodeAt(++pos);
    }
    if (ch === 46) {
      ch = text.charCodeAt(++pos);
      while (ch >= 48 && ch <= 57) {
        mant = mant * 10 + (ch - 48);
        digits++;
        scale++;
        ch = text.charCodeAt(++pos);
      }
    }
    if (digits === 0) return NaN;
    if (ch === 101 || ch === 69 || digits > 15) {
      // Rare: exponent or more digits than a double holds exactly; let the runtime round.
      while (pos < len) {
        ch = text.charCodeAt(pos);
        if (ch === sep || ch === 10 || ch === 13) break;
        pos++;
      }
      return Number(text.slice(start, pos));
    }
    // mant < 2^53 and 10^scale exact: one correctly rounded division gives the nearest double.
    const v = scale === 0 ? mant : mant / POW10[scale];
    return neg ? -v : v;
  };

  while (pos < len) {
    let ch = text.charCodeAt(pos);
    if (ch === 13) {
      pos++;
      continue;
    }
    line++;
    if (ch === 10) {
      pos++; // blank line
      continue;
    }
    let t = NaN;
    let timeOfDay = 0;
    fields[5] = 0;
    for (let c = 0; c <= lastWanted; c++) {
      const fieldStart = pos;
      if (c === col[0]) {
        if (isMt5) {
          t = parseDateText(fieldText(pos));
          pos += fieldText(pos).length;
        } else {
          t = readNumber();
          ch = text.charCodeAt(pos);
          if (ch !== sep && ch !== 10 && ch !== 13 && pos < len) {
            // Not a plain number: a text date.
            pos = fieldStart;
            const ft = fieldText(pos);
            pos += ft.length;
            t = parseDateText(ft);
          } else {
            t = normaliseEpoch(t);
          }
        }
        if (Number.isNaN(t)) fail(`invalid time "${fieldText(fieldStart)}"`);
      } else if (c === layout.timeOfDayCol) {
        const ft = fieldText(pos);
        pos += ft.length;
        const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(ft.trim());
        if (!m) fail(`invalid <TIME> "${ft}"`);
        timeOfDay = ((Number(m![1]) * 60 + Number(m![2])) * 60 + Number(m![3] ?? 0)) * 1000;
      } else {
        let k = 1;
        while (k < 6 && col[k] !== c) k++;
        if (k < 6) {
          const v = readNumber();
          ch = text.charCodeAt(pos);
          if (Number.isNaN(v) || (ch !== sep && ch !== 10 && ch !== 13 && pos < len)) {
            fail(`invalid ${COLS[k]} "${fieldText(fieldStart)}"`);
          }
          fields[k] = v;
        } else {
          while (pos < len) {
            ch = text.charCodeAt(pos);
            if (ch === sep || ch === 10 || ch === 13) break;
            pos++;
          }
        }
      }
      if (c < lastWanted) {
        if (text.charCodeAt(pos) !== sep) fail(`expected ${lastWanted + 1} columns, found ${c + 1}`);
        pos++;
      }
    }
    // Skip the rest of the line.
    while (pos < len && text.charCodeAt(pos) !== 10) pos++;
    pos++;

    t += timeOfDay;
    const o = fields[1];
    const h = fields[2];
    const l = fields[3];
    const cl = fields[4];
    if (t <= prevTime) fail(`time ${t} is not after the previous row's ${prevTime} (rows must be strictly increasing)`);
    if (!(o > 0 && h > 0 && l > 0 && cl > 0)) fail('prices must be > 0');
    if (h < o || h < cl || l > o || l > cl || h < l) fail(`not a candle: high ${h} / low ${l} do not contain open ${o} and close ${cl}`);
    time[n] = t;
    open[n] = o;
    high[n] = h;
    low[n] = l;
    close[n] = cl;
    volume[n] = fields[5];
    prevTime = t;
    n++;
  }
  if (n === 0) throw new CandleParseError('no candles in the file', 0);

  let interval = intervalMs ?? 0;
  if (!(interval > 0)) {
    let min = Infinity;
    for (let i = 1; i < n; i++) {
      const d = time[i] - time[i - 1];
      if (d < min) min = d;
    }
    interval = Number.isFinite(min) ? min : 60_000;
  }
  const fit = (a: Float64Array) => (n === capacity ? a : a.slice(0, n));
  return {
    format: layout.format,
    length: n,
    intervalMs: interval,
    time: fit(time),
    open: fit(open),
    high: fit(high),
    low: fit(low),
    close: fit(close),
    volume: fit(volume),
  };
}

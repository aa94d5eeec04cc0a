// Columnar candles: construction, CSV parsing, resampling and slicing. Pure (no I/O).
import type { Candles } from './types';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** The decision intervals of the `tacticsInterval` dictionary. */
export const INTERVAL_MS = {
  '1m': MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
  '1h': HOUR_MS,
  '4h': 4 * HOUR_MS,
  '1d': DAY_MS,
} as const;
export type IntervalName = keyof typeof INTERVAL_MS;

/** "1h" → 3 600 000; throws on an unknown interval. */
export function intervalToMs(name: string): number {
  const ms = (INTERVAL_MS as Record<string, number>)[name];
  if (ms === undefined) throw new Error(`Unknown interval "${name}" (expected one of ${Object.keys(INTERVAL_MS).join(', ')})`);
  return ms;
}

export function intervalName(ms: number): string {
  for (const [name, value] of Object.entries(INTERVAL_MS)) if (value === ms) return name;
  return `${ms}ms`;
}

/** Allocates empty candle columns with room for `capacity` rows. */
export function allocCandles(capacity: number, intervalMs: number, length = capacity): Candles {
  return {
    length,
    intervalMs,
    time: new Float64Array(capacity),
    open: new Float64Array(capacity),
    high: new Float64Array(capacity),
    low: new Float64Array(capacity),
    close: new Float64Array(capacity),
    volume: new Float64Array(capacity),
  };
}

/** Builds candles from row objects (tests, small inputs). */
export function candlesFromRows(
  rows: readonly { time: number; open: number; high: number; low: number; close: number; volume?: number }[],
  intervalMs: number,
): Candles {
  const c = allocCandles(rows.length, intervalMs);
  rows.forEach((r, i) => {
    c.time[i] = r.time;
    c.open[i] = r.open;
    c.high[i] = r.high;
    c.low[i] = r.low;
    c.close[i] = r.close;
    c.volume[i] = r.volume ?? 0;
  });
  return c;
}

/** Rows [from, to) as views on the same buffers (no copy). */
export function sliceRows(c: Candles, from: number, to: number): Candles {
  const a = Math.max(0, Math.min(from, c.length));
  const b = Math.max(a, Math.min(to, c.length));
  return {
    length: b - a,
    intervalMs: c.intervalMs,
    time: c.time.subarray(a, b),
    open: c.open.subarray(a, b),
    high: c.high.subarray(a, b),
    low: c.low.subarray(a, b),
    close: c.close.subarray(a, b),
    volume: c.volume.subarray(a, b),
  };
}

/** First row index with time ≥ t (binary search; time is ascending). */
export function lowerBound(time: Float64Array, length: number, t: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Candles whose open time is in [fromMs, toMs) — no copy. Omitted bounds are open. */
export function sliceByTime(c: Candles, fromMs?: number, toMs?: number): Candles {
  const a = fromMs === undefined ? 0 : lowerBound(c.time, c.length, fromMs);
  const b = toMs === undefined ? c.length : lowerBound(c.time, c.length, toMs);
  return sliceRows(c, a, b);
}

/**
 * Result of `resampleWithIndex`: the coarse candles and, per coarse row, the last source row in it
 * (null when the interval is the source's own: row k is source row k).
 */
export interface Resampled {
  readonly candles: Candles;
  readonly lastSourceIndex: Int32Array | null;
}

/**
 * Aggregates candles into buckets of `intervalMs` aligned to the epoch shifted by `offsetMs`
 * (e.g. a day starting at local midnight). A bucket exists when at least one source row falls in it.
 */
export function resampleWithIndex(c: Candles, intervalMs: number, offsetMs = 0): Resampled {
  if (!(intervalMs > 0)) throw new Error(`Invalid interval ${intervalMs}`);
  if (intervalMs < c.intervalMs || intervalMs % c.intervalMs !== 0) {
    throw new Error(`Cannot resample ${intervalName(c.intervalMs)} candles to ${intervalName(intervalMs)}`);
  }
  const n = c.length;
  if (intervalMs === c.intervalMs && offsetMs === 0) return { candles: c, lastSourceIndex: null };
  // Upper bound on buckets: every source row could start a bucket.
  const out = allocCandles(n, intervalMs);
  const last = new Int32Array(n);
  const { time, open, high, low, close, volume } = c;
  let k = -1;
  let bucketEnd = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = time[i];
    if (t >= bucketEnd) {
      k++;
      const start = Math.floor((t - offsetMs) / intervalMs) * intervalMs + offsetMs;
      bucketEnd = start + intervalMs;
      out.time[k] = start;
      out.open[k] = open[i];
      out.high[k] = high[i];
      out.low[k] = low[i];
      out.close[k] = close[i];
      out.volume[k] = volume[i];
    } else {
      if (high[i] > out.high[k]) out.high[k] = high[i];
      if (low[i] < out.low[k]) out.low[k] = low[i];
      out.close[k] = close[i];
      out.volume[k] += volume[i];
    }
    last[k] = i;
  }
  const length = k + 1;
  return {
    candles: {
      length,
      intervalMs,
      time: out.time.slice(0, length),
      open: out.open.slice(0, length),
      high: out.high.slice(0, length),
      low: out.low.slice(0, length),
      close: out.close.slice(0, length),
      volume: out.volume.slice(0, length),
    },
    lastSourceIndex: last.slice(0, length),
  };
}

/** Resamples to any interval that is a multiple of the input's (1m → 5m 15m 30m 1h 4h 1d). */
export function resample(c: Candles, intervalMs: number, offsetMs = 0): Candles {
  return resampleWithIndex(c, intervalMs, offsetMs).candles;
}

/** A copy of the valid rows into fresh, exactly sized columns. */
export function compactCandles(c: Candles): Candles {
  return {
    length: c.length,
    intervalMs: c.intervalMs,
    time: c.time.slice(0, c.length),
    open: c.open.slice(0, c.length),
    high: c.high.slice(0, c.length),
    low: c.low.slice(0, c.length),
    close: c.close.slice(0, c.length),
    volume: c.volume.slice(0, c.length),
  };
}

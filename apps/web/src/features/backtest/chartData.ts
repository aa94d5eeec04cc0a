// Data shaping for the charts (pure, unit-tested): candles, equity points, trade markers,
// downsampling, and the up/down colour convention.
import type { KlineMarker } from '@lq/contracts';

export interface CandlePoint {
  time: number; // seconds (lightweight-charts UTCTimestamp)
  open: number;
  high: number;
  low: number;
  close: number;
}
export interface LinePoint {
  time: number; // seconds
  value: number;
}
export interface MarkerPoint {
  time: number; // seconds
  position: 'aboveBar' | 'belowBar';
  shape: 'arrowUp' | 'arrowDown' | 'circle';
  color: string;
  text: string;
  id: string;
}

export interface UpDown {
  up: string;
  down: string;
}
const GREEN = '#2ebd85';
const RED = '#f6465d';
/** ui.md: green up / red down by default; red up / green down in Chinese locales. */
export function upDownColors(locale: string, flipped = false): UpDown {
  const chinese = locale === 'zh-CN' || locale === 'zh-TW';
  return chinese !== flipped ? { up: RED, down: GREEN } : { up: GREEN, down: RED };
}

const sec = (ms: number) => Math.floor(ms / 1000);

/** `[ms, o, h, l, c, v]` rows → candles in seconds, strictly ascending (duplicates dropped). */
export function toCandles(rows: readonly (readonly number[])[]): CandlePoint[] {
  const out: CandlePoint[] = [];
  for (const r of rows) {
    const time = sec(r[0] ?? NaN);
    const [open, high, low, close] = [r[1], r[2], r[3], r[4]];
    if (!Number.isFinite(time) || ![open, high, low, close].every((x) => typeof x === 'number' && Number.isFinite(x))) continue;
    const last = out[out.length - 1];
    if (last && time <= last.time) continue;
    out.push({ time, open: open, high: high, low: low, close: close });
  }
  return out;
}

/** `[ms, equity]` pairs → line points in seconds, strictly ascending (a later duplicate replaces the earlier). */
export function toLine(points: readonly (readonly number[])[]): LinePoint[] {
  const out: LinePoint[] = [];
  for (const p of points) {
    const time = sec(p[0] ?? NaN);
    const value = p[1];
    if (!Number.isFinite(time) || typeof value !== 'number' || !Number.isFinite(value)) continue;
    const last = out[out.length - 1];
    if (last && time < last.time) continue;
    if (last && time === last.time) last.value = value;
    else out.push({ time, value });
  }
  return out;
}

/**
 * Largest-Triangle-Three-Buckets: keeps the shape of a curve with `threshold` points (first and
 * last always kept). Returns the input when it is already small enough.
 */
export function downsample(points: LinePoint[], threshold: number): LinePoint[] {
  const n = points.length;
  if (threshold >= n || threshold < 3) return points.slice();
  const out: LinePoint[] = [points[0]];
  const every = (n - 2) / (threshold - 2);
  let a = 0;
  for (let i = 0; i < threshold - 2; i++) {
    const start = Math.floor(i * every) + 1;
    const end = Math.min(Math.floor((i + 1) * every) + 1, n - 1);
    const nextStart = end;
    const nextEnd = Math.min(Math.floor((i + 2) * every) + 1, n);
    let avgT = 0;
    let avgV = 0;
    const count = Math.max(1, nextEnd - nextStart);
    for (let j = nextStart; j < nextEnd; j++) {
      avgT += points[j].time;
      avgV += points[j].value;
    }
    avgT /= count;
    avgV /= count;
    const pa = points[a];
    let best = start;
    let bestArea = -1;
    for (let j = start; j < end; j++) {
      const p = points[j];
      const area = Math.abs((pa.time - avgT) * (p.value - pa.value) - (pa.time - p.time) * (avgV - pa.value));
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    out.push(points[best]);
    a = best;
  }
  out.push(points[n - 1]);
  return out;
}

/**
 * Trade markers of ui.md: entries ▲ (long, below the bar) / ▼ (short, above the bar), exits ●
 * coloured by the trade's result. Sorted by time as lightweight-charts requires.
 */
export function buildMarkers(markers: readonly KlineMarker[], colors: UpDown, maxLabels = 60): MarkerPoint[] {
  // Trade numbers help with a few trades and clutter the chart with many.
  const labels = markers.length <= maxLabels;
  return markers
    .map((m): MarkerPoint => {
      const time = sec(m.time);
      if (m.kind === 'entry') {
        const long = m.side === 'long';
        return { time, id: `e${m.trade}-${m.at}`, position: long ? 'belowBar' : 'aboveBar', shape: long ? 'arrowUp' : 'arrowDown', color: long ? colors.up : colors.down, text: labels ? `#${m.trade}` : '' };
      }
      const win = (m.pnl ?? 0) >= 0;
      return { time, id: `x${m.trade}-${m.at}`, position: m.side === 'long' ? 'aboveBar' : 'belowBar', shape: 'circle', color: win ? colors.up : colors.down, text: '' };
    })
    .sort((a, b) => a.time - b.time);
}

/** Price format of the chart from the instrument's digits. */
export const priceFormat = (digits: number) => {
  const precision = Math.max(0, Math.min(10, Math.floor(Number.isFinite(digits) ? digits : 2)));
  return { type: 'price' as const, precision, minMove: 1 / 10 ** precision };
};

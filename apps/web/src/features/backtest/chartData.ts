// Data shaping for the charts (pure, unit-tested): candles, equity points, trade markers,
// downsampling, and the up/down colour convention.
import { KLINE_INTERVALS, KLINE_MAX_CANDLES, klineIntervalFor, type BacktestKline, type KlineMarker, type KlineMarkerGroup } from '@lq/contracts';

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
  /** lightweight-charts' marker size (1 = default); groups grow with their count. */
  size?: number;
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

const NEUTRAL = '#848e9c';

/**
 * One marker per grouped bar: ▲ below the bar when it bought more than it sold, ▼ above when it
 * sold more, a grey ● when even; the count as text while few enough groups are shown to read it.
 */
export function buildGroupMarkers(groups: readonly KlineMarkerGroup[], colors: UpDown, maxLabels = 120): MarkerPoint[] {
  const labels = groups.length <= maxLabels;
  return groups.map((g): MarkerPoint => {
    const net = g.buys - g.sells;
    const size = Math.min(2.5, 1 + Math.log10(g.count) / 2);
    const text = labels ? String(g.count) : '';
    const id = `g${g.time}`;
    const time = sec(g.time);
    if (net > 0) return { time, id, position: 'belowBar', shape: 'arrowUp', color: colors.up, text, size };
    if (net < 0) return { time, id, position: 'aboveBar', shape: 'arrowDown', color: colors.down, text, size };
    return { time, id, position: 'aboveBar', shape: 'circle', color: NEUTRAL, text, size };
  });
}

/** Exact and grouped markers of one K-line answer, in time order as lightweight-charts requires. */
export function klineMarkerPoints(kline: Pick<BacktestKline, 'markers' | 'groups'>, colors: UpDown): MarkerPoint[] {
  return [...buildMarkers(kline.markers, colors), ...buildGroupMarkers(kline.groups, colors)].sort((a, b) => a.time - b.time);
}

/**
 * The equity curve on the candles' own bars (its value at each bar's close), so the lower pane
 * adds no time points of its own between the candles.
 */
export function equityOnBars(candles: readonly CandlePoint[], equity: readonly LinePoint[], barSeconds: number): LinePoint[] {
  const out: LinePoint[] = [];
  let k = -1;
  for (const c of candles) {
    const close = c.time + barSeconds;
    while (k + 1 < equity.length && equity[k + 1].time < close) k++;
    if (k >= 0) out.push({ time: c.time, value: equity[k].value });
  }
  return out;
}

/** Pixels per bar the chart aims at when it picks an interval for what is on screen. */
export const KLINE_BAR_PX = 5;
/** Bars a chart of this width shows at the aimed spacing. */
export const barsForWidth = (widthPx: number) => Math.min(800, Math.max(30, Math.floor(widthPx / KLINE_BAR_PX)));

/** A K-line request: a window in ms (none: the whole backtest) and the candles wanted for it. */
export interface KlineWindow {
  from?: number;
  to?: number;
  maxCandles: number;
}

/**
 * What the full-screen K-line asks for after the view settles on [from, to] (ms) at `widthPx`:
 * null while the loaded answer already has the interval that view wants and covers it; otherwise
 * that view with one view-width either side (so a short pan needs nothing), in the wanted interval.
 */
export function klineRequestFor(
  view: { from: number; to: number; widthPx: number },
  loaded: Pick<BacktestKline, 'interval' | 'dataInterval' | 'from' | 'to' | 'rangeFrom' | 'rangeTo'>,
): KlineWindow | null {
  const dataMs = intervalMs(loaded.dataInterval);
  const span = Math.max(view.to - view.from, dataMs);
  const want = klineIntervalFor(span, dataMs, barsForWidth(view.widthPx));
  const covered = view.from >= loaded.from && view.to <= loaded.to;
  if (want.name === loaded.interval && covered) return null;
  const from = Math.max(loaded.rangeFrom, view.from - span);
  const to = Math.min(loaded.rangeTo, view.to + span);
  return { from, to, maxCandles: Math.min(KLINE_MAX_CANDLES, Math.max(10, Math.ceil((to - from) / want.ms) + 2)) };
}

const INTERVAL_MS = new Map<string, number>(KLINE_INTERVALS);
/** Length of a K-line interval name in ms (1m when unknown). */
export const intervalMs = (name: string) => INTERVAL_MS.get(name) ?? 60_000;

/** Price format of the chart from the instrument's digits. */
export const priceFormat = (digits: number) => {
  const precision = Math.max(0, Math.min(10, Math.floor(Number.isFinite(digits) ? digits : 2)));
  return { type: 'price' as const, precision, minMove: 1 / 10 ** precision };
};

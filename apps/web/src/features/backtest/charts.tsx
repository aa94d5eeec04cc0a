// lightweight-charts 5 wrappers. This module (and the library) is loaded lazily: only the
// report and the full-screen K-line import it, through React.lazy.
import { useEffect, useRef, useState } from 'react';
import {
  AreaSeries,
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  LineSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type MouseEventParams,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { priceFormat, type CandlePoint, type LinePoint, type MarkerPoint, type UpDown } from './chartData';
import '../../components/screens.css';

const cssVar = (name: string, fallback: string) => {
  if (typeof document === 'undefined') return fallback;
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
};

function baseOptions() {
  return {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: '#a5aeba', fontSize: 11, attributionLogo: false },
    grid: { vertLines: { color: 'rgba(43,49,57,.6)' }, horzLines: { color: 'rgba(43,49,57,.6)' } },
    crosshair: { mode: CrosshairMode.Normal },
    rightPriceScale: { borderColor: '#2b3139' },
    timeScale: { borderColor: '#2b3139', timeVisible: true, secondsVisible: false },
  };
}

const asTime = (t: number) => t as UTCTimestamp;

/** The profit curve: equity as an area in the market's accent, the capital as a dashed line. */
export function EquityChart({ points, capital, theme, locale, height = 260 }: { points: LinePoint[]; capital: number; theme: string; locale?: string; height?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const accent = cssVar('--accent', '#14b8a6');
    const chart = createChart(ref.current, { ...baseOptions(), localization: locale ? { locale } : undefined, handleScroll: false, handleScale: false });
    const series = chart.addSeries(AreaSeries, { lineColor: accent, topColor: `${accent}55`, bottomColor: `${accent}05`, lineWidth: 2, priceLineVisible: false });
    series.setData(points.map((p) => ({ time: asTime(p.time), value: p.value })));
    if (Number.isFinite(capital)) series.createPriceLine({ price: capital, color: '#848e9c', lineWidth: 1, lineStyle: 2, axisLabelVisible: true, title: '' });
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [points, capital, theme, locale]);
  return <div ref={ref} className="bt-chart" style={{ height }} data-testid="equity-chart" data-points={points.length} />;
}

export interface KlineView {
  /** Visible time range, ms. */
  from: number;
  to: number;
  /** Width of the plot area, px. */
  widthPx: number;
}

export interface KlineChartProps {
  candles: CandlePoint[];
  markers: MarkerPoint[];
  equity?: LinePoint[];
  digits: number;
  colors: UpDown;
  /** BCP 47 locale of the time and price axes (the app's, not the browser's). */
  locale?: string;
  /** A new value fits the chart to its data once that data is shown; otherwise the view is kept. */
  fitKey?: number;
  /** Receives the chart so the page can offer "fit". */
  onReady?: (chart: IChartApi | null) => void;
  /** The view after it settled (zoom, pan, resize). */
  onViewChange?: (view: KlineView) => void;
  /** Bar under the crosshair (open time, ms), null when the crosshair leaves. */
  onHover?: (time: number | null) => void;
}

const SETTLE_MS = 250;

/**
 * Candles with entry ▲▼ and exit ● markers (or per-bar groups); the equity curve in a pane under
 * the price (ui.md). The chart is created once: new data replaces the series' data and keeps the
 * user's view, so the page can load finer candles for what is on screen.
 */
export function KlineChart({ candles, markers, equity, digits, colors, locale, fitKey = 0, onReady, onViewChange, onHover }: KlineChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onReady, onViewChange, onHover });
  useEffect(() => {
    callbacks.current = { onReady, onViewChange, onHover };
  });
  const parts = useRef<{ chart: IChartApi; candles: ISeriesApi<'Candlestick'>; equity: ISeriesApi<'Line'>; markers: ISeriesMarkersPluginApi<Time> } | null>(null);
  const fitted = useRef<number | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const base = baseOptions();
    // A small minimum bar spacing lets "fit" show the whole backtest, markers included.
    const chart = createChart(el, {
      ...base,
      localization: locale ? { locale } : undefined,
      timeScale: { ...base.timeScale, minBarSpacing: 0.05 },
      handleScroll: true,
      handleScale: true,
    });
    const series = chart.addSeries(CandlestickSeries, {
      upColor: colors.up,
      downColor: colors.down,
      borderUpColor: colors.up,
      borderDownColor: colors.down,
      wickUpColor: colors.up,
      wickDownColor: colors.down,
      priceFormat: priceFormat(digits),
    });
    const accent = cssVar('--accent', '#14b8a6');
    const line = chart.addSeries(LineSeries, { color: accent, lineWidth: 2, priceLineVisible: false, lastValueVisible: true }, 1);
    chart.panes()[1]?.setHeight(Math.max(60, Math.round((el.clientHeight || 400) * 0.22)));
    parts.current = { chart, candles: series, equity: line, markers: createSeriesMarkers(series, []) };
    fitted.current = null;

    let settle: ReturnType<typeof setTimeout> | undefined;
    const onRange = () => {
      clearTimeout(settle);
      settle = setTimeout(() => {
        const range = chart.timeScale().getVisibleRange();
        if (range) callbacks.current.onViewChange?.({ from: Number(range.from) * 1000, to: Number(range.to) * 1000, widthPx: chart.timeScale().width() });
      }, SETTLE_MS);
    };
    chart.timeScale().subscribeVisibleTimeRangeChange(onRange);
    const onCrosshair = (param: MouseEventParams<Time>) => callbacks.current.onHover?.(param.time === undefined ? null : Number(param.time) * 1000);
    chart.subscribeCrosshairMove(onCrosshair);
    callbacks.current.onReady?.(chart);
    setGeneration((g) => g + 1);
    return () => {
      clearTimeout(settle);
      chart.timeScale().unsubscribeVisibleTimeRangeChange(onRange);
      chart.unsubscribeCrosshairMove(onCrosshair);
      callbacks.current.onReady?.(null);
      parts.current = null;
      chart.remove();
    };
  }, [digits, colors, locale]);

  useEffect(() => {
    const p = parts.current;
    if (!p) return;
    const scale = p.chart.timeScale();
    // Keep what the user looks at across new data; fit only for a new fitKey.
    const keep = fitted.current === fitKey ? scale.getVisibleRange() : null;
    p.candles.setData(candles.map((c) => ({ ...c, time: asTime(c.time) })));
    p.equity.setData((equity ?? []).map((x) => ({ time: asTime(x.time), value: x.value })));
    p.markers.setMarkers(markers.map((m): SeriesMarker<Time> => ({ time: asTime(m.time), position: m.position, shape: m.shape, color: m.color, text: m.text, id: m.id, size: m.size })));
    if (keep) scale.setVisibleRange(keep);
    else if (candles.length) {
      scale.fitContent();
      fitted.current = fitKey;
    }
  }, [candles, markers, equity, fitKey, generation]);

  return <div ref={ref} className="bt-kline" data-testid="kline-chart" data-candles={candles.length} data-markers={markers.length} />;
}

export default KlineChart;

// lightweight-charts 5 wrappers. This module (and the library) is loaded lazily: only the
// report and the full-screen K-line import it, through React.lazy.
import { useEffect, useRef } from 'react';
import {
  AreaSeries,
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  LineSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { priceFormat, type CandlePoint, type LinePoint, type MarkerPoint, type UpDown } from './chartData';

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
export function EquityChart({ points, capital, theme, height = 260 }: { points: LinePoint[]; capital: number; theme: string; height?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const accent = cssVar('--accent', '#14b8a6');
    const chart = createChart(ref.current, { ...baseOptions(), handleScroll: false, handleScale: false });
    const series = chart.addSeries(AreaSeries, { lineColor: accent, topColor: `${accent}55`, bottomColor: `${accent}05`, lineWidth: 2, priceLineVisible: false });
    series.setData(points.map((p) => ({ time: asTime(p.time), value: p.value })));
    if (Number.isFinite(capital)) series.createPriceLine({ price: capital, color: '#848e9c', lineWidth: 1, lineStyle: 2, axisLabelVisible: true, title: '' });
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [points, capital, theme]);
  return <div ref={ref} className="bt-chart" style={{ height }} data-testid="equity-chart" data-points={points.length} />;
}

export interface KlineChartProps {
  candles: CandlePoint[];
  markers: MarkerPoint[];
  equity?: LinePoint[];
  digits: number;
  colors: UpDown;
  /** Receives the chart so the page can offer "fit". */
  onReady?: (chart: IChartApi | null) => void;
}

/** Candles with entry ▲▼ and exit ● markers; the equity curve in a pane under the price (ui.md). */
export function KlineChart({ candles, markers, equity, digits, colors, onReady }: KlineChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const ready = useRef(onReady);
  useEffect(() => {
    ready.current = onReady;
  });
  useEffect(() => {
    if (!ref.current) return;
    const base = baseOptions();
    // A small minimum bar spacing lets "fit" show the whole backtest, markers included.
    const chart = createChart(ref.current, { ...base, timeScale: { ...base.timeScale, minBarSpacing: 0.05 }, handleScroll: true, handleScale: true });
    const series = chart.addSeries(CandlestickSeries, {
      upColor: colors.up,
      downColor: colors.down,
      borderUpColor: colors.up,
      borderDownColor: colors.down,
      wickUpColor: colors.up,
      wickDownColor: colors.down,
      priceFormat: priceFormat(digits),
    });
    series.setData(candles.map((c) => ({ ...c, time: asTime(c.time) })));
    createSeriesMarkers(
      series,
      markers.map((m): SeriesMarker<Time> => ({ time: asTime(m.time), position: m.position, shape: m.shape, color: m.color, text: m.text, id: m.id })),
    );
    if (equity && equity.length > 1) {
      const accent = cssVar('--accent', '#14b8a6');
      const line = chart.addSeries(LineSeries, { color: accent, lineWidth: 2, priceLineVisible: false, lastValueVisible: true }, 1);
      line.setData(equity.map((p) => ({ time: asTime(p.time), value: p.value })));
      const panes = chart.panes();
      panes[1]?.setHeight(Math.max(60, Math.round((ref.current.clientHeight || 400) * 0.22)));
    }
    chart.timeScale().fitContent();
    ready.current?.(chart);
    return () => {
      ready.current?.(null);
      chart.remove();
    };
  }, [candles, markers, equity, digits, colors]);
  return <div ref={ref} className="bt-kline" data-testid="kline-chart" data-candles={candles.length} data-markers={markers.length} />;
}

export default KlineChart;

// Both realised equity curves of the drift report on one time axis — the robot's in the market's
// accent, the backtest's in grey — with a marker at each trade. lightweight-charts, loaded lazily
// with this module (the robot page imports it through React.lazy).
import { useEffect, useRef } from 'react';
import { ColorType, LineSeries, createChart, createSeriesMarkers, type SeriesMarker, type Time, type UTCTimestamp } from 'lightweight-charts';

export interface CurvePoint {
  time: number;
  value: number;
}

const cssVar = (name: string, fallback: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/** Seconds, strictly increasing: the last value of each second kept. */
function series(points: readonly CurvePoint[]): { time: UTCTimestamp; value: number }[] {
  const out: { time: UTCTimestamp; value: number }[] = [];
  for (const p of points) {
    const time = Math.floor(p.time / 1000) as UTCTimestamp;
    if (out.length > 0 && out[out.length - 1].time >= time) out[out.length - 1].value = p.value;
    else out.push({ time, value: p.value });
  }
  return out;
}

export default function DriftChart({ live, shadow, liveLabel, shadowLabel, locale }: { live: CurvePoint[]; shadow: CurvePoint[]; liveLabel: string; shadowLabel: string; locale?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!ref.current) return;
    const accent = cssVar('--accent', '#14b8a6');
    const chart = createChart(ref.current, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: '#a5aeba', fontSize: 11, attributionLogo: false },
      grid: { vertLines: { color: 'rgba(43,49,57,.6)' }, horzLines: { color: 'rgba(43,49,57,.6)' } },
      rightPriceScale: { borderColor: '#2b3139' },
      timeScale: { borderColor: '#2b3139', timeVisible: true, secondsVisible: false },
      localization: locale ? { locale } : undefined,
      handleScroll: false,
      handleScale: false,
    });
    const backtest = chart.addSeries(LineSeries, { color: '#848e9c', lineWidth: 2, lineStyle: 2, priceLineVisible: false, title: shadowLabel });
    const robot = chart.addSeries(LineSeries, { color: accent, lineWidth: 2, priceLineVisible: false, title: liveLabel });
    const b = series(shadow);
    const r = series(live);
    backtest.setData(b);
    robot.setData(r);
    // A dot at each trade of each side (the first point is the start, not a trade).
    const dots = (data: { time: UTCTimestamp }[], color: string, position: 'aboveBar' | 'belowBar'): SeriesMarker<Time>[] =>
      data.slice(1, -1).map((p) => ({ time: p.time, position, shape: 'circle', color, size: 0.5 }));
    createSeriesMarkers(backtest, dots(b, '#848e9c', 'belowBar'));
    createSeriesMarkers(robot, dots(r, accent, 'aboveBar'));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [live, shadow, liveLabel, shadowLabel, locale]);
  return <div ref={ref} className="rb-drift-chart" data-testid="drift-chart" data-live-points={live.length} data-shadow-points={shadow.length} />;
}

// pages/backtest/resultDateil/fullScreenKline/fullScreenKline?id= (chrome 'bare'): candles of the
// backtest with entry ▲▼ and exit ● markers and the equity pane, zoom and pan, fits landscape.
// What is on screen is loaded for the view: zooming in brings finer candles and, once few enough,
// every trade's own marker; zoomed out, bars with several trades show one grouped marker.
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useBacktestTranslation } from '../../i18n';
import { useNavigate, useSearchParams } from '../../lib/router';
import type { BacktestKline } from '@lq/contracts';
import { Button } from '../../components/Button';
import { IconBack } from '../../components/icons';
import { useBacktestEquity, useBacktestKline } from './api';
import { barsForWidth, downsample, equityOnBars, intervalMs, klineMarkerPoints, klineRequestFor, toCandles, toLine, type KlineWindow } from './chartData';
import type { KlineView } from './charts';
import { EmptyState, useFormatters } from './ui';

const KlineChart = lazy(() => import('./charts'));

/** The whole backtest at about the bars this screen shows. */
const wholeRange = (): KlineWindow => ({ maxCandles: barsForWidth(typeof window === 'undefined' ? 1000 : window.innerWidth - 80) });

export default function FullScreenKlinePage() {
  const { t } = useBacktestTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = Number(search.get('id')) || undefined;
  const [request, setRequest] = useState<KlineWindow>(wholeRange);
  // "Fit" asks for the whole range; the chart fits once that answer is on screen.
  const [fitWanted, setFitWanted] = useState(1);
  const [fitKey, setFitKey] = useState(1);
  const kline = useBacktestKline(id, request);
  const equity = useBacktestEquity(id, !!id);
  const fmt = useFormatters();
  const [hover, setHover] = useState<number | null>(null);
  const colors = fmt.colors;
  const data = kline.data;
  const candles = useMemo(() => toCandles(data?.candles ?? []), [data]);
  const markers = useMemo(() => (data ? klineMarkerPoints(data, colors) : []), [data, colors]);
  const allEquity = useMemo(() => toLine(equity.data?.points ?? []), [equity.data]);
  const line = useMemo(
    () => (data ? equityOnBars(candles, allEquity, intervalMs(data.interval) / 1000) : downsample(allEquity, 1500)),
    [data, candles, allEquity],
  );

  // The answer on screen is the whole-range one (not a placeholder of an earlier window).
  const whole = !!data && request.from === undefined && !kline.isPlaceholderData;
  if (whole && fitKey !== fitWanted) setFitKey(fitWanted);
  const latest = useRef<BacktestKline | undefined>(data);
  useEffect(() => {
    latest.current = data;
  });
  const onViewChange = useCallback((view: KlineView) => {
    const loaded = latest.current;
    if (!loaded) return;
    const next = klineRequestFor(view, loaded);
    if (next) setRequest((r) => (r.from === next.from && r.to === next.to && r.maxCandles === next.maxCandles ? r : next));
  }, []);

  const fit = () => {
    if (!whole) setRequest(wholeRange());
    setFitWanted((k) => k + 1);
  };

  const back = () => {
    if (window.history.length > 1) navigate(-1);
    else navigate(id ? `/pages/backtest/resultDateil/resultDetail?id=${id}` : '/');
  };

  const grouped = !!data && data.groups.length > 0;
  return (
    <div className="bt-kline-page" data-testid="kline-page">
      <div className="bt-kline-bar">
        <button type="button" className="icon-btn" aria-label={t('nav.back')} onClick={back} data-testid="kline-back">
          <IconBack />
        </button>
        <strong className="num" data-testid="kline-title" data-interval={data?.interval ?? ''}>
          {data ? `${data.symbol} · ${data.interval}` : ''}
        </strong>
        <span className="bt-legend">
          <span style={{ color: colors.up }}>{t('backtest.legendEntry')}</span>
          <span>{t('backtest.legendExit')}</span>
        </span>
        <Button variant="secondary" onClick={fit} data-testid="kline-fit">
          {t('backtest.fit')}
        </Button>
      </div>
      <p className="bt-sub bt-kline-hint">
        {t('backtest.chartHint')} <span className="bt-rotate">· {t('backtest.rotate')}</span>
      </p>
      {data ? (
        <p className="bt-sub bt-kline-info num" aria-live="polite" data-testid="kline-info" data-events={data.eventCount} data-grouped={grouped ? '1' : '0'}>
          {hover !== null ? <BarInfo kline={data} time={hover} /> : t(grouped ? 'backtest.markersGrouped' : 'backtest.markersExact', { count: data.eventCount, n: fmt.count(data.eventCount) })}
          {kline.isFetching ? <span className="bt-kline-loading"> · {t('common.loading')}</span> : null}
        </p>
      ) : null}
      {!id || (kline.isError && !data) ? (
        <EmptyState text={t('backtest.notFound')} testId="kline-missing" />
      ) : !data ? (
        <div className="spinner" aria-label={t('common.loading')} />
      ) : (
        <Suspense fallback={<div className="bt-kline" />}>
          <KlineChart
            candles={candles}
            markers={markers}
            equity={line}
            digits={data.digits}
            colors={colors}
            locale={fmt.localeTag}
            fitKey={fitKey}
            onViewChange={onViewChange}
            onHover={setHover}
          />
        </Suspense>
      )}
    </div>
  );
}

/** What happened on the bar under the crosshair: each trade event, or the bar's group. */
function BarInfo({ kline, time }: { kline: BacktestKline; time: number }) {
  const { t } = useBacktestTranslation();
  const fmt = useFormatters();
  const group = kline.groups.find((g) => g.time === time);
  if (group) {
    return (
      <span data-testid="kline-bar-group">
        {t('backtest.barGroup', { count: group.count, n: fmt.count(group.count), buys: fmt.count(group.buys), sells: fmt.count(group.sells), pnl: fmt.signedMoney(group.pnl), first: group.firstTrade, last: group.lastTrade })}
      </span>
    );
  }
  const events = kline.markers.filter((m) => m.time === time);
  if (!events.length) return <span>{fmt.date(time, 'UTC', true)}</span>;
  return (
    <span data-testid="kline-bar-events">
      {events
        .slice(0, 4)
        .map((m) =>
          t('backtest.barEvent', {
            trade: m.trade,
            kind: t(m.kind === 'entry' ? 'backtest.col.entry' : 'backtest.col.exit'),
            side: t(`option.${m.side}`),
            price: fmt.price(m.price, kline.digits),
            pnl: m.pnl === null ? '' : fmt.signedMoney(m.pnl),
          }),
        )
        .join(' · ')}
      {events.length > 4 ? ` · +${events.length - 4}` : ''}
    </span>
  );
}

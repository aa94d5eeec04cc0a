// pages/backtest/resultDateil/fullScreenKline/fullScreenKline?id= (chrome 'bare'): candles of the
// backtest with entry ▲▼ and exit ● markers and the equity pane, zoom and pan, fits landscape.
import { lazy, Suspense, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { IChartApi } from 'lightweight-charts';
import { Button } from '../../components/Button';
import { IconBack } from '../../components/icons';
import { useBacktestEquity, useBacktestKline } from './api';
import { buildMarkers, downsample, toCandles, toLine } from './chartData';
import { EmptyState, useFormatters } from './ui';

const KlineChart = lazy(() => import('./charts'));

export default function FullScreenKlinePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = Number(search.get('id')) || undefined;
  const kline = useBacktestKline(id);
  const equity = useBacktestEquity(id, !!id);
  const fmt = useFormatters();
  const chart = useRef<IChartApi | null>(null);
  const colors = fmt.colors;
  const candles = useMemo(() => toCandles(kline.data?.candles ?? []), [kline.data]);
  const markers = useMemo(() => buildMarkers(kline.data?.markers ?? [], colors), [kline.data, colors]);
  const line = useMemo(() => downsample(toLine(equity.data?.points ?? []), 1500), [equity.data]);

  const back = () => {
    if (window.history.length > 1) void navigate(-1);
    else void navigate(id ? `/pages/backtest/resultDateil/resultDetail?id=${id}` : '/');
  };

  return (
    <div className="bt-kline-page" data-testid="kline-page">
      <div className="bt-kline-bar">
        <button type="button" className="icon-btn" aria-label={t('nav.back')} onClick={back} data-testid="kline-back">
          <IconBack />
        </button>
        <strong className="num">{kline.data ? `${kline.data.symbol} · ${kline.data.interval}` : ''}</strong>
        <span className="bt-legend">
          <span style={{ color: colors.up }}>{t('backtest.legendEntry')}</span>
          <span>{t('backtest.legendExit')}</span>
        </span>
        <Button variant="secondary" onClick={() => chart.current?.timeScale().fitContent()} data-testid="kline-fit">
          {t('backtest.fit')}
        </Button>
      </div>
      <p className="bt-sub bt-kline-hint">{t('backtest.chartHint')} <span className="bt-rotate">· {t('backtest.rotate')}</span></p>
      {!id || kline.isError ? (
        <EmptyState text={t('backtest.notFound')} testId="kline-missing" />
      ) : !kline.data ? (
        <div className="spinner" aria-label={t('common.loading')} />
      ) : (
        <Suspense fallback={<div className="bt-kline" />}>
          <KlineChart candles={candles} markers={markers} equity={line} digits={kline.data.digits} colors={colors} onReady={(c) => (chart.current = c)} />
        </Suspense>
      )}
    </div>
  );
}

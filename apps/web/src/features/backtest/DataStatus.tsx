// Market data as the server sees it (order/api/market-data/status): each candle source's latest
// import run — importing with progress, done, or failed with the server's plain reason — so a user
// facing an empty symbol list knows whether to wait or why nothing comes.
import { useQuery } from '@tanstack/react-query';
import { useBacktestTranslation } from '../../i18n';
import type { MarketDataStatus } from '@lq/contracts';
import { api } from '../../lib/session';
import { ProgressBar } from './ui';

export function DataStatus() {
  const { t } = useBacktestTranslation();
  const status = useQuery({
    queryKey: ['market-data-status'],
    queryFn: () => api.get<MarketDataStatus>('order/api/market-data/status', { silent: true }),
    refetchInterval: (q) => (q.state.data?.imports.some((r) => r.status === 'running' || r.status === 'queued') ? 2_000 : 15_000),
  });
  const imports = status.data?.imports ?? [];
  if (status.isError) return <p className="bt-sub" role="alert" data-testid="data-status-error">{t('backtest.dataStatus.unavailable')}</p>;
  if (!imports.length) return <p className="bt-sub" data-testid="data-status-empty">{t('backtest.dataStatus.none')}</p>;
  // The newest run of each series is what matters now.
  const latest = new Map<string, (typeof imports)[number]>();
  for (const run of imports) {
    const key = `${run.source}:${run.symbol}:${run.timeframe}`;
    if (!latest.has(key)) latest.set(key, run);
  }
  return (
    <section aria-label={t('backtest.dataStatus.title')} data-testid="data-status">
      <h3 className="bt-sub">{t('backtest.dataStatus.title')}</h3>
      <ul className="list">
        {[...latest.values()].slice(0, 12).map((run) => (
          <li key={run.id} className="list-row" data-testid={`data-status-${run.source}-${run.symbol}`} data-status={run.status} style={{ flexWrap: 'wrap', gap: 6 }}>
            <span>
              {run.symbol} · {run.timeframe} · {run.source}
            </span>
            <span className="value">
              {run.status === 'failed'
                ? t('backtest.dataStatus.failed', { reason: run.message ?? '' })
                : run.status === 'done'
                  ? t('backtest.dataStatus.done', { rows: run.rows.toLocaleString() })
                  : t('backtest.dataStatus.importing')}
            </span>
            {run.status === 'running' || run.status === 'queued' ? <ProgressBar percent={run.progress} label={t('backtest.dataStatus.importing')} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

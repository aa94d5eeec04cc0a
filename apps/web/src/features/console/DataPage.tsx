// Market data and jobs: the candle series in the store, the newest import runs (refreshed while one
// is queued or running) and a form to fetch missing candles as a job; below, the jobs pg-boss gave
// up on, paged on the server, each with its error and a retry.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleMarketFetchBody, MARKET_FETCH_SOURCES, MARKET_TIMEFRAMES, type ConsoleFailedJob, type ConsoleMarketData, type ConsoleMarketFetchBody } from '@lq/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { ErrorView, Spinner } from '../../components/Views';
import { showToast } from '../../lib/toast';
import { consoleApi } from './api';
import { useConsoleForm } from './form';
import { ServerTable, useDateTime, useDebounced, useServerList, type ServerColumn } from './ui';

const day = (ms: number | null) => (ms === null ? '--' : new Date(ms).toISOString().slice(0, 10));

export function DataPage() {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const market = useQuery({
    queryKey: ['console', 'market'],
    queryFn: () => consoleApi.get<ConsoleMarketData>('market'),
    // While an import is under way its progress moves.
    refetchInterval: (q) => (q.state.data?.imports.some((x) => x.status === 'queued' || x.status === 'running') ? 3_000 : false),
  });
  return (
    <div className="cs-panel">
      <FetchForm />
      <h2 className="cs-card-title">{t('data.imports')}</h2>
      {market.isPending ? (
        <Spinner label={t('loading')} />
      ) : market.isError ? (
        <ErrorView message={t('loadFailed')} onRetry={() => void market.refetch()} />
      ) : (
        <>
          <div className="cs-scroll">
            <table className="cs-table" data-testid="imports-table">
              <thead>
                <tr>
                  <th>{t('data.run')}</th>
                  <th>{t('data.series')}</th>
                  <th>{t('data.range')}</th>
                  <th>{t('data.status')}</th>
                  <th>{t('data.rows')}</th>
                  <th>{t('data.updated')}</th>
                </tr>
              </thead>
              <tbody>
                {market.data.imports.map((x) => (
                  <tr key={x.id} data-testid="import-row" data-id={x.id} data-status={x.status}>
                    <td>{x.id}</td>
                    <td>{x.source} {x.symbol} {x.timeframe}</td>
                    <td>{day(x.fromMs)} – {day(x.toMs)}</td>
                    <td>
                      <span className="cs-stack">
                        <span className={`cs-badge${x.status === 'failed' ? ' cs-bad' : ''}`}>{t(`data.statuses.${x.status}`, { defaultValue: x.status })}{x.status === 'running' ? ` ${x.progress}%` : ''}</span>
                        {x.message ? <span className="cs-sub cs-break">{x.message}</span> : null}
                      </span>
                    </td>
                    <td>{x.rows}</td>
                    <td>{when(x.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {market.data.imports.length === 0 ? <p className="cs-empty">{t('data.noImports')}</p> : null}
          </div>
          <h2 className="cs-card-title">{t('data.store')}</h2>
          <div className="cs-scroll">
            <table className="cs-table" data-testid="series-table">
              <thead>
                <tr>
                  <th>{t('data.series')}</th>
                  <th>{t('data.first')}</th>
                  <th>{t('data.last')}</th>
                  <th>{t('data.count')}</th>
                </tr>
              </thead>
              <tbody>
                {market.data.series.map((x) => (
                  <tr key={`${x.source}-${x.symbol}-${x.timeframe}`} data-testid="series-row">
                    <td>{x.source} {x.symbol} {x.timeframe}</td>
                    <td>{when(x.firstTime)}</td>
                    <td>{when(x.lastTime)}</td>
                    <td>{x.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {market.data.series.length === 0 ? <p className="cs-empty">{t('data.noSeries')}</p> : null}
          </div>
        </>
      )}
      <FailedJobs />
    </div>
  );
}

function FetchForm() {
  const { t } = useTranslation('console');
  const queryClient = useQueryClient();
  const form = useConsoleForm<ConsoleMarketFetchBody>(consoleMarketFetchBody, { source: 'binance', symbol: '', timeframe: '1m', from: '', to: undefined }, async (v) => {
    await consoleApi.post('market/fetch', v);
    showToast(t('data.queued'), 'success');
    await queryClient.invalidateQueries({ queryKey: ['console', 'market'] });
  });
  const optional = (v: string) => (v === '' ? undefined : v);
  return (
    <form className="form cs-card" onSubmit={form.onSubmit} noValidate data-testid="fetch-form">
      <h2 className="cs-card-title">{t('data.fetch')}</h2>
      <p className="cs-hint">{t('data.fetchHint')}</p>
      <div className="cs-row">
        <label className="field cs-grow">
          <span>{t('data.source')}</span>
          <select className="input" data-testid="fetch-source" {...form.register('source')}>
            {MARKET_FETCH_SOURCES.map((s) => (
              <option key={s} value={s}>{s}</option>
            ))}
          </select>
        </label>
        <div className="cs-grow">
          <TextField label={t('data.symbol')} placeholder="BTCUSDT / EURUSD" maxLength={20} autoCapitalize="characters" data-testid="fetch-symbol" error={form.errorOf('symbol')} {...form.register('symbol')} />
        </div>
        <label className="field cs-grow">
          <span>{t('data.timeframe')}</span>
          <select className="input" data-testid="fetch-timeframe" {...form.register('timeframe')}>
            {MARKET_TIMEFRAMES.map((tf) => (
              <option key={tf} value={tf}>{tf}</option>
            ))}
          </select>
        </label>
      </div>
      <div className="cs-row">
        <div className="cs-grow">
          <TextField label={t('data.from')} type="date" data-testid="fetch-from" error={form.errorOf('from')} {...form.register('from')} />
        </div>
        <div className="cs-grow">
          <TextField label={t('data.to')} type="date" hint={t('data.toHint')} data-testid="fetch-to" error={form.errorOf('to')} {...form.register('to', { setValueAs: optional })} />
        </div>
      </div>
      <Button type="submit" block busy={form.busy} data-testid="fetch-submit">{t('data.fetchSubmit')}</Button>
    </form>
  );
}

function FailedJobs() {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const queue = useDebounced(typed.trim());
  const [busy, setBusy] = useState<string | null>(null);
  // No sort parameter: newest failures first, on the server.
  const { failed, filterQuery: _query, ...list } = useServerList<ConsoleFailedJob>('jobs/failed', { queue }, '', 20);
  const columns = useMemo<ServerColumn<ConsoleFailedJob>[]>(() => {
    const retry = async (job: ConsoleFailedJob) => {
      setBusy(job.id);
      try {
        await consoleApi.post('jobs/retry', { queue: job.queue, id: job.id });
        showToast(t('jobs.retried'), 'success');
      } catch {
        // the toast said why
      } finally {
        setBusy(null);
        await queryClient.invalidateQueries({ queryKey: ['console'] });
      }
    };
    return [
      { id: 'queue', header: () => t('jobs.queue'), enableSorting: false, cell: ({ row }) => <code>{row.original.queue}</code> },
      { id: 'error', header: () => t('jobs.error'), enableSorting: false, cell: ({ row }) => <span className="cs-pre" data-testid="job-error">{row.original.error ?? ''}</span> },
      { id: 'data', header: () => t('jobs.data'), enableSorting: false, cell: ({ row }) => <span className="cs-pre">{JSON.stringify(row.original.data)}</span> },
      { id: 'failed', header: () => t('jobs.failedAt'), enableSorting: false, cell: ({ row }) => when(row.original.failedAt) },
      { id: 'tries', header: () => t('jobs.retries'), enableSorting: false, cell: ({ row }) => row.original.retryCount },
      {
        id: 'retry',
        header: () => <span className="cs-sr">{t('jobs.retry')}</span>,
        enableSorting: false,
        cell: ({ row }) => (
          <Button variant="secondary" className="cs-small" busy={busy === row.original.id} onClick={() => void retry(row.original)} data-testid="job-retry">
            {t('jobs.retry')}
          </Button>
        ),
      },
    ];
  }, [t, when, busy, queryClient]);
  return (
    <>
      <h2 className="cs-card-title">{t('jobs.title')}</h2>
      <div className="cs-filters">
        <label className="cs-filter">
          <span>{t('jobs.queue')}</span>
          <input className="input" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={100} data-testid="jobs-queue" />
        </label>
      </div>
      <ServerTable {...list} columns={columns} empty={failed ? t('loadFailed') : t('jobs.none')} testId="jobs-table" rowTestId="job-row" rowKey={(j) => j.id} />
    </>
  );
}

// pages/backtest/backtestRecord: three tabs (in progress, completed, failed), an infinite list
// ("load more" and automatic loading at the end), live progress on running rows, stop and delete
// with a confirmation that says what will happen.
import { useState } from 'react';
import { useBacktestTranslation } from '../../i18n';
import { Link, useSearchParams } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import type { BacktestItem, BacktestTab } from '@lq/contracts';
import { Button } from '../../components/Button';
import { showToast } from '../../lib/toast';
import { useIsDesktop } from '../../lib/useMedia';
import { cancelBacktest, deleteBacktest, invalidateBacktests, useBacktestList } from './api';
import { isStrategyKey } from './strategies';
import { ConfirmSheet, EmptyState, ProgressBar, StatusBadge, toneOf, useFormatters } from './ui';
import { useLoadMore } from '../../lib/useLoadMore';

/** BACKTEST_TABS of contracts (not imported at runtime: see api.ts). */
const BACKTEST_TABS: readonly BacktestTab[] = ['running', 'completed', 'failed'];
const isTab = (v: string | null): v is BacktestTab => !!v && (BACKTEST_TABS as readonly string[]).includes(v);
export const detailPath = (id: number) => `/pages/backtest/resultDateil/resultDetail?id=${id}`;

export default function RecordPage() {
  const { t } = useBacktestTranslation();
  const [search, setSearch] = useSearchParams();
  const tab: BacktestTab = isTab(search.get('tab')) ? (search.get('tab') as BacktestTab) : 'running';
  const list = useBacktestList(tab);
  const isDesktop = useIsDesktop();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<{ item: BacktestItem; action: 'stop' | 'delete' } | null>(null);
  const [busy, setBusy] = useState(false);

  const sentinel = useLoadMore(list);

  const items = list.data?.pages.flatMap((p) => p.list) ?? [];

  const act = async () => {
    if (!confirm) return;
    setBusy(true);
    try {
      if (confirm.action === 'stop') await cancelBacktest(confirm.item.id);
      else await deleteBacktest(confirm.item.id);
      showToast(t(confirm.action === 'stop' ? 'backtest.stopped' : 'backtest.deleted'), 'success');
      setConfirm(null);
      await invalidateBacktests(queryClient);
    } catch {
      // the server's message was shown
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="bt-page" data-testid="backtest-records">
      <div className="bt-tabs" role="tablist" aria-label={t('page.backtestRecord')}>
        {BACKTEST_TABS.map((k) => (
          <button key={k} type="button" role="tab" aria-selected={k === tab} className="bt-tab" onClick={() => setSearch({ tab: k }, { replace: true })} data-testid={`records-tab-${k}`}>
            {t(`backtest.tabs.${k}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" data-testid="records-panel" data-tab={tab}>
        {list.isPending ? (
          <div className="spinner" aria-label={t('common.loading')} />
        ) : list.isError ? (
          <EmptyState text={t('common.loadFailed')} action={<Button onClick={() => void list.refetch()}>{t('common.retry')}</Button>} />
        ) : !items.length ? (
          <EmptyState
            text={t(`backtest.empty.${tab}`)}
            testId="records-empty"
            action={tab !== 'failed' ? <Link className="btn btn-primary" to="/pages/backtest/recommandParams">{t('backtest.newBacktest')}</Link> : undefined}
          />
        ) : isDesktop ? (
          <RecordTable items={items} onAction={(item, action) => setConfirm({ item, action })} />
        ) : (
          <ul className="bt-cards">
            {items.map((item) => (
              <RecordCard key={item.id} item={item} onAction={(action) => setConfirm({ item, action })} />
            ))}
          </ul>
        )}
        {items.length ? (
          <div className="bt-more" ref={sentinel}>
            {list.hasNextPage ? (
              <Button variant="secondary" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} data-testid="records-more">
                {t('backtest.loadMore')}
              </Button>
            ) : (
              <span className="bt-sub">{t('backtest.noMore')}</span>
            )}
          </div>
        ) : null}
      </div>
      {confirm ? (
        <ConfirmSheet
          title={t(confirm.action === 'stop' ? 'backtest.stop' : 'backtest.delete')}
          message={t(confirm.action === 'stop' ? 'backtest.confirmStop' : 'backtest.confirmDelete')}
          confirmLabel={t(confirm.action === 'stop' ? 'backtest.stop' : 'backtest.delete')}
          onConfirm={() => void act()}
          onClose={() => setConfirm(null)}
          busy={busy}
        />
      ) : null}
    </div>
  );
}

function useRowText() {
  const { t } = useBacktestTranslation();
  return (item: BacktestItem) => `${isStrategyKey(item.strategy) ? t(`strategy.${item.strategy}`) : item.strategy}`;
}

function RecordCard({ item, onAction }: { item: BacktestItem; onAction: (a: 'stop' | 'delete') => void }) {
  const { t } = useBacktestTranslation();
  const fmt = useFormatters();
  const name = useRowText();
  return (
    <li className="card bt-record" data-testid="record-row" data-id={item.id} data-status={item.status}>
      <Link to={detailPath(item.id)} className="bt-record-main" data-testid="record-open">
        <div className="bt-record-head">
          <strong>{item.symbol}</strong>
          <span className="bt-sub">{name(item)} · {item.interval}</span>
          <StatusBadge status={item.status} />
        </div>
        <div className="bt-record-figs num">
          <span>{t('metric.totalReturn')}: <b className={`tone-${toneOf(item.summary?.totalReturn) ?? 'flat'}`}>{fmt.percent(item.summary?.totalReturn)}</b></span>
          <span>{t('backtest.capital')}: {fmt.money(item.capital)}</span>
          <span>{item.start} – {item.end}</span>
        </div>
      </Link>
      {item.status === 1 ? <ProgressBar percent={item.progress} testId="record-progress" /> : null}
      {item.statusReason && item.status !== 1 && item.status !== 2 ? <p className="bt-warn">{item.statusReason}</p> : null}
      <div className="bt-record-actions">
        {item.status === 1 ? (
          <Button variant="danger" onClick={() => onAction('stop')} data-testid="record-stop">{t('backtest.stop')}</Button>
        ) : (
          <Button variant="danger" onClick={() => onAction('delete')} data-testid="record-delete">{t('backtest.delete')}</Button>
        )}
      </div>
    </li>
  );
}

function RecordTable({ items, onAction }: { items: BacktestItem[]; onAction: (item: BacktestItem, a: 'stop' | 'delete') => void }) {
  const { t } = useBacktestTranslation();
  const fmt = useFormatters();
  const name = useRowText();
  return (
    <div className="bt-table-wrap">
      <table className="bt-table num">
        <thead>
          <tr>
            <th scope="col">{t('backtest.symbol')}</th>
            <th scope="col">{t('backtest.strategy')}</th>
            <th scope="col">{t('backtest.start')} – {t('backtest.end')}</th>
            <th scope="col" className="r">{t('backtest.capital')}</th>
            <th scope="col" className="r">{t('metric.totalReturn')}</th>
            <th scope="col" className="r">{t('metric.maxDrawdown')}</th>
            <th scope="col">{t('backtest.running')}</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} data-testid="record-row" data-id={item.id} data-status={item.status}>
              <td><Link to={detailPath(item.id)} data-testid="record-open">{item.symbol}</Link></td>
              <td>{name(item)} · {item.interval}</td>
              <td>{item.start} – {item.end}</td>
              <td className="r">{fmt.money(item.capital)}</td>
              <td className={`r tone-${toneOf(item.summary?.totalReturn) ?? 'flat'}`}>{fmt.percent(item.summary?.totalReturn)}</td>
              <td className="r">{fmt.plainPercent(item.summary?.maxDrawdown)}</td>
              <td>
                {item.status === 1 ? <ProgressBar percent={item.progress} testId="record-progress" /> : <StatusBadge status={item.status} />}
                {item.statusReason && item.status > 2 ? <div className="bt-sub">{item.statusReason}</div> : null}
              </td>
              <td className="r">
                {item.status === 1 ? (
                  <Button variant="danger" onClick={() => onAction(item, 'stop')} data-testid="record-stop">{t('backtest.stop')}</Button>
                ) : (
                  <Button variant="danger" onClick={() => onAction(item, 'delete')} data-testid="record-delete">{t('backtest.delete')}</Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

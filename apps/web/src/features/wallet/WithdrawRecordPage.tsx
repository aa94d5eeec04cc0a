// pages/withdraw/withdrawRecord: the user's withdrawals, newest first, each with its state; a tap
// opens the detail. Infinite scroll.
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { Button } from '../../components/Button';
import { useLoadMore } from '../../lib/useLoadMore';
import { useWithdrawals } from './api';
import { displayMoney } from '../../lib/money';
import { useDateTime, WithdrawStateBadge } from './withdrawUi';
import '../../components/screens.css';
import './wallet.css';

export default function WithdrawRecordPage() {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation();
  const list = useWithdrawals();
  const sentinel = useLoadMore(list);
  const dateTime = useDateTime();
  const items = list.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <div className="bt-page wl-page" data-testid="withdraw-record-page">
      {list.isPending ? (
        <div className="spinner" aria-label={tc('common.loading')} />
      ) : list.isError ? (
        <div className="bt-empty"><p>{tc('common.loadFailed')}</p><Button onClick={() => void list.refetch()}>{tc('common.retry')}</Button></div>
      ) : items.length === 0 ? (
        <div className="bt-empty" data-testid="wd-empty"><p>{t('withdrawForm.empty')}</p></div>
      ) : (
        <ul className="wl-records">
          {items.map((w) => (
            <li key={w.id} className="wl-record" data-testid="wd-row" data-state={w.state}>
              <Link className="wl-record-main" to={`/pages/withdraw/withdrawDetail?id=${w.id}`}>
                <span className="wl-record-type num">{displayMoney(w.amount)} USDT</span>
                <WithdrawStateBadge state={w.state} />
              </Link>
              <span className="bt-sub num">{dateTime(w.createdAt)}</span>
              <p className="wl-memo num">{w.network} · {w.address}</p>
            </li>
          ))}
        </ul>
      )}
      <div ref={sentinel} />
      {list.hasNextPage ? <Button variant="secondary" busy={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>{t('loadMore')}</Button> : null}
    </div>
  );
}

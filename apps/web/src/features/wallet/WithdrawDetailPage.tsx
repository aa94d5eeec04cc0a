// pages/withdraw/withdrawDetail?id=: one withdrawal — state, address, amount received, fee, total,
// submit time, transaction id, and why it was rejected or failed.
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../components/Button';
import { useWithdrawal } from './api';
import { displayMoney } from './money';
import { useDateTime, WithdrawStateBadge } from './withdrawUi';
import '../../components/screens.css';
import './wallet.css';

export default function WithdrawDetailPage() {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const w = useWithdrawal(Number.isInteger(id) && id > 0 ? id : null);
  const dateTime = useDateTime();
  if (w.isPending) return <div className="spinner" aria-label={tc('common.loading')} />;
  if (w.isError || !w.data) {
    return <div className="bt-empty"><p>{tc('common.loadFailed')}</p><Button onClick={() => void w.refetch()}>{tc('common.retry')}</Button></div>;
  }
  const d = w.data;
  const rows: [string, string, string][] = [
    ['address', t('withdrawForm.address', { network: d.network }), d.address],
    ['received', t('withdrawForm.received'), `${displayMoney(d.amount)} USDT`],
    ['fee', t('withdrawForm.fee'), displayMoney(d.fee)],
    ['total', t('withdrawForm.total'), displayMoney(d.total)],
    ['time', t('withdrawForm.submitted'), dateTime(d.createdAt)],
    ['tx', t('recharge.tx'), d.txHash ?? '--'],
  ];
  return (
    <div className="bt-page wl-page" data-testid="withdraw-detail-page" data-state={d.state}>
      <section className="card wl-recharge">
        <div className="wl-records-head">
          <h2 className="bt-h2 num">{displayMoney(d.amount)} USDT</h2>
          <WithdrawStateBadge state={d.state} />
        </div>
        {d.state === 'pendingReview' || d.state === 'processing' ? <p className="wl-facts">{t('withdrawForm.arrivesShort')}</p> : null}
        {d.reason ? <p className="wl-warning" data-testid="wd-reason">{d.reason}</p> : null}
        <dl className="wl-detail">
          {rows.map(([k, label, value]) => (
            <div key={k}>
              <dt>{label}</dt>
              <dd className="num" data-testid={`wd-detail-${k}`}>{value}</dd>
            </div>
          ))}
        </dl>
        <Link className="btn btn-secondary" to="/pages/withdraw/withdrawRecord">{t('withdrawForm.records')}</Link>
      </section>
    </div>
  );
}

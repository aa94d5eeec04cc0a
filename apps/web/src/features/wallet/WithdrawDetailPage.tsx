// pages/withdraw/withdrawDetail?id=: one withdrawal — state, address, amount received, fee, total,
// submit time, transaction id, and why it was rejected or failed; what happened to the money (held,
// taken, or held then released); the owner cancels it while it waits for review.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import type { WithdrawItem } from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { ApiError } from '../../lib/api';
import { showToast } from '../../lib/toast';
import { cancelWithdrawal, invalidateWallet, useWithdrawal } from './api';
import { displayMoney } from '../../lib/money';
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
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  if (w.isPending) return <div className="spinner" aria-label={tc('common.loading')} />;
  if (w.isError || !w.data) {
    return <div className="bt-empty"><p>{tc('common.loadFailed')}</p><Button onClick={() => void w.refetch()}>{tc('common.retry')}</Button></div>;
  }
  const d = w.data;
  const rows: [string, string, string][] = [
    ['address', t('withdrawForm.address', { network: d.network }), d.address],
    ['received', t('withdrawForm.received'), `${displayMoney(d.amount)} USDT`],
    ['fee', t('withdrawForm.fee'), displayMoney(d.fee)],
    moneyRow(d, t),
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
        {d.state === 'pendingReview' ? (
          <Button variant="secondary" onClick={() => setConfirming(true)} data-testid="wd-cancel">{t('withdrawForm.cancel')}</Button>
        ) : null}
        <Link className="btn btn-secondary" to="/pages/withdraw/withdrawRecord">{t('withdrawForm.records')}</Link>
      </section>
      {confirming ? (
        <Sheet title={t('withdrawForm.cancelTitle')} onClose={() => setConfirming(false)} testId="wd-cancel-sheet">
          <p>{t('withdrawForm.cancelMessage', { amount: displayMoney(d.total) })}</p>
          <Button
            block
            busy={cancelling}
            data-testid="wd-cancel-ok"
            onClick={() => {
              setCancelling(true);
              cancelWithdrawal(d.id)
                .then(async () => {
                  showToast(t('withdrawForm.cancelled', { amount: displayMoney(d.total) }), 'success');
                  await invalidateWallet(queryClient);
                })
                .catch((e: unknown) => {
                  if (!(e instanceof ApiError)) showToast(tc('common.loadFailed'), 'error');
                  void w.refetch();
                })
                .finally(() => {
                  setCancelling(false);
                  setConfirming(false);
                });
            }}
          >
            {t('withdrawForm.cancelOk')}
          </Button>
        </Sheet>
      ) : null}
    </div>
  );
}

/** What happened to the money: held while it waits or is paid, taken once paid, released (net 0) otherwise. */
function moneyRow(d: WithdrawItem, t: (key: string, o?: Record<string, string>) => string): [string, string, string] {
  if (d.state === 'completed') return ['total', t('withdrawForm.total'), displayMoney(d.total)];
  if (d.state === 'pendingReview' || d.state === 'processing') return ['total', t('withdrawForm.held'), displayMoney(d.total)];
  return ['total', t('withdrawForm.held'), t('withdrawForm.released', { amount: displayMoney(d.total) })];
}

// pages/wallet/wallet: both wallets and their figures, the records (type filter, infinite scroll)
// and the transfer from the rebate wallet to the balance wallet. Amounts stay decimal strings.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { moneyAmount, WALLET_RECORD_TYPES, type WalletInfo, type WalletRecord, type WalletRecordType } from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { TextField } from '../../components/TextField';
import { ApiError, errorField } from '../../lib/api';
import { localeTag } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { fieldError } from '../../lib/validation';
import { invalidateWallet, transferRebate, useWalletInfo, useWalletRecords } from './api';
import { displayMoney, exceeds, signedMoney } from '../../lib/money';
import '../../components/screens.css';
import './wallet.css';
import { useLoadMore } from '../../lib/useLoadMore';

export default function WalletPage() {
  const { t: tc } = useTranslation();
  const info = useWalletInfo();
  const [transferring, setTransferring] = useState(false);

  return (
    <div className="bt-page wl-page" data-testid="wallet-page">
      {info.isPending ? (
        <div className="spinner" aria-label={tc('common.loading')} />
      ) : info.isError ? (
        <div className="bt-empty" data-testid="wallet-load-failed">
          <p>{tc('common.loadFailed')}</p>
          <Button onClick={() => void info.refetch()}>{tc('common.retry')}</Button>
        </div>
      ) : (
        <Summary info={info.data} onTransfer={() => setTransferring(true)} />
      )}
      <Records />
      {transferring && info.data ? <TransferSheet available={info.data.rebateWallet} onClose={() => setTransferring(false)} /> : null}
    </div>
  );
}

function Summary({ info, onTransfer }: { info: WalletInfo; onTransfer: () => void }) {
  const { t } = useTranslation('wallet');
  const figures: [keyof WalletInfo, string][] = [
    ['totalDeposit', t('totalDeposit')],
    ['todayDividend', t('todayDividend')],
    ['totalDividend', t('totalDividend')],
    ['pendingTransfer', t('pendingTransfer')],
    ['processedTransfer', t('processedTransfer')],
  ];
  const rebateEmpty = !exceeds(info.rebateWallet, '0');
  return (
    <section className="card wl-summary" aria-labelledby="wallet-total-label">
      <p className="bt-sub" id="wallet-total-label">{t('total')}</p>
      <p className="wl-total num" data-testid="wallet-total">
        {displayMoney(info.balance)} <span className="wl-unit">{t('unit')}</span>
      </p>
      <div className="wl-wallets">
        <div className="wl-wallet" data-testid="wallet-balance">
          <span className="bt-sub">{t('balanceWallet')}</span>
          <strong className="num" data-testid="wallet-balance-amount">{displayMoney(info.balanceWallet)}</strong>
          <div className="wl-actions">
            <Link className="btn btn-primary" to="/pages/recharge/recharge" data-testid="wallet-deposit">{t('deposit')}</Link>
            <Link className="btn btn-secondary" to="/pages/withdraw/withdraw" data-testid="wallet-withdraw">{t('withdraw')}</Link>
          </div>
        </div>
        <div className="wl-wallet" data-testid="wallet-rebate">
          <span className="bt-sub">{t('rebateWallet')}</span>
          <strong className="num" data-testid="wallet-rebate-amount">{displayMoney(info.rebateWallet)}</strong>
          <div className="wl-actions">
            <Button variant="secondary" onClick={onTransfer} disabled={rebateEmpty} data-testid="wallet-transfer">{t('transfer')}</Button>
          </div>
          {rebateEmpty ? <p className="bt-sub wl-hint">{t('noRebate')}</p> : null}
        </div>
      </div>
      <dl className="wl-figures">
        {figures.map(([key, label]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd className="num" data-testid={`wallet-${key}`}>{displayMoney(info[key])}</dd>
          </div>
        ))}
      </dl>
      <Link className="wl-export" to="/pages/wallet/export/export" data-testid="wallet-export">{t('export')}</Link>
    </section>
  );
}

function useDateTime() {
  const locale = useAppStore((s) => s.locale);
  const format = new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
  return (ms: number) => format.format(ms);
}

function Records() {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation();
  const [type, setType] = useState<WalletRecordType | undefined>(undefined);
  const list = useWalletRecords(type);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const sentinel = useLoadMore(list);
  const items = list.data?.pages.flatMap((p) => p.list) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;

  return (
    <section className="wl-records-section" aria-labelledby="wallet-records-title">
      <div className="wl-records-head">
        <h2 className="bt-h2" id="wallet-records-title">{t('records')}</h2>
        <label className="wl-filter">
          <span className="sr-only">{t('filter')}</span>
          <select className="input" value={type ?? ''} onChange={(e) => setType((e.target.value || undefined) as WalletRecordType | undefined)} data-testid="records-type">
            <option value="">{t('allTypes')}</option>
            {WALLET_RECORD_TYPES.map((k) => (
              <option key={k} value={k}>{t(`type.${k}`)}</option>
            ))}
          </select>
        </label>
      </div>
      {list.isPending ? (
        <div className="spinner" aria-label={tc('common.loading')} />
      ) : list.isError ? (
        <div className="bt-empty" data-testid="records-failed">
          <p>{tc('common.loadFailed')}</p>
          <Button onClick={() => void list.refetch()}>{tc('common.retry')}</Button>
        </div>
      ) : items.length === 0 ? (
        <div className="bt-empty" data-testid="records-empty">
          <p>{type ? t('emptyFiltered') : t('empty')}</p>
        </div>
      ) : (
        <ul className="wl-records" data-testid="wallet-records" data-total={total}>
          {items.map((r) => (
            <RecordRow key={r.id} record={r} />
          ))}
        </ul>
      )}
      {items.length ? (
        <div className="bt-more" ref={sentinel}>
          {hasNextPage ? (
            <Button variant="secondary" busy={isFetchingNextPage} onClick={() => void fetchNextPage()} data-testid="records-more">{t('loadMore')}</Button>
          ) : (
            <span className="bt-sub">{t('noMore')}</span>
          )}
        </div>
      ) : null}
    </section>
  );
}

function RecordRow({ record: r }: { record: WalletRecord }) {
  const { t } = useTranslation('wallet');
  const dateTime = useDateTime();
  const out = r.amount.startsWith('-');
  return (
    <li className="wl-record" data-testid="wallet-record" data-type={r.type} data-wallet={r.wallet} data-status={r.status}>
      <div className="wl-record-main">
        <span className="wl-record-type">{t(`type.${r.type}`)}</span>
        <span className="badge muted">{t(`wallet.${r.wallet}`)}</span>
        {r.status !== 'posted' ? <span className="badge warn" data-testid="record-status">{t(`status.${r.status}`)}</span> : null}
      </div>
      {/* A released hold moved nothing: net 0, with what was held beside it. */}
      <strong className={`num wl-amount ${r.status === 'voided' ? '' : out ? 'wl-out' : 'wl-in'}`} data-testid="record-amount">
        {r.status === 'voided' ? displayMoney('0') : signedMoney(r.amount)}
      </strong>
      <span className="bt-sub num">{dateTime(r.time)}</span>
      <span className="bt-sub num" data-testid="record-balance-after">{r.balanceAfter === null ? '' : t('balanceAfter', { amount: displayMoney(r.balanceAfter) })}</span>
      {r.status === 'voided' ? <p className="wl-memo" data-testid="record-held-released">{t('heldReleased', { amount: displayMoney(r.amount.replace(/^-/, '')) })}</p> : null}
      {r.paymentId !== null ? (
        <p className="wl-memo" data-testid="record-memo">{t('rebateFrom', { id: r.paymentId })}</p>
      ) : r.memo ? (
        <p className="wl-memo" data-testid="record-memo">{r.memo}</p>
      ) : null}
    </li>
  );
}

const transferForm = z.object({ amount: moneyAmount });
type TransferForm = z.input<typeof transferForm>;

/** A key per intended transfer: a double tap or a retry after a lost answer moves the money once. */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `wt-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function TransferSheet({ available, onClose }: { available: string; onClose: () => void }) {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [key] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  const { register, handleSubmit, formState, setError, setValue } = useForm<TransferForm>({ resolver: zodResolver(transferForm), defaultValues: { amount: '' } });

  const onSubmit = handleSubmit(async ({ amount }) => {
    if (exceeds(amount, available)) {
      setError('amount', { type: 'server', message: t('aboveRebate', { amount: displayMoney(available) }) }, { shouldFocus: true });
      return;
    }
    setBusy(true);
    try {
      const result = await transferRebate(amount.trim(), key);
      showToast(t('transferred', { amount: displayMoney(result.amount) }), 'success');
      await invalidateWallet(queryClient);
      onClose();
    } catch (e) {
      const field = errorField(e);
      if (e instanceof ApiError && field === 'amount') setError('amount', { type: 'server', message: e.message }, { shouldFocus: true });
      // Anything else was shown by the client; the same key makes "try again" safe.
    } finally {
      setBusy(false);
    }
  });

  return (
    <Sheet title={t('transferTitle')} onClose={onClose} testId="transfer-sheet">
      <form className="form" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="transfer-form">
        <p className="bt-sub" data-testid="transfer-available">{t('available', { amount: displayMoney(available) })}</p>
        <TextField
          label={t('amount')}
          inputMode="decimal"
          autoComplete="off"
          data-testid="transfer-amount"
          error={fieldError(tc, formState.errors.amount, 'validation.moneyFormat')}
          addon={
            <button type="button" className="btn btn-ghost wl-all" onClick={() => setValue('amount', available, { shouldValidate: true })} data-testid="transfer-all">
              {t('all')}
            </button>
          }
          {...register('amount')}
        />
        <Button type="submit" block busy={busy} data-testid="transfer-submit">{t('confirm')}</Button>
      </form>
    </Sheet>
  );
}

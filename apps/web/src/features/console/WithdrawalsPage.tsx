// Withdrawals review (GET console/api/withdrawals): open ones first (waiting for review or being
// paid), each with the user's limits as they stand and, above the two-person amount, the approval
// waiting for a second operator. A withdrawal's panel approves, rejects with the reason the user
// reads, or records the transaction of a payout sent by hand. The amounts that decide who reviews
// what are a form of their own (settings/money).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CONSOLE_WITHDRAW_FILTERS,
  consoleMoneySettingsBody,
  consoleWithdrawPaidBody,
  consoleWithdrawRejectBody,
  USER_LEVELS,
  type ConsoleMoneySettings,
  type ConsoleMoneySettingsBody,
  type ConsoleWithdrawalItem,
  type ConsoleWithdrawApproved,
  type ConsoleWithdrawPaidBody,
  type ConsoleWithdrawRejectBody,
} from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { TextField } from '../../components/TextField';
import { ErrorView, Spinner } from '../../components/Views';
import { displayMoney } from '../../lib/money';
import { showToast } from '../../lib/toast';
import { consoleApi, useOperatorSession } from './api';
import { useConsoleForm } from './form';
import { ReasonField } from './ReasonField';
import { PendingChange } from './SettingsChange';
import { ServerTable, useDateTime, useDebounced, useServerList, type ServerColumn } from './ui';

const PAGE_SIZE = 20;
type StateFilter = (typeof CONSOLE_WITHDRAW_FILTERS)[number];

export function WithdrawalsPage() {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim());
  const [state, setState] = useState<StateFilter>('open');
  const [open, setOpen] = useState<ConsoleWithdrawalItem | null>(null);
  const [settings, setSettings] = useState(false);
  const { failed, filterQuery: _query, ...list } = useServerList<ConsoleWithdrawalItem>('withdrawals', { q, state }, 'id', PAGE_SIZE);

  const columns = useMemo<ServerColumn<ConsoleWithdrawalItem>[]>(
    () => [
      { id: 'id', accessorKey: 'id', header: () => t('withdrawals.id') },
      {
        id: 'user',
        header: () => t('withdrawals.user'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="cs-stack">
            <span className="cs-break">{row.original.mail}</span>
            <span className="cs-sub">{t(`level.${row.original.level}`)} · #{row.original.userId}</span>
          </span>
        ),
      },
      {
        id: 'amount',
        accessorKey: 'amount',
        header: () => t('withdrawals.amount'),
        cell: ({ row }) => (
          <span className="cs-stack">
            <span>{displayMoney(row.original.amount)}</span>
            <span className="cs-sub">{t('withdrawals.fee', { fee: displayMoney(row.original.fee) })}</span>
          </span>
        ),
      },
      {
        id: 'to',
        header: () => t('withdrawals.to'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="cs-stack">
            <span className="cs-addr">{row.original.address}</span>
            <span className="cs-sub">{row.original.network}</span>
          </span>
        ),
      },
      { id: 'created', header: () => t('withdrawals.requested'), enableSorting: false, cell: ({ row }) => when(row.original.createdAt) },
      { id: 'limits', header: () => t('withdrawals.limits'), enableSorting: false, cell: ({ row }) => <Limits w={row.original} /> },
      { id: 'state', header: () => t('withdrawals.state'), enableSorting: false, cell: ({ row }) => <StateBadge w={row.original} /> },
      {
        id: 'open',
        header: () => <span className="cs-sr">{t('withdrawals.review')}</span>,
        enableSorting: false,
        cell: ({ row }) => (
          <button type="button" className="btn btn-secondary cs-small" onClick={() => setOpen(row.original)} data-testid="withdrawal-review">
            {t('withdrawals.review')}
          </button>
        ),
      },
    ],
    [t, when],
  );

  return (
    <>
      <div className="cs-filters">
        <label className="cs-filter">
          <span>{t('withdrawals.search')}</span>
          <input className="input" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={t('withdrawals.searchHint')} maxLength={200} data-testid="withdrawals-search" />
        </label>
        <label className="cs-filter">
          <span>{t('withdrawals.state')}</span>
          <select className="input" value={state} onChange={(e) => setState(e.target.value as StateFilter)} data-testid="withdrawals-state">
            {CONSOLE_WITHDRAW_FILTERS.map((s) => (
              <option key={s} value={s}>{t(`withdrawals.states.${s}`)}</option>
            ))}
          </select>
        </label>
        <Button variant="secondary" className="cs-end" onClick={() => setSettings(true)} data-testid="money-settings-open">
          {t('settings.open')}
        </Button>
      </div>
      <ServerTable {...list} columns={columns} empty={failed ? t('loadFailed') : t('withdrawals.none')} testId="withdrawals-table" rowTestId="withdrawal-row" rowKey={(w) => String(w.id)} />
      {open ? <WithdrawalPanel item={open} onClose={() => setOpen(null)} /> : null}
      {settings ? <MoneySettingsSheet onClose={() => setSettings(false)} /> : null}
    </>
  );
}

function Limits({ w }: { w: ConsoleWithdrawalItem }) {
  const { t } = useTranslation('console');
  return (
    <span className="cs-stack" data-over={w.overLimit || undefined}>
      <span>{t('withdrawals.day', { used: displayMoney(w.limits.day.used), limit: displayMoney(w.limits.day.limit) })}</span>
      <span>{t('withdrawals.month', { used: displayMoney(w.limits.month.used), limit: displayMoney(w.limits.month.limit) })}</span>
      {w.overLimit ? <span className="cs-badge cs-bad">{t('withdrawals.overLimit')}</span> : null}
    </span>
  );
}

function StateBadge({ w }: { w: ConsoleWithdrawalItem }) {
  const { t } = useTranslation('console');
  return (
    <span className="cs-stack">
      <span className={`cs-badge${w.state === 'failed' || w.state === 'rejected' ? ' cs-bad' : ''}`} data-testid="withdrawal-state" data-state={w.state}>
        {t(`withdrawals.states.${w.state}`)}
      </span>
      {w.approval ? <span className="cs-sub" data-testid="withdrawal-waiting">{t('withdrawals.waitingSecond', { by: w.approval.requestedBy })}</span> : null}
      {!w.approval && w.needsSecond && w.state === 'pendingReview' ? <span className="cs-sub">{t('withdrawals.needsSecond')}</span> : null}
    </span>
  );
}

function WithdrawalPanel({ item, onClose }: { item: ConsoleWithdrawalItem; onClose: () => void }) {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const me = useOperatorSession()?.mail;
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  // The row as it is now (the list refreshes after each action).
  const [w, setW] = useState(item);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['console'] });
    const fresh = await consoleApi.get<{ list: ConsoleWithdrawalItem[] }>('withdrawals', { query: { state: 'all', q: String(w.id) } });
    const row = fresh.list.find((x) => x.id === w.id);
    if (row) setW(row);
  };
  const approve = async () => {
    setBusy(true);
    try {
      const r = await consoleApi.post<ConsoleWithdrawApproved>('withdrawals/approve', { id: w.id });
      showToast(t(r.approvalId ? (r.waitsFor === 'soloSums' ? 'withdrawals.askedSecondSolo' : 'withdrawals.askedSecond') : 'withdrawals.approved'), 'success');
      await refresh();
    } catch {
      // the toast said why
    } finally {
      setBusy(false);
    }
  };
  const mine = w.approval !== null && w.approval.requestedBy === me;
  return (
    <Sheet title={t('withdrawals.title', { id: w.id })} onClose={onClose} testId="withdrawal-panel">
      <div className="cs-panel">
        <dl className="cs-facts">
          <dt>{t('withdrawals.user')}</dt>
          <dd>{w.mail} ({t(`level.${w.level}`)})</dd>
          <dt>{t('withdrawals.amount')}</dt>
          <dd data-testid="panel-amount">{displayMoney(w.amount)} · {t('withdrawals.fee', { fee: displayMoney(w.fee) })}</dd>
          <dt>{t('withdrawals.to')}</dt>
          <dd className="cs-addr">{w.network} {w.address}</dd>
          <dt>{t('withdrawals.requested')}</dt>
          <dd>{when(w.createdAt)}</dd>
          <dt>{t('withdrawals.limits')}</dt>
          <dd><Limits w={w} /></dd>
          <dt>{t('withdrawals.state')}</dt>
          <dd data-testid="panel-state"><StateBadge w={w} /></dd>
          {w.reviewedBy ? (
            <>
              <dt>{t('withdrawals.reviewedBy')}</dt>
              <dd>{w.reviewedBy}</dd>
            </>
          ) : null}
          {w.txHash ? (
            <>
              <dt>{t('withdrawals.tx')}</dt>
              <dd className="cs-addr">{w.txHash}</dd>
            </>
          ) : null}
          {w.payoutCheck ? (
            <>
              <dt>{t('withdrawals.check')}</dt>
              <dd>{w.payoutCheck}</dd>
            </>
          ) : null}
          {w.reason ? (
            <>
              <dt>{t('reason')}</dt>
              <dd>{w.reason}</dd>
            </>
          ) : null}
        </dl>
        {w.state === 'pendingReview' ? (
          <>
            {mine ? (
              <p className="cs-hint" data-testid="withdrawal-mine">{t('withdrawals.mine')}</p>
            ) : (
              <>
                {w.needsSecond ? <p className="cs-hint">{t(w.approval ? 'withdrawals.secondHint' : 'withdrawals.firstHint')}</p> : null}
                <Button block busy={busy} onClick={() => void approve()} data-testid="withdrawal-approve">
                  {t(w.approval ? 'withdrawals.approveSecond' : 'withdrawals.approve')}
                </Button>
              </>
            )}
            <RejectForm id={w.id} onDone={refresh} />
          </>
        ) : null}
        {w.state === 'processing' && w.txHash === null ? (
          <>
            <RejectForm id={w.id} onDone={refresh} />
            <PaidForm id={w.id} onDone={refresh} />
          </>
        ) : null}
      </div>
    </Sheet>
  );
}

function RejectForm({ id, onDone }: { id: number; onDone: () => Promise<void> }) {
  const { t } = useTranslation('console');
  const form = useConsoleForm<ConsoleWithdrawRejectBody>(consoleWithdrawRejectBody, { id, reason: '' }, async (v) => {
    await consoleApi.post('withdrawals/reject', v);
    showToast(t('withdrawals.rejected'), 'success');
    await onDone();
  });
  return (
    <form className="form cs-card" onSubmit={form.onSubmit} noValidate data-testid="withdrawal-reject-form">
      <p className="cs-hint">{t('withdrawals.rejectHint')}</p>
      <ReasonField label={t('withdrawals.rejectReason')} error={form.errorOf('reason')} {...form.register('reason')} />
      <Button type="submit" variant="danger" block busy={form.busy} data-testid="withdrawal-reject">{t('withdrawals.reject')}</Button>
    </form>
  );
}

function PaidForm({ id, onDone }: { id: number; onDone: () => Promise<void> }) {
  const { t } = useTranslation('console');
  const form = useConsoleForm<ConsoleWithdrawPaidBody>(consoleWithdrawPaidBody, { id, txHash: '' }, async (v) => {
    const r = await consoleApi.post<{ state: string }>('withdrawals/paid', v);
    showToast(t(r.state === 'completed' ? 'withdrawals.paidDone' : 'withdrawals.paidWaiting'), 'success');
    await onDone();
  });
  return (
    <form className="form cs-card" onSubmit={form.onSubmit} noValidate data-testid="withdrawal-paid-form">
      <p className="cs-hint">{t('withdrawals.paidHint')}</p>
      <TextField label={t('withdrawals.tx')} maxLength={100} autoComplete="off" spellCheck={false} data-testid="withdrawal-tx" error={form.errorOf('txHash')} {...form.register('txHash')} />
      <Button type="submit" variant="secondary" block busy={form.busy} data-testid="withdrawal-paid">{t('withdrawals.paid')}</Button>
    </form>
  );
}

function MoneySettingsSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('console');
  const q = useQuery({ queryKey: ['console', 'settings', 'money'], queryFn: () => consoleApi.get<ConsoleMoneySettings>('settings/money') });
  return (
    <Sheet title={t('settings.title')} onClose={onClose} testId="money-settings">
      {q.isPending ? <Spinner label={t('loading')} /> : q.isError ? <ErrorView message={t('loadFailed')} onRetry={() => void q.refetch()} /> : <MoneySettingsForm key={q.dataUpdatedAt} settings={q.data} />}
    </Sheet>
  );
}

/** The stored amounts without trailing zeros: what an operator would type. */
const typed = (amount: string) => amount.replace(/\.?0+$/, '');

function MoneySettingsForm({ settings }: { settings: ConsoleMoneySettings }) {
  const { t } = useTranslation('console');
  const queryClient = useQueryClient();
  const defaults: ConsoleMoneySettingsBody = {
    autoApproveBelow: typed(settings.autoApproveBelow),
    twoPersonAbove: typed(settings.twoPersonAbove),
    soloDailyLimit: typed(settings.soloDailyLimit),
    limits: Object.fromEntries(USER_LEVELS.map((l) => [l, { day: typed(settings.limits[l].day), month: typed(settings.limits[l].month) }])) as ConsoleMoneySettingsBody['limits'],
    reason: '',
  };
  const form = useConsoleForm<ConsoleMoneySettingsBody>(consoleMoneySettingsBody, defaults, async (v) => {
    await consoleApi.post('settings/money', v);
    showToast(t('pending.asked'), 'success');
    await queryClient.invalidateQueries({ queryKey: ['console'] });
  });
  return (
    <form className="form" onSubmit={form.onSubmit} noValidate data-testid="money-settings-form">
      <PendingChange pending={settings.pending} />
      <TextField label={t('settings.autoApproveBelow')} hint={t('settings.autoApproveHint')} inputMode="decimal" maxLength={24} data-testid="settings-auto" error={form.errorOf('autoApproveBelow')} {...form.register('autoApproveBelow')} />
      <TextField label={t('settings.twoPersonAbove')} hint={t('settings.twoPersonHint')} inputMode="decimal" maxLength={24} data-testid="settings-two-person" error={form.errorOf('twoPersonAbove')} {...form.register('twoPersonAbove')} />
      <TextField label={t('settings.soloDailyLimit')} hint={t('settings.soloDailyHint')} inputMode="decimal" maxLength={24} data-testid="settings-solo-daily" error={form.errorOf('soloDailyLimit')} {...form.register('soloDailyLimit')} />
      <fieldset className="cs-fieldset">
        <legend>{t('settings.limits')}</legend>
        <p className="cs-hint">{t('settings.limitsHint')}</p>
        {USER_LEVELS.map((l) => (
          <div key={l} className="cs-row cs-limit-row">
            <span className="cs-limit-level">{t(`level.${l}`)}</span>
            <div className="cs-grow">
              <TextField label={t('settings.day')} inputMode="decimal" maxLength={24} data-testid={`settings-day-${l}`} error={form.errorOf(`limits.${l}.day`)} {...form.register(`limits.${l}.day`)} />
            </div>
            <div className="cs-grow">
              <TextField label={t('settings.month')} inputMode="decimal" maxLength={24} data-testid={`settings-month-${l}`} error={form.errorOf(`limits.${l}.month`)} {...form.register(`limits.${l}.month`)} />
            </div>
          </div>
        ))}
      </fieldset>
      <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
      <Button type="submit" block busy={form.busy} data-testid="settings-submit">{t('settings.submit')}</Button>
    </form>
  );
}

// Two people for big money (GET console/api/approvals): adjustments and withdrawal approvals above
// the operator-set amount, and changes of money settings, waiting for a second operator. The
// operator who asked can withdraw their own but never approve it (the server refuses too); anyone
// else approves or turns it down.
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { APPROVAL_STATES, consoleApprovalRejectBody, type ConsoleApprovalItem, type ConsoleApprovalRejectBody } from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { displayMoney } from '../../lib/money';
import { showToast } from '../../lib/toast';
import { consoleApi } from './api';
import { useConsoleForm } from './form';
import { ReasonField } from './ReasonField';
import { SettingChanges } from './SettingsChange';
import { ServerTable, useDateTime, useServerList, type ServerColumn } from './ui';

const PAGE_SIZE = 20;
/** What other operators ask for shows up while the page is open. */
const REFRESH_MS = 15_000;
type StatusFilter = (typeof APPROVAL_STATES)[number] | 'all';

export function ApprovalsPage() {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const [status, setStatus] = useState<StatusFilter>('pending');
  const [approving, setApproving] = useState<ConsoleApprovalItem | null>(null);
  const [rejecting, setRejecting] = useState<ConsoleApprovalItem | null>(null);
  const { failed, filterQuery: _query, ...list } = useServerList<ConsoleApprovalItem>('approvals', { status }, '-id', PAGE_SIZE, REFRESH_MS);

  const columns = useMemo<ServerColumn<ConsoleApprovalItem>[]>(() => {
    return [
      { id: 'id', accessorKey: 'id', header: () => t('approvals.id') },
      {
        id: 'what',
        header: () => t('approvals.what'),
        enableSorting: false,
        cell: ({ row }) => <ApprovalWhat item={row.original} />,
      },
      { id: 'amount', header: () => t('approvals.amount'), enableSorting: false, cell: ({ row }) => (row.original.amount === null ? <span className="cs-sub">--</span> : <strong>{displayMoney(row.original.amount)}</strong>) },
      { id: 'reason', header: () => t('reason'), enableSorting: false, cell: ({ row }) => <span className="cs-break cs-pre">{row.original.reason}</span> },
      {
        id: 'asked',
        header: () => t('approvals.asked'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="cs-stack">
            <span className="cs-break">{row.original.requestedBy}</span>
            <span className="cs-sub">{when(row.original.requestedAt)}</span>
          </span>
        ),
      },
      {
        id: 'status',
        header: () => t('approvals.status'),
        enableSorting: false,
        cell: ({ row }) => {
          const a = row.original;
          return (
            <span className="cs-stack">
              <span className={`cs-badge${a.status === 'rejected' || a.status === 'cancelled' ? ' cs-bad' : ''}`} data-testid="approval-status" data-status={a.status}>
                {t(`approvals.states.${a.status}`)}
              </span>
              {a.decidedBy ? <span className="cs-sub cs-break">{t('approvals.decided', { by: a.decidedBy, at: when(a.decidedAt) })}</span> : null}
              {a.decisionNote ? <span className="cs-sub cs-break">{a.decisionNote}</span> : null}
            </span>
          );
        },
      },
      {
        id: 'act',
        header: () => <span className="cs-sr">{t('approvals.act')}</span>,
        enableSorting: false,
        cell: ({ row }) => {
          const a = row.original;
          if (a.status !== 'pending') return null;
          return (
            <span className="cs-row">
              {a.mine ? (
                <span className="cs-sub" data-testid="approval-mine">{t('approvals.mine')}</span>
              ) : (
                <Button className="cs-small" onClick={() => setApproving(a)} data-testid="approval-approve">
                  {t('approvals.approve')}
                </Button>
              )}
              <Button variant="secondary" className="cs-small" onClick={() => setRejecting(a)} data-testid="approval-reject">
                {t(a.mine ? 'approvals.withdraw' : 'approvals.reject')}
              </Button>
            </span>
          );
        },
      },
    ];
  }, [t, when]);

  return (
    <>
      <p className="cs-hint">{t('approvals.hint')}</p>
      <div className="cs-filters">
        <label className="cs-filter">
          <span>{t('approvals.status')}</span>
          <select className="input" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)} data-testid="approvals-status">
            {APPROVAL_STATES.map((s) => (
              <option key={s} value={s}>{t(`approvals.states.${s}`)}</option>
            ))}
            <option value="all">{t('all')}</option>
          </select>
        </label>
      </div>
      <ServerTable {...list} columns={columns} empty={failed ? t('loadFailed') : t('approvals.none')} testId="approvals-table" rowTestId="approval-row" rowKey={(a) => String(a.id)} />
      {approving ? <ApproveSheet item={approving} onClose={() => setApproving(null)} /> : null}
      {rejecting ? <RejectSheet item={rejecting} onClose={() => setRejecting(null)} /> : null}
    </>
  );
}

function RejectSheet({ item, onClose }: { item: ConsoleApprovalItem; onClose: () => void }) {
  const { t } = useTranslation('console');
  const queryClient = useQueryClient();
  const form = useConsoleForm<ConsoleApprovalRejectBody>(consoleApprovalRejectBody, { id: item.id, reason: '' }, async (v) => {
    await consoleApi.post('approvals/reject', v);
    showToast(t('approvals.rejected'), 'success');
    await queryClient.invalidateQueries({ queryKey: ['console'] });
    onClose();
  });
  return (
    <Sheet title={t(item.mine ? 'approvals.withdraw' : 'approvals.reject')} onClose={onClose} testId="approval-reject-sheet">
      <form className="form" onSubmit={form.onSubmit} noValidate>
        <p className="cs-hint">{[item.amount !== null ? displayMoney(item.amount) : item.level ? t('approvals.levelGrant', { from: t(`level.${item.level.from}`), to: t(`level.${item.level.to}`) }) : t(`approvals.group.${item.settings?.group ?? 'money'}`), item.user?.mail, item.reason].filter(Boolean).join(' · ')}</p>
        <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
        <Button type="submit" variant="danger" block busy={form.busy} data-testid="approval-reject-submit">{t(item.mine ? 'approvals.withdraw' : 'approvals.reject')}</Button>
      </form>
    </Sheet>
  );
}

/** What an approval does: a settings change's values, a level grant, an adjustment or a withdrawal. */
function ApprovalWhat({ item: a }: { item: ConsoleApprovalItem }) {
  const { t } = useTranslation('console');
  if (a.level) {
    return (
      <span className="cs-stack">
        <span data-testid="approval-what">{t('approvals.levelGrant', { from: t(`level.${a.level.from}`), to: t(`level.${a.level.to}`) })}</span>
        <span className="cs-sub cs-break">{a.user?.mail}</span>
      </span>
    );
  }
  if (a.settings) {
    return (
      <span className="cs-stack">
        <span data-testid="approval-what">{t(`approvals.group.${a.settings.group}`)}</span>
        <SettingChanges changes={a.settings.changes} />
      </span>
    );
  }
  return (
    <span className="cs-stack">
      <span data-testid="approval-what">
        {a.adjust ? `${t(`adjust.${a.adjust.direction}`)} · ${t(`adjust.walletName.${a.adjust.wallet}`)}` : t('approvals.withdrawal', { id: a.withdrawal?.id ?? '' })}
      </span>
      <span className="cs-sub cs-break">{a.user?.mail}</span>
      {a.withdrawal ? <span className="cs-sub cs-addr">{a.withdrawal.network} {a.withdrawal.address} · {t(`withdrawals.states.${a.withdrawal.state}`)}</span> : null}
    </span>
  );
}

/**
 * The approval confirmed on what it shows: the sheet holds the approval as it was opened, so a list
 * refreshed meanwhile (one withdrawn, another asked in its place) never turns the tap into another's.
 */
function ApproveSheet({ item, onClose }: { item: ConsoleApprovalItem; onClose: () => void }) {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const approve = async () => {
    setBusy(true);
    try {
      await consoleApi.post('approvals/approve', { id: item.id });
      showToast(t('approvals.approved'), 'success');
      onClose();
    } catch {
      // the toast said why
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: ['console'] });
    }
  };
  return (
    <Sheet title={t('approvals.confirm', { id: item.id })} onClose={onClose} testId="approval-approve-sheet">
      <div className="form">
        <ApprovalWhat item={item} />
        {item.amount !== null ? <p className="cs-hint"><strong>{displayMoney(item.amount)}</strong></p> : null}
        <p className="cs-hint cs-break">{t('approvals.askedBy', { by: item.requestedBy, at: when(item.requestedAt) })}</p>
        <p className="cs-hint cs-break cs-pre">{item.reason}</p>
        <Button block busy={busy} onClick={() => void approve()} data-testid="approval-approve-submit">{t('approvals.approve')}</Button>
      </div>
    </Sheet>
  );
}

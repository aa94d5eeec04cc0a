// Deposits (GET console/api/deposits): the chain watcher's view — pending with their
// confirmations, waiting (confirmed but below the minimum, credited once the address's total
// reaches it), credited with their ledger entry, dropped by a reorganisation.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSOLE_DEPOSIT_STATES, DEPOSIT_NETWORKS, DEPOSIT_MIN, type ConsoleDepositItem, type DepositNetwork } from '@lq/contracts';
import { displayMoney } from '../../lib/money';
import { ServerTable, useDateTime, useDebounced, useServerList, type ServerColumn } from './ui';

const PAGE_SIZE = 20;
type StateFilter = (typeof CONSOLE_DEPOSIT_STATES)[number] | 'all';

export function DepositsPage() {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim());
  const [state, setState] = useState<StateFilter>('all');
  const [network, setNetwork] = useState<DepositNetwork | ''>('');
  const { failed, filterQuery: _query, ...list } = useServerList<ConsoleDepositItem>('deposits', { q, state, network }, '-id', PAGE_SIZE);

  const columns = useMemo<ServerColumn<ConsoleDepositItem>[]>(
    () => [
      { id: 'id', accessorKey: 'id', header: () => t('deposits.id') },
      {
        id: 'user',
        header: () => t('deposits.user'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="cs-stack">
            <span className="cs-break">{row.original.mail}</span>
            <span className="cs-sub">#{row.original.userId}</span>
          </span>
        ),
      },
      { id: 'amount', accessorKey: 'amount', header: () => t('deposits.amount'), cell: ({ row }) => displayMoney(row.original.amount) },
      {
        id: 'state',
        header: () => t('deposits.state'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="cs-stack">
            <span className={`cs-badge${row.original.state === 'dropped' ? ' cs-bad' : ''}`} data-testid="deposit-state" data-state={row.original.state}>
              {t(`deposits.states.${row.original.state}`)}
            </span>
            {row.original.state === 'pending' ? <span className="cs-sub">{t('deposits.confirmations', { n: row.original.confirmations, needed: row.original.confirmationsNeeded })}</span> : null}
          </span>
        ),
      },
      {
        id: 'tx',
        header: () => t('deposits.tx'),
        enableSorting: false,
        cell: ({ row }) => (
          <span className="cs-stack">
            <span className="cs-addr">{row.original.txHash}</span>
            <span className="cs-sub">{row.original.network} · {t('deposits.from', { from: row.original.fromAddress })}</span>
          </span>
        ),
      },
      { id: 'seen', header: () => t('deposits.seen'), enableSorting: false, cell: ({ row }) => when(row.original.seenAt) },
      { id: 'credited', header: () => t('deposits.credited'), enableSorting: false, cell: ({ row }) => (row.original.creditedAt ? `${when(row.original.creditedAt)} · #${row.original.entryId ?? ''}` : '--') },
    ],
    [t, when],
  );

  return (
    <>
      <p className="cs-hint">{t('deposits.hint', { minimum: displayMoney(String(DEPOSIT_MIN)) })}</p>
      <div className="cs-filters">
        <label className="cs-filter">
          <span>{t('deposits.search')}</span>
          <input className="input" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={t('deposits.searchHint')} maxLength={200} data-testid="deposits-search" />
        </label>
        <label className="cs-filter">
          <span>{t('deposits.state')}</span>
          <select className="input" value={state} onChange={(e) => setState(e.target.value as StateFilter)} data-testid="deposits-state">
            <option value="all">{t('all')}</option>
            {CONSOLE_DEPOSIT_STATES.map((s) => (
              <option key={s} value={s}>{t(`deposits.states.${s}`)}</option>
            ))}
          </select>
        </label>
        <label className="cs-filter">
          <span>{t('deposits.network')}</span>
          <select className="input" value={network} onChange={(e) => setNetwork(e.target.value as DepositNetwork | '')} data-testid="deposits-network">
            <option value="">{t('all')}</option>
            {DEPOSIT_NETWORKS.map((n) => (
              <option key={n} value={n}>{n}</option>
            ))}
          </select>
        </label>
      </div>
      <ServerTable {...list} columns={columns} empty={failed ? t('loadFailed') : t('deposits.none')} testId="deposits-table" rowTestId="deposit-row" rowKey={(d) => String(d.id)} />
    </>
  );
}

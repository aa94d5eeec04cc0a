// Users (GET console/api/users): searched, filtered by level, sorted and paged on the server; a
// user's panel sets the level, freezes or unfreezes, grants seats, slots or the basic rights and
// adjusts a wallet — each with the reason the audit log keeps.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { USER_LEVELS, type ConsoleUserItem, type UserLevel } from '@lq/contracts';
import { displayMoney } from '../../lib/money';
import { UserPanel } from './UserPanel';
import { ServerTable, useDateTime, useDebounced, useServerList, type ServerColumn } from './ui';

const PAGE_SIZE = 20;

export function UsersPage() {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const [typed, setTyped] = useState('');
  const q = useDebounced(typed.trim());
  const [level, setLevel] = useState<UserLevel | ''>('');
  const [open, setOpen] = useState<number | null>(null);
  const { failed, filterQuery: _query, ...list } = useServerList<ConsoleUserItem>('users', { q, level }, '-id', PAGE_SIZE);

  const columns = useMemo<ServerColumn<ConsoleUserItem>[]>(() => [
    { id: 'id', accessorKey: 'id', header: () => t('users.id') },
    {
      id: 'mail',
      accessorKey: 'mail',
      header: () => t('users.mail'),
      cell: ({ row }) => (
        <span className="cs-stack">
          <span className="cs-break">{row.original.mail}</span>
          <span className="cs-sub">{row.original.userCode}</span>
        </span>
      ),
    },
    { id: 'level', accessorKey: 'level', header: () => t('users.level'), enableSorting: false, cell: ({ row }) => t(`level.${row.original.level}`) },
    { id: 'balance', accessorKey: 'balance', header: () => t('users.balance'), cell: ({ row }) => displayMoney(row.original.balance) },
    { id: 'rebate', accessorKey: 'rebate', header: () => t('users.rebate'), enableSorting: false, cell: ({ row }) => displayMoney(row.original.rebate) },
    { id: 'robots', accessorKey: 'robotsRunning', header: () => t('users.robots'), enableSorting: false },
    { id: 'created', accessorKey: 'createdAt', header: () => t('users.created'), enableSorting: false, cell: ({ row }) => when(row.original.createdAt) },
    {
      id: 'state',
      header: () => t('users.state'),
      enableSorting: false,
      cell: ({ row }) =>
        row.original.frozenAt ? (
          <span className="cs-badge cs-bad" title={row.original.frozenReason ?? ''} data-testid="user-frozen">{t('users.frozen')}</span>
        ) : (
          <span className="cs-badge">{t('users.active')}</span>
        ),
    },
    {
      id: 'open',
      header: () => <span className="cs-sr">{t('users.manage')}</span>,
      enableSorting: false,
      cell: ({ row }) => (
        <button type="button" className="btn btn-secondary cs-small" onClick={() => setOpen(row.original.id)} data-testid="user-manage">
          {t('users.manage')}
        </button>
      ),
    },
  ], [t, when]);

  return (
    <>
      <div className="cs-filters">
        <label className="cs-filter">
          <span>{t('users.search')}</span>
          <input className="input" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={t('users.searchHint')} maxLength={200} data-testid="users-search" />
        </label>
        <label className="cs-filter">
          <span>{t('users.level')}</span>
          <select
            className="input"
            value={level}
            onChange={(e) => setLevel(e.target.value as UserLevel | '')}
            data-testid="users-level"
          >
            <option value="">{t('all')}</option>
            {USER_LEVELS.map((l) => (
              <option key={l} value={l}>{t(`level.${l}`)}</option>
            ))}
          </select>
        </label>
      </div>
      <ServerTable {...list} columns={columns} empty={failed ? t('loadFailed') : t('users.none')} testId="users-table" rowTestId="user-row" rowKey={(u) => String(u.id)} />
      {open !== null ? <UserPanel userId={open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

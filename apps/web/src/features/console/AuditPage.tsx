// The audit log (GET console/api/audit): every operator action from the console and from
// `npm run ops`, filtered and paged on the server, newest first or oldest first; the same filters
// export as CSV (the export is itself recorded).
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_OUTCOMES, AUDIT_SOURCES, type AuditItem } from '@lq/contracts';
import { Button } from '../../components/Button';
import { downloadConsoleFile } from './api';
import { ServerTable, useDateTime, useDebounced, useServerList, type ServerColumn } from './ui';

const PAGE_SIZE = 50;
const TEXT_FILTERS = ['actor', 'action', 'objectType', 'objectId'] as const;
type Filters = Partial<Record<(typeof TEXT_FILTERS)[number] | 'source' | 'outcome', string>>;

/** Values before/after as short `key: value` lines (the raw JSON is in the CSV). */
const shown = (value: unknown) =>
  value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n') : value === null || value === undefined ? '' : JSON.stringify(value);

export function AuditPage() {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const [filters, setFilters] = useState<Filters>({});
  const [exporting, setExporting] = useState(false);
  const settled = useDebounced(filters);
  const active = Object.fromEntries(Object.entries(settled).map(([k, v]) => [k, v?.trim()])) as Filters;
  const { failed, filterQuery, ...list } = useServerList<AuditItem>('audit', active, '-at', PAGE_SIZE);
  const set = (name: keyof Filters, value: string) => setFilters((f) => ({ ...f, [name]: value }));

  const columns = useMemo<ServerColumn<AuditItem>[]>(
    () => [
      { id: 'at', accessorKey: 'at', header: () => t('audit.at'), cell: ({ row }) => when(row.original.at) },
      { id: 'actor', accessorKey: 'actor', header: () => t('audit.actor'), enableSorting: false, cell: ({ row }) => <span className="cs-stack"><span className="cs-break">{row.original.actor}</span><span className="cs-sub">{t(`audit.source.${row.original.source}`)}</span></span> },
      { id: 'action', accessorKey: 'action', header: () => t('audit.action'), enableSorting: false, cell: ({ row }) => <code data-testid="audit-action">{row.original.action}</code> },
      { id: 'object', header: () => t('audit.object'), enableSorting: false, cell: ({ row }) => (row.original.objectType ? `${row.original.objectType} ${row.original.objectId ?? ''}` : '') },
      { id: 'before', header: () => t('audit.before'), enableSorting: false, cell: ({ row }) => <span className="cs-pre">{shown(row.original.before)}</span> },
      { id: 'after', header: () => t('audit.after'), enableSorting: false, cell: ({ row }) => <span className="cs-pre">{shown(row.original.after)}</span> },
      { id: 'outcome', accessorKey: 'outcome', header: () => t('audit.outcome'), enableSorting: false, cell: ({ row }) => <span className={`cs-badge${row.original.outcome === 'done' ? '' : ' cs-bad'}`} data-testid="audit-outcome">{t(`audit.outcomes.${row.original.outcome}`)}</span> },
    ],
    [t, when],
  );

  const exportCsv = async () => {
    setExporting(true);
    await downloadConsoleFile(`audit/export?${filterQuery}`, 'audit-log.csv').catch(() => undefined);
    setExporting(false);
  };

  return (
    <>
      <div className="cs-filters">
        {TEXT_FILTERS.map((name) => (
          <label key={name} className="cs-filter">
            <span>{t(`audit.filter.${name}`)}</span>
            <input className="input" value={filters[name] ?? ''} maxLength={name === 'actor' ? 200 : 100} onChange={(e) => set(name, e.target.value)} data-testid={`audit-${name}`} />
          </label>
        ))}
        <label className="cs-filter">
          <span>{t('audit.filter.source')}</span>
          <select className="input" value={filters.source ?? ''} onChange={(e) => set('source', e.target.value)} data-testid="audit-source">
            <option value="">{t('all')}</option>
            {AUDIT_SOURCES.map((s) => (
              <option key={s} value={s}>{t(`audit.source.${s}`)}</option>
            ))}
          </select>
        </label>
        <label className="cs-filter">
          <span>{t('audit.filter.outcome')}</span>
          <select className="input" value={filters.outcome ?? ''} onChange={(e) => set('outcome', e.target.value)} data-testid="audit-outcome-filter">
            <option value="">{t('all')}</option>
            {AUDIT_OUTCOMES.map((o) => (
              <option key={o} value={o}>{t(`audit.outcomes.${o}`)}</option>
            ))}
          </select>
        </label>
        <Button variant="secondary" className="cs-small cs-end" busy={exporting} onClick={() => void exportCsv()} data-testid="audit-export">
          {t('audit.export')}
        </Button>
      </div>
      <ServerTable {...list} columns={columns} empty={failed ? t('loadFailed') : t('audit.none')} testId="audit-table" rowTestId="audit-row" rowKey={(r) => String(r.id)} />
    </>
  );
}

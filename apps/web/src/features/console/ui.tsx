// Pieces the console's pages share: dates in the operator's locale, and a table whose sorting and
// paging happen on the server (@tanstack/react-table in manual mode; the page owns the query).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { rowSortingFeature, rowPaginationFeature, tableFeatures, useTable, type ColumnDef, type RowData, type SortingState } from '@tanstack/react-table';
import { localeTag } from '../../lib/format';
import { useAppStore } from '../../lib/store';
import { consoleApi } from './api';

export function useDateTime() {
  const locale = useAppStore((s) => s.locale);
  return useMemo(() => {
    const format = new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    return (ms: number | null | undefined) => (ms === null || ms === undefined ? '--' : format.format(ms));
  }, [locale]);
}

/** `value` once it has stopped changing for `ms` (a search goes out when typing pauses). */
export function useDebounced<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export const serverTableFeatures = tableFeatures({ rowSortingFeature, rowPaginationFeature });
export type ServerColumn<Row extends RowData> = ColumnDef<typeof serverTableFeatures, Row>;

/** `-balance` ↔ [{id: 'balance', desc: true}]: the API's sort parameter as the table's state. */
export const sortingOf = (sort: string): SortingState => [{ id: sort.replace(/^-/, ''), desc: sort.startsWith('-') }];
export const sortParamOf = (sorting: SortingState, fallback: string) => (sorting[0] ? `${sorting[0].desc ? '-' : ''}${sorting[0].id}` : fallback);

/**
 * A console list read page by page from `path` (answers `{list, total}`), with `filters`: the sort
 * and page are state here, a new filter or sort starts again from the first page. Answers the
 * props ServerTable needs for them. `refreshMs`: read again that often while shown (what other
 * operators add).
 */
export function useServerList<Row extends RowData>(path: string, filters: Record<string, string | undefined>, defaultSort: string, size: number, refreshMs?: number) {
  const [sort, setSort] = useState(defaultSort);
  const [page, setPage] = useState(1);
  const key = JSON.stringify(filters);
  const [filtered, setFiltered] = useState(key);
  if (filtered !== key) {
    setFiltered(key);
    setPage(1);
  }
  const query = Object.fromEntries(Object.entries({ ...filters, sort, page, size }).filter(([, v]) => v !== undefined && v !== ''));
  const list = useQuery({ queryKey: ['console', path, query], queryFn: () => consoleApi.get<{ list: Row[]; total: number }>(path, { query }), placeholderData: keepPreviousData, refetchInterval: refreshMs });
  return {
    rows: list.data?.list ?? (NO_ROWS as Row[]),
    total: list.data?.total ?? 0,
    sort,
    onSort: (next: string) => {
      setSort(next);
      setPage(1);
    },
    page,
    size,
    onPage: setPage,
    loading: list.isFetching,
    failed: list.isError,
    /** The query string of the filters and sort (an export of the same rows). */
    filterQuery: new URLSearchParams(Object.fromEntries(Object.entries({ ...filters, sort }).filter(([, v]) => v))).toString(),
  };
}

const NO_ROWS: unknown[] = [];

interface ServerTableProps<Row extends RowData> {
  columns: ServerColumn<Row>[];
  rows: Row[];
  total: number;
  sort: string;
  onSort: (sort: string) => void;
  page: number;
  size: number;
  onPage: (page: number) => void;
  loading: boolean;
  empty: string;
  testId: string;
  rowTestId: string;
  rowKey: (row: Row) => string;
}

export function ServerTable<Row extends RowData>({ columns, rows, total, sort, onSort, page, size, onPage, loading, empty, testId, rowTestId, rowKey }: ServerTableProps<Row>) {
  const { t } = useTranslation('console');
  const pages = Math.max(1, Math.ceil(total / size));
  const table = useTable({
    features: serverTableFeatures,
    columns,
    data: rows,
    getRowId: rowKey,
    rowCount: total,
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    state: { sorting: sortingOf(sort), pagination: { pageIndex: page - 1, pageSize: size } },
    onSortingChange: (updater) => onSort(sortParamOf(typeof updater === 'function' ? updater(sortingOf(sort)) : updater, sort)),
    onPaginationChange: (updater) => {
      const next = typeof updater === 'function' ? updater({ pageIndex: page - 1, pageSize: size }) : updater;
      onPage(next.pageIndex + 1);
    },
  });
  return (
    <div className="cs-table-box">
      <div className="cs-scroll">
        <table className="cs-table" data-testid={testId} aria-busy={loading || undefined} data-total={total}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const label: ReactNode = <table.FlexRender header={header} />;
                  return (
                    <th key={header.id} aria-sort={sorted ? (sorted === 'desc' ? 'descending' : 'ascending') : undefined}>
                      {header.column.getCanSort() ? (
                        <button type="button" className="cs-sort" onClick={header.column.getToggleSortingHandler()} data-testid={`sort-${header.column.id}`}>
                          {label}
                          <span aria-hidden="true">{sorted === 'desc' ? ' ▼' : sorted === 'asc' ? ' ▲' : ' ↕'}</span>
                        </button>
                      ) : (
                        label
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} data-testid={rowTestId} data-id={row.id}>
                {row.getAllCells().map((cell) => (
                  <td key={cell.id} data-col={cell.column.id}>
                    <table.FlexRender cell={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {!loading && rows.length === 0 ? <p className="cs-empty" data-testid={`${testId}-empty`}>{empty}</p> : null}
      </div>
      <div className="cs-pager">
        <button type="button" className="btn btn-secondary cs-small" disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()} data-testid={`${testId}-prev`}>
          {t('table.prev')}
        </button>
        <span data-testid={`${testId}-page`}>{t('table.page', { page, pages, total })}</span>
        <button type="button" className="btn btn-secondary cs-small" disabled={!table.getCanNextPage()} onClick={() => table.nextPage()} data-testid={`${testId}-next`}>
          {t('table.next')}
        </button>
      </div>
    </div>
  );
}

import type { DataSourceItem } from '@lq/contracts';

/**
 * Current source after a list fetch (spec §4): the server's `selected` type; else the entry of
 * the same type as the stored current one; else the first of the list. Undefined for an empty list.
 */
export function pickCurrentDataSource(list: DataSourceItem[], selected: string | null | undefined, stored: DataSourceItem | null | undefined): DataSourceItem | undefined {
  const byType = (type: string | null | undefined) => (type ? list.find((s) => s.type === type) : undefined);
  return byType(selected) ?? byType(stored?.type) ?? list[0];
}

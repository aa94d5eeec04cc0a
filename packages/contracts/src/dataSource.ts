import { z } from 'zod';

/** Market data sources. `mt5` is forex, `binance` crypto; the others are announced, not open. */
export const DATA_SOURCES = [
  { type: 'mt5', market: 'forex', isOpen: true, icon: '/icons/mt5.svg' },
  { type: 'binance', market: 'crypto', isOpen: true, icon: '/icons/binance.svg' },
  { type: 'okx', market: 'crypto', isOpen: false, icon: '/icons/okx.svg' },
] as const;

export type DataSourceType = (typeof DATA_SOURCES)[number]['type'];
export const DATA_SOURCE_TYPES = DATA_SOURCES.map((s) => s.type) as [
  DataSourceType,
  ...DataSourceType[],
];
export const DEFAULT_DATA_SOURCE: DataSourceType = 'mt5';
export type Theme = 'forex' | 'crypto';
export const themeOfDataSource = (type: string): Theme | undefined =>
  DATA_SOURCES.find((s) => s.type === type)?.market;

export const dataSourceItem = z.object({
  type: z.string(),
  isOpen: z.boolean(),
  text: z.string(),
  value: z.string(),
  icon: z.string(),
});
export type DataSourceItem = z.infer<typeof dataSourceItem>;

export const dataSourceList = z.object({
  list: z.array(dataSourceItem),
  selected: z.string().nullable(),
});
export type DataSourceList = z.infer<typeof dataSourceList>;

export const dataSourceSelectBody = z.strictObject({
  type: z.string().trim().min(1).max(32),
});
export type DataSourceSelectBody = z.infer<typeof dataSourceSelectBody>;

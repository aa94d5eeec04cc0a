// No zod here: the web app's shell imports these; the schemas are in dataSourceSchema.ts.

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

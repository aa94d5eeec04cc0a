// Strategy types ↔ create-order pages (spec §2) and markets. Pure data, unit-tested.
import type { Theme } from '@lq/contracts';

export const STRATEGY_KEYS = [
  'single',
  'day-single',
  'week-single',
  'month-single',
  'grid',
  'contrarian-martin',
  'pegasus',
  'marco-hunt',
  'blue-bands',
  'purge-revert',
  'inversion-revert',
] as const;
export type StrategyKey = (typeof STRATEGY_KEYS)[number];
export const isStrategyKey = (v: unknown): v is StrategyKey => typeof v === 'string' && (STRATEGY_KEYS as readonly string[]).includes(v);

export type Market = Theme; // 'forex' | 'crypto'

export const CREATE_ORDER_PAGES = [
  'crypto_single', 'crypto_grid', 'crypto_pegasus', 'crypto_martin', 'crypto_marco', 'crypto_blue',
  'forex_single', 'forex_martin', 'forex_grid', 'forex_pegasus', 'forex_dmy', 'forex_marco', 'prt', 'irl',
] as const;
export type CreateOrderPage = (typeof CREATE_ORDER_PAGES)[number];

/** The strategies each create-order page offers (forex_dmy: intraday, weekly, monthly trend). */
export const PAGE_STRATEGIES: Record<CreateOrderPage, readonly StrategyKey[]> = {
  crypto_single: ['single'],
  crypto_grid: ['grid'],
  crypto_pegasus: ['pegasus'],
  crypto_martin: ['contrarian-martin'],
  crypto_marco: ['marco-hunt'],
  crypto_blue: ['blue-bands'],
  forex_single: ['single'],
  forex_martin: ['contrarian-martin'],
  forex_grid: ['grid'],
  forex_pegasus: ['pegasus'],
  forex_dmy: ['day-single', 'week-single', 'month-single'],
  forex_marco: ['marco-hunt'],
  prt: ['purge-revert'],
  irl: ['inversion-revert'],
};

/** Market of a page; prt and irl serve both markets (the current one). */
export function marketOfPage(page: CreateOrderPage): Market | null {
  if (page.startsWith('crypto_')) return 'crypto';
  if (page.startsWith('forex_')) return 'forex';
  return null;
}

/** The create-order page of a strategy in a market. */
export function pageOfStrategy(strategy: StrategyKey, market: Market): CreateOrderPage {
  switch (strategy) {
    case 'day-single':
    case 'week-single':
    case 'month-single':
      return 'forex_dmy';
    case 'purge-revert':
      return 'prt';
    case 'inversion-revert':
      return 'irl';
    case 'blue-bands':
      return 'crypto_blue';
    default: {
      const suffix = { single: 'single', grid: 'grid', pegasus: 'pegasus', 'contrarian-martin': 'martin', 'marco-hunt': 'marco' }[strategy];
      return `${market}_${suffix}` as CreateOrderPage;
    }
  }
}

/** Path of the create-order page (type 0 backtest, 1 robot) with the strategy and optional query. */
export function createOrderPath(strategy: StrategyKey, market: Market, query: Record<string, string> = {}): string {
  const page = pageOfStrategy(strategy, market);
  const params = new URLSearchParams({ strategy, ...query });
  return `/pages/createOrder/${page}?${params.toString()}`;
}

export const isCreateOrderPage = (v: string): v is CreateOrderPage => (CREATE_ORDER_PAGES as readonly string[]).includes(v);

/** Market of a data-source type: mt5 → forex, binance/okx → crypto. */
export const marketOfDataSource = (type: string): Market => (type === 'mt5' ? 'forex' : 'crypto');

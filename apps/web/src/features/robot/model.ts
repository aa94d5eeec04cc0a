// Pure helpers of the robot screens (unit-tested in apps/web/test/robot.test.ts).
import type { RobotStatus, TickerItem } from '@lq/contracts';
import { formatCompact, formatNumber, toNumber } from '../../lib/format';
import type { RobotAction } from './api';

/** The actions a robot offers in each status (stopping: the runner is closing positions). */
export function actionsOf(status: RobotStatus): RobotAction[] {
  if (status === 'running') return ['pause', 'stop'];
  if (status === 'paused') return ['continue', 'stop'];
  return [];
}

// The reason's split is shared with the notification centre: it lives in @lq/contracts.
export { splitReason, type RobotReason as Reason } from '@lq/contracts';

/** Milliseconds between two ISO times (end: now when absent); undefined when unknown. */
export function periodMs(fromIso: string | null | undefined, toIso: string | null | undefined, now: number): number | undefined {
  const from = fromIso ? Date.parse(fromIso) : NaN;
  const to = toIso ? Date.parse(toIso) : now;
  if (!Number.isFinite(from) || !Number.isFinite(to) || to < from) return undefined;
  return to - from;
}

/** Tickers matching a search text (symbol contains it, case- and space-insensitive), in list order. */
export function filterTickers(list: readonly TickerItem[], search: string): TickerItem[] {
  const q = search.replace(/\s+/g, '').toUpperCase();
  return q ? list.filter((t) => t.symbol.toUpperCase().includes(q)) : [...list];
}

/** Net position → side for display. */
export const positionSide = (position: number | null | undefined): 'long' | 'short' | 'flat' | null =>
  position === null || position === undefined || !Number.isFinite(position) ? null : position > 0 ? 'long' : position < 0 ? 'short' : 'flat';

/** Market → the data source robots of that market are listed under. */
export const dataSourceOfMarket = (market: 'forex' | 'crypto', currentType: string) => (market === 'forex' ? 'mt5' : currentType === 'mt5' ? 'binance' : currentType);

/**
 * Money of the robot screens (spec §5): two decimals with thousands separators; from 10,000 on,
 * 万 / 亿 (萬 / 億) units in the Chinese locales; `--` for anything that is not a number.
 */
export function formatMoney(value: unknown, locale: string): string {
  const n = toNumber(value);
  if (n !== undefined && (locale === 'zh-CN' || locale === 'zh-TW') && Math.abs(n) >= 1e4) return formatCompact(n, locale, 2);
  return formatNumber(value, { decimals: 2 });
}

const COUNTS = new Set(['queried', 'resent', 'orphansCanceled']);
const POSITIONS: Record<string, string> = { venuePosition: 'venueFlat', ledgerPosition: 'ledgerFlat' };

/**
 * The text key of a reconcile fact as a trader reads it: a count of nothing is not said ("0 sent
 * again", "0 orders checked"), a zero position is "flat"; null = not shown. Other facts: their own key.
 */
export function factKey(name: string, value: unknown): string | null {
  const n = typeof value === 'number' ? value : Number(value);
  if (COUNTS.has(name)) return Number.isFinite(n) && n !== 0 ? `fact.${name}` : null;
  if (name in POSITIONS) return n === 0 ? `fact.${POSITIONS[name]}` : `fact.${name}`;
  return `fact.${name}`;
}

/** A price is live while the robots' feed (a `<venue>:live` source) has a candle of the last minutes. */
export const LIVE_PRICE_MAX_AGE_MS = 5 * 60_000;

/**
 * What a ticker's price is, said plainly: `live` (the feed, current), `feedStopped` (the feed's, but
 * old), `history` (imported candles, never called live), `none` (no price at all).
 */
export function priceKind(row: Pick<TickerItem, 'price' | 'at' | 'source'>, now: number): 'live' | 'feedStopped' | 'history' | 'none' {
  if (row.price === null || row.at === null) return 'none';
  if (!row.source?.endsWith(':live')) return 'history';
  return now - row.at <= LIVE_PRICE_MAX_AGE_MS ? 'live' : 'feedStopped';
}

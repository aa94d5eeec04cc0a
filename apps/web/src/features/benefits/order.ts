// What the payment step is paying for, carried in its URL (`pages/pay/pay?item=seat&market=crypto
// &quantity=2&months=3`): a reload or a shared link shows the same order. Amounts are exact
// (bigint micro-Lightning, contracts/money.ts), never JS numbers.
import { BENEFIT_MARKETS, PACK_KINDS, PACK_MONTHS, PACK_QUANTITY, formatMoney, parseMoney, type EquityCatalogue, type PackKind } from '@lq/contracts';

export type Market = (typeof BENEFIT_MARKETS)[number];
export type Order = { item: 'unlock' } | { item: PackKind; market: Market; quantity: number; months: number; autoRenew: boolean };

const whole = (text: string | null, min: number, max: number): number | undefined => {
  if (text === null || !/^\d{1,4}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
};

/** The order in a query string, or undefined when it is not one the catalogue sells. */
export function orderFrom(search: string): Order | undefined {
  const q = new URLSearchParams(search);
  const item = q.get('item');
  if (item === 'unlock') return { item };
  if (!(PACK_KINDS as readonly string[]).includes(item ?? '')) return undefined;
  const market = q.get('market');
  if (!(BENEFIT_MARKETS as readonly string[]).includes(market ?? '')) return undefined;
  const quantity = whole(q.get('quantity'), PACK_QUANTITY.min, PACK_QUANTITY.max);
  const months = whole(q.get('months'), PACK_MONTHS.min, PACK_MONTHS.max);
  if (quantity === undefined || months === undefined) return undefined;
  return { item: item as PackKind, market: market as Market, quantity, months, autoRenew: q.get('autoRenew') === '1' };
}

export function orderSearch(order: Order): string {
  if (order.item === 'unlock') return '?item=unlock';
  const q = new URLSearchParams({ item: order.item, market: order.market, quantity: String(order.quantity), months: String(order.months) });
  if (order.autoRenew) q.set('autoRenew', '1');
  return `?${q.toString()}`;
}

/** What the order costs at the catalogue's prices: a decimal string with 6 places. */
export function priceOf(order: Order, catalogue: EquityCatalogue): string {
  const unit = parseMoney(catalogue.prices[order.item])!;
  const total = order.item === 'unlock' ? unit : unit * BigInt(order.quantity) * BigInt(order.months);
  return formatMoney(total);
}

/** Balance after paying `amount` (may be negative: what is missing). */
export function balanceAfter(balance: string, amount: string): string {
  return formatMoney(parseMoney(balance)! - parseMoney(amount)!);
}

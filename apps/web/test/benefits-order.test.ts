// The payment step's order, carried in its URL: only what the catalogue sells is read back, and the
// price is exact whatever the quantity and months (bigint micro-Lightning, never a float).
import { describe, expect, it } from 'vitest';
import type { EquityCatalogue } from '@lq/contracts';
import { balanceAfter, orderFrom, orderSearch, priceOf } from '../src/features/benefits/order';

const catalogue: EquityCatalogue = {
  prices: { unlock: '100.000000', seat: '10.000000', slot: '0.100001' },
  markets: ['forex', 'crypto'],
  months: { min: 1, max: 12 },
  quantity: { min: 1, max: 1000 },
  daysPerMonth: 30,
};

describe('the payment order', () => {
  it('reads back what it wrote', () => {
    const pack = { item: 'seat', market: 'crypto', quantity: 2, months: 3, autoRenew: false } as const;
    expect(orderFrom(orderSearch(pack))).toEqual(pack);
    expect(orderFrom(orderSearch({ ...pack, autoRenew: true }))).toEqual({ ...pack, autoRenew: true });
    expect(orderSearch({ ...pack, autoRenew: true })).toBe('?item=seat&market=crypto&quantity=2&months=3&autoRenew=1');
    expect(orderFrom(orderSearch({ item: 'unlock' }))).toEqual({ item: 'unlock' });
  });

  it('refuses what is not sold: months outside 1–12, quantity outside 1–1000, unknown items and markets, fractions', () => {
    for (const search of [
      '?item=seat&market=crypto&quantity=2&months=0',
      '?item=seat&market=crypto&quantity=2&months=13',
      '?item=seat&market=crypto&quantity=0&months=1',
      '?item=seat&market=crypto&quantity=1001&months=1',
      '?item=seat&market=crypto&quantity=1.5&months=1',
      '?item=seat&market=stocks&quantity=1&months=1',
      '?item=vip&market=crypto&quantity=1&months=1',
      '?item=seat&market=crypto&months=1',
      '',
    ]) expect(orderFrom(search), search).toBeUndefined();
  });

  it('prices exactly: price × quantity × months, and the balance after', () => {
    expect(priceOf({ item: 'unlock' }, catalogue)).toBe('100.000000');
    expect(priceOf({ item: 'seat', market: 'forex', quantity: 2, months: 3, autoRenew: false }, catalogue)).toBe('60.000000');
    // 0.100001 × 1000 × 12 = 1200.012 (a float would say 1200.0120000000002).
    expect(priceOf({ item: 'slot', market: 'crypto', quantity: 1000, months: 12, autoRenew: true }, catalogue)).toBe('1200.012000');
    expect(balanceAfter('50.000000', '60.000000')).toBe('-10.000000');
    expect(balanceAfter('150.000000', '100.000000')).toBe('50.000000');
  });
});

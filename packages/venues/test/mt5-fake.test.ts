// The fake MT5 trade server and the magic numbers, without sockets.
import { describe, expect, it } from 'vitest';
import { BRIDGE_MAGIC_BASE, BRIDGE_MAGIC_SPAN, MT5_RETCODES } from '@lq/contracts';
import { FakeMt5Broker, cancelClientId, clientOrderId, isOurMagic, magicOf } from '../src/index';

const send = (b: FakeMt5Broker, over: Partial<Parameters<FakeMt5Broker['orderSend']>[0]> = {}) =>
  b.orderSend({ action: 'deal', symbol: 'EURUSD', side: 'buy', orderType: 'market', volume: 0.1, price: null, sl: null, tp: null, magic: magicOf('a'), positionTicket: null, orderTicket: null, ...over });

describe('magic numbers', () => {
  it('are stable per clientId, inside our range, distinct in practice', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => clientOrderId('robot', `s${i}`, 'open'));
    const magics = ids.map(magicOf);
    expect(new Set(magics).size).toBe(ids.length);
    for (const m of magics) {
      expect(isOurMagic(m)).toBe(true);
      expect(Number.isSafeInteger(Number(m))).toBe(true);
    }
    expect(magicOf(ids[0])).toBe(magicOf(ids[0]));
    expect(isOurMagic('0')).toBe(false);
    expect(isOurMagic(String(BRIDGE_MAGIC_BASE + BRIDGE_MAGIC_SPAN))).toBe(false);
    expect(cancelClientId(ids[0])).toMatch(/^cx[0-9a-f]{30}$/);
  });
});

describe('FakeMt5Broker', () => {
  it('hedging: each buy is its own position; a close by ticket books the profit', () => {
    const b = new FakeMt5Broker({ marginMode: 'hedging', dataDir: null, prices: { EURUSD: 1.1 } });
    const r1 = send(b);
    const r2 = send(b, { magic: magicOf('b') });
    expect(r1.retcode).toBe(MT5_RETCODES.DONE.code);
    expect(r1.price).toBe(1.10008);
    expect(b.positions.size).toBe(2);
    b.setPrice('EURUSD', 1.102);
    const close = send(b, { side: 'sell', positionTicket: r1.order, magic: magicOf('c') });
    expect(close.retcode).toBe(MT5_RETCODES.DONE.code);
    expect(b.positions.size).toBe(1);
    expect(b.deals.at(-1)).toMatchObject({ entry: 'out', profit: '19.20' });
    expect(b.balance).toBeCloseTo(10_019.2, 6);
    expect(r2.order).not.toBe(r1.order);
  });

  it('netting: one position per symbol, reversed by a larger opposite deal', () => {
    const b = new FakeMt5Broker({ marginMode: 'netting', dataDir: null });
    send(b, { volume: 0.2 });
    send(b, { side: 'sell', volume: 0.5, magic: magicOf('x') });
    expect([...b.positions.values()]).toEqual([expect.objectContaining({ side: 'sell', volume: '0.30' })]);
    expect(b.deals.map((d) => d.entry)).toEqual(['in', 'inout']);
  });

  it('refuses volumes off the step or out of range, suffixed names only', () => {
    const b = new FakeMt5Broker({ suffix: '.m', dataDir: null });
    expect(send(b, { symbol: 'EURUSD.m', volume: 0.015 }).retcode).toBe(MT5_RETCODES.INVALID_VOLUME.code);
    expect(send(b, { symbol: 'EURUSD.m', volume: 0.001 }).retcode).toBe(MT5_RETCODES.INVALID_VOLUME.code);
    expect(send(b, { symbol: 'EURUSD', volume: 0.01 }).retcode).toBe(MT5_RETCODES.INVALID.code);
    expect(b.ordersCreated(magicOf('a'))).toBe(0);
  });

  it('prices come from the shared forex files, each from its first candle', () => {
    const b = new FakeMt5Broker({ dataDir: undefined });
    expect(b.bid('EURUSD')).toBe(1.26718);
    expect(b.bid('USDJPY')).toBe(91.653);
    b.advance(60_000);
    expect(b.bid('EURUSD')).toBe(1.26711);
  });

  it('scripted retcodes, partial fills and pending orders filled by the price', () => {
    const b = new FakeMt5Broker({ dataDir: null, prices: { EURUSD: 1.1 } });
    b.scriptRetcodes({ retcode: MT5_RETCODES.DONE_PARTIAL.code, fraction: 0.5 }, MT5_RETCODES.REQUOTE.code);
    expect(send(b, { volume: 0.1 })).toMatchObject({ retcode: MT5_RETCODES.DONE_PARTIAL.code, volume: 0.05 });
    expect(send(b).retcode).toBe(MT5_RETCODES.REQUOTE.code);
    const placed = send(b, { action: 'pending', orderType: 'limit', price: 1.09, magic: magicOf('p') });
    expect(placed.retcode).toBe(MT5_RETCODES.PLACED.code);
    expect(b.orders.size).toBe(1);
    b.setPrice('EURUSD', 1.0899);
    expect(b.orders.size).toBe(0);
    expect(b.findByMagic(magicOf('p')).deals).toEqual([expect.objectContaining({ price: '1.09000', volume: '0.10' })]);
  });
});

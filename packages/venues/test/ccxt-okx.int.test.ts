// Real ccxt (okx, USDT swaps) through CcxtVenue against the fake OKX v5 server on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CcxtVenue, clientOrderId, VenueRejectedError, VenueRetryableError, VenueStopError, type CcxtVenueConfig } from '../src/index';
import { FakeOkx, type JournalEntry } from '../src/fake/index';

let fake: FakeOkx;
let origin: string;

beforeAll(async () => {
  fake = new FakeOkx();
  origin = await fake.listen();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

function venue(extra: Partial<CcxtVenueConfig> = {}): CcxtVenue {
  return new CcxtVenue({
    venue: 'okx',
    apiKey: 'fake-key',
    secret: 'fake-secret',
    password: 'fake-pass',
    origin,
    timeoutMs: 800,
    backoffMs: 20,
    resolveWindowMs: 300,
    ...extra,
  });
}

const cid = (leg: number | string): string => clientOrderId('robot-okx', 's1', leg);
const creates = (): JournalEntry[] => fake.journal.filter((j) => j.method === 'POST' && j.path === '/api/v5/trade/batch-orders');

describe('ccxt okx against the fake exchange', () => {
  it('loads SWAP instruments with contract sizes', async () => {
    const markets = await venue().loadMarkets();
    expect(markets.find((m) => m.symbol === 'BTCUSDT')).toMatchObject({ ccxtSymbol: 'BTC/USDT:USDT', venueId: 'BTC-USDT-SWAP', contractSize: 0.01, tickSize: 0.1, amountStep: 0.01 });
    expect(fake.journal.filter((j) => j.path === '/api/v5/public/instruments').every((j) => j.params.instType === 'SWAP')).toBe(true);
  });

  it('reads balance and positions (contracts)', async () => {
    fake.seed({ balance: 2000, positions: [{ symbol: 'ETHUSDT', amt: 0.5, entryPrice: 2900 }] });
    const v = venue();
    expect((await v.fetchBalance()).total).toBeCloseTo(2050, 6);
    expect(await v.fetchPositions()).toEqual([expect.objectContaining({ symbol: 'ETHUSDT', side: 'long', contracts: 5, entryPrice: 2900 })]);
  });

  it('places (ids-only answer followed by a query), queries and cancels by client id', async () => {
    const v = venue();
    const m = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 2 });
    expect(m).toMatchObject({ clientOrderId: cid(0), status: 'closed', filled: 2, average: 60_000 });
    expect(creates()[0].params).toMatchObject({ instId: 'BTC-USDT-SWAP', side: 'buy', ordType: 'market', sz: '2', tdMode: 'cross', clOrdId: cid(0) });
    expect((await v.fetchPositions(['BTCUSDT']))[0]).toMatchObject({ contracts: 2, side: 'long' });
    const l = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(1), side: 'sell', type: 'limit', amount: 1, price: 65_000 });
    expect(l.status).toBe('open');
    expect((await v.fetchOpenOrders('BTCUSDT')).map((o) => o.clientOrderId)).toEqual([cid(1)]);
    expect(await v.cancelOrder('BTCUSDT', cid(1))).toMatchObject({ status: 'canceled' });
    expect(await v.cancelOrder('BTCUSDT', cid(1))).toMatchObject({ status: 'canceled' });
    expect(await v.fetchOrder('BTCUSDT', cid('never'))).toBeNull();
  });

  it('checks a key being bound (account config) and sets net mode, cross and leverage', async () => {
    const v = venue();
    expect(await v.checkKey()).toMatchObject({ canTrade: true, canWithdraw: false, oneWay: true, crossMargin: null, problems: [], warnings: ['noIpRestriction'] });
    fake.seed({ account: { perm: 'read_only,trade,withdraw', acctLv: '1', ip: '1.2.3.4' } });
    expect(await v.checkKey()).toMatchObject({ problems: ['withdrawEnabled', 'accountLevel'], warnings: [] });
    await v.ensureCrossOneWay('ETHUSDT', 4);
    expect(fake.book.lev('ETHUSDT')).toBe(4);
    expect(fake.journal.filter((j) => j.method === 'POST').map((j) => j.path)).toEqual([
      '/api/v5/account/set-position-mode',
      '/api/v5/account/set-leverage',
      '/api/v5/account/set-leverage',
    ]);
  });

  it('lists fills with client ids, contract amounts and fees', async () => {
    const v = venue();
    await v.placeOrder({ symbol: 'ETHUSDT', clientOrderId: cid('f'), side: 'sell', type: 'market', amount: 3 });
    const fills = await v.fetchFills('ETHUSDT', Date.now() - 60_000);
    expect(fills).toEqual([expect.objectContaining({ clientOrderId: cid('f'), side: 'sell', price: 3000, amount: 3, maker: false })]);
    expect(fills[0].fee).toBeCloseTo(0.36, 9); // 0.3 ETH × 3000 × 0.04 %
  });

  it('a timeout after acceptance is resolved by query: one order', async () => {
    fake.addFault({ method: 'POST', path: '/api/v5/trade/batch-orders', action: { type: 'accept_then_hang' } });
    const o = await venue({ timeoutMs: 300 }).placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 1 });
    expect(o.status).toBe('closed');
    expect(creates()).toHaveLength(1);
    expect(fake.book.orders).toHaveLength(1);
  });

  it('a duplicate live client id (51016) adopts the live order', async () => {
    const v = venue();
    const a = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'limit', amount: 1, price: 50_000 });
    const b = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'limit', amount: 1, price: 50_000 });
    expect(b.id).toBe(a.id);
    expect(fake.book.orders).toHaveLength(1);
  });

  it('maps rejections, auth and rate limits', async () => {
    const v = venue();
    const funds = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid('f'), side: 'buy', type: 'market', amount: 500 }).catch((x: unknown) => x);
    expect(funds).toBeInstanceOf(VenueRejectedError);
    expect(funds).toMatchObject({ reason: 'insufficientFunds', venueCode: '51008' });
    const ro = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid('r'), side: 'sell', type: 'market', amount: 1, reduceOnly: true }).catch((x: unknown) => x);
    expect(ro).toMatchObject({ action: 'reject', venueCode: '51169' });
    await expect(venue({ password: 'wrong' }).fetchBalance()).rejects.toBeInstanceOf(VenueStopError);
    await expect(venue({ secret: 'wrong' }).fetchBalance()).rejects.toMatchObject({ action: 'stop', venueCode: '50113' });
    fake.addFault({ method: 'POST', path: '/api/v5/trade/batch-orders', action: { type: 'rate_limit', retryAfterS: 1 } });
    const rl = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid('l'), side: 'buy', type: 'market', amount: 1 }).catch((x: unknown) => x);
    expect(rl).toBeInstanceOf(VenueRetryableError);
    expect(rl).toMatchObject({ venueCode: '50011', retryAfterMs: 1000 });
    fake.addFault({ method: 'GET', path: '/api/v5/account/balance', action: { type: 'rate_limit', retryAfterS: 1 } });
    const t0 = Date.now();
    expect((await v.fetchBalance()).currency).toBe('USDT');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(fake.book.orders).toHaveLength(0);
  });
});

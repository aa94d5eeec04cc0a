// Real ccxt (binanceusdm) through CcxtVenue against the fake Binance USDⓈ-M server on 127.0.0.1.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CcxtVenue,
  clientOrderId,
  VenueFaultError,
  VenueRejectedError,
  VenueRetryableError,
  VenueStopError,
  VenueUnknownOutcomeError,
  type CcxtVenueConfig,
} from '../src/index';
import { FakeBinance, loadCandleFile, type FaultRule, type JournalEntry } from '../src/fake/index';

const ETH_FILE = new URL('../../../../shared/data/binance_ETHUSDT_1m.csv.gz', import.meta.url).pathname;

let fake: FakeBinance;
let origin: string;

beforeAll(async () => {
  fake = new FakeBinance({ candles: existsSync(ETH_FILE) ? { ETHUSDT: loadCandleFile(ETH_FILE) } : {} });
  origin = await fake.listen();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.seed({ prices: { BTCUSDT: 60_000 } });
});

function venue(extra: Partial<CcxtVenueConfig> = {}): CcxtVenue {
  return new CcxtVenue({
    venue: 'binanceusdm',
    apiKey: 'fake-key',
    secret: 'fake-secret',
    origin,
    timeoutMs: 800,
    backoffMs: 20,
    resolveWindowMs: 300,
    ...extra,
  });
}

function fault(rule: FaultRule): void {
  fake.addFault(rule);
}

const orderPosts = (): JournalEntry[] => fake.journal.filter((j) => j.method === 'POST' && j.path === '/fapi/v1/order');
const cid = (leg: number | string, signal = 's1'): string => clientOrderId('robot-1', signal, leg);

describe('client order ids', () => {
  it('are deterministic, distinct per (robot, signal, leg) and valid on both venues', () => {
    expect(cid(0)).toBe(cid(0));
    expect(cid(0)).not.toBe(cid(1));
    expect(cid(0, 's2')).not.toBe(cid(0));
    expect(clientOrderId('robot-2', 's1', 0)).not.toBe(cid(0));
    expect(cid(0)).toMatch(/^lq[0-9a-f]{30}$/);
  });
});

describe('ccxt binanceusdm against the fake exchange', () => {
  it('loads markets from exchangeInfo with precision and limits', async () => {
    const v = venue();
    const markets = await v.loadMarkets();
    const btc = markets.find((m) => m.symbol === 'BTCUSDT')!;
    expect(btc).toMatchObject({ ccxtSymbol: 'BTC/USDT:USDT', venueId: 'BTCUSDT', contractSize: 1, tickSize: 0.1, amountStep: 0.001, minAmount: 0.001, minNotional: 100 });
    expect(fake.journal.map((j) => j.path)).toContain('/fapi/v1/exchangeInfo');
  });

  it('reads the balance and positions', async () => {
    fake.seed({ balance: 5000, positions: [{ symbol: 'BTCUSDT', amt: -0.01, entryPrice: 61_000 }] });
    const v = venue();
    const bal = await v.fetchBalance();
    expect(bal.currency).toBe('USDT');
    expect(bal.total).toBeCloseTo(5010, 6); // wallet + unrealised (61 000 − 60 000) × 0.01
    expect(bal.free).toBeGreaterThan(0);
    const pos = await v.fetchPositions();
    expect(pos).toEqual([expect.objectContaining({ symbol: 'BTCUSDT', side: 'short', contracts: 0.01, entryPrice: 61_000, markPrice: 60_000 })]);
    expect(fake.journal.some((j) => j.path === '/fapi/v3/positionRisk')).toBe(true);
  });

  it('places a market order, queries it by client id, and books the position', async () => {
    const v = venue();
    const o = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 });
    expect(o).toMatchObject({ clientOrderId: cid(0), status: 'closed', filled: 0.01, average: 60_000, side: 'buy' });
    expect(orderPosts()[0].params).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', newClientOrderId: cid(0) });
    const q = await v.fetchOrder('BTCUSDT', cid(0));
    expect(q).toMatchObject({ id: o.id, status: 'closed', filled: 0.01 });
    const pos = await v.fetchPositions(['BTCUSDT']);
    expect(pos[0]).toMatchObject({ side: 'long', contracts: 0.01 });
  });

  it('lists our fills with fees (reconcile since the last booked fill)', async () => {
    const v = venue();
    const o = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 });
    const fills = await v.fetchFills('BTCUSDT', Date.now() - 60_000);
    expect(fills).toEqual([expect.objectContaining({ orderId: o.id, clientOrderId: null, side: 'buy', price: 60_000, amount: 0.01, maker: false, feeCurrency: 'USDT' })]);
    expect(fills[0].fee).toBeCloseTo(0.24, 9); // 600 × 0.04 %
    expect(await v.fetchFills('BTCUSDT', Date.now() + 60_000)).toEqual([]);
  });

  it('answers NEW for a market order when the fake acks before filling (ackState NEW)', async () => {
    fake.seed({ ackState: 'NEW' });
    const v = venue();
    const o = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 });
    expect(o.status).toBe('open');
    expect((await v.fetchOrder('BTCUSDT', cid(0)))!.status).toBe('closed');
  });

  it('rests a limit order, lists it open, fills it when the price crosses, cancels another', async () => {
    const v = venue();
    const a = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid('a'), side: 'buy', type: 'limit', amount: 0.01, price: 59_000 });
    const b = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid('b'), side: 'buy', type: 'limit', amount: 0.01, price: 58_000 });
    expect([a.status, b.status]).toEqual(['open', 'open']);
    expect((await v.fetchOpenOrders('BTCUSDT')).map((o) => o.clientOrderId).sort()).toEqual([cid('a'), cid('b')].sort());
    fake.book.setPrice('BTCUSDT', 58_900, fake.timeMs);
    expect(await v.fetchOrder('BTCUSDT', cid('a'))).toMatchObject({ status: 'closed', average: 59_000 });
    const c = await v.cancelOrder('BTCUSDT', cid('b'));
    expect(c).toMatchObject({ status: 'canceled', filled: 0 });
    expect(await v.fetchOpenOrders('BTCUSDT')).toEqual([]);
    // cancelling again, or an id never sent: no error, the final state or null
    expect(await v.cancelOrder('BTCUSDT', cid('b'))).toMatchObject({ status: 'canceled' });
    expect(await v.cancelOrder('BTCUSDT', cid('never'))).toBeNull();
    expect(await v.fetchOrder('BTCUSDT', cid('never'))).toBeNull();
  });

  it('fills resting orders against real candles as the market clock advances', async () => {
    if (!existsSync(ETH_FILE)) return;
    const v = venue();
    const start = fake.book.price('ETHUSDT');
    const lows: number[] = [];
    const c = fake['replays'].get('ETHUSDT')!.candles;
    for (let i = 1; i <= 60; i++) lows.push(c.low[i]);
    const target = Math.floor(Math.min(...lows) * 100) / 100 + 0.01; // crossed within the hour
    expect(target).toBeLessThan(start);
    await v.placeOrder({ symbol: 'ETHUSDT', clientOrderId: cid('eth'), side: 'buy', type: 'limit', amount: 0.1, price: target });
    expect((await v.fetchOrder('ETHUSDT', cid('eth')))!.status).toBe('open');
    fake.advance(60 * 60_000);
    expect(fake.book.price('ETHUSDT')).toBe(c.close[60]);
    expect(await v.fetchOrder('ETHUSDT', cid('eth'))).toMatchObject({ status: 'closed', average: target });
  });

  it('checks a key being bound: permissions, IP restriction, position and margin mode', async () => {
    const v = venue();
    expect(await v.checkKey('BTCUSDT')).toEqual({
      canTrade: true,
      canWithdraw: false,
      ipRestricted: false,
      oneWay: true,
      crossMargin: true,
      problems: [],
      warnings: ['noIpRestriction'],
    });
    fake.seed({ account: { enableWithdrawals: true, ipRestrict: true, dualSidePosition: true, marginType: 'ISOLATED' } });
    const bad = await v.checkKey('BTCUSDT');
    expect(bad.problems).toEqual(['withdrawEnabled', 'hedgeMode']);
    expect(bad.warnings).toEqual(['notCrossMargin']);
    expect(fake.journal.map((j) => j.path)).toEqual(expect.arrayContaining(['/sapi/v1/account/apiRestrictions', '/fapi/v1/positionSide/dual', '/fapi/v1/symbolConfig']));
  });

  it('sets one-way mode, cross margin ("No need to change margin type." counts as done) and leverage', async () => {
    const v = venue();
    await v.ensureCrossOneWay('BTCUSDT', 7);
    expect(fake.book.lev('BTCUSDT')).toBe(7);
    expect(fake.journal.filter((j) => j.method === 'POST').map((j) => [j.path, j.status])).toEqual([
      ['/fapi/v1/positionSide/dual', 200],
      ['/fapi/v1/marginType', 400],
      ['/fapi/v1/leverage', 200],
    ]);
  });

  it('rejects a bad signature and an unknown key with a stop error', async () => {
    await expect(venue({ secret: 'wrong' }).fetchBalance()).rejects.toBeInstanceOf(VenueStopError);
    const e = await venue({ apiKey: 'nobody' }).fetchBalance().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VenueStopError);
    expect((e as VenueStopError).venueCode).toBe('-2015');
  });
});

describe('order placement faults', () => {
  it('a timeout after acceptance is resolved by querying the client id: one order, never a second POST', async () => {
    fault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'accept_then_hang' } });
    const v = venue({ timeoutMs: 300 });
    const o = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 });
    expect(o).toMatchObject({ clientOrderId: cid(0), status: 'closed', filled: 0.01 });
    expect(orderPosts()).toHaveLength(1);
    expect(fake.book.orders).toHaveLength(1);
    expect(fake.journal.some((j) => j.method === 'GET' && j.path === '/fapi/v1/order' && j.params.origClientOrderId === cid(0))).toBe(true);
  });

  it('a connection reset after acceptance is resolved the same way', async () => {
    fault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'accept_then_reset' } });
    const o = await venue().placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'sell', type: 'market', amount: 0.01 });
    expect(o.status).toBe('closed');
    expect(orderPosts()).toHaveLength(1);
    expect(fake.book.orders).toHaveLength(1);
  });

  it('a 5xx before acceptance: queried, not found, reported retryable (same id), not resent', async () => {
    fault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'http', status: 503, venueCode: -1007, msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.' } });
    const v = venue();
    const e = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VenueRetryableError);
    expect((e as VenueRetryableError).source).toBe('RequestTimeout');
    expect(orderPosts()).toHaveLength(1);
    expect(fake.book.orders).toHaveLength(0);
    // the caller sends the same id again: exactly one order
    const o = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 });
    expect(o.status).toBe('closed');
    expect(fake.book.orders).toHaveLength(1);
  });

  it('a non-JSON 502 and a hang before acceptance are unknown outcomes resolved by query', async () => {
    fault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'http', status: 502, body: '<html>Bad Gateway</html>' } });
    const v = venue({ timeoutMs: 300 });
    const e1 = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 }).catch((x: unknown) => x);
    expect(e1).toBeInstanceOf(VenueRetryableError);
    expect((e1 as VenueRetryableError).source).toBe('ExchangeNotAvailable');
    fault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'hang' } });
    const e2 = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(1), side: 'buy', type: 'market', amount: 0.01 }).catch((x: unknown) => x);
    expect(e2).toBeInstanceOf(VenueRetryableError);
    expect((e2 as VenueRetryableError).source).toBe('RequestTimeout');
    expect(orderPosts()).toHaveLength(2);
    expect(fake.book.orders).toHaveLength(0);
  });

  it('when the venue cannot be queried either, the outcome stays unknown (VenueUnknownOutcomeError)', async () => {
    fault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'accept_then_hang' } });
    fault({ method: 'GET', path: '/fapi/v1/order', times: 0, action: { type: 'http', status: 500, venueCode: -1001, msg: 'Internal error; unable to process your request. Please try again.' } });
    const e = await venue({ timeoutMs: 300 })
      .placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VenueUnknownOutcomeError);
    expect((e as VenueUnknownOutcomeError).clientOrderId).toBe(cid(0));
    expect(orderPosts()).toHaveLength(1);
    expect(fake.book.orders).toHaveLength(1);
  });

  it('a duplicate client id while the first is live adopts the live order (no second order)', async () => {
    const v = venue();
    const first = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'limit', amount: 0.01, price: 50_000 });
    const again = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'limit', amount: 0.01, price: 50_000 });
    expect(again.id).toBe(first.id);
    expect(fake.book.orders).toHaveLength(1);
    expect(fake.journal.find((j) => j.path === '/fapi/v1/order' && j.method === 'POST' && j.status === 400)).toBeTruthy();
  });

  it('429 on placement: retryable with Retry-After, not resent; the next call waits', async () => {
    fault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'rate_limit', retryAfterS: 1 } });
    const v = venue();
    await v.loadMarkets();
    const e = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VenueRetryableError);
    expect((e as VenueRetryableError).retryAfterMs).toBe(1000);
    expect((e as VenueRetryableError).source).toBe('DDoSProtection');
    expect(orderPosts()).toHaveLength(1);
    const t0 = Date.now();
    await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(800);
    expect(fake.book.orders).toHaveLength(1);
  });

  it('partial fills: the remainder rests, expires or is cancelled', async () => {
    const v = venue();
    fault({ method: 'POST', path: '/fapi/v1/order', match: { clientOrderId: cid('p1') }, action: { type: 'partial', fillQty: 0.004, then: 'rest' } });
    fault({ method: 'POST', path: '/fapi/v1/order', match: { clientOrderId: cid('p2') }, action: { type: 'partial', fillQty: 0.004, then: 'expire' } });
    fault({ method: 'POST', path: '/fapi/v1/order', match: { clientOrderId: cid('p3') }, action: { type: 'partial', fillQty: 0.004, then: 'cancel' } });
    const p1 = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid('p1'), side: 'buy', type: 'market', amount: 0.01 });
    expect(p1).toMatchObject({ status: 'open', filled: 0.004, remaining: 0.006 });
    const p2 = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid('p2'), side: 'buy', type: 'market', amount: 0.01 });
    expect(p2).toMatchObject({ status: 'expired', filled: 0.004 });
    const p3 = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid('p3'), side: 'buy', type: 'market', amount: 0.01 });
    expect(p3).toMatchObject({ status: 'canceled', filled: 0.004 });
    fake.book.setPrice('BTCUSDT', 60_100, fake.timeMs);
    expect(await v.fetchOrder('BTCUSDT', cid('p1'))).toMatchObject({ status: 'closed', filled: 0.01 });
    expect((await v.fetchPositions(['BTCUSDT']))[0].contracts).toBeCloseTo(0.018, 9);
  });

  it('maps venue rejections to reject / stop / fault classes', async () => {
    const v = venue();
    const place = (leg: string, over: Partial<Parameters<CcxtVenue['placeOrder']>[0]> = {}): Promise<unknown> =>
      v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(leg), side: 'buy', type: 'market', amount: 0.01, ...over }).catch((x: unknown) => x);
    // margin
    const funds = await place('funds', { amount: 5 });
    expect(funds).toBeInstanceOf(VenueRejectedError);
    expect(funds).toMatchObject({ reason: 'insufficientFunds', venueCode: '-2019', action: 'reject' });
    // notional too small
    expect(await place('small', { amount: 0.001 })).toMatchObject({ reason: 'invalidOrder', venueCode: '-4164' });
    // reduce-only without a position
    expect(await place('ro', { reduceOnly: true })).toMatchObject({ reason: 'invalidOrder', venueCode: '-2022' });
    // injected -2010
    fault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'http', status: 400, venueCode: -2010, msg: 'Order would immediately trigger.' } });
    expect(await place('inj')).toMatchObject({ action: 'reject', venueCode: '-2010' });
    // authentication
    fault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'http', status: 401, venueCode: -2014, msg: 'API-key format invalid.' } });
    expect(await place('auth')).toBeInstanceOf(VenueStopError);
    // an unknown symbol is a fault of the strategy's configuration
    expect(await place('sym', { symbol: 'DOGEUSDT' })).toBeInstanceOf(VenueFaultError);
    expect(await place('bad id', { clientOrderId: 'not valid!' })).toBeInstanceOf(VenueFaultError);
    expect(fake.book.orders).toHaveLength(0);
  });

  it('a clock off by more than recvWindow is retryable after a resync', async () => {
    fake.seed({ clockOffsetMs: -60_000 });
    const v = venue();
    await v.loadMarkets();
    const e = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VenueRetryableError);
    expect((e as VenueRetryableError).venueCode).toBe('-1021');
    const o = await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: cid(0), side: 'buy', type: 'market', amount: 0.01 });
    expect(o.status).toBe('closed');
  });
});

describe('reads retry, Retry-After respected', () => {
  it('retries a read after 429 once Retry-After has passed', async () => {
    fault({ method: 'GET', path: '/fapi/v3/account', action: { type: 'rate_limit', retryAfterS: 1 } });
    const v = venue();
    const t0 = Date.now();
    const bal = await v.fetchBalance();
    expect(bal.total).toBe(10_000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(fake.journal.filter((j) => j.path === '/fapi/v3/account').map((j) => j.status)).toEqual([429, 200]);
  });

  it('retries reads on 5xx, timeouts and resets, then gives up with a retryable error', async () => {
    fault({ method: 'GET', path: '/fapi/v1/exchangeInfo', action: { type: 'http', status: 502, body: 'bad gateway' } });
    fault({ method: 'GET', path: '/fapi/v1/exchangeInfo', action: { type: 'reset' } });
    fault({ method: 'GET', path: '/fapi/v1/exchangeInfo', action: { type: 'hang' } });
    const v = venue({ timeoutMs: 300 });
    expect((await v.loadMarkets()).length).toBe(2);
    expect(fake.journal.filter((j) => j.path === '/fapi/v1/exchangeInfo')).toHaveLength(4);
    fault({ method: 'GET', path: '/fapi/v3/account', times: 0, action: { type: 'http', status: 503, venueCode: -1007, msg: 'Timeout waiting for response from backend server.' } });
    const e = await v.fetchBalance().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VenueRetryableError);
    expect(fake.journal.filter((j) => j.path === '/fapi/v3/account')).toHaveLength(4);
  });

  it('does not retry a read the venue refused for good', async () => {
    fake.seed({ keys: { other: 'x' } });
    await expect(venue().fetchBalance()).rejects.toBeInstanceOf(VenueStopError);
    expect(fake.journal.filter((j) => j.path === '/fapi/v3/account')).toHaveLength(1);
  });
});

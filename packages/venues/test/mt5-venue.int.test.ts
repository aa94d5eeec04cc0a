// Mt5Venue over a real WebSocket on 127.0.0.1: a bare `ws` server feeding an Mt5Link, the FakeEa
// (terminal + EA) on the other side, prices from ../shared/data. No database: the server's route
// adds auth and persistence on top of the same link (apps/server/src/bridge/bridge.int.test.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { BRIDGE_PATH, MT5_RETCODES } from '@lq/contracts';
import {
  FakeEa,
  FakeMt5Broker,
  Mt5Link,
  Mt5Venue,
  VenueRejectedError,
  VenueRetryableError,
  VenueStopError,
  VenueUnknownOutcomeError,
  clientOrderId,
  magicOf,
} from '../src/index';

let wss: WebSocketServer;
let url: string;
let link: Mt5Link;
const eas: FakeEa[] = [];

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: BRIDGE_PATH });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}${BRIDGE_PATH}`;
  wss.on('connection', (ws: WebSocket) => {
    const h = link.attach({ send: (t) => ws.send(t), close: (c, r) => ws.close(c, r) });
    ws.on('message', (d: Buffer) => void h.receive(d.toString()));
    ws.on('close', () => h.closed());
  });
});
afterAll(async () => {
  await new Promise<void>((r) => wss.close(() => r()));
});
afterEach(() => {
  for (const ea of eas.splice(0)) ea.close();
});

const id = (n: string) => clientOrderId('robot1', n, 'open');

/** Resolves when `check` holds, polling the event loop (no timed assertion: the test timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

async function setup(o: { marginMode?: 'netting' | 'hedging'; suffix?: string; latencyMs?: number; timeoutMs?: number; dataDir?: string | null } = {}) {
  link = new Mt5Link(1);
  const broker = new FakeMt5Broker({ marginMode: o.marginMode ?? 'hedging', suffix: o.suffix ?? '.m', dataDir: o.dataDir });
  const ea = new FakeEa({ url, token: 't', broker, latencyMs: o.latencyMs });
  eas.push(ea);
  await ea.connect();
  ea.heartbeat();
  await until(() => link.status() === 'online' && link.heartbeat() !== null);
  const venue = new Mt5Venue({ session: link, timeoutMs: o.timeoutMs ?? 5_000 });
  return { broker, ea, venue };
}

describe('Mt5Venue on the FakeEa', () => {
  it('maps suffixed symbols, buys at the ask of the real EURUSD file, reports deals, positions and balance, closes by ticket', async () => {
    const { broker, ea, venue } = await setup();
    const markets = await venue.loadMarkets();
    const eur = markets.find((m) => m.symbol === 'EURUSD')!;
    expect(eur).toMatchObject({ brokerSymbol: 'EURUSD.m', amountStep: 0.01, minAmount: 0.01, contractSize: 100_000, tickSize: 0.00001 });
    // dukascopy_EURUSD_1m.csv.gz: first close 1.26718, spread 8 points
    expect(broker.bid('EURUSD.m')).toBe(1.26718);
    const o = await venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('a'), side: 'buy', type: 'market', amount: 0.1 });
    expect(o).toMatchObject({ status: 'closed', filled: 0.1, average: 1.26726, clientOrderId: id('a') });
    await until(() => link.dealsOf(id('a')).length === 1 && (link.snapshot()?.positions.length ?? 0) === 1);
    expect(await venue.fetchPositions()).toEqual([expect.objectContaining({ symbol: 'EURUSD', side: 'long', contracts: 0.1, entryPrice: 1.26726 })]);
    expect((await venue.fetchBalance()).currency).toBe('USD');

    broker.advance(60 * 60_000);
    const close = await venue.placeOrder({ symbol: 'EURUSD', clientOrderId: clientOrderId('robot1', 'a', 'close'), side: 'sell', type: 'market', amount: 0.1, reduceOnly: true, closes: id('a') });
    expect(close.status).toBe('closed');
    await until(() => (link.snapshot()?.positions.length ?? 1) === 0);
    expect(broker.positions.size).toBe(0);
    expect(broker.deals.map((d) => d.entry)).toEqual(['in', 'out']);
    expect(broker.ordersCreated(magicOf(id('a')))).toBe(1);
    expect(ea.entry(id('a'))?.state).toBe('result');
  });

  it('nets positions per symbol on a netting account', async () => {
    const { broker, venue } = await setup({ marginMode: 'netting', suffix: '', dataDir: null });
    await venue.placeOrder({ symbol: 'USDJPY', clientOrderId: id('n1'), side: 'buy', type: 'market', amount: 0.2 });
    await until(() => (link.snapshot()?.positions.length ?? 0) === 1);
    await venue.placeOrder({ symbol: 'USDJPY', clientOrderId: id('n2'), side: 'sell', type: 'market', amount: 0.05, reduceOnly: true });
    await until(() => link.snapshot()?.positions[0]?.volume === '0.15');
    expect([...broker.positions.values()]).toEqual([expect.objectContaining({ symbol: 'USDJPY', side: 'buy', volume: '0.15' })]);
  });

  it('refuses a volume off the step without sending anything; never rounds up', async () => {
    const { broker, venue } = await setup();
    await expect(venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('s'), side: 'buy', type: 'market', amount: 0.015 })).rejects.toBeInstanceOf(VenueRejectedError);
    await expect(venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('s2'), side: 'buy', type: 'market', amount: 0.001 })).rejects.toBeInstanceOf(VenueRejectedError);
    expect(broker.sends).toEqual([]);
  });

  it('translates scripted retcodes: requote retried once with a fresh price, NO_MONEY, trading disabled', async () => {
    const { broker, venue } = await setup({ dataDir: null });
    broker.scriptRetcodes(MT5_RETCODES.REQUOTE.code);
    expect((await venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('r1'), side: 'buy', type: 'market', amount: 0.01 })).status).toBe('closed');
    expect(broker.sends.map((s) => s.retcode)).toEqual([MT5_RETCODES.REQUOTE.code, MT5_RETCODES.DONE.code]);
    broker.scriptRetcodes(MT5_RETCODES.NO_MONEY.code);
    await expect(venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('r2'), side: 'buy', type: 'market', amount: 0.01 })).rejects.toMatchObject({ reason: 'insufficientFunds', venueCode: '10019' });
    broker.scriptRetcodes(MT5_RETCODES.TRADE_DISABLED.code);
    await expect(venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('r3'), side: 'buy', type: 'market', amount: 0.01 })).rejects.toBeInstanceOf(VenueStopError);
  });

  it('a TIMEOUT is never resent: found by magic when the broker executed it, else unknown until the recheck says not_found', async () => {
    const { broker, ea, venue } = await setup({ dataDir: null });
    broker.scriptRetcodes({ retcode: MT5_RETCODES.TIMEOUT.code, executed: true });
    expect(await venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('t1'), side: 'buy', type: 'market', amount: 0.01 })).toMatchObject({ status: 'closed', filled: 0.01 });
    broker.scriptRetcodes({ retcode: MT5_RETCODES.TIMEOUT.code, executed: false });
    await expect(venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('t2'), side: 'buy', type: 'market', amount: 0.01 })).rejects.toBeInstanceOf(VenueUnknownOutcomeError);
    ea.recheck();
    await until(() => link.lookup(id('t2'))?.outcome === 'not_found');
    expect(await venue.fetchOrder('EURUSD', id('t2'))).toBeNull();
    // verified never executed: the same id may be sent again and runs once
    expect(await venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('t2'), side: 'buy', type: 'market', amount: 0.01 })).toMatchObject({ status: 'closed', filled: 0.01 });
    expect(broker.sends.filter((s) => s.magic === magicOf(id('t2')))).toHaveLength(2);
    expect(broker.ordersCreated(magicOf(id('t2')))).toBe(1);
    // filled now: a third call gets the stored answer, no OrderSend
    await venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('t2'), side: 'buy', type: 'market', amount: 0.01 });
    expect(broker.sends.filter((s) => s.magic === magicOf(id('t2')))).toHaveLength(2);
  });

  it('a crash after OrderSend: unknown at first, resolved by magic after the restart, one order', async () => {
    const { broker, ea, venue } = await setup({ dataDir: null, timeoutMs: 300 });
    ea.faults.push({ at: 'sent', kind: 'crash' });
    await expect(venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('c1'), side: 'buy', type: 'market', amount: 0.03 })).rejects.toBeInstanceOf(VenueUnknownOutcomeError);
    expect(ea.entry(id('c1'))?.state).toBe('sending');
    await ea.restart();
    await until(() => link.lookup(id('c1'))?.outcome === 'filled');
    expect(await venue.fetchOrder('EURUSD', id('c1'))).toMatchObject({ status: 'closed', filled: 0.03 });
    expect((await venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('c1'), side: 'buy', type: 'market', amount: 0.03 })).filled).toBe(0.03);
    expect(broker.ordersCreated(magicOf(id('c1')))).toBe(1);
  });

  it('a crash before OrderSend: not_found after the restart, nothing at the broker', async () => {
    const { broker, ea, venue } = await setup({ dataDir: null, timeoutMs: 300 });
    ea.faults.push({ at: 'sending', kind: 'crash' });
    await expect(venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('c2'), side: 'buy', type: 'market', amount: 0.01 })).rejects.toBeInstanceOf(VenueUnknownOutcomeError);
    await ea.restart();
    await until(() => link.lookup(id('c2'))?.outcome === 'not_found');
    expect(broker.sends).toEqual([]);
  });

  it('a network drop mid-intent: the EA finishes it, the reconnect delivers the result, no second order', async () => {
    const { broker, ea, venue } = await setup({ dataDir: null, latencyMs: 30 });
    ea.faults.push({ at: 'acked', kind: 'drop' });
    const placing = venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('d1'), side: 'sell', type: 'market', amount: 0.02 });
    await until(() => ea.entry(id('d1'))?.state === 'result');
    await ea.connect();
    expect(await placing).toMatchObject({ status: 'closed', filled: 0.02 });
    expect(broker.ordersCreated(magicOf(id('d1')))).toBe(1);
  });

  it('the same clientId twice at once: one intent, one order', async () => {
    const { broker, venue } = await setup({ dataDir: null, latencyMs: 20 });
    const req = { symbol: 'EURUSD', clientOrderId: id('dup'), side: 'buy' as const, type: 'market' as const, amount: 0.01 };
    const [a, b] = await Promise.all([venue.placeOrder(req), venue.placeOrder(req)]);
    expect(a.filled).toBe(0.01);
    expect(b.filled).toBe(0.01);
    expect(broker.ordersCreated(magicOf(id('dup')))).toBe(1);
  });

  it('limit orders: placed, listed as open, filled when the price reaches them; cancel removes one', async () => {
    const { broker, venue } = await setup({ dataDir: null });
    const placed = await venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('l1'), side: 'buy', type: 'limit', amount: 0.05, price: 1.08 });
    expect(placed).toMatchObject({ status: 'open', filled: 0 });
    await until(() => (link.snapshot()?.orders.length ?? 0) === 1);
    expect(await venue.fetchOpenOrders('EURUSD')).toEqual([expect.objectContaining({ clientOrderId: id('l1'), remaining: 0.05 })]);
    const other = await venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('l2'), side: 'buy', type: 'limit', amount: 0.01, price: 1.07 });
    expect(other.status).toBe('open');
    await until(() => (link.snapshot()?.orders.length ?? 0) === 2);
    expect(await venue.cancelOrder('EURUSD', id('l2'))).toMatchObject({ status: 'canceled' });
    broker.setPrice('EURUSD', 1.0795);
    await until(() => link.dealsOf(id('l1')).length === 1 && (link.snapshot()?.orders.length ?? 1) === 0);
    expect(await venue.fetchOrder('EURUSD', id('l1'))).toMatchObject({ status: 'closed', filled: 0.05, average: 1.08 });
  });

  it('offline: nothing is sent, the error says retry', async () => {
    link = new Mt5Link(2);
    const venue = new Mt5Venue({ session: link });
    await expect(venue.placeOrder({ symbol: 'EURUSD', clientOrderId: id('o'), side: 'buy', type: 'market', amount: 0.01 })).rejects.toBeInstanceOf(VenueRetryableError);
  });
});

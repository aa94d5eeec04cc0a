// The engine's Broker port over CcxtVenue against the fake Binance: intents journalled before they
// are sent, fills booked as engine Fills, faults resolved without duplicate orders.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OrderRejectedError, executeIntents, getInstrument, type Fill, type Intent } from '@lq/engine';
import { CcxtVenue, MemoryIntentJournal, VenueBroker, VenueRejectedError, clientOrderId, type VenueError } from '../src/index';
import { FakeBinance } from '../src/fake/index';

let fake: FakeBinance;
let origin: string;

beforeAll(async () => {
  fake = new FakeBinance();
  origin = await fake.listen();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

async function setup(timeoutMs = 800) {
  const venue = new CcxtVenue({ venue: 'binanceusdm', apiKey: 'fake-key', secret: 'fake-secret', origin, timeoutMs, backoffMs: 20, resolveWindowMs: 300 });
  const market = (await venue.loadMarkets()).find((m) => m.symbol === 'BTCUSDT')!;
  const journal = new MemoryIntentJournal();
  const errors: VenueError[] = [];
  const broker = new VenueBroker({
    venue,
    market,
    instrument: getInstrument('BTCUSDT'),
    robotId: 'r1',
    journal,
    clock: { now: () => 1_700_000_000_000 },
    onError: (e) => errors.push(e),
  });
  const fills: Fill[] = [];
  broker.setFillListener((f) => fills.push(f));
  return { venue, broker, journal, fills, errors };
}

const posts = () => fake.journal.filter((j) => j.method === 'POST' && j.path === '/fapi/v1/order');

describe('VenueBroker (Broker port) on the fake exchange', () => {
  it('opens and closes through the executor, journalling before sending, booking fills', async () => {
    const { broker, journal, fills } = await setup();
    const out: Intent[] = [{ kind: 'open', tag: 'g1', side: 'long', qty: 2, type: 'market' }];
    executeIntents(out, broker);
    expect(broker.pending.map((p) => p.tag)).toEqual(['g1']);
    await broker.flush();
    expect(broker.pending).toEqual([]);
    expect(broker.tickets).toEqual([expect.objectContaining({ tag: 'g1', side: 'long', qty: 2, entryPrice: 60_000 })]);
    expect(fills).toEqual([expect.objectContaining({ tag: 'g1', ticket: 'g1', action: 'open', qty: 2, price: 60_000 })]);
    expect(posts()[0].params).toMatchObject({ quantity: '0.02', newClientOrderId: clientOrderId('r1', 'g1', 'open') });
    const id = clientOrderId('r1', 'g1', 'open');
    expect(journal.writes.filter((w) => w.clientOrderId === id).map((w) => w.state)).toEqual(['sending', 'filled']);

    fake.book.setPrice('BTCUSDT', 61_000, fake.timeMs);
    executeIntents([{ kind: 'close', tag: 'g1c', ticket: 'g1', type: 'market', reason: 'takeProfit' }], broker);
    await broker.flush();
    expect(broker.tickets).toEqual([]);
    expect(fills[1]).toMatchObject({ action: 'close', qty: 2, price: 61_000, reason: 'takeProfit' });
    expect(fills[1].pnl).toBeCloseTo(20, 9); // 0.02 BTC × 1000
    expect(posts()[1].params).toMatchObject({ side: 'SELL', reduceOnly: 'true' });
  });

  it('rests a limit, fills it on sync, cancels another, refuses duplicate tags and odd sizes', async () => {
    const { broker, fills } = await setup();
    broker.submitOpen({ kind: 'open', tag: 'l1', side: 'long', qty: 1, type: 'limit', price: 59_000 });
    broker.submitOpen({ kind: 'open', tag: 'l2', side: 'long', qty: 1, type: 'limit', price: 58_000 });
    expect(() => broker.submitOpen({ kind: 'open', tag: 'l1', side: 'long', qty: 1, type: 'limit', price: 59_000 })).toThrow(OrderRejectedError);
    expect(() => broker.submitOpen({ kind: 'open', tag: 'odd', side: 'long', qty: 0.05, type: 'market' })).toThrow(OrderRejectedError);
    await broker.flush();
    expect(broker.pending.map((p) => p.tag)).toEqual(['l1', 'l2']);
    fake.book.setPrice('BTCUSDT', 58_900, fake.timeMs);
    await broker.sync();
    expect(fills).toEqual([expect.objectContaining({ tag: 'l1', price: 59_000, maker: true })]);
    broker.cancel('l2');
    await broker.flush();
    expect(broker.pending).toEqual([]);
    expect(broker.intents.get(clientOrderId('r1', 'l2', 'open'))!.state).toBe('canceled');
  });

  it('a timeout after acceptance: resolved by query, one order, one fill', async () => {
    fake.addFault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'accept_then_hang' } });
    const { broker, fills } = await setup(300);
    broker.submitOpen({ kind: 'open', tag: 'a', side: 'short', qty: 1, type: 'market' });
    await broker.flush();
    expect(fills).toHaveLength(1);
    expect(broker.tickets[0]).toMatchObject({ side: 'short', qty: 1 });
    expect(posts()).toHaveLength(1);
    expect(fake.book.orders).toHaveLength(1);
  });

  it('an unknown outcome stays unknown until sync finds the order; never resent', async () => {
    fake.addFault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'accept_then_hang' } });
    fake.addFault({ method: 'GET', path: '/fapi/v1/order', times: 0, action: { type: 'http', status: 502, body: 'bad gateway' } });
    const { broker, fills } = await setup(300);
    broker.submitOpen({ kind: 'open', tag: 'u', side: 'long', qty: 1, type: 'market' });
    await broker.flush();
    expect(broker.intents.get(clientOrderId('r1', 'u', 'open'))!.state).toBe('unknown');
    expect(fills).toHaveLength(0);
    await broker.flush(); // nothing queued: an unknown intent is never sent again
    expect(posts()).toHaveLength(1);
    fake.clearFaults();
    await broker.sync();
    expect(fills).toEqual([expect.objectContaining({ tag: 'u', qty: 1, price: 60_000 })]);
    expect(broker.intents.get(clientOrderId('r1', 'u', 'open'))!.state).toBe('filled');
    expect(posts()).toHaveLength(1);
    expect(fake.book.orders).toHaveLength(1);
  });

  it('a rejection pauses (onError), a 429 keeps the intent queued until the next flush', async () => {
    const { broker, errors, journal } = await setup();
    broker.submitOpen({ kind: 'open', tag: 'big', side: 'long', qty: 500, type: 'market' });
    await broker.flush();
    expect(errors[0]).toBeInstanceOf(VenueRejectedError);
    expect(broker.pending).toEqual([]);
    expect(journal.records.get(clientOrderId('r1', 'big', 'open'))!.state).toBe('rejected');
    fake.addFault({ method: 'POST', path: '/fapi/v1/order', action: { type: 'rate_limit', retryAfterS: 1 } });
    broker.submitOpen({ kind: 'open', tag: 'rl', side: 'long', qty: 1, type: 'market' });
    await broker.flush();
    expect(broker.intents.get(clientOrderId('r1', 'rl', 'open'))!.state).toBe('queued');
    await broker.flush();
    expect(broker.tickets.map((t) => t.tag)).toEqual(['rl']);
    expect(fake.book.orders).toHaveLength(1);
  });
});

// VenueBroker in runner mode against the fake Binance: fills booked only at sync and saved before
// the strategy hears of them (with the venue's fees); after a "crash" a new broker adopts the
// journal, replays the same intents and stored fills without sending anything, then reconciles:
// in-flight orders found by client id, a never-received one sent again with the same id, orphans
// with our prefix cancelled, positions compared.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { executeIntents, getInstrument, type Fill, type Intent } from '@lq/engine';
import {
  CcxtVenue,
  VenueBroker,
  clientOrderId,
  type IntentJournal,
  type IntentRecord,
  type KnownIntent,
  type StoredFill,
} from '../src/index';
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

/** A journal like the runner's: rows by client id, fills in booking order. */
class TestJournal implements IntentJournal {
  rows = new Map<string, KnownIntent>();
  fills: (StoredFill & { key: string })[] = [];
  save(r: IntentRecord): Promise<void> {
    this.rows.set(r.clientOrderId, { clientOrderId: r.clientOrderId, state: r.state, filled: r.venueFilled, average: r.venueAverage, venueOrderId: r.venueOrderId, updatedAt: Date.now() });
    return Promise.resolve();
  }
  saveFill(r: IntentRecord, fill: Fill, key: string): Promise<void> {
    if (!this.fills.some((f) => f.key === key)) this.fills.push({ clientOrderId: r.clientOrderId, qty: fill.qty, price: fill.price, fee: fill.fee, key });
    return Promise.resolve();
  }
}

async function broker(journal: TestJournal) {
  const venue = new CcxtVenue({ venue: 'binanceusdm', apiKey: 'fake-key', secret: 'fake-secret', origin, timeoutMs: 500, backoffMs: 20, resolveWindowMs: 200 });
  const market = (await venue.loadMarkets()).find((m) => m.symbol === 'BTCUSDT')!;
  const fills: Fill[] = [];
  const b = new VenueBroker({ venue, market, instrument: getInstrument('BTCUSDT'), robotId: 'r9', journal, clock: { now: () => 1 }, deferFills: true });
  b.setFillListener((f) => fills.push(f));
  return { b, fills, venue };
}

const posts = () => fake.journal.filter((j) => j.method === 'POST' && j.path === '/fapi/v1/order').length;
const intents = (): Intent[] => [
  { kind: 'open', tag: 'm1', side: 'long', qty: 2, type: 'market' },
  { kind: 'open', tag: 'l1', side: 'long', qty: 1, type: 'limit', price: 59_000 },
  { kind: 'open', tag: 'l2', side: 'long', qty: 1, type: 'limit', price: 58_000 },
];

describe('VenueBroker runner mode: deferred fills, replay, reconcile', () => {
  it('books fills only at sync, saved first, with the venue fees; a replay sends nothing and rebuilds the same tickets', async () => {
    const journal = new TestJournal();
    const a = await broker(journal);
    executeIntents(intents(), a.b);
    await a.b.flush();
    expect(a.fills).toEqual([]); // the market order filled at the venue, booked at the next sync
    await a.b.sync();
    expect(a.fills).toEqual([expect.objectContaining({ tag: 'm1', qty: 2, price: 60_000 })]);
    expect(a.fills[0].fee).toBeCloseTo(0.02 * 60_000 * 0.0004, 9); // taker commission from userTrades
    expect(journal.fills).toHaveLength(1);
    fake.book.setPrice('BTCUSDT', 58_900, fake.timeMs);
    await a.b.sync();
    expect(a.fills.map((f) => f.tag)).toEqual(['m1', 'l1']);
    expect(a.b.pending.map((p) => p.tag)).toEqual(['l2']);
    const sent = posts();

    // Crash. A new broker adopts the journal and replays: same intents, stored fills at their steps.
    const b = await broker(journal);
    b.b.adopt(journal.rows.values());
    b.b.replaying = true;
    executeIntents(intents(), b.b);
    await b.b.flush();
    b.b.replayFills(journal.fills.slice(0, 1));
    b.b.replayFills(journal.fills.slice(1));
    b.b.replaying = false;
    expect(posts()).toBe(sent);
    expect(b.b.tickets).toEqual(a.b.tickets);
    expect(b.b.pending.map((p) => p.tag)).toEqual(['l2']);
    const r = await b.b.reconcile({ nowMs: Date.now(), resolveWindowMs: 1000 });
    expect(r).toMatchObject({ done: true, queried: 1, resent: 0, orphansCanceled: [] });
    expect(r.venuePosition).toBeCloseTo(3, 9);
    expect(r.ledgerPosition).toBeCloseTo(3, 9);
    await b.b.flush();
    expect(posts()).toBe(sent);
  });

  it('reconcile: a journalled order the venue never received is sent again with the same id; orphans are cancelled', async () => {
    const journal = new TestJournal();
    const lost = clientOrderId('r9', 'm1', 'open');
    // The runner journalled `sending` and died before the request left.
    journal.rows.set(lost, { clientOrderId: lost, state: 'sending', filled: 0, average: null, venueOrderId: null, updatedAt: Date.now() - 5_000 });
    // An order with our prefix that no intent of this robot owns (e.g. journal lost).
    const orphan = clientOrderId('r9', 'ghost', 'open');
    const v = new CcxtVenue({ venue: 'binanceusdm', apiKey: 'fake-key', secret: 'fake-secret', origin });
    await v.placeOrder({ symbol: 'BTCUSDT', clientOrderId: orphan, side: 'buy', type: 'limit', amount: 0.01, price: 50_000 });
    const b = await broker(journal);
    b.b.adopt(journal.rows.values());
    b.b.replaying = true;
    executeIntents([intents()[0]], b.b);
    await b.b.flush();
    b.b.replaying = false;
    const before = posts();
    const r = await b.b.reconcile({ nowMs: Date.now(), resolveWindowMs: 1_000 });
    expect(r).toMatchObject({ done: true, queried: 1, resent: 1, orphansCanceled: [orphan] });
    await b.b.flush();
    expect(posts()).toBe(before + 1);
    expect(fake.book.orders.filter((o) => o.clientOrderId === lost)).toHaveLength(1);
    await b.b.sync();
    expect(b.fills).toEqual([expect.objectContaining({ tag: 'm1', qty: 2 })]);
    expect(fake.book.openOrders('BTCUSDT')).toEqual([]);
  });

  it('reconcile waits while an unknown order could still arrive (younger than the resolve window)', async () => {
    const journal = new TestJournal();
    const id = clientOrderId('r9', 'm1', 'open');
    journal.rows.set(id, { clientOrderId: id, state: 'sending', filled: 0, average: null, venueOrderId: null, updatedAt: Date.now() });
    const b = await broker(journal);
    b.b.adopt(journal.rows.values());
    b.b.replaying = true;
    executeIntents([intents()[0]], b.b);
    await b.b.flush();
    b.b.replaying = false;
    const r = await b.b.reconcile({ nowMs: Date.now(), resolveWindowMs: 60_000 });
    expect(r.done).toBe(false);
    await b.b.flush();
    expect(posts()).toBe(0);
  });
});

// The MT5 bridge end to end on a real 127.0.0.1 socket: the app listening, the FakeEa (terminal +
// EA) dialing /bridge/v1 with the account's token, Mt5Venue on the hub's session as the runner
// builds it. Database rows are real (PGlite, or PostgreSQL with DATABASE_URL).
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_CLOSE, BRIDGE_PATH } from '@lq/contracts';
import { eq, mt5Deals, robotEvents, robots, tradingAccounts, users } from '@lq/db';
import { FakeEa, FakeMt5Broker, Mt5Venue, VenueRetryableError, VenueUnknownOutcomeError, clientOrderId, magicOf, type FakeEaStep } from '@lq/venues';
import { buildApp } from '..';
import { bridgeTokenEvents } from '../trading-accounts';
import { tokenHash } from './hub';
import { freshCode, registerUser, startTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
let url: string;
let userId: number;
let userToken: string;
let userMail: string;
const eas: FakeEa[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `${address.replace('http', 'ws')}${BRIDGE_PATH}`;
  const user = await registerUser(t);
  userToken = user.token;
  userMail = user.mail;
  const [u] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.mail, user.mail));
  userId = u.id;
}, 120_000);
afterAll(() => t?.close());
afterEach(async () => {
  for (const ea of eas.splice(0)) ea.close();
  await new Promise((r) => setTimeout(r, 20));
});

/** Polls until `check` holds; a hang fails after 60 s naming what it waited for (the test timeout would not say). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited 60 s for: ${check.toString().replace(/\s+/g, ' ').slice(0, 200)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function mt5Account(): Promise<{ id: number; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await t.database.db
    .insert(tradingAccounts)
    .values({ userId, market: 'forex', exchange: 'mt5', accountName: 'MT5 demo', bridgeTokenHash: tokenHash(token) })
    .returning({ id: tradingAccounts.id });
  return { id: row.id, token };
}

function fakeEa(token: string, o: { broker?: FakeMt5Broker; login?: string; server?: string; journal?: FakeEa['journal']; target?: string } = {}) {
  const broker = o.broker ?? new FakeMt5Broker({ marginMode: 'hedging', suffix: '.m', dataDir: null });
  const ea = new FakeEa({ url: o.target ?? url, token, broker, login: o.login, server: o.server, journal: o.journal });
  eas.push(ea);
  return ea;
}

async function online(accountId: number, ea: FakeEa): Promise<void> {
  await ea.connect();
  ea.heartbeat();
  await until(() => t.app.bridge.session(accountId).status() === 'online' && t.app.bridge.session(accountId).heartbeat() !== null);
}

const dealRows = (accountId: number) => t.database.db.select().from(mt5Deals).where(eq(mt5Deals.accountId, accountId));
const order = (n: string, over: Partial<Parameters<Mt5Venue['placeOrder']>[0]> = {}) => ({
  symbol: 'EURUSD',
  clientOrderId: clientOrderId('r-bridge', n, 'open'),
  side: 'buy' as const,
  type: 'market' as const,
  amount: 0.01,
  ...over,
});

describe('MT5 bridge: connecting', () => {
  it('refuses a bad or missing token with 401 before the upgrade', async () => {
    await expect(fakeEa('not-a-token').connect()).rejects.toMatchObject({ statusCode: 401 });
    await expect(fakeEa('').connect()).rejects.toMatchObject({ statusCode: 401 });
  });

  it('hello binds the token to (login, server); welcome answers; heartbeats are stored', async () => {
    const acc = await mt5Account();
    const ea = fakeEa(acc.token, { login: '51234567', server: 'FakeBroker-Demo' });
    const welcome = await ea.connect();
    expect(welcome).toMatchObject({ type: 'welcome', dealCursor: 0, limits: expect.any(Object) });
    ea.heartbeat();
    await until(async () => {
      const [row] = await t.database.db.select().from(tradingAccounts).where(eq(tradingAccounts.id, acc.id));
      return row.bridgeSeenAt !== null;
    });
    const [row] = await t.database.db.select().from(tradingAccounts).where(eq(tradingAccounts.id, acc.id));
    expect(row).toMatchObject({ mt5Login: '51234567', mt5Server: 'FakeBroker-Demo', keyLast4: '4567' });
    expect(row.bridgeState).toMatchObject({ balance: 10_000, equity: 10_000, currency: 'USD', marginMode: 'hedging', termConnected: true, brokerOffsetMin: expect.any(Number) });
    expect(JSON.stringify(row.bridgeState)).not.toContain(acc.token);
  });

  it('closes a hello from another login or server with 4403', async () => {
    const acc = await mt5Account();
    const first = fakeEa(acc.token, { login: '1001' });
    await first.connect();
    first.close();
    await until(() => !t.app.bridge.session(acc.id).connected);
    const other = fakeEa(acc.token, { login: '2002' });
    await expect(other.connect()).rejects.toMatchObject({ code: BRIDGE_CLOSE.mismatch });
    const server = fakeEa(acc.token, { login: '1001', server: 'Other-Live' });
    await expect(server.connect()).rejects.toMatchObject({ code: BRIDGE_CLOSE.mismatch });
    await fakeEa(acc.token, { login: '1001' }).connect();
  });

  it('closes a second live session of the same account with 4409', async () => {
    const acc = await mt5Account();
    await online(acc.id, fakeEa(acc.token));
    const second = fakeEa(acc.token);
    await expect(second.connect()).rejects.toMatchObject({ code: BRIDGE_CLOSE.duplicate });
    expect(t.app.bridge.session(acc.id).status()).toBe('online');
  });

  it('closes a session whose token was revoked (rotated or unbound) with 4401', async () => {
    const acc = await mt5Account();
    const ea = fakeEa(acc.token);
    await online(acc.id, ea);
    // what rotate-token and unbind emit (apps/server/src/trading-accounts/service.ts)
    bridgeTokenEvents.emit('revoked', acc.id);
    await until(() => ea.lastClose !== null);
    expect(ea.lastClose?.code).toBe(BRIDGE_CLOSE.revoked);
  });

  it('closes a frame that is not a valid message with 4400', async () => {
    const acc = await mt5Account();
    const ea = fakeEa(acc.token);
    await online(acc.id, ea);
    ea.sendRaw('{"v":1,"type":"exec"}');
    await until(() => ea.lastClose !== null);
    expect(ea.lastClose?.code).toBe(BRIDGE_CLOSE.protocol);
  });
});

describe('MT5 bridge: with the accounts API', () => {
  it('a bound account\'s token connects, the account shows the bridge online; rotating closes it (4401) and the old token gets 401', async () => {
    const bind = await t.call('POST', '/user/api/apikey/bind', { token: userToken, body: { exchange: 'mt5', accountName: 'FX bridge', code: await freshCode(t, { mail: userMail, token: userToken }, 'API_KEY') } });
    expect(bind.statusCode, bind.body).toBe(200);
    const { account, bridgeToken } = bind.json<{ data: { account: { id: number }; bridgeToken: string } }>().data;
    const ea = fakeEa(bridgeToken, { login: '7654321', server: 'FakeBroker-Live' });
    await online(account.id, ea);
    const detail = async () =>
      (await t.call('GET', `/user/api/apikey/detail?id=${account.id}`, { token: userToken })).json<{ data: { bridge: { status: string; login: string; server: string; balance: number } } }>().data;
    await until(async () => (await detail()).bridge.status === 'online');
    expect((await detail()).bridge).toMatchObject({ login: '7654321', server: 'FakeBroker-Live', balance: 10_000 });

    const rot = await t.call('POST', '/user/api/apikey/rotate-token', { token: userToken, body: { id: account.id, code: await freshCode(t, { mail: userMail, token: userToken }, 'API_KEY') } });
    expect(rot.statusCode, rot.body).toBe(200);
    await until(() => ea.lastClose !== null);
    expect(ea.lastClose?.code).toBe(BRIDGE_CLOSE.revoked);
    await expect(fakeEa(bridgeToken).connect()).rejects.toMatchObject({ statusCode: 401 });
    const fresh = rot.json<{ data: { bridgeToken: string } }>().data.bridgeToken;
    await online(account.id, fakeEa(fresh, { login: '7654321', server: 'FakeBroker-Live' }));
  });
});

describe('MT5 bridge: intents', () => {
  it('intent → ack → exec → deal stored once (also when the EA resends it after a reconnect)', async () => {
    const acc = await mt5Account();
    const ea = fakeEa(acc.token);
    await online(acc.id, ea);
    const venue = new Mt5Venue({ session: t.app.bridge.session(acc.id) });
    const o = await venue.placeOrder(order('deal-once', { amount: 0.02 }));
    expect(o).toMatchObject({ status: 'closed', filled: 0.02, average: 1.08508 });
    expect(ea.received.filter((m) => m.type === 'intent')).toHaveLength(1);
    await until(async () => (await dealRows(acc.id)).length === 1);
    // a reconnect sends deals since the cursor − 10 min again
    ea.drop();
    await until(() => !t.app.bridge.session(acc.id).connected);
    await online(acc.id, ea);
    const rows = await dealRows(acc.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ clientOrderId: order('deal-once').clientOrderId, magic: magicOf(order('deal-once').clientOrderId), positionId: expect.any(String) });
    expect(rows[0].payload).toMatchObject({ entry: 'in', volume: '0.02', price: '1.08508' });
    // fills for the runner (fees, reconcile), in UTC: broker time minus the heartbeat's offset (GMT+2)
    const fills = await venue.fetchFills('EURUSD');
    expect(fills).toEqual([expect.objectContaining({ id: rows[0].deal, clientOrderId: order('deal-once').clientOrderId, side: 'buy', amount: 0.02, price: 1.08508, fee: 0 })]);
    expect(fills[0].timestamp).toBe((rows[0].payload as { brokerTimeMsc: number }).brokerTimeMsc - 2 * 3_600_000);
    expect(await venue.fetchOrder('EURUSD', order('deal-once').clientOrderId)).toMatchObject({ side: 'buy', type: 'market', amount: 0.02, filled: 0.02, status: 'closed' });
  });

  it('a known clientId is answered `duplicate` with its stored result and never executed twice (server restarted)', async () => {
    const acc = await mt5Account();
    const broker = new FakeMt5Broker({ dataDir: null });
    const ea = fakeEa(acc.token, { broker });
    await online(acc.id, ea);
    const req = order('dup');
    const recent = order('dup-recent');
    await new Mt5Venue({ session: t.app.bridge.session(acc.id) }).placeOrder(req);
    ea.close();
    // push `req` out of the journal tail sent in hello (the newest 200 entries): the new server
    // cannot know it and sends it; the EA must answer from its journal
    const template = ea.entry(req.clientOrderId)!;
    for (let i = 0; i < 200; i++) ea.journal.push({ ...template, clientId: `filler${i}`, magic: magicOf(`filler${i}`) });
    ea.journal.push({ ...template, clientId: recent.clientOrderId, magic: magicOf(recent.clientOrderId) });
    // a second server process on the same database: its hub never saw this clientId
    const app2 = await buildApp(t.config, { database: t.database, jobs: false, logger: false });
    try {
      const address = await app2.listen({ port: 0, host: '127.0.0.1' });
      const ea2 = fakeEa(acc.token, { broker, journal: ea.journal, target: `${address.replace('http', 'ws')}${BRIDGE_PATH}` });
      await ea2.connect();
      ea2.heartbeat();
      await until(() => app2.bridge.session(acc.id).status() === 'online');
      const again = await new Mt5Venue({ session: app2.bridge.session(acc.id) }).placeOrder(req);
      expect(again).toMatchObject({ status: 'closed', filled: 0.01 });
      expect(app2.bridge.session(acc.id).received.some((m) => m.type === 'ack' && m.status === 'duplicate' && m.clientId === req.clientOrderId)).toBe(true);
      expect(broker.ordersCreated(magicOf(req.clientOrderId))).toBe(1);
      // a clientId in the tail is known to the new server at once: answered without an intent
      const intents = ea2.received.filter((m) => m.type === 'intent').length;
      expect(app2.bridge.session(acc.id).lookup(recent.clientOrderId)?.outcome).toBe('filled');
      await new Mt5Venue({ session: app2.bridge.session(acc.id) }).placeOrder(recent);
      expect(ea2.received.filter((m) => m.type === 'intent')).toHaveLength(intents);
      ea2.close();
    } finally {
      await app2.close();
    }
  });

  it('a crash mid-intent (after OrderSend, before the journal) is reconciled after the restart: one order, one deal row', async () => {
    const acc = await mt5Account();
    const broker = new FakeMt5Broker({ dataDir: null });
    const ea = fakeEa(acc.token, { broker });
    await online(acc.id, ea);
    const venue = new Mt5Venue({ session: t.app.bridge.session(acc.id), timeoutMs: 300 });
    ea.faults.push({ at: 'sent', kind: 'crash' });
    const req = order('crash');
    await expect(venue.placeOrder(req)).rejects.toBeInstanceOf(VenueUnknownOutcomeError);
    await until(() => !t.app.bridge.session(acc.id).connected);
    await ea.restart();
    await until(() => t.app.bridge.session(acc.id).lookup(req.clientOrderId)?.outcome === 'filled');
    expect(await venue.fetchOrder('EURUSD', req.clientOrderId)).toMatchObject({ status: 'closed', filled: 0.01 });
    await until(async () => (await dealRows(acc.id)).length === 1);
    expect(broker.ordersCreated(magicOf(req.clientOrderId))).toBe(1);
  });
});

describe('MT5 bridge: candles from the terminal', () => {
  it('serves closed 1m bars of a symbol (UTC, minute-aligned, real EURUSD prices) to the runner', async () => {
    const acc = await mt5Account();
    const broker = new FakeMt5Broker({ suffix: '.m', historyMs: 60 * 60_000 });
    await online(acc.id, fakeEa(acc.token, { broker }));
    const source = t.app.bridge.candleSource('EURUSD');
    const bars = await source.fetchClosed(Date.now() - 30 * 60_000);
    expect(bars.length).toBeGreaterThan(20);
    for (const b of bars) {
      expect(b.time % 60_000).toBe(0);
      expect(b.time).toBeLessThan(Date.now());
      expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
      expect(b.close).toBeGreaterThan(1.2);
      expect(b.close).toBeLessThan(1.3);
    }
    expect(bars.map((b) => b.time)).toEqual([...bars.map((b) => b.time)].sort((a, b) => a - b));
    await expect(t.app.bridge.candleSource('NOPEUSD').fetchClosed(undefined)).rejects.toThrow();
  });
});

describe('MT5 bridge: staleness (injected clock)', () => {
  it('stale after 15 s (no intents), offline after 60 s (running robots paused once, with an event), continued when back within 10 min', async () => {
    const acc = await mt5Account();
    const other = await mt5Account();
    const robot = (accountId: number, status: string) => ({
      userId,
      accountId,
      market: 'forex',
      strategy: 'grid',
      symbol: 'EURUSD',
      interval: '1m',
      params: {},
      capital: '1000',
      leverage: 10,
      status,
    });
    const rows = await t.database.db
      .insert(robots)
      .values([robot(acc.id, 'running'), robot(acc.id, 'stopped'), robot(other.id, 'running')])
      .returning({ id: robots.id });
    let offset = 0;
    t.app.bridge.setClock(() => Date.now() + offset);
    try {
      const ea = fakeEa(acc.token);
      await online(acc.id, ea);
      const session = t.app.bridge.session(acc.id);
      const venue = new Mt5Venue({ session });
      offset = 16_000;
      expect(session.status()).toBe('stale');
      await expect(venue.placeOrder(order('stale'))).rejects.toBeInstanceOf(VenueRetryableError);
      expect(ea.received.some((m) => m.type === 'intent')).toBe(false);
      // not yet offline
      expect(await t.app.bridge.sweep()).not.toContain(acc.id);
      offset = 61_000;
      expect(session.status()).toBe('offline');
      expect(await t.app.bridge.sweep()).toContain(acc.id);
      expect(await t.app.bridge.sweep()).not.toContain(acc.id);
      const after = await t.database.db.select().from(robots);
      const byId = new Map(after.map((r) => [r.id, r]));
      expect(byId.get(rows[0].id)).toMatchObject({ status: 'paused', pauseReason: 'mt5Offline' });
      expect(byId.get(rows[1].id)?.status).toBe('stopped');
      expect(byId.get(rows[2].id)?.status).toBe('running');
      const events = await t.database.db.select().from(robotEvents).where(eq(robotEvents.robotId, rows[0].id));
      expect(events).toEqual([expect.objectContaining({ kind: 'paused', message: 'mt5Offline' })]);
      // the EA speaks again within 10 minutes: online, its robots continued (only those it paused)
      ea.heartbeat();
      await until(() => session.status() === 'online');
      await t.app.bridge.sweep();
      const back = new Map((await t.database.db.select().from(robots)).map((r) => [r.id, r]));
      expect(back.get(rows[0].id)).toMatchObject({ status: 'running', pauseReason: null });
      expect(back.get(rows[1].id)?.status).toBe('stopped');
      expect((await t.database.db.select().from(robotEvents).where(eq(robotEvents.robotId, rows[0].id))).map((e) => e.kind)).toEqual(['paused', 'continued']);
      // away for 11 minutes: paused again and left paused for the user
      offset = 61_000 + 11 * 60_000;
      expect(await t.app.bridge.sweep()).toContain(acc.id);
      ea.heartbeat();
      await until(() => session.status() === 'online');
      await t.app.bridge.sweep();
      const [again] = await t.database.db.select().from(robots).where(eq(robots.id, rows[0].id));
      expect(again).toMatchObject({ status: 'paused', pauseReason: 'mt5Offline' });
    } finally {
      t.app.bridge.setClock(Date.now);
    }
  });
});

describe('MT5 bridge: random drops, duplicates and restarts (fast-check)', () => {
  const steps: FakeEaStep[] = ['received', 'acked', 'sending', 'sent', 'result', 'exec'];
  const op = fc.oneof(
    fc.record({ k: fc.constant('place' as const), n: fc.integer({ min: 0, max: 3 }), side: fc.constantFrom('buy' as const, 'sell' as const) }),
    fc.record({ k: fc.constant('fault' as const), at: fc.constantFrom(...steps), kind: fc.constantFrom('drop' as const, 'crash' as const) }),
    fc.record({ k: fc.constant('restart' as const) }),
    fc.record({ k: fc.constant('reconnect' as const) }),
  );

  it('≤ 1 broker order per clientId; after the final restart every intent is resolved and the ledger equals the snapshot', async () => {
    const acc = await mt5Account();
    const session = t.app.bridge.session(acc.id);
    /**
     * Back online after a drop or a restart. A fault still pending fires on the first intent the
     * hub resends, and may drop or crash the EA again before (or while) it is seen online: then its
     * terminal restarts once more, as a real one would. Each fault fires at most once, so this ends.
     */
    const backOnline = async (ea: FakeEa, how: 'restart' | 'reconnect') => {
      for (;;) {
        await until(() => !session.connected);
        const welcomed = await (how === 'restart' ? ea.restart() : ea.connect()).then(
          () => true,
          () => false,
        );
        if (welcomed) {
          ea.heartbeat();
          await until(() => session.status() === 'online' || !ea.connected);
          if (ea.connected && session.status() === 'online') return;
        }
        how = 'restart';
      }
    };
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        run++;
        const broker = new FakeMt5Broker({ dataDir: null, firstTicket: run * 100_000 });
        const ea = fakeEa(acc.token, { broker });
        await until(() => !session.connected);
        await online(acc.id, ea);
        const venue = new Mt5Venue({ session, timeoutMs: 150 });
        const ids = new Set<string>();
        for (const o of ops) {
          if (o.k === 'place') {
            const req = order(`fc${run}-${o.n}`, { side: o.side });
            let sent = true;
            await venue.placeOrder(req).catch((e: unknown) => {
              if (e instanceof VenueRetryableError) sent = false; // offline: nothing was sent
            });
            if (sent) ids.add(req.clientOrderId);
          } else if (o.k === 'fault') {
            ea.faults.push({ at: o.at, kind: o.kind });
          } else {
            if (o.k === 'restart') ea.crash();
            else ea.drop();
            await backOnline(ea, o.k);
          }
        }
        ea.faults.length = 0;
        ea.crash();
        await backOnline(ea, 'restart');
        for (const id of ids) {
          expect(broker.ordersCreated(magicOf(id))).toBeLessThanOrEqual(1);
          await until(() => {
            const r = session.lookup(id);
            return r !== null && r.outcome !== 'unknown';
          });
        }
        await until(() => JSON.stringify(session.snapshot()?.positions.map((p) => p.ticket).sort()) === JSON.stringify([...broker.positions.keys()].sort()));
        ea.close();
      }),
      { numRuns: 15 },
    );
    // every deal stored once per account
    const deals = await dealRows(acc.id);
    expect(new Set(deals.map((d) => d.deal)).size).toBe(deals.length);
  });
});

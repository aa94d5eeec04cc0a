// Seat expiry on a real app and database: a user with the unlock and a 2-seat crypto pack runs
// robots on three accounts; the pack expires (its period moved into the past, as a clock moved
// forward would) and the pass freezes the two most recently bound accounts, sets their robots
// stopping with the reason (the runner closes their positions: runner/seat-expiry.int.test.ts, "a seat
// pack that expires"), mails the owner once, and does nothing more when run again. Release needs
// a free seat: refused, then a seat bought, released, a robot starts on it again. An
// auto-renewing pack renewed in the same pass freezes nothing. `verifyLedger` after each.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payingUser as payingTestUser, type Envelope, type RegisteredUser, type TestApp, startTestApp } from '../../test/helpers';
import { verifyLedger } from '../wallet';
import { enforceSeats } from './seat-expiry';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true, env: { AUTH_CACHE_MS: '0', USER_RATE_PER_MINUTE: '1000' } });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(() => t?.close());

interface User extends RegisteredUser {
  id: number;
}
let seq = 0;
const key = () => `se-key-${Date.now()}-${++seq}`;

const payingUser = (balance: bigint): Promise<User> => payingTestUser(t, balance);
const post = (u: RegisteredUser, url: string, body: Record<string, unknown>) => t.call('POST', url, { token: u.token, body, lang: 'en_US' });
async function ready(u: User): Promise<void> {
  expect((await post(u, '/user/api/equity/unlock', { paidPwd: '123456', idempotencyKey: key() })).statusCode).toBe(200);
  expect((await post(u, '/user/api/equity/agreements/accept', { agreement: 'monthEquity', version: '2026-11-27' })).statusCode).toBe(200);
  expect((await post(u, '/user/api/equity/agreements/accept', { agreement: 'autoSubscribe', version: '2026-11-27' })).statusCode).toBe(200);
}
const buySeats = async (u: User, quantity: number, autoRenew = false) => {
  const res = await post(u, '/user/api/equity/buy', { kind: 'seat', market: 'crypto', quantity, months: 1, autoRenew, paidPwd: '123456', idempotencyKey: key() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<{ id: number }>>().data.id;
};
/** Accounts bound one after another (a second apart: "most recently bound" is well defined). */
async function account(u: User, name: string, boundSecondsAgo: number): Promise<number> {
  const [row] = await t.database.exec<{ id: number }>(
    `insert into trading_accounts (user_id, market, exchange, account_name, key_last4, created_at) values ($1, 'crypto', 'binance', $2, 'ab12', now() - make_interval(secs => $3)) returning id`,
    [u.id, name, boundSecondsAgo],
  );
  return Number(row.id);
}
const robotBody = (accountId: number, symbol = 'BTCUSDT') => ({ type: 1, strategy: 'grid', dataSource: 'binance', symbol, accountId, params: { capital: 10_000, leverage: 5, gridNumber: 10, gap: 0.5, lotsPerGrid: 1 } });
async function robot(u: User, accountId: number, symbol = 'BTCUSDT'): Promise<number> {
  const res = await post(u, '/order/api/robot/create', robotBody(accountId, symbol));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<{ robot: { id: number } }>>().data.robot.id;
}
const expire = (purchaseId: number) =>
  t.database.exec(`update benefit_purchases set purchased_at = purchased_at - interval '31 days', expires_at = expires_at - interval '31 days' where id = $1`, [purchaseId]);
const accountState = async (id: number) => (await t.database.exec<{ frozen: boolean; frozen_reason: string | null }>('select frozen, frozen_reason from trading_accounts where id = $1', [id]))[0];
const robotState = async (id: number) => (await t.database.exec<{ status: string; stop_reason: string | null }>('select status, stop_reason from robots where id = $1', [id]))[0];
const mails: { to: string; subject: string; text: string }[] = [];
const send = (m: { to: string; subject: string; text: string }) => {
  mails.push(m);
  return Promise.resolve();
};

describe('seat expiry', () => {
  it('freezes the accounts above the seats left, newest bound first, stops their robots and tells the owner once; release needs a bought seat', async () => {
    const u = await payingUser(500_000_000n);
    await ready(u);
    const pack = await buySeats(u, 2);
    const [oldest, middle, newest] = [await account(u, 'oldest', 30), await account(u, 'middle', 20), await account(u, 'newest', 10)];
    const r1 = await robot(u, oldest);
    const r2 = await robot(u, middle);
    const r3 = await robot(u, newest);
    const r4 = await robot(u, newest, 'ETHUSDT');
    expect(await enforceSeats(t.database.db, send)).toMatchObject({ frozen: 0, stopped: 0 });

    await expire(pack);
    const pass = await enforceSeats(t.database.db, send);
    expect(pass).toMatchObject({ frozen: 2, stopped: 3 });
    expect(await accountState(oldest)).toEqual({ frozen: false, frozen_reason: null });
    expect(await accountState(middle)).toEqual({ frozen: true, frozen_reason: 'seatExpired' });
    expect(await accountState(newest)).toEqual({ frozen: true, frozen_reason: 'seatExpired' });
    expect(await robotState(r1)).toEqual({ status: 'running', stop_reason: null });
    for (const id of [r2, r3, r4]) expect(await robotState(id)).toEqual({ status: 'stopping', stop_reason: 'seatExpired' });
    // Told once, in the owner's language (registered without one: zh-TW, the default).
    const told = mails.filter((m) => m.to === u.mail);
    expect(told).toHaveLength(2);
    expect(told[0].subject).toBe('您的帳戶已凍結：席位到期');
    expect(told.map((m) => m.text).join('\n')).toMatch(/「middle」[\s\S]*「newest」|「newest」[\s\S]*「middle」/);
    // Run again: nothing more (the frozen accounts' stopping robots are not counted twice).
    expect(await enforceSeats(t.database.db, send)).toMatchObject({ frozen: 0, stopped: 0, told: 0 });
    expect(mails.filter((m) => m.to === u.mail)).toHaveLength(2);
    // A frozen account starts nothing.
    expect((await post(u, '/order/api/robot/create', robotBody(middle, 'SOLUSDT'))).json()).toMatchObject({ code: 'A0334' });

    // The runner finishes the stops; release needs a free seat: the unlock's one is taken by `oldest`.
    await t.database.exec(`update robots set status = 'stopped', stopped_at = now() where id = any($1::bigint[])`, [`{${[r2, r3, r4].join(',')}}`]);
    const refused = await post(u, '/user/api/apikey/release', { id: middle });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'A0312', data: { field: 'id' } });
    expect((await post(u, '/user/api/apikey/release', { id: oldest })).json()).toMatchObject({ code: 'A0385' });
    await buySeats(u, 1);
    const released = await post(u, '/user/api/apikey/release', { id: middle });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json<Envelope<{ frozen: boolean }>>().data.frozen).toBe(false);
    await robot(u, middle, 'SOLUSDT');
    // The seat bought is taken now: the other frozen account stays frozen.
    expect((await post(u, '/user/api/apikey/release', { id: newest })).json()).toMatchObject({ code: 'A0312' });
    expect(await enforceSeats(t.database.db, send)).toMatchObject({ frozen: 0 });
  });

  it('a pack renewed in the same pass freezes nothing', async () => {
    const u = await payingUser(300_000_000n);
    await ready(u);
    const pack = await buySeats(u, 1, true);
    const [a, b] = [await account(u, 'a', 20), await account(u, 'b', 10)];
    await robot(u, a);
    await robot(u, b);
    await expire(pack);
    expect(await enforceSeats(t.database.db, send)).toMatchObject({ renewed: 1, frozen: 0 });
    expect(await accountState(b)).toEqual({ frozen: false, frozen_reason: null });
  });
});

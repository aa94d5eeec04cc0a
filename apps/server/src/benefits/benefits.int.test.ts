// Benefits on a real app and database: the catalogue and the operator's prices; the unlock and packs
// paid from the balance wallet into platform revenue, once per key (a double tap pays once; the
// key with another body is 409); every bad input refused with the field named and nothing charged;
// two unlocks at once charge once. `verifyLedger` after each.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EquityPurchase } from '@lq/contracts';
import { PAY_PASSWORD, payingUser as payingTestUser, startTestApp, registerUser, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { adjustWallet, verifyLedger } from '../wallet';
import { readFileSync } from 'node:fs';
import { BENEFIT_OPS } from './ops';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { AUTH_CACHE_MS: '0', USER_RATE_PER_MINUTE: '1000' } });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(() => t?.close());

const payingUser = (balance: bigint) => payingTestUser(t, balance);

let seq = 0;
const key = () => `bf-key-${Date.now()}-${++seq}`;
const unlock = (u: RegisteredUser, over: Record<string, unknown> = {}, lang = 'en_US') =>
  t.call('POST', '/user/api/equity/unlock', { token: u.token, body: { paidPwd: PAY_PASSWORD, idempotencyKey: key(), ...over }, lang });
const pack = (over: Record<string, unknown> = {}) => ({ kind: 'seat', market: 'crypto', quantity: 2, months: 3, autoRenew: false, paidPwd: PAY_PASSWORD, idempotencyKey: key(), ...over });
const buy = (u: RegisteredUser, body: Record<string, unknown>, lang = 'en_US') => t.call('POST', '/user/api/equity/buy', { token: u.token, body, lang });
const balanceOf = async (u: RegisteredUser) => (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<{ balanceWallet: string }>>().data.balanceWallet;
const accept = (u: RegisteredUser, agreement: 'monthEquity' | 'autoSubscribe', version = '2026-11-27', lang = 'en_US') =>
  t.call('POST', '/user/api/equity/agreements/accept', { token: u.token, body: { agreement, version }, lang });
/** Unlocked (bought) and the monthly benefit agreement accepted: ready to buy packs. */
async function packReady(u: RegisteredUser): Promise<void> {
  expect((await unlock(u)).statusCode).toBe(200);
  expect((await accept(u, 'monthEquity')).statusCode).toBe(200);
}
const revenue = async () => {
  const [row] = await t.database.exec<{ posted: string }>(`select posted::text as posted from ledger_accounts where code = 'platform:revenue'`);
  return BigInt(row?.posted ?? '0');
};
type Purchase = EquityPurchase;
const purchases = async (u: RegisteredUser) => (await t.call('GET', '/user/api/equity/purchases', { token: u.token })).json<Envelope<{ list: Purchase[]; total: number }>>().data;

async function ops(args: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const command = BENEFIT_OPS.commands[args[0]];
  try {
    await command.run(t.database, args.slice(1), (l) => out.push(l), t.config);
    return { code: 0, out };
  } catch (e) {
    return { code: (e as { exitCode?: number }).exitCode ?? 1, out: [...out, (e as Error).message] };
  }
}

describe('the catalogue', () => {
  it('answers the prices of spec §9 to anyone, and the operator changes them for the purchases after', async () => {
    const res = await t.call('GET', '/user/api/equity/catalogue');
    expect(res.statusCode).toBe(200);
    expect(res.json<Envelope>().data).toEqual({
      prices: { unlock: '100.000000', seat: '10.000000', slot: '10.000000' },
      markets: ['forex', 'crypto'],
      months: { min: 1, max: 12 },
      quantity: { min: 1, max: 1000 },
      daysPerMonth: 30,
    });
    expect(await ops(['price:set', 'slot', '12.5', '--note', 'test'])).toEqual({ code: 0, out: ['slot: 10 → 12.5 Lightning per month; purchases from now on pay it'] });
    expect((await ops(['price:list'])).out).toEqual(['unlock  100 Lightning', 'seat    10 Lightning per month', 'slot    12.5 Lightning per month']);
    expect((await t.call('GET', '/user/api/equity/catalogue')).json<Envelope<{ prices: Record<string, string> }>>().data.prices.slot).toBe('12.500000');
    // Bad operator input changes nothing.
    expect((await ops(['price:set', 'vip', '5', '--note', 'x'])).code).toBe(2);
    expect((await ops(['price:set', 'seat', '0', '--note', 'x'])).code).toBe(2);
    expect((await ops(['price:set', 'seat', '1.0000001', '--note', 'x'])).code).toBe(2);
    expect((await ops(['price:set', 'seat', '11'])).code).toBe(2);
    expect(await ops(['price:set', 'slot', '10', '--note', 'back'])).toMatchObject({ code: 0 });
  });
});

describe('the unlock', () => {
  it('charges 100 once into revenue, shows it in purchases and records, and a double tap pays once', async () => {
    const u = await payingUser(150_000_000n);
    const before = await revenue();
    const k = key();
    const res = await unlock(u, { idempotencyKey: k });
    expect(res.statusCode).toBe(200);
    const p = res.json<Envelope<Purchase>>().data;
    expect(p).toMatchObject({ item: 'unlock', market: null, quantity: 1, months: null, amount: '100.000000', state: 'active', expiresAt: null, autoRenew: false });
    expect(await balanceOf(u)).toBe('50.000000');
    expect((await revenue()) - before).toBe(100_000_000n);
    // The same request again: the same purchase, nothing charged.
    const again = await unlock(u, { idempotencyKey: k });
    expect(again.json<Envelope<Purchase>>().data.id).toBe(p.id);
    expect(await balanceOf(u)).toBe('50.000000');
    // Another key: refused, nothing charged, the password not even asked for.
    const second = await unlock(u, { paidPwd: '000000' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'A0380', msg: 'The basic rights are unlocked already: nothing was charged' });
    expect(await balanceOf(u)).toBe('50.000000');
    expect(await purchases(u)).toMatchObject({ total: 1, list: [{ id: p.id, item: 'unlock' }] });
    const records = (await t.call('GET', '/user/api/wallet/records?type=purchase', { token: u.token })).json<Envelope<{ list: { amount: string; status: string }[] }>>().data.list;
    expect(records.map((r) => [r.amount, r.status])).toEqual([['-100.000000', 'posted']]);
  });

  it('two unlocks at once under different keys: one is charged, the other refused', async () => {
    const u = await payingUser(500_000_000n);
    const answers = await Promise.all(Array.from({ length: 4 }, () => unlock(u)));
    const codes = answers.map((r) => r.json<Envelope>().code).sort();
    expect(codes).toEqual(['00000', 'A0380', 'A0380', 'A0380']);
    expect(await balanceOf(u)).toBe('400.000000');
    expect((await purchases(u)).total).toBe(1);
  });

  it('too little balance, a wrong or missing payment password: refused with the field named, nothing charged', async () => {
    const poor = await payingUser(99_999_999n);
    const short = await unlock(poor);
    expect(short.statusCode).toBe(409);
    expect(short.json()).toMatchObject({ code: 'A0310', data: { field: 'amount' } });
    expect(await balanceOf(poor)).toBe('99.999999');
    const wrong = await unlock(poor, { paidPwd: '654321' }, 'ja_JP');
    expect(wrong.json()).toMatchObject({ code: 'A0244', data: { field: 'paidPwd' } });
    const noPwd = await registerUser(t);
    const unset = await t.call('POST', '/user/api/equity/unlock', { token: noPwd.token, body: { paidPwd: '123456', idempotencyKey: key() } });
    expect(unset.json()).toMatchObject({ code: 'A0243' });
    const badKey = await unlock(poor, { idempotencyKey: 'short' }, 'th_TH');
    expect(badKey.statusCode).toBe(422);
    expect(badKey.json<Envelope>().msg).not.toMatch(/idempotencyKey/);
    expect((await purchases(poor)).total).toBe(0);
    expect((await t.call('POST', '/user/api/equity/unlock', { body: { paidPwd: '123456', idempotencyKey: key() } })).statusCode).toBe(401);
  });
});

describe('packs', () => {
  it('need the unlock; then 2 crypto seats × 3 months cost 60 and last 90 days; the key with another body is 409', async () => {
    const u = await payingUser(300_000_000n);
    const early = await buy(u, pack());
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'A0381', msg: 'Unlock the basic rights first (100 Lightning): packs add seats and slots to them' });
    expect(await balanceOf(u)).toBe('300.000000');
    await packReady(u);
    await accept(u, 'autoSubscribe');
    const k = key();
    const startedAt = Date.now();
    const res = await buy(u, pack({ idempotencyKey: k, autoRenew: true }));
    expect(res.statusCode).toBe(200);
    const p = res.json<Envelope<Purchase>>().data;
    expect(p).toMatchObject({ item: 'seat', market: 'crypto', quantity: 2, months: 3, amount: '60.000000', autoRenew: true, state: 'active' });
    const days = (p.expiresAt! - p.purchasedAt) / 86_400_000;
    expect(days).toBe(90);
    expect(p.purchasedAt).toBeGreaterThanOrEqual(startedAt - 5_000);
    expect(await balanceOf(u)).toBe('140.000000');
    expect((await buy(u, pack({ idempotencyKey: k, autoRenew: true }))).json<Envelope<Purchase>>().data.id).toBe(p.id);
    const reused = await buy(u, pack({ idempotencyKey: k, quantity: 3 }));
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ code: 'A0350', data: { field: 'idempotencyKey' } });
    const slot = await buy(u, pack({ kind: 'slot', market: 'forex', quantity: 1, months: 1 }));
    expect(slot.json<Envelope<Purchase>>().data).toMatchObject({ item: 'slot', market: 'forex', amount: '10.000000' });
    expect(await balanceOf(u)).toBe('130.000000');
    // The amount the page showed (issue 53 item 6): the price rose meanwhile → 409 with both, nothing charged.
    expect(await ops(['price:set', 'slot', '12', '--note', 'test rise'])).toMatchObject({ code: 0 });
    const stale = await buy(u, pack({ kind: 'slot', market: 'forex', quantity: 1, months: 1, expectedAmount: '10' }));
    expect([stale.statusCode, stale.json<Envelope<{ field: string }>>().code, stale.json<Envelope<{ field: string }>>().data.field]).toEqual([409, 'A0387', 'expectedAmount']);
    expect(stale.json<Envelope>().msg).toMatch(/10\.000000.*12\.000000/);
    expect(await balanceOf(u)).toBe('130.000000');
    const fresh = await buy(u, pack({ kind: 'slot', market: 'forex', quantity: 1, months: 1, expectedAmount: '12' }));
    expect(fresh.json<Envelope<Purchase>>().data.amount).toBe('12.000000');
    expect(await balanceOf(u)).toBe('118.000000');
    expect(await ops(['price:set', 'slot', '10', '--note', 'back'])).toMatchObject({ code: 0 });
    const list = await purchases(u);
    expect(list.total).toBe(4);
    expect(list.list.map((x) => x.item)).toEqual(['slot', 'slot', 'seat', 'unlock']);
  });

  it('refuses months outside 1–12, quantity ≤ 0 or > 1,000, unknown kinds and markets, and too little balance, naming the field', async () => {
    const u = await payingUser(110_000_000n);
    await packReady(u);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ months: 0 }, 'months', 'Months'],
      [{ months: 13 }, 'months', 'Months'],
      [{ months: 1.5 }, 'months', 'Months'],
      [{ quantity: 0 }, 'quantity', 'Quantity'],
      [{ quantity: 1001 }, 'quantity', 'Quantity'],
      [{ kind: 'vip' }, 'kind', 'Benefit'],
      [{ market: 'stocks' }, 'market', 'Market'],
    ];
    for (const [over, field, label] of cases) {
      const res = await buy(u, pack(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(422);
      const body = res.json<Envelope<{ field?: string }>>();
      expect(body.data?.field).toBe(field);
      expect(body.msg).toContain(label);
    }
    const thai = await buy(u, pack({ months: 13 }), 'th_TH');
    expect(thai.json<Envelope>().msg).toContain('จำนวนเดือน');
    const short = await buy(u, pack({ quantity: 1, months: 2 }));
    expect(short.json()).toMatchObject({ code: 'A0310', data: { field: 'amount' } });
    expect(await balanceOf(u)).toBe('10.000000');
    expect((await purchases(u)).total).toBe(1);
  });
});

type Count = { owned: number; used: number; free: number; nextExpiry: number | null; expiringQuantity: number };
type Rights = { unlocked: boolean; markets: { market: string; seats: Count; slots: Count }[] };
const rights = async (u: RegisteredUser) => {
  const r = (await t.call('GET', '/user/api/equity/rights', { token: u.token })).json<Envelope<Rights>>().data;
  return { unlocked: r.unlocked, forex: r.markets.find((m) => m.market === 'forex')!, crypto: r.markets.find((m) => m.market === 'crypto')! };
};
const none = { nextExpiry: null, expiringQuantity: 0 };

async function runningRobot(userId: number, market: 'crypto' | 'forex'): Promise<void> {
  const [account] = await t.database.exec<{ id: string }>(
    `insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, $2, $3, 'acc', 'ab12') returning id::text as id`,
    [userId, market, market === 'crypto' ? 'binance' : 'mt5'],
  );
  await t.database.exec(
    `insert into robots (user_id, account_id, market, strategy, symbol, interval, params, capital, leverage, status) values ($1, $2, $3, 'grid', 'BTCUSDT', '1m', '{}', 1000, 10, 'running')`,
    [userId, Number(account.id), market],
  );
}

describe('rights', () => {
  it('count the unlock, live packs of each market and operator grants; expired packs count for nothing', async () => {
    const u = await payingUser(500_000_000n);
    const start = await rights(u);
    expect(start.unlocked).toBe(false);
    expect(start.crypto).toEqual({ market: 'crypto', seats: { owned: 0, used: 0, free: 0, ...none }, slots: { owned: 0, used: 0, free: 0, ...none } });
    await packReady(u);
    const p = (await buy(u, pack({ quantity: 2, months: 3 }))).json<Envelope<Purchase>>().data;
    await buy(u, pack({ kind: 'slot', market: 'forex', quantity: 1, months: 1 }));
    await runningRobot(u.id, 'crypto');
    let r = await rights(u);
    expect(r.unlocked).toBe(true);
    expect(r.crypto.seats).toEqual({ owned: 3, used: 1, free: 2, nextExpiry: p.expiresAt, expiringQuantity: 2 });
    expect(r.crypto.slots).toEqual({ owned: 1, used: 0, free: 1, ...none });
    expect(r.forex.seats).toEqual({ owned: 1, used: 0, free: 1, ...none });
    expect(r.forex.slots).toMatchObject({ owned: 2, nextExpiry: expect.any(Number), expiringQuantity: 1 });
    // An operator's seat grant for both markets counts on each; an expired pack on none.
    await t.database.exec(`insert into entitlement_grants (user_id, kind, market, quantity, origin) values ($1, 'seat', null, 1, 'operator')`, [u.id]);
    await t.database.exec(`update benefit_purchases set expires_at = now() - interval '1 second', purchased_at = now() - interval '91 days' where id = $1`, [p.id]);
    r = await rights(u);
    expect(r.crypto.seats).toEqual({ owned: 2, used: 1, free: 1, ...none });
    expect(r.forex.seats).toMatchObject({ owned: 2, free: 2 });
    expect((await purchases(u)).list.find((x) => x.id === p.id)?.state).toBe('expired');
    expect((await t.call('GET', '/user/api/equity/rights')).statusCode).toBe(401);
  });

  it('an operator grants the unlock (benefit:unlock); buying it afterwards is refused', async () => {
    const u = await payingUser(200_000_000n);
    expect(await ops(['benefit:unlock', u.mail, '--reason', 'support ticket 12'])).toEqual({ code: 0, out: [`${u.mail}: basic rights granted (1 account seat and 1 backtest slot on each market)`] });
    expect((await rights(u)).crypto.seats.owned).toBe(1);
    expect((await unlock(u)).json()).toMatchObject({ code: 'A0380' });
    expect(await balanceOf(u)).toBe('200.000000');
    await accept(u, 'monthEquity');
    expect((await buy(u, pack({ quantity: 1, months: 1 }))).statusCode).toBe(200);
    expect((await ops(['benefit:unlock', u.mail])).code).toBe(2);
  });

  it('migration 0022 grants the unlock to users with a seat or slot in use, once, with its reason', async () => {
    const busy = await payingUser(0n);
    const idle = await payingUser(0n);
    await runningRobot(busy.id, 'forex');
    const migration = readFileSync(new URL('../../../../packages/db/migrations/0022_unlock_for_users_in_use.sql', import.meta.url), 'utf8');
    await t.database.exec(migration);
    await t.database.exec(migration);
    const grants = await t.database.exec<{ user_id: string; note: string }>(`select user_id::text as user_id, note from entitlement_grants where kind = 'unlock' and user_id in ($1, $2)`, [busy.id, idle.id]);
    expect(grants).toEqual([{ user_id: String(busy.id), note: expect.stringContaining('migration 0022') }]);
    expect((await rights(busy)).unlocked).toBe(true);
    expect((await rights(idle)).unlocked).toBe(false);
  });
});

describe('agreements', () => {
  it('a pack needs the monthly benefit agreement, auto-renew the auto-subscribe one; the version in force is recorded with the time', async () => {
    const u = await payingUser(200_000_000n);
    expect((await unlock(u)).statusCode).toBe(200);
    const state = (await t.call('GET', '/user/api/equity/agreements', { token: u.token })).json<Envelope>().data;
    expect(state).toEqual({ monthEquity: { version: '2026-11-27', accepted: false, acceptedAt: null }, autoSubscribe: { version: '2026-11-27', accepted: false, acceptedAt: null } });
    const refused = await buy(u, pack());
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'A0382', msg: 'Read and accept the monthly benefit agreement first', data: { field: 'agreement' } });
    expect((await buy(u, pack(), 'zh_TW')).json<Envelope>().msg).toBe('請先閱讀並同意月度權益協議');
    const old = await accept(u, 'monthEquity', '2020-01-01');
    expect(old.json()).toMatchObject({ code: 'A0383', data: { field: 'version' } });
    const before = Date.now();
    const accepted = (await accept(u, 'monthEquity')).json<Envelope<{ monthEquity: { accepted: boolean; acceptedAt: number } }>>().data;
    expect(accepted.monthEquity.accepted).toBe(true);
    expect(accepted.monthEquity.acceptedAt).toBeGreaterThanOrEqual(before - 5_000);
    const withRenew = await buy(u, pack({ autoRenew: true }));
    expect(withRenew.json()).toMatchObject({ code: 'A0382', msg: 'Read and accept the auto-subscribe agreement first' });
    expect(await balanceOf(u)).toBe('100.000000');
    expect((await buy(u, pack({ quantity: 1, months: 1 }))).statusCode).toBe(200);
    expect(await balanceOf(u)).toBe('90.000000');
  });
});

describe('auto-renew', () => {
  const renewals = async () => {
    const { renewDue } = await import('./renewals');
    return renewDue(t.database.db);
  };
  /** Moves a pack's period into the past, as a clock moved forward would. */
  const expire = (id: number) => t.database.exec(`update benefit_purchases set purchased_at = purchased_at - interval '31 days', expires_at = expires_at - interval '31 days' where id = $1`, [id]);
  const purchaseRow = async (id: number) => (await t.database.exec<{ expires_at: Date | string; renewals: number; auto_renew: boolean }>(`select expires_at, renewals, auto_renew from benefit_purchases where id = $1`, [id]))[0];

  it('switches on only after the auto-subscribe agreement and the payment password, and only for an active pack of the caller', async () => {
    const u = await payingUser(200_000_000n);
    await packReady(u);
    const p = (await buy(u, pack({ quantity: 1, months: 1 }))).json<Envelope<Purchase>>().data;
    const on = (body: Record<string, unknown>, who = u) => t.call('POST', '/user/api/equity/auto-renew', { token: who.token, body: body.autoRenew ? { paidPwd: PAY_PASSWORD, ...body } : body, lang: 'en_US' });
    expect((await on({ id: p.id, autoRenew: true })).json()).toMatchObject({ code: 'A0382' });
    await accept(u, 'autoSubscribe');
    // It commits future payments: the payment password, as for a purchase (issue 53 item 5).
    const bare = await t.call('POST', '/user/api/equity/auto-renew', { token: u.token, body: { id: p.id, autoRenew: true }, lang: 'en_US' });
    expect([bare.statusCode, bare.json<Envelope<{ field: string }>>().data.field]).toEqual([422, 'paidPwd']);
    expect((await on({ id: p.id, autoRenew: true, paidPwd: '000000' })).json()).toMatchObject({ code: 'A0244' });
    const switched = (await on({ id: p.id, autoRenew: true })).json<Envelope<Purchase>>().data;
    expect(switched.autoRenew).toBe(true);
    expect(switched.renewal).toEqual({ at: p.expiresAt, amount: '10.000000', priceChange: null });
    expect((await on({ id: p.id, autoRenew: false })).json<Envelope<Purchase>>().data.autoRenew).toBe(false);
    const unlockId = (await purchases(u)).list.find((x) => x.item === 'unlock')!.id;
    expect((await on({ id: unlockId, autoRenew: true })).json()).toMatchObject({ code: 'A0384' });
    const stranger = await payingUser(0n);
    expect((await on({ id: p.id, autoRenew: true }, stranger)).statusCode).toBe(404);
    await expire(p.id);
    expect((await on({ id: p.id, autoRenew: true })).json()).toMatchObject({ code: 'A0384' });
  });

  it('renews at expiry once per period from the balance, extending from the old end; too little balance lets it expire and mails the owner once', async () => {
    const u = await payingUser(200_000_000n);
    await packReady(u);
    await accept(u, 'autoSubscribe');
    const p = (await buy(u, pack({ quantity: 2, months: 1, autoRenew: true }))).json<Envelope<Purchase>>().data;
    expect(await balanceOf(u)).toBe('80.000000');
    expect(await renewals()).toEqual({ renewed: 0, failed: 0 });
    await expire(p.id);
    const oldEnd = new Date((await purchaseRow(p.id)).expires_at).getTime();
    // Two passes at once (two workers, or a retry of a pass killed mid-way): one renewal.
    const [a, b] = await Promise.all([renewals(), renewals()]);
    expect(a.renewed + b.renewed).toBe(1);
    expect(await renewals()).toEqual({ renewed: 0, failed: 0 });
    expect(await balanceOf(u)).toBe('60.000000');
    const row = await purchaseRow(p.id);
    expect(row.renewals).toBe(1);
    expect(new Date(row.expires_at).getTime() - oldEnd).toBe(30 * 86_400_000);
    const after = (await purchases(u)).list.find((x) => x.id === p.id)!;
    expect(after).toMatchObject({ state: 'active', renewals: 1, renewalFailedAt: null });
    expect((await rights(u)).crypto.seats.owned).toBe(3);

    // The balance is drained: the next period fails, the pack expires, the owner is mailed once.
    await adjustWallet(t.database.db, { userId: u.id, wallet: 'balance', amount: -55_000_000n, reason: 'test drain', source: 'shell', key: `bf-drain-${u.id}` });
    await expire(p.id);
    expect(await renewals()).toEqual({ renewed: 0, failed: 1 });
    expect(await renewals()).toEqual({ renewed: 0, failed: 0 });
    expect(await balanceOf(u)).toBe('5.000000');
    const failed = (await purchases(u)).list.find((x) => x.id === p.id)!;
    expect(failed).toMatchObject({ state: 'expired', renewals: 1 });
    expect(failed.renewalFailedAt).toEqual(expect.any(Number));
    expect((await rights(u)).crypto.seats.owned).toBe(1);
    const { notifyFailedRenewals } = await import('./renewals');
    const sent: { to: string; subject: string; text: string }[] = [];
    const send = (m: { to: string; subject: string; text: string }) => {
      sent.push(m);
      return Promise.resolve();
    };
    while ((await notifyFailedRenewals(t.database.db, send)) > 0);
    const mine = sent.filter((m) => m.to === u.mail);
    expect(mine).toHaveLength(1);
    // In the user's language (registered without one: zh-TW, the default).
    expect(mine[0].text).toContain('餘額錢包只有 5 閃電，需要 20');
    expect(mine[0].subject).toBe('您的套餐未能續費');
    expect(await notifyFailedRenewals(t.database.db, send)).toBe(0);
    // Buying again works as any purchase does.
    await adjustWallet(t.database.db, { userId: u.id, wallet: 'balance', amount: 20_000_000n, reason: 'test top-up', source: 'shell', key: `bf-topup-${u.id}` });
    expect((await buy(u, pack({ quantity: 2, months: 1 }))).statusCode).toBe(200);
  });

  it('renews one period at the price agreed; a rise reaches a renewal only after its owner was told 7 days before; a fall at once', async () => {
    const { noticePriceChanges, renewDue } = await import('./renewals');
    const pass = async () => {
      await noticePriceChanges(t.database.db);
      return renewDue(t.database.db);
    };
    const setSeatPrice = (micro: bigint) => t.database.exec(`update benefit_prices set price = $1 where item = 'seat'`, [micro.toString()]);
    const u = await payingUser(500_000_000n);
    await packReady(u); // 100 for the unlock
    await accept(u, 'autoSubscribe');
    // 2 seats for 12 months at 10: 240 paid; each renewal is 30 days for 2 × 10.
    const p = (await buy(u, pack({ quantity: 2, months: 12, autoRenew: true }))).json<Envelope<Purchase>>().data;
    expect(await balanceOf(u)).toBe('160.000000');
    try {
      await setSeatPrice(15_000_000n);
      await t.database.exec(`update benefit_purchases set expires_at = now() - interval '1 hour' where id = $1`, [p.id]);
      const oldEnd = new Date((await purchaseRow(p.id)).expires_at).getTime();
      expect(await pass()).toEqual({ renewed: 1, failed: 0 });
      // At the agreed 10 (told of 15 only now), for one period.
      expect(await balanceOf(u)).toBe('140.000000');
      expect(new Date((await purchaseRow(p.id)).expires_at).getTime() - oldEnd).toBe(30 * 86_400_000);
      const told = await t.database.exec<{ kind: string; params: Record<string, unknown> }>(`select kind, params from notifications where user_id = $1 and kind = 'pack.priceChange'`, [u.id]);
      expect(told).toEqual([{ kind: 'pack.priceChange', params: expect.objectContaining({ purchaseId: p.id, amount: '30000000', was: '20000000', expiresAt: oldEnd + 30 * 86_400_000 }) }]);
      // Told once, however many passes.
      await pass();
      expect((await t.database.exec(`select 1 from notifications where user_id = $1 and kind = 'pack.priceChange'`, [u.id])).length).toBe(1);
      const listed = (await purchases(u)).list.find((x) => x.id === p.id)!;
      expect(listed.renewal).toEqual({ at: oldEnd + 30 * 86_400_000, amount: '30.000000', priceChange: { amount: '30.000000', from: oldEnd + 30 * 86_400_000 } });
      // 31 days on (the 7 days' notice long past): the next renewal pays 15.
      await t.database.exec(`update benefit_purchases set expires_at = expires_at - interval '31 days', renew_price_next_from = renew_price_next_from - interval '31 days' where id = $1`, [p.id]);
      expect(await pass()).toEqual({ renewed: 1, failed: 0 });
      expect(await balanceOf(u)).toBe('110.000000');
      // The price falls to 8: the next renewal pays it at once.
      await setSeatPrice(8_000_000n);
      await t.database.exec(`update benefit_purchases set expires_at = now() - interval '1 hour' where id = $1`, [p.id]);
      expect(await pass()).toEqual({ renewed: 1, failed: 0 });
      expect(await balanceOf(u)).toBe('94.000000');
      const paid = await t.database.exec<{ amount: string }>(`select amount::text as amount from benefit_renewals where purchase_id = $1 order by period`, [p.id]);
      expect(paid.map((r) => r.amount)).toEqual(['20000000', '30000000', '16000000']);
    } finally {
      await setSeatPrice(10_000_000n);
    }
  });

  it('several packs of one owner due in one pass are paid oldest expiry first while the balance lasts; the rest fail', async () => {
    const u = await payingUser(150_000_000n);
    await packReady(u); // the unlock: 100
    await accept(u, 'autoSubscribe');
    // 10 + 20 + 10 paid: 10 left, then due in the order c (oldest), a, b: c (20) and a (10) renew, b (10) fails.
    const a = (await buy(u, pack({ quantity: 1, months: 1, autoRenew: true }))).json<Envelope<Purchase>>().data;
    const c = (await buy(u, pack({ quantity: 2, months: 1, autoRenew: true }))).json<Envelope<Purchase>>().data;
    const b = (await buy(u, pack({ quantity: 1, months: 1, autoRenew: true }))).json<Envelope<Purchase>>().data;
    await t.database.exec(`update benefit_purchases set purchased_at = now() - interval '33 days', expires_at = now() - make_interval(hours => $2) where id = $1`, [c.id, 3]);
    await t.database.exec(`update benefit_purchases set purchased_at = now() - interval '33 days', expires_at = now() - make_interval(hours => $2) where id = $1`, [a.id, 2]);
    await t.database.exec(`update benefit_purchases set purchased_at = now() - interval '33 days', expires_at = now() - make_interval(hours => $2) where id = $1`, [b.id, 1]);
    await adjustWallet(t.database.db, { userId: u.id, wallet: 'balance', amount: 20_000_000n, reason: 'test top-up', source: 'shell', key: `bf-order-${u.id}` });
    expect(await balanceOf(u)).toBe('30.000000');
    expect(await renewals()).toEqual({ renewed: 2, failed: 1 });
    expect(await balanceOf(u)).toBe('0.000000');
    const states = Object.fromEntries((await purchases(u)).list.map((x) => [x.id, x.state]));
    expect([states[c.id], states[a.id], states[b.id]]).toEqual(['active', 'active', 'expired']);
    const rows = await t.database.exec<{ purchase_id: string | number; status: string; balance: string | null }>(
      `select purchase_id, status, balance::text as balance from benefit_renewals where purchase_id = any($1::bigint[]) order by id`,
      [`{${[a.id, b.id, c.id].join(',')}}`],
    );
    expect(rows.find((r) => Number(r.purchase_id) === b.id)).toMatchObject({ status: 'failed', balance: '0' });
  });
});

// The wallet API on a real app and database: info, records, the rebate transfer with its bad
// inputs, and the payment-password lockout. Every test ends with a clean `verifyLedger`.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPayPassword, hashSecret } from '../users';
import { registerUser, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { adjustWallet, verifyLedger } from '.';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { AUTH_CACHE_MS: '0' } });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(() => t?.close());

async function userIdOf(u: RegisteredUser): Promise<number> {
  const [row] = await t.database.exec<{ id: number | string }>('select id from users where mail = $1', [u.mail]);
  return Number(row.id);
}

type Info = Record<'balance' | 'balanceWallet' | 'rebateWallet' | 'totalDeposit' | 'todayDividend' | 'totalDividend' | 'pendingTransfer' | 'processedTransfer', string>;
interface RecordRow {
  id: number;
  type: string;
  wallet: string;
  amount: string;
  balanceAfter: string | null;
  status: string;
  time: number;
  memo: string | null;
}

const info = async (u: RegisteredUser) => (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<Info>>().data;
const records = async (u: RegisteredUser, query = '') =>
  (await t.call('GET', `/user/api/wallet/records${query}`, { token: u.token })).json<Envelope<{ list: RecordRow[]; total: number }>>();
const transfer = (u: RegisteredUser, body: unknown, lang?: string) => t.call('POST', '/user/api/wallet/transfer', { token: u.token, body, ...(lang ? { lang } : {}) });

describe('wallet info and records', () => {
  it('a new user has two empty wallets; credits show in info and records, newest first', async () => {
    const u = await registerUser(t);
    expect(await info(u)).toEqual({
      balance: '0.000000',
      balanceWallet: '0.000000',
      rebateWallet: '0.000000',
      totalDeposit: '0.000000',
      todayDividend: '0.000000',
      totalDividend: '0.000000',
      pendingTransfer: '0.000000',
      processedTransfer: '0.000000',
    });
    const id = await userIdOf(u);
    await adjustWallet(t.database.db, { userId: id, wallet: 'balance', amount: 100_000_000n, reason: 'welcome credit', source: 'shell', key: `w1-${id}` });
    await adjustWallet(t.database.db, { userId: id, wallet: 'rebate', amount: 12_345_678n, reason: 'rebate test', source: 'shell', key: `w2-${id}` });
    expect(await info(u)).toMatchObject({ balance: '112.345678', balanceWallet: '100.000000', rebateWallet: '12.345678' });
    const r = await records(u);
    expect(r.data.total).toBe(2);
    expect(r.data.list.map((x) => [x.type, x.wallet, x.amount, x.balanceAfter, x.status, x.memo])).toEqual([
      ['adjust', 'rebate', '12.345678', '12.345678', 'posted', 'rebate test'],
      ['adjust', 'balance', '100.000000', '100.000000', 'posted', 'welcome credit'],
    ]);
    expect(Math.abs(r.data.list[0].time - Date.now())).toBeLessThan(60_000);
  });

  it('pages and filters by type; another user sees none of it', async () => {
    const u = await registerUser(t);
    const id = await userIdOf(u);
    for (let i = 1; i <= 5; i++) await adjustWallet(t.database.db, { userId: id, wallet: 'rebate', amount: BigInt(i) * 1_000_000n, reason: `r${i}`, source: 'shell', key: `page-${id}-${i}` });
    const k1 = `k-${id}-aaaaaaaa`;
    expect((await transfer(u, { amount: '2', idempotencyKey: k1 })).statusCode).toBe(200);
    const page1 = await records(u, '?page=1&size=3');
    expect(page1.data.total).toBe(7);
    expect(page1.data.list.map((x) => [x.type, x.wallet, x.amount])).toEqual([
      ['transfer', 'balance', '2.000000'],
      ['transfer', 'rebate', '-2.000000'],
      ['adjust', 'rebate', '5.000000'],
    ]);
    const page3 = await records(u, '?page=3&size=3');
    expect(page3.data.list.map((x) => x.memo)).toEqual(['r1']);
    const transfers = await records(u, '?type=transfer');
    expect(transfers.data.total).toBe(2);
    expect(transfers.data.list.map((x) => x.balanceAfter)).toEqual(['2.000000', '13.000000']);
    const other = await registerUser(t);
    expect((await records(other)).data).toEqual({ list: [], total: 0 });
    const bad = await t.call('GET', '/user/api/wallet/records?type=bonus', { token: u.token });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<Envelope<{ field: string }>>().data.field).toBe('type');
    expect((await t.call('GET', '/user/api/wallet/records?size=101', { token: u.token })).statusCode).toBe(422);
    expect((await t.call('GET', '/user/api/wallet/info')).statusCode).toBe(401);
  });
});

describe('rebate → balance transfer', () => {
  it('moves exactly, answers a retry with the same key once, refuses the key with another amount', async () => {
    const u = await registerUser(t);
    const id = await userIdOf(u);
    await adjustWallet(t.database.db, { userId: id, wallet: 'rebate', amount: 10_000_000n, reason: 'rebate', source: 'shell', key: `tr-${id}` });
    const key = `transfer-${id}-0001`;
    const first = await transfer(u, { amount: '0.1', idempotencyKey: key });
    expect(first.statusCode).toBe(200);
    const body = first.json<Envelope<{ id: number; amount: string; wallet: Info }>>().data;
    expect(body).toMatchObject({ amount: '0.100000', wallet: { balanceWallet: '0.100000', rebateWallet: '9.900000' } });
    const again = await transfer(u, { amount: '0.100000', idempotencyKey: key });
    expect(again.statusCode).toBe(200);
    expect(again.json<Envelope<{ id: number }>>().data.id).toBe(body.id);
    expect(await info(u)).toMatchObject({ balanceWallet: '0.100000', rebateWallet: '9.900000' });
    const conflict = await transfer(u, { amount: '0.2', idempotencyKey: key }, 'en_US');
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ code: 'A0350', data: { field: 'idempotencyKey' } });
    expect(conflict.json<Envelope>().msg).toMatch(/already used/);
    // Another user's identical key is theirs: keys are scoped to the caller.
    const v = await registerUser(t);
    await adjustWallet(t.database.db, { userId: await userIdOf(v), wallet: 'rebate', amount: 1_000_000n, reason: 'x', source: 'shell', key: `tr2-${id}` });
    expect((await transfer(v, { amount: '0.2', idempotencyKey: key })).statusCode).toBe(200);
  });

  it('refuses bad amounts and keys with the field named in the caller’s language; nothing moves', async () => {
    const u = await registerUser(t);
    const id = await userIdOf(u);
    await adjustWallet(t.database.db, { userId: id, wallet: 'rebate', amount: 5_000_000n, reason: 'rebate', source: 'shell', key: `bad-${id}` });
    const key = `bad-input-${id}`;
    const cases: [unknown, number, string, RegExp][] = [
      [{ amount: '1.0000001', idempotencyKey: key }, 422, 'amount', /at most 6 decimal places/],
      [{ amount: '-1', idempotencyKey: key }, 422, 'amount', /at most 6 decimal places|greater than 0/],
      [{ amount: '0', idempotencyKey: key }, 422, 'amount', /greater than 0/],
      [{ amount: '0.000000', idempotencyKey: key }, 422, 'amount', /greater than 0/],
      [{ amount: 'ten', idempotencyKey: key }, 422, 'amount', /at most 6 decimal places/],
      [{ amount: '1e3', idempotencyKey: key }, 422, 'amount', /at most 6 decimal places/],
      [{ amount: 1, idempotencyKey: key }, 422, 'amount', /wrong type/],
      [{ amount: '1' }, 422, 'idempotencyKey', /required/],
      [{ amount: '1', idempotencyKey: 'short' }, 422, 'idempotencyKey', /at least 8/],
      [{ amount: '1', idempotencyKey: 'has spaces in it' }, 422, 'idempotencyKey', /letters, digits/],
      [{ amount: '1', idempotencyKey: key, extra: true }, 422, 'extra', /Unknown field/],
      [{ amount: '5.000001', idempotencyKey: key }, 409, 'amount', /holds only 5\.000000/],
    ];
    for (const [body, status, field, msg] of cases) {
      const res = await transfer(u, body, 'en_US');
      expect({ body, status: res.statusCode }).toEqual({ body, status });
      const env = res.json<Envelope<{ field: string }>>();
      expect({ body, field: env.data.field }).toEqual({ body, field });
      expect(env.msg).toMatch(msg);
    }
    const ja = await transfer(u, { amount: '9', idempotencyKey: key }, 'ja_JP');
    expect(ja.json<Envelope>().msg).toBe('リベートウォレットの残高は 5.000000 のみです');
    const zh = await transfer(u, { amount: '0.1234567', idempotencyKey: key }, 'zh_CN');
    expect(zh.json<Envelope>().msg).toBe('金额 必须是最多 6 位小数的金额');
    expect(await info(u)).toMatchObject({ balanceWallet: '0.000000', rebateWallet: '5.000000' });
    expect((await records(u)).data.total).toBe(1);
  });
});

describe('payment password lockout', () => {
  const pepper = randomBytes(32);

  it('a hash from before the pepper verifies once and is replaced by the peppered one, which no other pepper opens', async () => {
    const u = await registerUser(t);
    const id = await userIdOf(u);
    const legacy = await hashSecret('123456');
    await t.database.exec('update users set pay_pwd_hash = $2 where id = $1', [id, legacy]);
    await expect(checkPayPassword(t.database.db, id, '000000', pepper)).rejects.toMatchObject({ errorName: 'PAY_PWD_WRONG' });
    const stored = async () => (await t.database.exec<{ h: string }>('select pay_pwd_hash as h from users where id = $1', [id]))[0].h;
    expect(await stored()).toBe(legacy); // a wrong password changes nothing
    await checkPayPassword(t.database.db, id, '123456', pepper);
    const peppered = await stored();
    expect(peppered).toMatch(/^pepper1:\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    await checkPayPassword(t.database.db, id, '123456', pepper);
    expect(await stored()).toBe(peppered);
    await expect(checkPayPassword(t.database.db, id, '123456', randomBytes(32))).rejects.toMatchObject({ errorName: 'PAY_PWD_WRONG' });
    await checkPayPassword(t.database.db, id, '123456', pepper); // and the count resets
  });

  it('5 wrong passwords lock paying for 15 minutes, saying until when; a right one resets the count', async () => {
    const u = await registerUser(t);
    const id = await userIdOf(u);
    await expect(checkPayPassword(t.database.db, id, '123456', pepper)).rejects.toMatchObject({ errorName: 'PAY_PWD_NOT_SET' });
    await t.database.exec('update users set pay_pwd_hash = $2 where id = $1', [id, await hashSecret('123456')]);
    await expect(checkPayPassword(t.database.db, id, '000000', pepper)).rejects.toMatchObject({ errorName: 'PAY_PWD_WRONG', params: { left: 4 }, field: 'paidPwd' });
    await checkPayPassword(t.database.db, id, '123456', pepper); // resets
    for (let left = 4; left >= 1; left--) {
      await expect(checkPayPassword(t.database.db, id, '000000', pepper)).rejects.toMatchObject({ errorName: 'PAY_PWD_WRONG', params: { left } });
    }
    const before = Date.now();
    const locked = await checkPayPassword(t.database.db, id, '000000', pepper).catch((e: unknown) => e as { errorName: string; params: { until: string } });
    expect(locked).toMatchObject({ errorName: 'PAY_LOCKED' });
    const until = Date.parse(`${(locked as { params: { until: string } }).params.until.replace(' UTC', '').replace(' ', 'T')}:00Z`);
    expect(until).toBeGreaterThan(before + 14 * 60_000 - 60_000);
    expect(until).toBeLessThanOrEqual(before + 15 * 60_000 + 60_000);
    // The right password is refused too while locked.
    await expect(checkPayPassword(t.database.db, id, '123456', pepper)).rejects.toMatchObject({ errorName: 'PAY_LOCKED' });
    // Once the lock has passed, the right password works and the count starts again.
    await t.database.exec(`update users set pay_locked_until = now() - interval '1 second' where id = $1`, [id]);
    await checkPayPassword(t.database.db, id, '123456', pepper);
    await expect(checkPayPassword(t.database.db, id, '000000', pepper)).rejects.toMatchObject({ errorName: 'PAY_PWD_WRONG', params: { left: 4 } });
  });

  it('attempts claimed by a process that died mid-check count as failures: a minute later, paying locks', async () => {
    const u = await registerUser(t);
    const id = await userIdOf(u);
    // Five attempts claimed a minute ago and never resolved (their process was killed between claim and answer).
    await t.database.exec(`update users set pay_pwd_hash = $2, pay_pwd_failures = 5, pay_pwd_claimed_at = now() - interval '61 seconds' where id = $1`, [id, await hashSecret('123456')]);
    await expect(checkPayPassword(t.database.db, id, '123456', pepper)).rejects.toMatchObject({ errorName: 'PAY_LOCKED' });
    const [row] = await t.database.exec<{ failures: number; locked: boolean }>('select pay_pwd_failures as failures, pay_locked_until > now() as locked from users where id = $1', [id]);
    expect(row).toMatchObject({ failures: 0, locked: true });
  });
});

// Withdrawal requests on a real app and database: amount + fee held at once and shown in the
// wallet; every bad input (below 10, above the balance, 7 decimals, a Tron address for BEP20, an
// EVM address with a broken checksum or malformed, a wrong payment password, a key reused with another
// body) refused with the field named and nothing held; the operator's review (list, approve,
// reject releasing the hold, the no-review limit). `verifyLedger` after each.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { verifyLedger } from '../wallet';
import { isWithdrawAddress } from './addresses';
import { payingUser } from './test-helpers';
import { WITHDRAW_OPS } from './ops';

const EVM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
// A plain Tron address (Tron's USDT contract, TR7NHq…, is refused as a destination).
const TRON = 'TLEaY8XoqpBmndLsjcfThgdKLN1ssNuUcF';
let t: TestApp;
beforeAll(async () => {
  // The per-user request budget raised: the lockout test proves the payment-password lock, not the rate limit.
  t = await startTestApp({ bookWithdrawAddresses: true, env: { AUTH_CACHE_MS: '0', USER_RATE_PER_MINUTE: '1000' } });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(() => t?.close());

let seq = 0;
const body = (over: Record<string, unknown> = {}) => ({ network: 'BEP20', address: EVM, amount: '20', paidPwd: '123456', idempotencyKey: `wd-key-${Date.now()}-${++seq}`, ...over });
const create = (u: RegisteredUser, b: Record<string, unknown>) => t.call('POST', '/user/api/withdraw/create', { token: u.token, body: b, lang: 'en_US' });
const info = async (u: RegisteredUser) => (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<Record<string, string>>>().data;

describe('withdrawal requests', () => {
  it('19 withdrawals at once with wrong payment passwords: at most five compared, paying locked, nothing held', async () => {
    const u = await payingUser(t, 100_000_000n);
    // Only wrong ones in the burst: a right one sent beside them may legitimately be among the first
    // five compared (requests reach the check in no set order), and a right one resets the count.
    const tries = Array.from({ length: 19 }, (_, i) => String(100_000 + i));
    const answers = await Promise.all(tries.map((paidPwd) => create(u, body({ paidPwd }))));
    const codes = answers.map((res) => res.json<Envelope>().code);
    // Five comparisons at most (each wrong: A0244 with what is left, the fifth locks: A0352); the rest
    // find paying locked.
    expect(codes.filter((c) => c === 'A0244').length).toBeLessThanOrEqual(4);
    expect(codes.filter((c) => c === 'A0352').length).toBeGreaterThanOrEqual(15);
    expect(codes.every((c) => c === 'A0244' || c === 'A0352'), codes.join(' ')).toBe(true);
    expect(await info(u)).toMatchObject({ balanceWallet: '100.000000', pendingTransfer: '0.000000' });
    expect((await t.call('GET', '/user/api/withdraw/list', { token: u.token })).json<Envelope<{ total: number }>>().data.total).toBe(0);
    // Still locked for the right password afterwards.
    expect((await create(u, body())).json<Envelope>().code).toBe('A0352');
  });

  it('holds amount + fee, answers the withdrawal, and shows it in the wallet, the list and the detail', async () => {
    const u = await payingUser(t, 100_000_000n);
    const res = await create(u, body({ amount: '20.5', idempotencyKey: 'wd-first-request' }));
    expect(res.statusCode).toBe(200);
    const w = res.json<Envelope<{ id: number; amount: string; fee: string; total: string; state: string; address: string }>>().data;
    expect(w).toMatchObject({ amount: '20.500000', fee: '3.000000', total: '23.500000', state: 'pendingReview', address: EVM });
    expect(await info(u)).toMatchObject({ balanceWallet: '76.500000', pendingTransfer: '23.500000' });
    // The same request again (a retry): the same withdrawal, nothing more held.
    const again = await create(u, body({ amount: '20.5', idempotencyKey: 'wd-first-request' }));
    expect(again.json<Envelope<{ id: number }>>().data.id).toBe(w.id);
    expect((await info(u)).balanceWallet).toBe('76.500000');
    const reused = await create(u, body({ amount: '21', idempotencyKey: 'wd-first-request' }));
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ code: 'A0350', data: { field: 'idempotencyKey' } });
    const tron = await create(u, body({ network: 'TRC20', address: TRON, amount: '10' }));
    expect(tron.statusCode).toBe(200);
    const list = (await t.call('GET', '/user/api/withdraw/list', { token: u.token })).json<Envelope<{ list: { id: number; network: string }[]; total: number }>>().data;
    expect(list.total).toBe(2);
    expect(list.list.map((x) => x.network)).toEqual(['TRC20', 'BEP20']);
    const detail = await t.call('GET', `/user/api/withdraw/detail/${w.id}`, { token: u.token });
    expect(detail.json<Envelope<{ id: number; total: string }>>().data).toMatchObject({ id: w.id, total: '23.500000' });
    const stranger = await payingUser(t, 0n);
    expect((await t.call('GET', `/user/api/withdraw/detail/${w.id}`, { token: stranger.token })).statusCode).toBe(404);
    const records = (await t.call('GET', '/user/api/wallet/records?type=withdrawal', { token: u.token })).json<Envelope<{ list: { amount: string; status: string }[] }>>().data.list;
    expect(records.map((r) => [r.amount, r.status])).toEqual([
      ['-13.000000', 'pending'],
      ['-23.500000', 'pending'],
    ]);
  });

  it('refuses every bad request with the field named, holding nothing', async () => {
    const u = await payingUser(t, 30_000_000n);
    for (const [b, status, code, field, msg] of [
      [body({ amount: '9.99' }), 422, 'A0370', 'amount', 'The smallest withdrawal is 10 Lightning'],
      [body({ amount: '28' }), 409, 'A0310', 'amount', undefined], // 28 + 3 > 30
      [body({ amount: '10.1234567' }), 422, 'A0410', 'amount', undefined],
      [body({ address: TRON }), 422, 'A0371', 'address', 'Not a valid BEP20 address'],
      [body({ address: EVM.replace('C8', 'c8') }), 422, 'A0371', 'address', undefined],
      [body({ address: '0x1234' }), 422, 'A0371', 'address', undefined],
      [body({ network: 'TRC20', address: EVM }), 422, 'A0371', 'address', 'Not a valid TRC20 address'],
      [body({ network: 'ERC20' }), 422, 'A0410', 'network', undefined],
      [body({ paidPwd: '654321' }), 422, 'A0244', 'paidPwd', undefined],
    ] as const) {
      const res = await create(u, b);
      expect(res.statusCode, JSON.stringify(b)).toBe(status);
      const env = res.json<Envelope<{ field: string }>>();
      expect(env.code, JSON.stringify(b)).toBe(code);
      expect(env.data.field).toBe(field);
      if (msg) expect(env.msg).toBe(msg);
    }
    expect(await info(u)).toMatchObject({ balanceWallet: '30.000000', pendingTransfer: '0.000000' });
    const [{ n }] = await t.database.exec<{ n: string }>('select count(*)::text as n from withdrawals where user_id = $1', [u.id]);
    expect(n).toBe('0');
  });

  it('checks addresses per network', () => {
    expect(isWithdrawAddress('BEP20', EVM)).toBe(true);
    // EIP-55: all uppercase and all lowercase carry no checksum and are valid; a mixed case must match it.
    expect(isWithdrawAddress('BEP20', EVM.toUpperCase().replace('0X', '0x'))).toBe(true);
    expect(isWithdrawAddress('BEP20', EVM.toLowerCase())).toBe(true);
    expect(isWithdrawAddress('BEP20', EVM.replace('C8', 'c8'))).toBe(false);
    expect(isWithdrawAddress('TRC20', TRON)).toBe(true);
    expect(isWithdrawAddress('TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
  });
});

describe('review by an operator (npm run ops -- withdraw:…)', () => {
  const ops = async (name: string, ...args: string[]) => {
    const lines: string[] = [];
    await WITHDRAW_OPS.commands[name].run(t.database, args, (l) => lines.push(l), t.config);
    return lines.join('\n');
  };
  const detail = async (u: RegisteredUser, id: number) =>
    (await t.call('GET', `/user/api/withdraw/detail/${id}`, { token: u.token, lang: 'en_US' })).json<Envelope<{ state: string; reason: string | null }>>().data;

  it('waits for an operator by default; approve lets it through, once', async () => {
    expect(await ops('withdraw:limit')).toBe('every withdrawal waits for review (limit 0)');
    const u = await payingUser(t, 50_000_000n);
    const w = (await create(u, body({ amount: '10' }))).json<Envelope<{ id: number; state: string }>>().data;
    expect(w.state).toBe('pendingReview');
    const listed = await ops('withdraw:list');
    expect(listed).toContain(u.mail);
    expect(listed).toMatch(new RegExp(`^${w.id}\\s+pendingReview\\s`, 'm'));
    expect(await ops('withdraw:approve', String(w.id))).toContain(`withdrawal ${w.id} approved`);
    expect(await detail(u, w.id)).toMatchObject({ state: 'processing', reason: null });
    // Approving twice, or rejecting an unknown id, says what is wrong and changes nothing.
    await expect(ops('withdraw:approve', String(w.id))).rejects.toThrow(/is being paid:/);
    await expect(ops('withdraw:approve', '999999')).rejects.toThrow('no such withdrawal');
    await expect(ops('withdraw:approve', 'abc')).rejects.toThrow(/positive whole number/);
    // Still held: approval moves no money.
    expect(await info(u)).toMatchObject({ balanceWallet: '37.000000', pendingTransfer: '13.000000' });
  });

  it('reject releases the hold to the balance and the user reads the reason', async () => {
    const u = await payingUser(t, 50_000_000n);
    const w = (await create(u, body({ amount: '30' }))).json<Envelope<{ id: number }>>().data;
    expect(await info(u)).toMatchObject({ balanceWallet: '17.000000', pendingTransfer: '33.000000' });
    await expect(ops('withdraw:reject', String(w.id))).rejects.toThrow(/--reason is required/);
    expect(await ops('withdraw:reject', String(w.id), '--reason', 'Address on a sanctions list')).toContain('33.000000 released');
    expect(await detail(u, w.id)).toMatchObject({ state: 'rejected', reason: 'Address on a sanctions list' });
    expect(await info(u)).toMatchObject({ balanceWallet: '50.000000', pendingTransfer: '0.000000', processedTransfer: '0.000000' });
    const records = (await t.call('GET', '/user/api/wallet/records?type=withdrawal', { token: u.token })).json<Envelope<{ list: { status: string }[] }>>().data.list;
    expect(records.map((r) => r.status)).toEqual(['voided']);
    // A second reject (a retried command) is refused: the hold is voided once.
    await expect(ops('withdraw:reject', String(w.id), '--reason', 'again')).rejects.toThrow(/is rejected/);
    expect((await info(u)).balanceWallet).toBe('50.000000');
    expect(await ops('withdraw:list', '--state', 'rejected')).toMatch(new RegExp(`^${w.id}\\s+rejected\\s`, 'm'));
    // An approved withdrawal not yet paid may still be refused.
    const v = (await create(u, body({ amount: '10' }))).json<Envelope<{ id: number }>>().data;
    await ops('withdraw:approve', String(v.id));
    await ops('withdraw:reject', String(v.id), '--reason', 'Changed our mind');
    expect((await info(u)).balanceWallet).toBe('50.000000');
  });

  it('the owner cancels a withdrawal until it is approved: the hold is released once, nobody else can', async () => {
    const u = await payingUser(t, 50_000_000n);
    const other = await payingUser(t, 50_000_000n);
    const cancel = (who: RegisteredUser, id: number, lang = 'en_US') => t.call('POST', '/user/api/withdraw/cancel', { token: who.token, body: { id }, lang });
    const w = (await create(u, body({ amount: '25' }))).json<Envelope<{ id: number }>>().data;
    expect(await info(u)).toMatchObject({ balanceWallet: '22.000000', pendingTransfer: '28.000000' });
    // Another user's withdrawal is not found (not "not yours").
    expect((await cancel(other, w.id)).json<Envelope<null>>().code).toBe('A0404');
    // Two cancels at once: one releases the hold, the other is told it is already cancelled.
    const [a, b] = await Promise.all([cancel(u, w.id), cancel(u, w.id)]);
    const answers = [a.json<Envelope<{ state: string }>>(), b.json<Envelope<null>>()].sort((x, y) => x.code.localeCompare(y.code));
    expect(answers[0]).toMatchObject({ code: '00000', data: { state: 'cancelled' } });
    expect(answers[1]).toMatchObject({ msg: 'This withdrawal is cancelled: that cannot be done now' });
    expect(await info(u)).toMatchObject({ balanceWallet: '50.000000', pendingTransfer: '0.000000', processedTransfer: '0.000000' });
    expect(await detail(u, w.id)).toMatchObject({ state: 'cancelled' });
    // An operator cannot approve it any more; an approved one cannot be cancelled (in the user's words).
    await expect(ops('withdraw:approve', String(w.id))).rejects.toThrow(/is cancelled/);
    const v = (await create(u, body({ amount: '10' }))).json<Envelope<{ id: number }>>().data;
    await ops('withdraw:approve', String(v.id));
    const late = await cancel(u, v.id, 'zh_CN');
    expect(late.statusCode).toBe(409);
    expect(late.json<Envelope<null>>().msg).toContain('付款中');
    expect(await info(u)).toMatchObject({ balanceWallet: '37.000000', pendingTransfer: '13.000000' });
    await ops('withdraw:reject', String(v.id), '--reason', 'test done');
  });

  it('below the operator limit a withdrawal needs no review', async () => {
    await expect(ops('withdraw:limit', '-1')).rejects.toThrow(/≥ 0/);
    await expect(ops('withdraw:limit', '1.1234567')).rejects.toThrow(/6 decimals/);
    expect(await ops('withdraw:limit', '50')).toBe('withdrawals below 50.000000 need no review; the rest wait for an operator');
    try {
      const u = await payingUser(t, 200_000_000n);
      const small = (await create(u, body({ amount: '49.999999' }))).json<Envelope<{ id: number; state: string }>>().data;
      const large = (await create(u, body({ amount: '50' }))).json<Envelope<{ id: number; state: string }>>().data;
      expect([small.state, large.state]).toEqual(['processing', 'pendingReview']);
      expect(await ops('withdraw:list')).toMatch(new RegExp(`^${small.id}\\s+processing\\s.*\\sauto\\s`, 'm'));
    } finally {
      await ops('withdraw:limit', '0');
    }
    await expect(ops('withdraw:list', '--state', 'weird')).rejects.toThrow(/--state is one of/);
  });

  it('limits per level over 24 hours and 30 days: past either a withdrawal waits for review, whatever its amount; what is left is shown', async () => {
    expect(await ops('withdraw:limits')).toMatch(/^none\s+24 hours\s+2000\.000000\s+30 days\s+20000\.000000$/m);
    await expect(ops('withdraw:limits', 'VIP9', '--day', '1')).rejects.toThrow(/level is one of/);
    await expect(ops('withdraw:limits', 'none', '--day', '-5')).rejects.toThrow(/an amount above 0/);
    await ops('withdraw:limit', '10000'); // every withdrawal below 10,000 (the two-person amount, its ceiling) would skip review
    await ops('withdraw:limits', 'none', '--day', '100', '--month', '150');
    try {
      const u = await payingUser(t, 1_000_000_000n);
      const limits = async () => (await t.call('GET', '/user/api/withdraw/limits', { token: u.token })).json<Envelope<Record<string, unknown>>>().data;
      expect(await limits()).toEqual({ level: 'none', day: { limit: '100.000000', used: '0.000000', left: '100.000000' }, month: { limit: '150.000000', used: '0.000000', left: '150.000000' } });
      const first = (await create(u, body({ amount: '60' }))).json<Envelope<{ state: string }>>().data;
      expect(first.state).toBe('processing');
      // 60 + 50 passes the 24-hour limit of 100: accepted, but it waits for an operator.
      const second = (await create(u, body({ amount: '50' }))).json<Envelope<{ state: string }>>().data;
      expect(second.state).toBe('pendingReview');
      expect(await limits()).toEqual({ level: 'none', day: { limit: '100.000000', used: '110.000000', left: '0.000000' }, month: { limit: '150.000000', used: '110.000000', left: '40.000000' } });
      // A rejected one no longer counts.
      const [{ id }] = await t.database.exec<{ id: string }>(`select id::text from withdrawals where user_id = $1 and status = 'pendingReview'`, [u.id]);
      await ops('withdraw:reject', id, '--reason', 'over the limit');
      expect((await limits()).day).toEqual({ limit: '100.000000', used: '60.000000', left: '40.000000' });
      // A higher level has its own limits.
      await t.database.exec(`update users set user_level = 'VIP1' where id = $1`, [u.id]);
      expect((await limits()).day).toEqual({ limit: '10000.000000', used: '60.000000', left: '9940.000000' });
      expect((await create(u, body({ amount: '500' }))).json<Envelope<{ state: string }>>().data.state).toBe('processing');
    } finally {
      await ops('withdraw:limits', 'none', '--day', '2000', '--month', '20000');
      await ops('withdraw:limit', '0');
    }
  });
});

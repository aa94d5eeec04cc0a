// The console's money screens on a real app and database (both): withdrawals reviewed (approve,
// reject with the reason the user reads, a payout paid by hand checked against the TronGrid
// stand-in on 127.0.0.1), deposits as the watcher left them, the amounts that decide who reviews
// what, and the two-person rule — the first operator's request waits, the same operator can never
// approve it (the API refuses, and so does the database), a second operator's approval takes
// effect once even when two approve at once. `verifyLedger` after each.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleAdjustResult, ConsoleApprovalList, ConsoleDepositList, ConsoleMoneySettings, ConsoleWithdrawalList, ConsoleWithdrawApproved } from '@lq/contracts';
import { payingUser, registeredUserWithId, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { startTronStandIn, type TronStandIn } from '../../test/tron-standin';
import { tronAddressOf } from '../platform/chain-address';
import { verifyLedger } from '../wallet';
import { consoleTestKit } from './test-helpers';

const EVM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const TRON_TO_HEX = `0x${'42'.repeat(20)}` as const;
const TRON_TO = tronAddressOf(TRON_TO_HEX);
const CONFIRMATIONS = 3;

let t: TestApp;
let tron: TronStandIn;
beforeAll(async () => {
  tron = await startTronStandIn();
  t = await startTestApp({ bookWithdrawAddresses: true,
    shareSocket: true,
    env: { AUTH_CACHE_MS: '0', USER_RATE_PER_MINUTE: '1000', TRON_API_URL: tron.url, TRON_USDT_CONTRACT: tron.token, TRON_CONFIRMATIONS: String(CONFIRMATIONS) },
  });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(async () => {
  await t?.close();
  await tron?.stop();
});

const { ops, signedIn, settingsApproved } = consoleTestKit(() => t);
type Op = Awaited<ReturnType<typeof signedIn>>;
const call = (op: Op, method: 'GET' | 'POST', url: string, body?: unknown) => t.call(method, `/console/api${url}`, { token: op.token, body });
const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;
const code = (res: { json<U>(): U }) => res.json<Envelope<null>>().code;

let seq = 0;
async function withdrawal(u: RegisteredUser, amount: string, network = 'BEP20', address = EVM): Promise<number> {
  const res = await t.call('POST', '/user/api/withdraw/create', { token: u.token, body: { network, address, amount, paidPwd: '123456', idempotencyKey: `console-wd-${++seq}-${Date.now()}` } });
  expect(res.statusCode, res.body).toBe(200);
  return data<{ id: number }>(res).id;
}
const balanceOf = async (u: RegisteredUser) => data<{ balanceWallet: string }>(await t.call('GET', '/user/api/wallet/info', { token: u.token })).balanceWallet;

const LIMITS = { none: { day: '2000', month: '20000' }, VIP1: { day: '10000', month: '100000' }, VIP2: { day: '50000', month: '500000' }, VIP3: { day: '200000', month: '2000000' }, VIP4: { day: '200000', month: '2000000' }, VIP5: { day: '200000', month: '2000000' } };
/** The amounts set as a test needs them: asked by `op`, approved by a second operator. */
const setSettings = (op: Op, over: { autoApproveBelow?: string; twoPersonAbove?: string; soloDailyLimit?: string } = {}) =>
  settingsApproved<ConsoleMoneySettings>(op, '/settings/money', { autoApproveBelow: '0', twoPersonAbove: '10000', soloDailyLimit: '50000', limits: LIMITS, reason: 'test set-up', ...over });

describe('withdrawals review', () => {
  it('lists open withdrawals with the user’s limits, approves one, rejects another with its reason (the hold comes back)', async () => {
    const op = await signedIn();
    await setSettings(op);
    const u = await payingUser(t, 100_000_000n);
    const first = await withdrawal(u, '20');
    const second = await withdrawal(u, '15');
    const list = data<ConsoleWithdrawalList>(await call(op, 'GET', `/withdrawals?q=${encodeURIComponent(u.mail)}&sort=-amount`));
    expect(list.total).toBe(2);
    expect(list.list.map((w) => w.id)).toEqual([first, second]);
    expect(list.list[0]).toMatchObject({ state: 'pendingReview', mail: u.mail, level: 'none', needsSecond: false, overLimit: false, approval: null, total: '23.000000' });
    expect(list.list[0].limits.day).toEqual({ limit: '2000.000000', used: '35.000000', left: '1965.000000' });

    const approved = await call(op, 'POST', '/withdrawals/approve', { id: first });
    expect(data<ConsoleWithdrawApproved>(approved)).toEqual({ id: first, state: 'processing', approvalId: null });
    const twice = await call(op, 'POST', '/withdrawals/approve', { id: first });
    expect([twice.statusCode, code(twice)]).toEqual([409, 'A0372']);

    const noReason = await call(op, 'POST', '/withdrawals/reject', { id: second, reason: ' ' });
    expect([noReason.statusCode, data<{ field: string }>(noReason).field]).toEqual([422, 'reason']);
    expect(data<ConsoleWithdrawApproved>(await call(op, 'POST', '/withdrawals/reject', { id: second, reason: 'address on a sanctions list' })).state).toBe('rejected');
    expect(await balanceOf(u)).toBe('77.000000'); // 100 − (20 + 3); the 15 + 3 came back
    const mine = data<{ list: { id: number; reason: string | null }[] }>(await t.call('GET', '/user/api/withdraw/list', { token: u.token }));
    expect(mine.list.find((w) => w.id === second)?.reason).toBe('address on a sanctions list');

    const rejected = data<ConsoleWithdrawalList>(await call(op, 'GET', `/withdrawals?state=rejected&q=${encodeURIComponent(u.mail)}`));
    expect(rejected.list.map((w) => w.id)).toEqual([second]);
    expect((await call(op, 'GET', '/withdrawals?state=lost')).statusCode).toBe(422);
    expect((await call(op, 'POST', '/withdrawals/approve', { id: 99_999_999 })).statusCode).toBe(404);

    const rows = await t.database.exec<{ action: string; before: unknown; after: unknown; outcome: string }>(
      `select action, before, after, outcome from audit_log where object_type = 'withdrawal' and object_id in ($1, $2) order by id`,
      [String(first), String(second)],
    );
    // A body the schema refuses never reaches the route (nothing was tried on the withdrawal).
    expect(rows).toEqual([
      { action: 'withdrawals.approve', before: { status: 'pendingReview' }, after: { status: 'processing' }, outcome: 'done' },
      expect.objectContaining({ action: 'withdrawals.approve', outcome: 'refused' }),
      { action: 'withdrawals.reject', before: { status: 'pendingReview' }, after: { status: 'rejected', reason: 'address on a sanctions list' }, outcome: 'done' },
    ]);
  });

  it('records a payout an operator sent by hand: checked on chain, completed at its confirmations; a bad hash refused', async () => {
    const op = await signedIn();
    await setSettings(op);
    const u = await payingUser(t, 50_000_000n);
    const id = await withdrawal(u, '12.5', 'TRC20', TRON_TO);
    const early = await call(op, 'POST', '/withdrawals/paid', { id, txHash: 'ab'.repeat(32) });
    expect([early.statusCode, code(early)]).toEqual([409, 'A0372']); // not approved yet
    await call(op, 'POST', '/withdrawals/approve', { id });
    const bad = await call(op, 'POST', '/withdrawals/paid', { id, txHash: 'not-a-hash' });
    expect([bad.statusCode, code(bad), data<{ field: string }>(bad).field]).toEqual([422, 'A0373', 'txHash']);
    const tx = tron.transfer(TRON_TO_HEX, 12_500_000n);
    tron.mine(CONFIRMATIONS);
    const paid = await call(op, 'POST', '/withdrawals/paid', { id, txHash: tx });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(data<{ state: string }>(paid).state).toBe('completed');
    const done = data<ConsoleWithdrawalList>(await call(op, 'GET', `/withdrawals?state=completed&q=${id}`));
    expect(done.list[0]).toMatchObject({ id, state: 'completed', txHash: tx });
    const [row] = await t.database.exec<{ after: unknown }>(`select after from audit_log where action = 'withdrawals.paid' and object_id = $1 and outcome = 'done'`, [String(id)]);
    expect(row.after).toEqual({ status: 'completed', txHash: tx });
  });
});

describe('two people for big money', () => {
  it('an adjustment above the amount waits; its own operator cannot approve it (nor can the database); a second one posts it once', async () => {
    const [a, b, c] = [await signedIn(), await signedIn(), await signedIn()];
    await setSettings(a, { twoPersonAbove: '50' });
    const u = await registeredUserWithId(t);
    const body = { userId: u.id, wallet: 'balance', direction: 'credit', amount: '80', reason: 'refund of a double charge', idempotencyKey: 'two-person-credit-1' };
    const asked = data<ConsoleAdjustResult>(await call(a, 'POST', '/users/adjust', body));
    expect(asked).toMatchObject({ entryId: null, approvalId: expect.any(Number) as number, available: '0.000000', waitsFor: 'twoPersonAmount' });
    expect(data<ConsoleAdjustResult>(await call(a, 'POST', '/users/adjust', body)).approvalId).toBe(asked.approvalId);
    expect(code(await call(a, 'POST', '/users/adjust', { ...body, amount: '81' }))).toBe('A0350');
    expect(await balanceOf(u)).toBe('0.000000');
    // At or below the amount: at once.
    expect(data<ConsoleAdjustResult>(await call(a, 'POST', '/users/adjust', { ...body, amount: '50', idempotencyKey: 'two-person-small' })).entryId).toEqual(expect.any(Number));

    const pending = data<ConsoleApprovalList>(await call(a, 'GET', '/approvals?sort=-id&page=1&size=20'));
    const item = pending.list.find((x) => x.id === asked.approvalId)!;
    expect(item).toMatchObject({ kind: 'wallet.adjust', amount: '80.000000', mine: true, status: 'pending', requestedBy: a.mail, user: { id: u.id }, adjust: { wallet: 'balance', direction: 'credit' } });
    expect(data<ConsoleApprovalList>(await call(b, 'GET', '/approvals')).list.find((x) => x.id === asked.approvalId)?.mine).toBe(false);

    const own = await call(a, 'POST', '/approvals/approve', { id: asked.approvalId });
    expect([own.statusCode, code(own)]).toEqual([403, 'A0218']);
    await expect(
      t.database.exec(`update operator_approvals set status = 'approved', decided_by = requested_by where id = $1`, [asked.approvalId]),
    ).rejects.toThrow(/operator_approvals_two_people/);

    // The shell cannot write the approval's ledger key (issue 53 item 9): its keys have their own part.
    const shellFirst = await ops('wallet:adjust', u.mail, '10', '--wallet', 'balance', '--reason', 'shell small', '--key', `approval:${asked.approvalId}`);
    expect(shellFirst.code, shellFirst.err).toBe(0);
    const [shellEntry] = await t.database.exec<{ n: number }>(`select count(*)::int as n from ledger_entries where idempotency_key = $1`, [`adjust:shell:approval:${asked.approvalId}`]);
    expect(shellEntry.n).toBe(1);
    // Two other operators approve at once: one posts it, the other finds it decided.
    const both = await Promise.all([call(b, 'POST', '/approvals/approve', { id: asked.approvalId }), call(c, 'POST', '/approvals/approve', { id: asked.approvalId })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(code(both.find((r) => r.statusCode === 409)!)).toBe('A0219');
    expect(await balanceOf(u)).toBe('140.000000');
    const [entries] = await t.database.exec<{ n: number }>(`select count(*)::int as n from ledger_entries where idempotency_key = $1`, [`adjust:approval:${asked.approvalId}`]);
    expect(entries.n).toBe(1);

    // A debit beyond the wallet stays pending when approved (nothing moves); its operator withdraws it.
    const debit = data<ConsoleAdjustResult>(await call(a, 'POST', '/users/adjust', { ...body, direction: 'debit', amount: '500', idempotencyKey: 'two-person-debit' }));
    const short = await call(b, 'POST', '/approvals/approve', { id: debit.approvalId });
    expect([short.statusCode, code(short)]).toEqual([409, 'A0310']);
    expect(data<{ status: string }>(await call(a, 'POST', '/approvals/reject', { id: debit.approvalId, reason: 'typed one zero too many' })).status).toBe('rejected');
    expect(code(await call(b, 'POST', '/approvals/approve', { id: debit.approvalId }))).toBe('A0219');
    expect(await balanceOf(u)).toBe('140.000000');

    // The shell has no second person: above the amount it sends the operator to the console.
    const shell = await ops('wallet:adjust', u.mail, '60', '--wallet', 'balance', '--reason', 'shell', '--key', 'shell-big');
    expect(shell.code).toBe(1);
    expect(shell.err).toContain('needs two operators');

    const actions = await t.database.exec<{ action: string; outcome: string }>(
      `select action, outcome from audit_log where object_type = 'approval' and object_id = $1 order by id`,
      [String(asked.approvalId)],
    );
    // Its own operator refused first; then the two at once, in whichever order they were written.
    expect(actions[0]).toEqual({ action: 'approvals.approve', outcome: 'refused' });
    expect(actions.slice(1).map((a) => `${a.action}:${a.outcome}`).sort()).toEqual(['approvals.approve:done', 'approvals.approve:refused']);
    expect(actions).toHaveLength(3);
  });

  it('a big withdrawal: the first approval waits, the second operator lets it through; rejected or cancelled, its approval is cancelled', async () => {
    const [a, b] = [await signedIn(), await signedIn()];
    await setSettings(a, { twoPersonAbove: '50' });
    const u = await payingUser(t, 400_000_000n);
    const big = await withdrawal(u, '100');
    const first = data<ConsoleWithdrawApproved>(await call(a, 'POST', '/withdrawals/approve', { id: big }));
    expect(first).toMatchObject({ id: big, state: 'pendingReview', approvalId: expect.any(Number) as number });
    // The same operator again: the same approval, still waiting.
    expect(data<ConsoleWithdrawApproved>(await call(a, 'POST', '/withdrawals/approve', { id: big })).approvalId).toBe(first.approvalId);
    const listed = data<ConsoleWithdrawalList>(await call(b, 'GET', `/withdrawals?q=${big}`)).list[0];
    expect(listed).toMatchObject({ needsSecond: true, approval: { id: first.approvalId, requestedBy: a.mail } });
    expect(code(await call(a, 'POST', '/approvals/approve', { id: first.approvalId }))).toBe('A0218');
    expect(data<ConsoleWithdrawApproved>(await call(b, 'POST', '/withdrawals/approve', { id: big }))).toEqual({ id: big, state: 'processing', approvalId: null });
    expect(data<ConsoleWithdrawalList>(await call(b, 'GET', `/withdrawals?state=all&q=${big}`)).list[0]).toMatchObject({ state: 'processing', reviewedBy: b.mail, approval: null });
    expect(data<ConsoleApprovalList>(await call(a, 'GET', '/approvals?status=approved')).list.find((x) => x.id === first.approvalId)).toMatchObject({
      decidedBy: b.mail,
      withdrawal: { id: big, state: 'processing' },
    });

    // The user cancels while the approval waits: the second approval finds it gone.
    const cancelled = await withdrawal(u, '60');
    const asked = data<ConsoleWithdrawApproved>(await call(a, 'POST', '/withdrawals/approve', { id: cancelled }));
    expect((await t.call('POST', '/user/api/withdraw/cancel', { token: u.token, body: { id: cancelled } })).statusCode).toBe(200);
    const gone = await call(b, 'POST', '/approvals/approve', { id: asked.approvalId });
    expect([gone.statusCode, code(gone)]).toEqual([409, 'A0372']);
    expect(data<ConsoleApprovalList>(await call(a, 'GET', '/approvals?status=cancelled')).list.find((x) => x.id === asked.approvalId)?.decisionNote).toBe('withdrawal cancelled');

    // An operator rejects the withdrawal while its approval waits: the approval is cancelled with it.
    const refused = await withdrawal(u, '70');
    const third = data<ConsoleWithdrawApproved>(await call(a, 'POST', '/withdrawals/approve', { id: refused }));
    expect((await call(b, 'POST', '/withdrawals/reject', { id: refused, reason: 'could not verify the address owner' })).statusCode).toBe(200);
    expect(code(await call(b, 'POST', '/approvals/approve', { id: third.approvalId }))).toBe('A0219');

    // The shell refuses the big one too.
    const shellWd = await withdrawal(u, '90');
    const shell = await ops('withdraw:approve', String(shellWd));
    expect([shell.code, shell.err.includes('needs two operators')]).toEqual([1, true]);
    expect(await balanceOf(u)).toBe(`${400 - 103 - 93}.000000`);
  });

  it('split into small ones, what one operator moves alone waits as a big one would: per user in 24 hours, across users in the platform day', async () => {
    const [a, b, c, d] = [await signedIn(), await signedIn(), await signedIn(), await signedIn()];
    await setSettings(a, { twoPersonAbove: '100', soloDailyLimit: '250' });
    const adjust = (op: Op, userId: number, amount: string, key: string, direction = 'credit') =>
      call(op, 'POST', '/users/adjust', { userId, wallet: 'balance', direction, amount, reason: 'goodwill', idempotencyKey: `solo-sums-${key}` });
    const u1 = await registeredUserWithId(t);
    // Two credits of 40 at once; the third would make 120 for this user within 24 hours: it waits.
    expect(data<ConsoleAdjustResult>(await adjust(a, u1.id, '40', 'split-1')).entryId).toEqual(expect.any(Number));
    expect(data<ConsoleAdjustResult>(await adjust(a, u1.id, '40', 'split-2')).entryId).toEqual(expect.any(Number));
    const third = data<ConsoleAdjustResult>(await adjust(a, u1.id, '40', 'split-3'));
    expect(third).toMatchObject({ entryId: null, approvalId: expect.any(Number) as number, waitsFor: 'soloSums' });
    // A replay answers what its key did (posted, or waiting), whatever the sums are now.
    expect(data<ConsoleAdjustResult>(await adjust(a, u1.id, '40', 'split-1'))).toMatchObject({ replayed: true, approvalId: null });
    expect(data<ConsoleAdjustResult>(await adjust(a, u1.id, '40', 'split-3')).approvalId).toBe(third.approvalId);
    // A debit counts as well (money moved either way): 80 + 20 fits, then nothing more for this user.
    expect(data<ConsoleAdjustResult>(await adjust(a, u1.id, '20', 'split-debit', 'debit')).entryId).toEqual(expect.any(Number));
    expect(data<ConsoleAdjustResult>(await adjust(a, u1.id, '0.000001', 'split-tiny')).approvalId).toEqual(expect.any(Number));
    expect(await balanceOf(u1)).toBe('60.000000');
    // Across users: a's platform day holds 100 already; 90 and 60 fit the 250, one micro more waits.
    const [u2, u3, u4] = [await registeredUserWithId(t), await registeredUserWithId(t), await registeredUserWithId(t)];
    expect(data<ConsoleAdjustResult>(await adjust(a, u2.id, '90', 'day-1')).entryId).toEqual(expect.any(Number));
    expect(data<ConsoleAdjustResult>(await adjust(a, u3.id, '60', 'day-2')).entryId).toEqual(expect.any(Number));
    const over = data<ConsoleAdjustResult>(await adjust(a, u4.id, '1', 'day-3'));
    expect(over.approvalId).toEqual(expect.any(Number));
    // A second operator's approval posts it (and is not counted as anyone's solo move).
    expect((await call(b, 'POST', '/approvals/approve', { id: over.approvalId })).statusCode).toBe(200);
    expect(await balanceOf(u4)).toBe('1.000000');
    const [counted] = await t.database.exec<{ n: number }>(`select count(*)::int as n from operator_solo_moves where user_id = $1`, [u4.id]);
    expect(counted.n).toBe(0);
    // Each solo movement's audit row was written with it.
    const [audited] = await t.database.exec<{ n: number }>(`select count(*)::int as n from audit_log where action = 'users.adjust' and object_id = $1 and after ? 'entry'`, [String(u2.id)]);
    expect(audited.n).toBe(1);

    // Withdrawals approved alone: 40 and 40 for one user, the third waits for a second operator.
    const u5 = await payingUser(t, 400_000_000n);
    const ids = [await withdrawal(u5, '40'), await withdrawal(u5, '40'), await withdrawal(u5, '40')];
    expect(data<ConsoleWithdrawApproved>(await call(c, 'POST', '/withdrawals/approve', { id: ids[0] })).state).toBe('processing');
    expect(data<ConsoleWithdrawApproved>(await call(c, 'POST', '/withdrawals/approve', { id: ids[1] })).state).toBe('processing');
    const waiting = data<ConsoleWithdrawApproved>(await call(c, 'POST', '/withdrawals/approve', { id: ids[2] }));
    expect(waiting).toMatchObject({ state: 'pendingReview', approvalId: expect.any(Number) as number, waitsFor: 'soloSums' });
    // Another operator approving it is the second approval, not a solo one of their own.
    expect(data<ConsoleWithdrawApproved>(await call(d, 'POST', '/withdrawals/approve', { id: ids[2] }))).toEqual({ id: ids[2], state: 'processing', approvalId: null });

    // Two of one operator's requests at once are counted one after the other: one posts, one waits.
    const u6 = await registeredUserWithId(t);
    const both = (await Promise.all([adjust(d, u6.id, '60', 'race-1'), adjust(d, u6.id, '60', 'race-2')])).map((r) => data<ConsoleAdjustResult>(r));
    expect(both.map((r) => (r.entryId === null ? 'waits' : 'posted')).sort()).toEqual(['posted', 'waits']);
    expect(await balanceOf(u6)).toBe('60.000000');
    await setSettings(a);
  });

  it('the amounts are asked for together with a reason and take effect at another operator’s approval; each bad one is named', async () => {
    const op = await signedIn();
    const other = await signedIn();
    await setSettings(op);
    const before = data<ConsoleMoneySettings>(await call(op, 'GET', '/settings/money'));
    expect(before.pending).toBeNull();
    // One operator raises the two-person amount and the automatic approval (issue 53 item 2): nothing
    // changes until another approves; the change shows to both, and its asker cannot approve it.
    const asked = await call(op, 'POST', '/settings/money', { autoApproveBelow: '25.5', twoPersonAbove: '5000', soloDailyLimit: '50000', limits: LIMITS, reason: 'quieter queue' });
    expect(asked.statusCode, asked.body).toBe(200);
    const waiting = data<ConsoleMoneySettings>(asked);
    expect(waiting).toMatchObject({ autoApproveBelow: '0.000000', twoPersonAbove: '10000.000000' });
    expect(waiting.pending).toMatchObject({ requestedBy: op.mail, mine: true, reason: 'quieter queue' });
    expect(waiting.pending!.changes).toEqual([
      { key: 'autoApproveBelow', unit: 'money', before: '0.000000', after: '25.500000' },
      { key: 'twoPersonAbove', unit: 'money', before: '10000.000000', after: '5000.000000' },
    ]);
    const id = waiting.pending!.id;
    expect(data<ConsoleMoneySettings>(await call(other, 'GET', '/settings/money')).pending).toMatchObject({ id, mine: false });
    const own = await call(op, 'POST', '/approvals/approve', { id });
    expect([own.statusCode, code(own)]).toEqual([403, 'A0218']);
    // One change of a group waits at a time, whoever asks.
    const second = await call(other, 'POST', '/settings/money', { autoApproveBelow: '0', twoPersonAbove: '900000', limits: LIMITS, reason: 'x' });
    expect([second.statusCode, code(second)]).toEqual([409, 'A0388']);
    expect(second.json<Envelope<null>>().msg).toContain(`#${id}`);
    const listed = data<ConsoleApprovalList>(await call(other, 'GET', '/approvals?status=pending')).list.find((a) => a.id === id);
    expect(listed).toMatchObject({ kind: 'settings.change', amount: null, user: null, settings: { group: 'money', changes: waiting.pending!.changes } });
    const approved = await call(other, 'POST', '/approvals/approve', { id });
    expect(approved.statusCode, approved.body).toBe(200);
    const set = data<ConsoleMoneySettings>(await call(op, 'GET', '/settings/money'));
    expect(set).toMatchObject({ autoApproveBelow: '25.500000', twoPersonAbove: '5000.000000', soloDailyLimit: '50000.000000', pending: null, limits: { VIP1: { day: '10000.000000', month: '100000.000000' } } });
    const [asking] = await t.database.exec<{ before: Record<string, string>; after: { approval: number; status: string; values: Record<string, string> }; detail: unknown }>(
      `select before, after, detail from audit_log where action = 'settings.money' and actor = $1 order by id desc limit 1`,
      [op.mail],
    );
    expect(asking).toMatchObject({ before: { twoPersonAbove: '10000.000000' }, after: { approval: id, status: 'pending', values: { autoApproveBelow: '25.500000' } }, detail: { reason: 'quieter queue' } });
    const [approval] = await t.database.exec<{ after: { status: string; after: Record<string, string> } }>(`select after from audit_log where action = 'approvals.approve' and object_id = $1 and actor = $2`, [String(id), other.mail]);
    expect(approval.after).toMatchObject({ status: 'approved', after: { twoPersonAbove: '5000.000000' } });

    // Asking for the values in force asks for nothing.
    const same = await call(op, 'POST', '/settings/money', { autoApproveBelow: '25.5', twoPersonAbove: '5000', limits: LIMITS, reason: 'again' });
    expect([same.statusCode, code(same)]).toEqual([422, 'A0396']);
    // A change approved onto other values than those it was asked against is cancelled, not applied.
    const stale = data<ConsoleMoneySettings>(await call(op, 'POST', '/settings/money', { autoApproveBelow: '0', twoPersonAbove: '20000', limits: LIMITS, reason: 'more room' })).pending!;
    expect((await ops('wallet:two-person', '6000')).code).toBe(0);
    const late = await call(other, 'POST', '/approvals/approve', { id: stale.id });
    expect([late.statusCode, code(late)]).toEqual([409, 'A0389']);
    expect(data<ConsoleMoneySettings>(await call(op, 'GET', '/settings/money'))).toMatchObject({ twoPersonAbove: '6000.000000', pending: null });
    expect(data<ConsoleApprovalList>(await call(op, 'GET', '/approvals?status=cancelled')).list.find((a) => a.id === stale.id)?.decisionNote).toMatch(/changed since/);
    // Its asker can withdraw a change too.
    const withdrawn = data<ConsoleMoneySettings>(await call(op, 'POST', '/settings/money', { autoApproveBelow: '0', twoPersonAbove: '30000', limits: LIMITS, reason: 'x' })).pending!;
    expect((await call(op, 'POST', '/approvals/reject', { id: withdrawn.id, reason: 'typo' })).statusCode).toBe(200);
    expect(data<ConsoleMoneySettings>(await call(op, 'GET', '/settings/money'))).toMatchObject({ twoPersonAbove: '6000.000000', pending: null });
    // Two operators asking at once: one change waits, the other is refused (the database's unique index).
    const both = await Promise.all([op, other].map((o, i) => call(o, 'POST', '/settings/money', { autoApproveBelow: '0', twoPersonAbove: String(7000 + i), limits: LIMITS, reason: 'race' })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const raced = data<ConsoleMoneySettings>(await call(op, 'GET', '/settings/money')).pending!;
    expect((await call(op, 'POST', '/approvals/reject', { id: raced.id, reason: 'race over' })).statusCode).toBe(200);

    const bad = async (over: Record<string, unknown>) => {
      const res = await call(op, 'POST', '/settings/money', { autoApproveBelow: '0', twoPersonAbove: '10000', limits: LIMITS, reason: 'x', ...over });
      return [res.statusCode, data<{ field?: string }>(res)?.field];
    };
    expect(await bad({ twoPersonAbove: '-1' })).toEqual([422, 'twoPersonAbove']);
    expect(await bad({ autoApproveBelow: '1.0000001' })).toEqual([422, 'autoApproveBelow']);
    expect((await bad({ limits: { ...LIMITS, VIP2: { day: '0', month: '1' } } }))[0]).toBe(422);
    expect((await bad({ limits: { none: LIMITS.none } }))[0]).toBe(422);
    expect(await bad({ reason: '' })).toEqual([422, 'reason']);
    // Withdrawals below the automatic amount pass reviewed by nobody: never above the two-person amount.
    expect(await bad({ autoApproveBelow: '10000.000001' })).toEqual([422, 'autoApproveBelow']);
    expect(await bad({ soloDailyLimit: '-5' })).toEqual([422, 'soloDailyLimit']);
    expect(data<ConsoleMoneySettings>(await call(op, 'GET', '/settings/money')).pending).toBeNull();
    // The shell (the machine's owner) sets the same amount at once (recorded with before and after).
    expect((await ops('wallet:two-person', '7500')).code).toBe(0);
    expect(data<ConsoleMoneySettings>(await call(op, 'GET', '/settings/money')).twoPersonAbove).toBe('7500.000000');
    expect((await ops('wallet:two-person', '-1')).code).toBe(2);
    // The shell keeps the automatic approval at or below the two-person amount, from either side.
    expect((await ops('withdraw:limit', '7500.000001')).code).toBe(2);
    expect((await ops('withdraw:limit', '100')).code).toBe(0);
    expect((await ops('wallet:two-person', '99')).code).toBe(2);
    expect((await ops('withdraw:limit', '0')).code).toBe(0);
    await setSettings(op);
  });
});

describe('deposits', () => {
  it('lists pending, waiting below the minimum, credited and dropped transfers, filtered, searched and sorted', async () => {
    const op = await signedIn();
    const u = await registeredUserWithId(t);
    const insert = (n: number, status: string, micro: bigint) =>
      t.database.exec(
        `insert into chain_deposits (network, tx_hash, log_index, block_number, block_hash, from_address, to_hex, user_id, raw_amount, amount, status)
         values ('BEP20', $1, 0, 100, '0xblock', '0xfrom', '0xto', $2, $3, $4, $5)`,
        [`0x${String(n).padStart(64, String(u.id % 10))}`, u.id, (micro * 10n ** 12n).toString(), micro.toString(), status],
      );
    await insert(1, 'pending', 5_000_000n);
    await insert(2, 'confirmed', 50_000n);
    await insert(3, 'credited', 20_000_000n);
    await insert(4, 'dropped', 1_000_000n);
    const q = encodeURIComponent(u.mail);
    const all = data<ConsoleDepositList>(await call(op, 'GET', `/deposits?q=${q}&sort=-amount`));
    expect(all.minimum).toBe('0.100000');
    expect(all.list.map((d) => [d.state, d.amount])).toEqual([
      ['credited', '20.000000'],
      ['pending', '5.000000'],
      ['dropped', '1.000000'],
      ['waiting', '0.050000'],
    ]);
    expect(all.list[1]).toMatchObject({ confirmationsNeeded: t.config.BSC_CONFIRMATIONS, mail: u.mail, network: 'BEP20', userId: u.id });
    const waiting = data<ConsoleDepositList>(await call(op, 'GET', `/deposits?state=waiting&q=${q}`));
    expect(waiting.list.map((d) => d.amount)).toEqual(['0.050000']);
    expect(data<ConsoleDepositList>(await call(op, 'GET', `/deposits?network=TRC20&q=${q}`)).total).toBe(0);
    expect((await call(op, 'GET', '/deposits?state=lost')).statusCode).toBe(422);
  });
});

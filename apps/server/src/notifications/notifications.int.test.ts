// The notification centre on a real app and database: events raised by the changes themselves (the
// triggers of migration 0035) — a withdrawal through the API and the operator commands, robots
// paused and stopped as the runner and the user change them, a chain deposit credited, a renewal
// failing, an account frozen — each once, with what its text needs and the page it opens; the
// user's own pause or stop tells nothing; read one, read all, nobody reads another's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationList } from '@lq/contracts';
import { startAppWithOps, type AppWithOps } from '../../test/app-with-ops';
import { payingUser, registeredUserWithId, runningRobot, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { verifyLedger } from '../wallet';

let t: TestApp;
let ops: AppWithOps['ops'];
beforeAll(async () => {
  ({ t, ops } = await startAppWithOps('Asia/Shanghai'));
});
afterAll(() => t?.close());

const EVM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const list = async (u: RegisteredUser, query = '') => (await t.call('GET', `/user/api/notification/list${query}`, { token: u.token })).json<Envelope<NotificationList>>().data;

const robotOf = (userId: number) => runningRobot(t, userId);

describe('notifications', () => {
  it('a withdrawal tells when it is approved and paid, or rejected with the reason; once each', async () => {
    const u = await payingUser(t, 100_000_000n);
    const create = async () =>
      (await t.call('POST', '/user/api/withdraw/create', { token: u.token, body: { network: 'BEP20', address: EVM, amount: '20', paidPwd: '123456', idempotencyKey: `n-${Date.now()}-${Math.random()}` } })).json<Envelope<{ id: number }>>().data.id;
    const a = await create();
    const b = await create();
    // Asking is told at once (a security notice, users' and notifications' tests); what follows here is what the review does.
    expect((await list(u)).list.map((n) => n.kind)).toEqual(['security.withdrawRequested', 'security.withdrawRequested']);
    await t.database.exec(`delete from notifications where user_id = (select id from users where mail = $1) and kind like 'security.%'`, [u.mail]);

    expect(await ops('withdraw:approve', String(a))).toBe(0);
    expect(await ops('withdraw:reject', String(b), '--reason', 'address on a sanctions list')).toBe(0);
    const after = await list(u);
    expect(after.unread).toBe(2);
    expect(after.list.map((n) => [n.kind, n.params.withdrawId, n.link])).toEqual([
      ['withdraw.rejected', b, `/pages/withdraw/withdrawDetail?id=${b}`],
      ['withdraw.approved', a, `/pages/withdraw/withdrawDetail?id=${a}`],
    ]);
    expect(after.list[0].params).toMatchObject({ amount: '20.000000', network: 'BEP20', reason: 'address on a sanctions list' });

    // The same state written again (a retried job) raises nothing more; paid is one more event.
    await t.database.exec(`update withdrawals set status = 'processing' where id = $1`, [a]);
    await t.database.exec(`update withdrawals set status = 'completed', tx_hash = '0xabc' where id = $1`, [a]);
    const paid = await list(u);
    expect(paid.list.map((n) => n.kind)).toEqual(['withdraw.paid', 'withdraw.rejected', 'withdraw.approved']);
    expect(await verifyLedger(t.database.db)).toEqual([]);
  });

  it('robots: stopped by the strategy or paused by an error or an offline terminal, not by the user', async () => {
    const u = await registeredUserWithId(t);
    const id = await robotOf(u.id);
    // The user pauses, continues and stops through the API: nothing to tell.
    expect((await t.call('POST', '/order/api/robot/pause', { token: u.token, body: { id } })).statusCode).toBe(200);
    expect((await t.call('POST', '/order/api/robot/continue', { token: u.token, body: { id } })).statusCode).toBe(200);
    // The runner pauses it for a venue refusal, the bridge for the terminal, the strategy halts it.
    await t.database.exec(`update robots set status = 'paused', pause_reason = 'insufficientFunds: Account has insufficient balance' where id = $1`, [id]);
    await t.database.exec(`update robots set status = 'running', pause_reason = null where id = $1`, [id]);
    await t.database.exec(`update robots set status = 'paused', pause_reason = 'mt5Offline' where id = $1`, [id]);
    await t.database.exec(`update robots set status = 'running', pause_reason = null where id = $1`, [id]);
    await t.database.exec(`update robots set status = 'stopped', stop_reason = 'halted: stopLoss', stopped_at = now() where id = $1`, [id]);
    const got = await list(u);
    expect(got.list.map((n) => [n.kind, n.params.reason])).toEqual([
      ['robot.stopped', 'halted: stopLoss'],
      ['robot.mt5Offline', 'mt5Offline'],
      ['robot.error', 'insufficientFunds: Account has insufficient balance'],
    ]);
    expect(got.list[0]).toMatchObject({ link: `/pages/orderDetail/orderDetail?id=${id}`, params: { robotId: id, symbol: 'BTCUSDT', strategy: 'grid', mode: 'live' }, read: false });

    const other = await robotOf(u.id);
    expect((await t.call('POST', '/order/api/robot/stop', { token: u.token, body: { id: other } })).statusCode).toBe(200);
    await t.database.exec(`update robots set status = 'stopped', stopped_at = now() where id = $1`, [other]);
    expect((await list(u)).total).toBe(3);
  });

  it('deposits credited, renewals failed and accounts frozen tell too', async () => {
    const u = await registeredUserWithId(t);
    const [dep] = await t.database.exec<{ id: string }>(
      `insert into chain_deposits (network, tx_hash, log_index, block_number, block_hash, from_address, to_hex, user_id, raw_amount, amount, status)
       values ('BEP20', $1, 0, 1, '0xb', '0xf', '0xt', $2, 12500000000000000000, 12500000, 'confirmed') returning id::text as id`,
      [`0xdead${u.id}`, u.id],
    );
    await t.database.exec(`update chain_deposits set status = 'credited', credited_at = now() where id = $1`, [Number(dep.id)]);
    const [acc] = await t.database.exec<{ id: string }>(`insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, 'forex', 'mt5', 'ICM live', 'wxyz') returning id::text as id`, [u.id]);
    await t.database.exec(`update trading_accounts set frozen = true, frozen_at = now() where id = $1`, [Number(acc.id)]);
    const [p] = await t.database.exec<{ id: string }>(
      `insert into benefit_purchases (user_id, idempotency_key, request_hash, item, market, quantity, months, amount, auto_renew, expires_at)
       values ($1, $2, 'h', 'seat', 'crypto', 1, 1, 10000000, true, now()) returning id::text as id`,
      [u.id, `n-pack-${u.id}`],
    );
    await t.database.exec(
      `insert into benefit_renewals (purchase_id, period, status, amount, reason, balance, period_start, period_end) values ($1, 2, 'failed', 10000000, 'insufficientBalance', 0, now(), now() + interval '30 days')`,
      [Number(p.id)],
    );
    // Each told once (in whatever order the triggers' rows were numbered).
    const kinds = (await list(u)).list.map((n) => [n.kind, n.link, n.params.amount ?? n.params.accountName]).sort((x, y) => String(y[0]).localeCompare(String(x[0])));
    expect(kinds).toEqual([
      ['pack.renewalFailed', '/pages/equity/index', '10.000000'],
      ['deposit.credited', '/pages/wallet/wallet', '12.500000'],
      ['account.frozen', '/pages/apikey/apiList', 'ICM live'],
    ]);
  });

  it('reads one or all, counts unread, refuses another user’s and bad input', async () => {
    const u = await registeredUserWithId(t);
    const id = await robotOf(u.id);
    for (const reason of ['a: 1', 'b: 2', 'c: 3']) {
      await t.database.exec(`update robots set status = 'paused', pause_reason = $2 where id = $1`, [id, reason]);
      await t.database.exec(`update robots set status = 'running', pause_reason = null where id = $1`, [id]);
    }
    const all = await list(u);
    expect(all.unread).toBe(3);
    const stranger = await registeredUserWithId(t);
    expect((await t.call('POST', '/user/api/notification/read', { token: stranger.token, body: { id: all.list[0].id } })).statusCode).toBe(404);
    const one = await t.call('POST', '/user/api/notification/read', { token: u.token, body: { id: all.list[0].id } });
    expect(one.json<Envelope<{ unread: number }>>().data.unread).toBe(2);
    expect((await list(u, '?unread=true')).list.map((n) => n.id)).toEqual([all.list[1].id, all.list[2].id]);
    expect((await t.call('GET', '/user/api/notification/unread', { token: u.token })).json<Envelope<{ unread: number }>>().data.unread).toBe(2);
    expect((await t.call('POST', '/user/api/notification/read', { token: u.token, body: {} })).json<Envelope<{ unread: number }>>().data.unread).toBe(0);
    expect((await list(u)).list.every((n) => n.read)).toBe(true);
    expect((await t.call('GET', '/user/api/notification/list?size=0', { token: u.token })).statusCode).toBe(422);
    expect((await t.call('GET', '/user/api/notification/list?unread=yes', { token: u.token })).statusCode).toBe(422);
    expect((await t.call('POST', '/user/api/notification/read', { token: u.token, body: { id: 'x' } })).statusCode).toBe(422);
    expect((await t.call('GET', '/user/api/notification/list', {})).statusCode).toBe(401);
  });
});

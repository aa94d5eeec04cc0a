// The console's operators and audit log on a real app and database: operators added by
// `npm run ops`, signing in with a password and a TOTP code (each good once) or a recovery code
// (used up); every console route walked from the route table — refused to a user (403), to nobody
// (401) and to an operator without a fresh second factor (401 A0215); an audit row for every
// console action and every ops command, with before and after; the database refusing UPDATE,
// DELETE and TRUNCATE of audit rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_LEVELS, WITHDRAW_LIMIT_DEFAULTS, type AuditList, type ConsoleApprovalList, type ConsoleDashboard, type ConsoleGrant, type ConsoleLevelResult, type ConsoleMe, type ConsoleSession, type ConsoleUserDetail, type ConsoleUserList } from '@lq/contracts';
import { payingUser, registeredUserWithId, registerUser, startTestApp, type Envelope, type TestApp } from '../../test/helpers';
import { verifyLedger } from '../wallet';
import { consoleTestKit } from './test-helpers';
import { totpCode } from '../platform/totp';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ bookWithdrawAddresses: true, shareSocket: true, env: { AUTH_CACHE_MS: '0' } });
});
afterAll(() => t?.close());

const { ops, newOperator, login, signedIn } = consoleTestKit(() => t);

const auditCount = async () => (await t.database.exec<{ n: number }>('select count(*)::int as n from audit_log'))[0].n;

describe('operators', () => {
  it('sign in with a password, then a TOTP code that works once, or a recovery code that is used up', async () => {
    const op = await newOperator();
    expect(op.recovery).toHaveLength(10);
    expect((await login(op.mail, 'wrong-password')).json<Envelope<null>>().code).toBe('A0210');
    const session = (await login(op.mail, op.password)).json<Envelope<ConsoleSession>>().data;
    // Before the second factor: me answers, the audit log does not.
    const me = (await t.call('GET', '/console/api/me', { token: session.token })).json<Envelope<ConsoleMe>>().data;
    expect(me).toMatchObject({ mail: op.mail, secondFactorUntil: null, recoveryCodesLeft: 10 });
    const early = await t.call('GET', '/console/api/audit', { token: session.token });
    expect(early.statusCode).toBe(401);
    expect(early.json<Envelope<null>>().code).toBe('A0215');

    expect((await t.call('POST', '/console/api/second-factor', { token: session.token, body: { code: '000000' } })).json<Envelope<null>>().code).toBe('A0216');
    const code = totpCode(op.mail, op.secret);
    const proved = await t.call('POST', '/console/api/second-factor', { token: session.token, body: { code } });
    expect(proved.statusCode).toBe(200);
    expect(proved.json<Envelope<{ secondFactorUntil: number }>>().data.secondFactorUntil).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect((await t.call('GET', '/console/api/audit', { token: session.token })).statusCode).toBe(200);

    // The same code again (another session, as a thief with it would try): refused.
    const other = (await login(op.mail, op.password)).json<Envelope<ConsoleSession>>().data;
    expect((await t.call('POST', '/console/api/second-factor', { token: other.token, body: { code } })).json<Envelope<null>>().code).toBe('A0216');
    // A recovery code works once, in any form of dashes and case.
    const rc = op.recovery[0];
    expect((await t.call('POST', '/console/api/second-factor', { token: other.token, body: { recoveryCode: rc.toLowerCase().replace(/-/g, '') } })).statusCode).toBe(200);
    const third = (await login(op.mail, op.password)).json<Envelope<ConsoleSession>>().data;
    expect((await t.call('POST', '/console/api/second-factor', { token: third.token, body: { recoveryCode: rc } })).json<Envelope<null>>().code).toBe('A0216');
    expect((await t.call('GET', '/console/api/me', { token: third.token })).json<Envelope<ConsoleMe>>().data.recoveryCodesLeft).toBe(9);

    // Logout ends the session; a disabled operator cannot sign in and their sessions end.
    expect((await t.call('POST', '/console/api/logout', { token: third.token })).statusCode).toBe(200);
    expect((await t.call('GET', '/console/api/me', { token: third.token })).statusCode).toBe(401);
    expect((await ops('operator:disable', op.mail)).code).toBe(0);
    expect((await t.call('GET', '/console/api/me', { token: session.token })).statusCode).toBe(401);
    expect((await login(op.mail, op.password)).json<Envelope<null>>().code).toBe('A0210');
    expect((await ops('operator:list')).out).toContain(op.mail);
    // A reset gives new credentials but does not enable a disabled operator (issue 53 item 11).
    const reset = await ops('operator:reset', op.mail);
    expect([reset.code, reset.out.includes('still disabled')]).toEqual([0, true]);
    const newPassword = /password:\s+(\S+)/.exec(reset.out)![1];
    expect((await login(op.mail, newPassword)).json<Envelope<null>>().code).toBe('A0210');
    expect((await ops('operator:enable', op.mail)).code).toBe(0);
    expect((await login(op.mail, newPassword)).statusCode).toBe(200);
  });

  it('the 5th wrong code ends the session (audited); 10 in a row over sessions pause the factor, a right code included', async () => {
    const op = await newOperator();
    const session = async () => (await login(op.mail, op.password)).json<Envelope<ConsoleSession>>().data.token;
    const prove = async (token: string, code: string) => (await t.call('POST', '/console/api/second-factor', { token, body: { code } })).json<Envelope<null>>().code;
    const first = await session();
    for (let i = 0; i < 4; i++) expect(await prove(first, '000000')).toBe('A0216');
    expect(await prove(first, '000000')).toBe('A0232');
    expect((await t.call('GET', '/console/api/me', { token: first })).statusCode).toBe(401);
    const [ended] = await t.database.exec<{ detail: Record<string, unknown>; outcome: string }>(
      `select detail, outcome from audit_log where actor = $1 and action = 'console.secondFactor' order by id desc limit 1`, [op.mail]);
    expect(ended).toMatchObject({ outcome: 'refused', detail: { sessionEnded: true } });
    // Signing in again buys no fresh budget: the operator's count goes on over sessions.
    const second = await session();
    for (let i = 0; i < 4; i++) expect(await prove(second, '000000')).toBe('A0216');
    expect(await prove(second, '000000')).toBe('A0232');
    const third = await session();
    const paused = await t.call('POST', '/console/api/second-factor', { token: third, body: { code: totpCode(op.mail, op.secret) } });
    expect(paused.statusCode).toBe(429);
    expect(paused.json<Envelope<null>>().code).toBe('A0233');
    expect(paused.json<Envelope<null>>().msg).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    // The pause over, the right code works (and resets both counts).
    await t.database.exec(`update operators set second_factor_locked_until = now() - interval '1 second' where mail = $1`, [op.mail]);
    expect(await prove(third, totpCode(op.mail, op.secret))).toBe('00000');
  });

  it('wrong passwords lock an operator out from that address only', async () => {
    const op = await newOperator();
    const from = (ip: string, password: string) => t.call('POST', '/console/api/login', { body: { userMail: op.mail, password }, ip });
    for (let i = 0; i < 5; i++) expect((await from('198.51.100.20', 'wrong-password')).json<Envelope<null>>().code).toBe('A0210');
    const locked = await from('198.51.100.20', op.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json<Envelope<null>>().code).toBe('A0211');
    expect((await from('198.51.100.21', op.password)).statusCode).toBe(200);
    // A success from an address clears its count; another address's stays.
    for (let i = 0; i < 4; i++) await from('198.51.100.22', 'wrong-password');
    expect((await from('198.51.100.22', op.password)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await from('198.51.100.22', 'wrong-password');
    expect((await from('198.51.100.22', op.password)).statusCode).toBe(200);
  });

  it('a second factor gets stale: the session asks for a new one', async () => {
    const op = await signedIn();
    await t.database.exec(`update operator_sessions set second_factor_at = now() - interval '61 minutes' where operator_id = (select id from operators where mail = $1)`, [op.mail]);
    expect((await t.call('GET', '/console/api/audit', { token: op.token })).json<Envelope<null>>().code).toBe('A0215');
  });

  it('every console route refuses users, strangers and operators without a fresh second factor (walked from the route table)', async () => {
    // Logout last: it ends the half-signed-in session the walk uses.
    const routes = [...t.app.consoleRouteTable].sort((a, b) => Number(a.url.endsWith('/logout')) - Number(b.url.endsWith('/logout')));
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['POST /console/api/login', 'GET /console/api/audit']));
    const user = await registerUser(t);
    const half = await signedIn(false);
    for (const route of routes) {
      if (route.public) continue;
      const what = `${route.method} ${route.url}`;
      const asUser = await t.call(route.method as 'GET', route.url, { token: user.token, body: route.method === 'GET' ? undefined : {} });
      expect(asUser.statusCode, `${what} as a user`).toBe(403);
      const asNobody = await t.call(route.method as 'GET', route.url, { body: route.method === 'GET' ? undefined : {} });
      expect(asNobody.statusCode, `${what} without a token`).toBe(401);
      const asHalf = await t.call(route.method as 'GET', route.url, { token: half.token, body: route.method === 'GET' ? undefined : {} });
      if (route.preSecondFactor) expect(asHalf.json<Envelope<null>>().code, `${what} before the second factor`).not.toBe('A0215');
      else expect([asHalf.statusCode, asHalf.json<Envelope<null>>().code], `${what} before the second factor`).toEqual([401, 'A0215']);
    }
  });
});

describe('dashboard and users', () => {
  it('shows the day’s figures, finds users, sets a level and adjusts a wallet — each with its reason and its audit row', async () => {
    const op = await signedIn();
    const u = await registeredUserWithId(t);
    const dash = (await t.call('GET', '/console/api/dashboard', { token: op.token })).json<Envelope<ConsoleDashboard>>().data;
    expect(dash.users.total).toBeGreaterThanOrEqual(1);
    expect(dash.users.today).toBeGreaterThanOrEqual(1);
    expect(dash.revenue.today).toMatch(/^\d+\.\d{6}$/);

    const found = (await t.call('GET', `/console/api/users?q=${encodeURIComponent(u.mail.slice(0, 12))}&sort=-id`, { token: op.token })).json<Envelope<ConsoleUserList>>().data;
    expect(found.list.map((x) => x.id)).toContain(u.id);
    expect((await t.call('GET', '/console/api/users?sort=sideways', { token: op.token })).statusCode).toBe(422);

    // A grant of VIP2 and above (higher rebates and dividend shares) waits for a second operator
    // (issue 53 item 4); the level history keeps both names.
    const setLevel = (who: { token: string }, level: string, reason = 'partner programme') => t.call('POST', '/console/api/users/level', { token: who.token, body: { userId: u.id, level, reason } });
    const levelOf = async () => (await t.database.exec<{ user_level: string }>(`select user_level from users where id = $1`, [u.id]))[0].user_level;
    const asked = (await setLevel(op, 'VIP3')).json<Envelope<ConsoleLevelResult>>().data;
    expect(asked).toMatchObject({ from: 'none', to: 'VIP3' });
    expect(asked.approvalId).toEqual(expect.any(Number));
    expect(await levelOf()).toBe('none');
    const again = await setLevel(op, 'VIP4');
    expect([again.statusCode, again.json<Envelope>().code]).toEqual([409, 'A0397']);
    const own = await t.call('POST', '/console/api/approvals/approve', { token: op.token, body: { id: asked.approvalId } });
    expect(own.json<Envelope>().code).toBe('A0218');
    const second = await signedIn();
    const listed = (await t.call('GET', '/console/api/approvals', { token: second.token })).json<Envelope<ConsoleApprovalList>>().data.list.find((a) => a.id === asked.approvalId);
    expect(listed).toMatchObject({ kind: 'user.level', amount: null, level: { from: 'none', to: 'VIP3' }, user: { id: u.id, mail: u.mail } });
    expect((await t.call('POST', '/console/api/approvals/approve', { token: second.token, body: { id: asked.approvalId } })).statusCode).toBe(200);
    expect(await levelOf()).toBe('VIP3');
    // Lowering, or up to VIP1, is one operator's.
    expect((await setLevel(op, 'VIP1', 'programme ended')).json<Envelope<ConsoleLevelResult>>().data).toMatchObject({ from: 'VIP3', to: 'VIP1', approvalId: null });
    expect(await levelOf()).toBe('VIP1');
    const history = await t.database.exec<{ from_level: string; to_level: string; requested_by: string; approved_by: string | null }>(
      `select from_level, to_level, requested_by, approved_by from user_level_changes where user_id = $1 order by id`,
      [u.id],
    );
    expect(history).toEqual([
      { from_level: 'none', to_level: 'VIP3', requested_by: op.mail, approved_by: second.mail },
      { from_level: 'VIP3', to_level: 'VIP1', requested_by: op.mail, approved_by: null },
    ]);
    // A grant approved onto a level changed since it was asked is cancelled.
    const stale = (await setLevel(op, 'VIP2')).json<Envelope<ConsoleLevelResult>>().data;
    expect((await ops('user:set-level', u.mail, 'none')).code).toBe(0);
    const late = await t.call('POST', '/console/api/approvals/approve', { token: second.token, body: { id: stale.approvalId } });
    expect([late.statusCode, late.json<Envelope>().code]).toEqual([409, 'A0398']);
    expect(await levelOf()).toBe('none');
    expect((await setLevel(op, 'VIP3', '')).statusCode).toBe(422);
    expect((await t.call('POST', '/console/api/users/level', { token: op.token, body: { userId: 99_999_999, level: 'VIP3', reason: 'x' } })).statusCode).toBe(404);

    const credit = { userId: u.id, wallet: 'balance', direction: 'credit', amount: '25.5', reason: 'goodwill for the outage', idempotencyKey: 'goodwill-0001' };
    const first = (await t.call('POST', '/console/api/users/adjust', { token: op.token, body: credit })).json<Envelope<{ entryId: number; replayed: boolean; available: string }>>().data;
    expect(first).toMatchObject({ replayed: false, available: '25.500000' });
    // The same key again: the same entry, nothing moved twice; with another amount: refused.
    expect((await t.call('POST', '/console/api/users/adjust', { token: op.token, body: credit })).json<Envelope<{ entryId: number; replayed: boolean }>>().data).toMatchObject({ entryId: first.entryId, replayed: true });
    expect((await t.call('POST', '/console/api/users/adjust', { token: op.token, body: { ...credit, amount: '26' } })).json<Envelope<null>>().code).toBe('A0350');
    const overdraw = await t.call('POST', '/console/api/users/adjust', { token: op.token, body: { ...credit, direction: 'debit', amount: '100', idempotencyKey: 'overdraw-0001' } });
    expect(overdraw.json<Envelope<null>>().code).toBe('A0310');

    const rows = await t.database.exec<{ action: string; before: unknown; after: unknown; detail: { reason: string } }>(
      `select action, before, after, detail from audit_log where object_type = 'user' and object_id = $1 and source = 'console' order by id`,
      [String(u.id)],
    );
    expect(rows[0]).toMatchObject({ action: 'users.level', before: { level: 'none' }, after: { level: 'none', asked: 'VIP3', status: 'pending' }, detail: { reason: 'partner programme' } });
    expect(rows[1]).toMatchObject({ action: 'users.level', before: { level: 'VIP3' }, after: { level: 'VIP1' }, detail: { reason: 'programme ended' } });
    expect(rows.find((r) => r.action === 'users.adjust')).toMatchObject({ action: 'users.adjust', before: { wallet: 'balance', available: '0.000000' }, after: { wallet: 'balance', available: '25.500000' }, detail: { reason: 'goodwill for the outage' } });
    expect(await verifyLedger(t.database.db)).toEqual([]);
  });

  it('shows the suspect MT5 fills (issue 53 item 12): counted on the dashboard, listed in the user’s panel', async () => {
    const op = await signedIn();
    const before = (await t.call('GET', '/console/api/dashboard', { token: op.token })).json<Envelope<ConsoleDashboard>>().data.fills;
    const cheater = await registeredUserWithId(t);
    const [acc] = await t.database.exec<{ id: string }>(`insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, 'forex', 'mt5', 'a', 'abcd') returning id::text as id`, [cheater.id]);
    const [robot] = await t.database.exec<{ id: string }>(
      `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage) values ($1, $2, 'forex', 'live', 'grid', 'EURUSD', '1m', '{}', 1000, 10) returning id::text as id`,
      [cheater.id, Number(acc.id)],
    );
    // As robots/fill-check.ts marks them (its test: robots/fill-check.int.test.ts); one honest fill beside.
    await t.database.exec(
      `insert into robot_fills (robot_id, client_order_id, fill_key, action, position_side, qty, price, notional, filled_at, suspect) values
         ($1, 'c1', 'k1', 'open', 'long', 0.01, 5000000, 5000000000, '2026-11-10T04:05:00Z', 'outsideCandle'),
         ($1, 'c2', 'k2', 'open', 'long', 1, 1.1005, 110050, '2026-11-10T04:06:00Z', 'overMargin'),
         ($1, 'c3', 'k3', 'open', 'long', 0.1, 1.1005, 11005, '2026-11-10T04:07:00Z', null)`,
      [Number(robot.id)],
    );
    const dash = (await t.call('GET', '/console/api/dashboard', { token: op.token })).json<Envelope<ConsoleDashboard>>().data;
    expect(dash.fills).toEqual({ suspect: before.suspect + 2, users: before.users + 1 });
    const detail = (await t.call('GET', `/console/api/users/detail?userId=${cheater.id}`, { token: op.token })).json<Envelope<ConsoleUserDetail>>().data;
    expect(detail.suspectFills).toEqual([
      { id: expect.any(Number), robotId: Number(robot.id), symbol: 'EURUSD', action: 'open', qty: '1', price: '1.1005', filledAt: Date.parse('2026-11-10T04:06:00Z'), reason: 'overMargin' },
      { id: expect.any(Number), robotId: Number(robot.id), symbol: 'EURUSD', action: 'open', qty: '0.01', price: '5000000', filledAt: Date.parse('2026-11-10T04:05:00Z'), reason: 'outsideCandle' },
    ]);
    const honest = (await t.call('GET', `/console/api/users/detail?userId=${(await registeredUserWithId(t)).id}`, { token: op.token })).json<Envelope<ConsoleUserDetail>>().data;
    expect(honest.suspectFills).toEqual([]);
  });

  it('freezes a user: sessions end at once, sign-in refused after the right password only; unfreezing lets them back', async () => {
    const op = await signedIn();
    const u = await registeredUserWithId(t);
    expect((await t.call('GET', '/user/api/info', { token: u.token })).statusCode).toBe(200);
    const freeze = await t.call('POST', '/console/api/users/freeze', { token: op.token, body: { userId: u.id, frozen: true, reason: 'chargeback under review' } });
    expect(freeze.statusCode).toBe(200);
    expect((await t.call('GET', '/user/api/info', { token: u.token })).statusCode).toBe(401);
    const wrong = await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: 'Wrong-passw0rd' } });
    expect(wrong.json<Envelope<null>>().code).toBe('A0210');
    const frozen = await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password } });
    expect([frozen.statusCode, frozen.json<Envelope<null>>().code]).toEqual([403, 'A0217']);
    const detail = (await t.call('GET', `/console/api/users/detail?userId=${u.id}`, { token: op.token })).json<Envelope<ConsoleUserDetail>>().data;
    expect(detail.user).toMatchObject({ id: u.id, frozenReason: 'chargeback under review' });
    expect(detail.user.frozenAt).toBeGreaterThan(Date.now() - 60_000);

    expect((await t.call('POST', '/console/api/users/freeze', { token: op.token, body: { userId: u.id, frozen: false, reason: 'cleared' } })).statusCode).toBe(200);
    expect((await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password } })).statusCode).toBe(200);
    expect((await t.call('POST', '/console/api/users/freeze', { token: op.token, body: { userId: 99_999_999, frozen: true, reason: 'x' } })).statusCode).toBe(404);
    const rows = await t.database.exec<{ action: string; before: unknown; after: unknown }>(`select action, before, after from audit_log where object_type = 'user' and object_id = $1 order by id`, [String(u.id)]);
    expect(rows).toEqual([
      { action: 'users.freeze', before: { frozen: false, reason: null }, after: { frozen: true, reason: 'chargeback under review' } },
      { action: 'users.unfreeze', before: { frozen: true, reason: 'chargeback under review' }, after: { frozen: false, reason: null } },
    ]);
  });

  it('grants seats and slots (a market or both, for days or for good) and the basic rights once; what a user owns follows', async () => {
    const op = await signedIn();
    const u = await registeredUserWithId(t);
    const owned = async () => (await t.call('GET', `/console/api/users/detail?userId=${u.id}`, { token: op.token })).json<Envelope<ConsoleUserDetail>>().data;
    expect((await owned()).owned).toEqual([{ market: 'forex', seats: 0, slots: 0 }, { market: 'crypto', seats: 0, slots: 0 }]);
    const grant = (body: Record<string, unknown>) => t.call('POST', '/console/api/users/grant', { token: op.token, body: { userId: u.id, reason: 'launch promotion', ...body } });

    const unlock = await grant({ kind: 'unlock' });
    expect(unlock.json<Envelope<ConsoleGrant>>().data).toMatchObject({ kind: 'unlock', market: null, quantity: 1, expiresAt: null, note: 'launch promotion' });
    expect((await grant({ kind: 'unlock' })).json<Envelope<null>>().code).toBe('A0409');
    const seats = (await grant({ kind: 'seat', market: 'crypto', quantity: 2, days: 30 })).json<Envelope<ConsoleGrant>>().data;
    expect(seats.expiresAt! - Date.now()).toBeGreaterThan(29.9 * 86_400_000);
    expect((await grant({ kind: 'backtest_slot', quantity: 1 })).statusCode).toBe(200);
    const after = await owned();
    expect(after.unlocked).toBe(true);
    expect(after.owned).toEqual([{ market: 'forex', seats: 1, slots: 2 }, { market: 'crypto', seats: 3, slots: 2 }]);
    expect(after.grants.map((g) => g.kind)).toEqual(['backtest_slot', 'seat', 'unlock']);

    // Bad inputs, each named.
    const bad = async (body: Record<string, unknown>) => {
      const res = await grant(body);
      return [res.statusCode, res.json<Envelope<{ field?: string }>>().data?.field];
    };
    expect(await bad({ kind: 'seat', quantity: 0 })).toEqual([422, 'quantity']);
    expect(await bad({ kind: 'seat', quantity: 101 })).toEqual([422, 'quantity']);
    expect(await bad({ kind: 'seat', days: 1.5 })).toEqual([422, 'days']);
    expect(await bad({ kind: 'seat', market: 'stocks' })).toEqual([422, 'market']);
    expect(await bad({ kind: 'unlock', market: 'forex' })).toEqual([422, 'kind']);
    expect((await t.call('POST', '/console/api/users/grant', { token: op.token, body: { userId: 99_999_999, kind: 'seat', reason: 'x' } })).statusCode).toBe(404);
  });
});

describe('the audit log', () => {
  it('has a row for every console action (each route that acts has its call here, so a new one cannot slip through)', async () => {
    const op = await signedIn();
    const acts: Record<string, () => Promise<unknown>> = {
      'POST /console/api/login': () => login(op.mail, op.password),
      'POST /console/api/second-factor': () => t.call('POST', '/console/api/second-factor', { token: op.token, body: { recoveryCode: op.recovery[1] } }),
      'GET /console/api/audit/export': () => t.call('GET', '/console/api/audit/export?action=console', { token: op.token }),
      'POST /console/api/logout': async () => {
        const s = (await login(op.mail, op.password)).json<Envelope<ConsoleSession>>().data;
        return t.call('POST', '/console/api/logout', { token: s.token });
      },
    };
    const target = await registeredUserWithId(t);
    acts['POST /console/api/users/level'] = () => t.call('POST', '/console/api/users/level', { token: op.token, body: { userId: target.id, level: 'VIP1', reason: 'audit walk' } });
    acts['POST /console/api/users/adjust'] = () =>
      t.call('POST', '/console/api/users/adjust', { token: op.token, body: { userId: target.id, wallet: 'balance', direction: 'credit', amount: '1', reason: 'audit walk', idempotencyKey: 'audit-walk-1' } });
    acts['POST /console/api/users/freeze'] = () => t.call('POST', '/console/api/users/freeze', { token: op.token, body: { userId: target.id, frozen: true, reason: 'audit walk' } });
    acts['POST /console/api/users/grant'] = () => t.call('POST', '/console/api/users/grant', { token: op.token, body: { userId: target.id, kind: 'seat', market: 'forex', reason: 'audit walk' } });
    // Money: withdrawals to approve and reject (a payout by hand refused here: no chain; its refusal is recorded too),
    // and approvals a second operator asked for.
    const payer = await payingUser(t, 100_000_000n);
    const withdrawal = async () =>
      (
        await t.call('POST', '/user/api/withdraw/create', {
          token: payer.token,
          body: { network: 'BEP20', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '10', paidPwd: '123456', idempotencyKey: `audit-walk-${Math.random()}` },
        })
      ).json<Envelope<{ id: number }>>().data.id;
    const other = await signedIn();
    const askApproval = async (key: string) =>
      (
        await t.call('POST', '/console/api/users/adjust', {
          token: other.token,
          body: { userId: target.id, wallet: 'balance', direction: 'credit', amount: '10000.5', reason: 'audit walk, two people', idempotencyKey: key },
        })
      ).json<Envelope<{ approvalId: number }>>().data.approvalId;
    const settings = { autoApproveBelow: '0', twoPersonAbove: '10000.5', limits: Object.fromEntries(USER_LEVELS.map((l) => [l, WITHDRAW_LIMIT_DEFAULTS[l]])), reason: 'audit walk' };
    /** A settings change asked for (audited), then withdrawn so that it blocks no other change. */
    const askAndWithdraw = async (url: string, body: unknown, pendingOf: (d: { pending: unknown }) => { id: number }) => {
      const res = await t.call('POST', url, { token: op.token, body });
      if (res.statusCode === 200) await t.call('POST', '/console/api/approvals/reject', { token: op.token, body: { id: pendingOf(res.json<Envelope<{ pending: unknown }>>().data).id, reason: 'audit walk' } });
      return res;
    };
    acts['POST /console/api/withdrawals/approve'] = async () => t.call('POST', '/console/api/withdrawals/approve', { token: op.token, body: { id: await withdrawal() } });
    acts['POST /console/api/withdrawals/reject'] = async () => t.call('POST', '/console/api/withdrawals/reject', { token: op.token, body: { id: await withdrawal(), reason: 'audit walk' } });
    acts['POST /console/api/withdrawals/paid'] = async () => t.call('POST', '/console/api/withdrawals/paid', { token: op.token, body: { id: await withdrawal(), txHash: '0x1234' } });
    acts['POST /console/api/settings/money'] = () => askAndWithdraw('/console/api/settings/money', settings, (d) => d.pending as { id: number });
    acts['POST /console/api/approvals/approve'] = async () => t.call('POST', '/console/api/approvals/approve', { token: op.token, body: { id: await askApproval('audit-walk-approve') } });
    acts['POST /console/api/approvals/reject'] = async () => t.call('POST', '/console/api/approvals/reject', { token: op.token, body: { id: await askApproval('audit-walk-reject'), reason: 'audit walk' } });
    const business = (await t.call('GET', '/console/api/settings/business', { token: op.token })).json<Envelope<{ prices: Record<string, string>; vip: unknown; rebates: unknown; dividendRate: number }>>().data;
    const byGroup = (group: string) => (d: { pending: unknown }) => (d.pending as Record<string, { id: number }>)[group];
    acts['POST /console/api/settings/prices'] = () => askAndWithdraw('/console/api/settings/prices', { prices: { ...business.prices, slot: '10.5' }, reason: 'audit walk' }, byGroup('prices'));
    acts['POST /console/api/settings/vip'] = () => t.call('POST', '/console/api/settings/vip', { token: op.token, body: { thresholds: business.vip, reason: 'audit walk' } });
    acts['POST /console/api/settings/rebates'] = () => askAndWithdraw('/console/api/settings/rebates', { rates: business.rebates, dividendRate: business.dividendRate + 1, reason: 'audit walk' }, byGroup('rebates'));
    acts['POST /console/api/settings/maintenance'] = () => t.call('POST', '/console/api/settings/maintenance', { token: op.token, body: { on: false, reason: 'audit walk' } });
    const draft = async () =>
      (await t.call('POST', '/console/api/notices/save', { token: op.token, body: { category: 'news', pinned: false, texts: [{ locale: 'en-US', title: 'audit walk', body: 'x' }] } })).json<Envelope<{ id: number }>>()
        .data.id;
    acts['POST /console/api/notices/save'] = () => t.call('POST', '/console/api/notices/save', { token: op.token, body: { category: 'news', pinned: false, texts: [{ locale: 'en-US', title: 'audit walk', body: 'x' }] } });
    acts['POST /console/api/notices/publish'] = async () => t.call('POST', '/console/api/notices/publish', { token: op.token, body: { id: await draft(), at: new Date(Date.now() + 86_400_000).toISOString() } });
    acts['POST /console/api/notices/unpublish'] = async () => {
      const id = await draft();
      await t.call('POST', '/console/api/notices/publish', { token: op.token, body: { id, at: new Date(Date.now() + 86_400_000).toISOString() } });
      return t.call('POST', '/console/api/notices/unpublish', { token: op.token, body: { id } });
    };
    acts['POST /console/api/notices/delete'] = async () => t.call('POST', '/console/api/notices/delete', { token: op.token, body: { id: await draft() } });
    acts['POST /console/api/market/fetch'] = () => t.call('POST', '/console/api/market/fetch', { token: op.token, body: { source: 'dukascopy', symbol: 'BTCUSDT', from: '2026-01-01' } });
    acts['POST /console/api/jobs/retry'] = () => t.call('POST', '/console/api/jobs/retry', { token: op.token, body: { queue: 'audit-walk', id: '00000000-0000-4000-8000-000000000000' } });
    /** Actions answered with a refusal here, still recorded. */
    const refusedHere: Record<string, number> = { 'POST /console/api/withdrawals/paid': 409, 'POST /console/api/market/fetch': 503 /* no pg-boss in this app */, 'POST /console/api/jobs/retry': 404 };
    // Reads that change nothing and are not recorded.
    const reads = new Set([
      'GET /console/api/me',
      'GET /console/api/audit',
      'GET /console/api/dashboard',
      'GET /console/api/users',
      'GET /console/api/users/detail',
      'GET /console/api/withdrawals',
      'GET /console/api/deposits',
      'GET /console/api/settings/money',
      'GET /console/api/approvals',
      'GET /console/api/settings/business',
      'GET /console/api/notices',
      'GET /console/api/notices/detail',
      'POST /console/api/notices/preview',
      'GET /console/api/market',
      'GET /console/api/jobs/failed',
    ]);
    for (const route of t.app.consoleRouteTable) {
      const key = `${route.method} ${route.url}`;
      if (reads.has(key)) continue;
      expect(acts[key], `no audit check for ${key}: add one`).toBeDefined();
      const before = await auditCount();
      const res = (await acts[key]()) as { statusCode: number };
      expect(res.statusCode, key).toBe(refusedHere[key] ?? 200);
      expect(await auditCount(), `${key} wrote no audit row`).toBeGreaterThan(before);
    }
    const list = (await t.call('GET', `/console/api/audit?actor=${encodeURIComponent(op.mail)}&source=console&sort=at`, { token: op.token })).json<Envelope<AuditList>>().data;
    expect(list.list.map((i) => i.action)).toEqual(expect.arrayContaining(['console.login', 'console.secondFactor', 'console.audit.export', 'console.logout']));
    expect(list.list[0].at).toBeLessThanOrEqual(list.list.at(-1)!.at);
    const csv = await t.call('GET', `/console/api/audit/export?actor=${encodeURIComponent(op.mail)}`, { token: op.token });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('id,at,source,actor,action,object_type,object_id,before,after,detail,outcome');
    expect(csv.body).toContain('console.secondFactor');
    expect(await verifyLedger(t.database.db)).toEqual([]);
  });

  it('records every ops command with who ran it, the object and its values before and after', async () => {
    const u = await registerUser(t);
    const before = await auditCount();
    expect((await ops('user:set-level', u.mail, 'VIP2')).code).toBe(0);
    expect((await ops('user:set-level', u.mail, 'NOPE')).code).toBe(2);
    expect((await ops('user:list')).code).toBe(0);
    const rows = await t.database.exec<{ source: string; actor: string; action: string; object_type: string; before: unknown; after: unknown; outcome: string; detail: { args: string[] } }>(
      'select source, actor, action, object_type, before, after, outcome, detail from audit_log where id > (select max(id) - 3 from audit_log) order by id',
    );
    expect(await auditCount()).toBe(before + 3);
    expect(rows[0]).toMatchObject({ source: 'ops', action: 'user:set-level', object_type: 'user', before: { level: 'none' }, after: { level: 'VIP2' }, outcome: 'done' });
    expect(rows[0].actor).toMatch(/^ops:/);
    expect(rows[1]).toMatchObject({ action: 'user:set-level', outcome: 'refused' });
    expect(rows[2]).toMatchObject({ action: 'user:list', outcome: 'done', detail: { args: [] } });
  });

  it('cannot be changed or removed: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    await ops('user:list');
    const n = await auditCount();
    await expect(t.database.exec(`update audit_log set actor = 'someone else'`)).rejects.toThrow(/append-only/);
    await expect(t.database.exec(`delete from audit_log`)).rejects.toThrow(/append-only/);
    await expect(t.database.exec(`truncate audit_log`)).rejects.toThrow(/append-only/);
    expect(await auditCount()).toBe(n);
  });
});

// Rankings on a real app and database: a small tree with live fills, new team members and a
// settled rebate, the boards computed by the operator command as of tomorrow (so today is in the
// window); the API's top with others' names masked and the viewer's own row named wherever it
// stands, the run's window, and refusals. Rules: the configured rates and thresholds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REBATE_RATES, DEFAULT_VIP_THRESHOLDS, maskName, type RankingList, type ReferralRules } from '@lq/contracts';
import { PAY_PASSWORD, payingUser, registeredUserWithId, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { dayAfter, dayOf } from '../platform/windows';
import { startAppWithOps, type AppWithOps } from '../../test/app-with-ops';

const TZ = 'Asia/Shanghai';
let t: TestApp;
let out: string[];
let ops: AppWithOps['ops'];
beforeAll(async () => {
  ({ t, out, ops } = await startAppWithOps(TZ));
});
afterAll(() => t?.close());

type User = RegisteredUser & { id: number };
const board = async (u: User, by: string) => (await t.call('GET', `/user/api/ranking/list?by=${by}`, { token: u.token })).json<Envelope<RankingList>>().data;

async function liveVolume(u: User, notional: number): Promise<void> {
  const [acc] = await t.database.exec<{ id: string }>(`insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, 'crypto', 'binance', 'a', 'abcd') returning id::text as id`, [u.id]);
  const [r] = await t.database.exec<{ id: string }>(
    `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status) values ($1, $2, 'crypto', 'live', 'grid', 'BTCUSDT', '1m', '{}', 1000, 5, 'running') returning id::text as id`,
    [u.id, Number(acc.id)],
  );
  await t.database.exec(
    `insert into robot_fills (robot_id, client_order_id, fill_key, action, position_side, qty, price, notional, filled_at) values ($1, 'c', $2, 'open', 'long', 1, $3, $3, now() - interval '1 hour')`,
    [Number(r.id), `rk${u.id}`, notional],
  );
}

describe('rankings', () => {
  it('three boards over the window: top masked, the viewer named wherever ranked, the window said', async () => {
    const before = await board(await registeredUserWithId(t), 'volume');
    expect(before).toMatchObject({ by: 'volume', computedAt: null, window: null, list: [], me: null, total: 0 });

    const a = await registeredUserWithId(t);
    const b = await registeredUserWithId(t, a.userCode);
    const c = await registeredUserWithId(t, b.userCode);
    const d = await payingUser(t, 100_000_000n, a.userCode);
    await t.database.exec(`update users set nickname = 'Satoshi' where id = $1`, [c.id]);
    await liveVolume(b, 500);
    await liveVolume(c, 2000);
    expect((await t.call('POST', '/user/api/equity/unlock', { token: d.token, body: { paidPwd: PAY_PASSWORD, idempotencyKey: `rank-unlock-${d.id}` } })).statusCode).toBe(200);
    const today = dayOf(new Date(), TZ);
    expect(await ops('rebates:settle', '--date', today)).toBe(0);
    expect(await ops('rankings:compute', '--date', dayAfter(today))).toBe(0);
    expect(out.at(-1)).toMatch(/volume 2, team 2, rebate 1 user\(s\) ranked$/);
    expect(await ops('rankings:compute', '--date', '2026-13-01')).toBe(2);

    const volume = await board(b, 'volume');
    expect(volume.list).toEqual([
      { rank: 1, name: 'S***i', level: 'none', value: '2000.00', self: false },
      { rank: 2, name: b.userCode, level: 'none', value: '500.00', self: true },
    ]);
    expect(volume.me).toEqual(volume.list[1]);
    expect(volume.total).toBe(2);
    expect(volume.window!.to - volume.window!.from).toBeGreaterThanOrEqual(29 * 86_400_000);
    expect(volume.window!.timeZone).toBe(TZ);

    // Team: a gained b, c, d; b gained c. Rebate: a earned 10 % of d's unlock.
    expect((await board(a, 'team')).list.map((r) => [r.rank, r.value, r.self])).toEqual([
      [1, '3', true],
      [2, '1', false],
    ]);
    expect((await board(c, 'rebate')).list).toEqual([{ rank: 1, name: maskName(a.userCode), level: 'none', value: '10.000000', self: false }]);
    expect((await board(c, 'rebate')).me).toBeNull();

    expect((await t.call('GET', '/user/api/ranking/list?by=fees', { token: a.token })).statusCode).toBe(422);
    expect((await t.call('GET', '/user/api/ranking/list')).statusCode).toBe(401);
  });

  it('ranks past the top: the viewer’s row comes with its rank', async () => {
    const viewer = await registeredUserWithId(t);
    // Everyone ranked from 60 down, straight into the job's table: the viewer is far below the top 50.
    await t.database.exec(`delete from ranking_entries where board = 'volume'`);
    const ids = (await t.database.exec<{ id: string }>(`select id::text as id from users order by id`)).map((r) => Number(r.id));
    for (const [i, id] of ids.entries()) await t.database.exec(`insert into ranking_entries (board, rank, user_id, value) values ('volume', $1, $2, $3)`, [i + 60, id, 1000 - i]);
    const mine = await board(viewer, 'volume');
    expect(mine.list).toEqual([]);
    expect(mine.me).toMatchObject({ self: true, name: viewer.userCode, rank: ids.indexOf(viewer.id) + 60 });
  });

  it('the rules in force: rates and thresholds as configured', async () => {
    const u = await registeredUserWithId(t);
    const rules = (await t.call('GET', '/user/api/rebate/rules', { token: u.token })).json<Envelope<ReferralRules>>().data;
    expect(rules).toEqual({ rates: DEFAULT_REBATE_RATES, thresholds: DEFAULT_VIP_THRESHOLDS, timeZone: TZ });
    expect(await ops('rebates:rates', '--VIP1', '25')).toBe(0);
    expect(await ops('rebates:rates', '--VIP1', '101')).toBe(2);
    expect(await ops('rebates:rates', '--VIP1', 'x')).toBe(2);
    // The shell is held to the same cap: 60 % alone pays more than half of a payment.
    expect(await ops('rebates:rates', '--VIP5', '60')).toBe(2);
    expect((await t.call('GET', '/user/api/rebate/rules', { token: u.token })).json<Envelope<ReferralRules>>().data.rates.VIP1).toBe(2500);
    expect(await ops('rebates:rates', '--VIP1', '20')).toBe(0);
  });
});

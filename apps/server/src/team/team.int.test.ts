// The team on a real app and database: a tree registered through invite codes (A ← B ← C ← D,
// A ← E), the closure rows it writes, the summary and the lists of each level with live robot
// volume in the window (paper fills and fills outside the window left out), search and paging,
// and the refusals: nobody reads a team they are not above, an unknown invite code is refused
// under its field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamList, TeamSummary } from '@lq/contracts';
import { registeredUserWithId, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { statsWindow } from '../platform/windows';
import { computeVip } from '../referrals';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { PLATFORM_TIMEZONE: 'Asia/Shanghai' } });
});
afterAll(() => t?.close());

interface User extends RegisteredUser {
  id: number;
}
const user = (inviteCode?: string): Promise<User> => registeredUserWithId(t, inviteCode);
const summary = async (u: User) => (await t.call('GET', '/user/api/team/summary', { token: u.token })).json<Envelope<TeamSummary>>();
const list = (u: User, query = '', lang = 'en_US') => t.call('GET', `/user/api/team/list${query}`, { token: u.token, lang });

/** A live (or paper) robot of `u` with one fill of qty × price at `at`. */
async function fill(u: User, qty: string, price: string, at: Date, mode: 'live' | 'paper' = 'live'): Promise<void> {
  const [acc] = await t.database.exec<{ id: number | string }>(
    `insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, 'crypto', 'binance', 'a', 'abcd') returning id`,
    [u.id],
  );
  const [robot] = await t.database.exec<{ id: number | string }>(
    `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status, created_at)
     values ($1, $2, 'crypto', $3, 'grid', 'BTCUSDT', '1m', '{}', 1000, 5, 'running', $4) returning id`,
    [u.id, Number(acc.id), mode, new Date(at.getTime() - 3_600_000).toISOString()],
  );
  await t.database.exec(
    `insert into robot_fills (robot_id, client_order_id, fill_key, action, position_side, qty, price, notional, filled_at) values ($1, 'c', $2, 'open', 'long', $3, $4, $3::numeric * $4::numeric, $5)`,
    [Number(robot.id), `k${Date.now()}${Math.random()}`, qty, price, at.toISOString()],
  );
}

describe('team', () => {
  let a: User, b: User, c: User, d: User, e: User;
  beforeAll(async () => {
    a = await user();
    b = await user(a.userCode);
    c = await user(b.userCode.toLowerCase()); // codes are case-insensitive
    d = await user(c.userCode);
    e = await user(a.userCode);
    await t.database.exec('update users set nickname = $2 where id = $1', [b.id, 'Bobby']);
  });

  it('registration by invite code writes every ancestor of the new user, once, by depth', async () => {
    const rows = await t.database.exec<{ ancestor_id: string | number; depth: number }>(
      'select ancestor_id, depth from user_tree where descendant_id = $1 order by depth',
      [d.id],
    );
    expect(rows.map((r) => [Number(r.ancestor_id), r.depth])).toEqual([
      [c.id, 1],
      [b.id, 2],
      [a.id, 3],
    ]);
    expect(await t.database.exec('select 1 from user_tree where descendant_id = $1', [a.id])).toEqual([]);
  });

  it('an unknown invite code is refused under its field, in the caller’s language', async () => {
    const res = await t.call('POST', '/user/api/register', {
      body: { userMail: `nobody.${Date.now()}@example.com`, password: 'Passw0rd!x', code: '123456', country: 'TH', inviteCode: 'ZZZZZZZZ' },
      lang: 'en_US',
    });
    expect(res.json()).toMatchObject({ code: 'A0231', data: { field: 'inviteCode' } });
  });

  it('summary and lists: counts at every depth, live volume in the window only, active users', async () => {
    const w = statsWindow('Asia/Shanghai');
    const inside = new Date(w.to.getTime() - 86_400_000);
    await fill(c, '0.5', '60000', inside); // 30,000 live, in the window
    await fill(d, '2', '1000', inside, 'paper'); // paper: not volume, not active
    await fill(b, '1', '50000', new Date(w.to.getTime() + 60_000)); // today: after the window
    await fill(e, '0.1', '65000.55', inside); // 6,500.055 → 6,500.06 shown (2 decimals)

    const s = (await summary(a)).data;
    expect(s).toMatchObject({ direct: 2, team: 4, teamVolume: '36500.06', activeUsers: 3 });
    // b's robot started inside the window even if its fill came after: b ran a live robot in it.
    expect(s.window).toEqual({ from: w.from.getTime(), to: w.to.getTime(), timeZone: 'Asia/Shanghai' });

    const mine = (await list(a)).json<Envelope<TeamList>>().data;
    expect(mine.parent).toMatchObject({ id: a.id, depth: 0 });
    expect(mine.total).toBe(2);
    expect(mine.list.map((m) => m.userCode)).toEqual([e.userCode, b.userCode]); // newest first
    expect(mine.list.find((m) => m.id === b.id)).toMatchObject({ nickname: 'Bobby', level: 'none', direct: 1, team: 2, volume: '0.00', active: true });
    expect(mine.list.find((m) => m.id === e.id)).toMatchObject({ volume: '6500.06', active: true, team: 0 });
    expect(JSON.stringify(mine)).not.toContain('@example.com'); // no addresses in a team list

    // The next level: b's referrals, then c's, as a reads them.
    const next = (await list(a, `?parent=${b.id}`)).json<Envelope<TeamList>>().data;
    expect(next.parent).toMatchObject({ id: b.id, nickname: 'Bobby', depth: 1 });
    expect(next.list.map((m) => [m.id, m.volume, m.active, m.team])).toEqual([[c.id, '30000.00', true, 1]]);
    const deeper = (await list(a, `?parent=${c.id}`)).json<Envelope<TeamList>>().data;
    expect(deeper.list.map((m) => [m.id, m.volume, m.active])).toEqual([[d.id, '0.00', false]]);
    // Once the day's VIP computation ran, the same figures are read from it (one row), not summed.
    // (It raises levels too: last here.)
    await computeVip(t.database.db, 'Asia/Shanghai');
    const [stored] = await t.database.exec<{ v: string; n: number }>(`select team_volume_30d::text as v, team_active_30d as n from vip_progress where user_id = $1`, [a.id]);
    expect(stored).toEqual({ v: '36500.06', n: 3 });
    await t.database.exec(`update vip_progress set team_volume_30d = 1 where user_id = $1`, [a.id]); // proof of which path answered
    expect((await summary(a)).data).toMatchObject({ teamVolume: '1.00', activeUsers: 3 });
    await t.database.exec(`update vip_progress set team_volume_30d = $2 where user_id = $1`, [a.id, stored.v]);
  });

  it('search by nickname or invite code, and paging', async () => {
    const byName = (await list(a, '?q=bob')).json<Envelope<TeamList>>().data;
    expect(byName.list.map((m) => m.id)).toEqual([b.id]);
    const byCode = (await list(a, `?q=${e.userCode.slice(0, 5).toLowerCase()}`)).json<Envelope<TeamList>>().data;
    expect(byCode.list.map((m) => m.id)).toEqual([e.id]);
    // A search text with LIKE's wildcards matches them literally.
    expect((await list(a, '?q=%25')).json<Envelope<TeamList>>().data.total).toBe(0);
    const page2 = (await list(a, '?size=1&page=2')).json<Envelope<TeamList>>().data;
    expect(page2).toMatchObject({ total: 2 });
    expect(page2.list.map((m) => m.id)).toEqual([b.id]);
  });

  it('nobody reads a team they are not above: the same 404 for a stranger, an upline and a missing user', async () => {
    const stranger = await user();
    for (const [who, parent] of [
      [stranger, b.id],
      [c, a.id],
      [c, b.id],
      [b, e.id],
      [a, 999_999_999],
    ] as const) {
      const res = await list(who, `?parent=${parent}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'A0404', data: { field: 'parent' } });
    }
    expect((await summary(stranger)).data).toMatchObject({ direct: 0, team: 0, teamVolume: '0.00', activeUsers: 0 });
    expect((await list(a, '?size=51')).statusCode).toBe(422);
    expect((await t.call('GET', '/user/api/team/summary', {})).statusCode).toBe(401);
  });
});

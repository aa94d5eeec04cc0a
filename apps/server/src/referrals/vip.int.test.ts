// VIP progress on a real app and database, with the day given (as a clock would): a tree A ← B ←
// C…, live fills and robots placed in and out of the window; the daily computation's figures,
// tiers reached under the default thresholds (VIP1 by own volume or an active direct referral, VIP2
// by team volume and active users), levels raised and kept with their time, no drop when the
// figures fall, nothing twice when run again, the month's reset, an operator's grant recorded, the
// thresholds changed by the operator, and the progress API with what is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VipProgress } from '@lq/contracts';
import { registeredUserWithId, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { runOps } from '../ops';
import { dayStart } from '../platform/windows';
import { computeVip } from './vip';

const TZ = 'Asia/Shanghai';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true, env: { PLATFORM_TIMEZONE: TZ } });
});
afterAll(() => t?.close());

interface User extends RegisteredUser {
  id: number;
}
const user = (inviteCode?: string): Promise<User> => registeredUserWithId(t, inviteCode);
const levelOf = async (u: User) => (await t.database.exec<{ user_level: string }>('select user_level from users where id = $1', [u.id]))[0].user_level;
const progress = async (u: User) => (await t.call('GET', '/user/api/vip/progress', { token: u.token })).json<Envelope<VipProgress>>().data;

/** A live (or paper) robot of `u` started at `start` (stopped at `stop`), with fills of notional qty × price at `fills` (stored as the runner's value of them). */
async function robot(u: User, start: string, o: { stop?: string; fills?: Array<[string, string, string]>; mode?: 'live' | 'paper' } = {}): Promise<void> {
  const [acc] = await t.database.exec<{ id: number | string }>(
    `insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, 'crypto', 'binance', 'a', 'abcd') returning id`,
    [u.id],
  );
  const [r] = await t.database.exec<{ id: number | string }>(
    `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status, created_at, stopped_at)
     values ($1, $2, 'crypto', $3, 'grid', 'BTCUSDT', '1m', '{}', 1000, 5, $4, $5, $6) returning id`,
    [u.id, Number(acc.id), o.mode ?? 'live', o.stop ? 'stopped' : 'running', start, o.stop ?? null],
  );
  for (const [qty, price, at] of o.fills ?? []) {
    await t.database.exec(
      `insert into robot_fills (robot_id, client_order_id, fill_key, action, position_side, qty, price, notional, filled_at) values ($1, 'c', $2, 'open', 'long', $3, $4, $3::numeric * $4::numeric, $5)`,
      [Number(r.id), `k${Math.random()}`, qty, price, at],
    );
  }
}

describe('VIP progress', () => {
  // The day computed: 2026-11-20 in Shanghai. Window: 2026-11-01 00:00 – 2026-11-20 00:00 (UTC+8).
  const DAY = '2026-11-20';
  const inWindow = '2026-11-10T04:00:00Z';
  const beforeMonth = '2026-10-25T04:00:00Z'; // in the 30 days, but before the 1st: reset
  let a: User, b: User, c: User, d: User, e: User, f: User, g: User;

  beforeAll(async () => {
    a = await user();
    b = await user(a.userCode);
    c = await user(b.userCode);
    d = await user(b.userCode);
    e = await user(c.userCode);
    f = await user(c.userCode);
    g = await user(); // alone
    // c: 0.2 × 60,000 = 12,000 in the window → VIP1 by own volume; an October fill does not count.
    await robot(c, '2026-11-09T00:00:00Z', { fills: [['0.2', '60000', inWindow]] });
    await robot(c, '2026-10-20T00:00:00Z', { stop: '2026-10-26T00:00:00Z', fills: [['1', '60000', beforeMonth]] });
    // e: 5,000 live; f: a paper robot only (neither volume nor active); d: a live robot, no fills.
    await robot(e, '2026-11-02T00:00:00Z', { fills: [['0.1', '50000', inWindow]] });
    await robot(f, '2026-11-02T00:00:00Z', { mode: 'paper', fills: [['9', '60000', inWindow]] });
    await robot(d, '2026-11-15T00:00:00Z');
    // g: a fill after the day (today): not yet.
    await robot(g, '2026-11-19T00:00:00Z', { fills: [['1', '60000', '2026-11-20T01:00:00Z']] });
  });

  it('computes the figures of the window and raises the levels reached, kept with their time', async () => {
    const run = await computeVip(t.database.db, TZ, DAY);
    expect(run.window.from.toISOString()).toBe(dayStart('2026-11-01', TZ).toISOString());
    expect(run.window.to.toISOString()).toBe(dayStart(DAY, TZ).toISOString());
    expect(run.raised).toBe(2);
    const fig = async (u: User) =>
      (await t.database.exec<Record<string, unknown>>('select own_volume::text as own, team_volume::text as team, active_direct, team_active, reached from vip_progress where user_id = $1', [u.id]))[0];
    expect(await fig(c)).toEqual({ own: '12000.00', team: '5000.00', active_direct: 1, team_active: 1, reached: 'VIP1' });
    // b: team c (12,000, active), d (active), e (5,000, active) → 17,000, 3 active, 2 active direct → VIP1.
    expect(await fig(b)).toEqual({ own: '0.00', team: '17000.00', active_direct: 2, team_active: 3, reached: 'VIP1' });
    expect(await fig(a)).toEqual({ own: '0.00', team: '17000.00', active_direct: 0, team_active: 3, reached: 'none' });
    expect(await fig(f)).toEqual({ own: '0.00', team: '0.00', active_direct: 0, team_active: 0, reached: 'none' });
    expect(await fig(g)).toEqual({ own: '0.00', team: '0.00', active_direct: 0, team_active: 0, reached: 'none' });
    expect([await levelOf(a), await levelOf(b), await levelOf(c), await levelOf(g)]).toEqual(['none', 'VIP1', 'VIP1', 'none']);
    const changes = await t.database.exec<{ user_id: string | number; from_level: string; to_level: string; reason: string; as_of: string }>(
      `select user_id, from_level, to_level, reason, to_char(as_of, 'YYYY-MM-DD') as as_of from user_level_changes where user_id = any($1::bigint[]) order by user_id`,
      [`{${[a.id, b.id, c.id].join(',')}}`],
    );
    expect(changes.map((x) => [Number(x.user_id), x.from_level, x.to_level, x.reason, x.as_of])).toEqual([
      [b.id, 'none', 'VIP1', 'reached', DAY],
      [c.id, 'none', 'VIP1', 'reached', DAY],
    ]);
  });

  it('run again, it writes the same and changes nothing; on the 1st progress starts again and levels stay', async () => {
    expect((await computeVip(t.database.db, TZ, DAY)).raised).toBe(0);
    expect(Number((await t.database.exec<{ n: string }>('select count(*) as n from user_level_changes'))[0].n)).toBe(2);
    const first = await computeVip(t.database.db, TZ, '2026-12-01');
    expect(first.window.from.getTime()).toBe(first.window.to.getTime());
    expect(first.raised).toBe(0);
    expect((await t.database.exec<{ reached: string }>('select reached from vip_progress where user_id = $1', [c.id]))[0].reached).toBe('none');
    expect(await levelOf(c)).toBe('VIP1'); // a tier reached does not drop
  });

  it('the operator’s thresholds decide, and an operator grant is kept as a change', async () => {
    const out: string[] = [];
    const env = { DATA_DIR: t.dataDir, PLATFORM_TIMEZONE: TZ, ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}) };
    const ops = (...args: string[]) => runOps(args, env, (l) => out.push(l), (l) => out.push(l));
    // VIP2: team volume ≥ 15,000 and 3 active users in the team (instead of 500,000 and 5).
    expect(await ops('vip:thresholds', 'VIP2', '--team-volume', '15000', '--team-active', '3')).toBe(0);
    expect(await ops('vip:thresholds', 'VIP2', '--team-volume', '1.234')).toBe(2);
    expect(await ops('vip:compute', '--date', '2026-02-30')).toBe(2);
    expect(await ops('vip:compute', '--date', DAY)).toBe(0);
    expect(out.join('\n')).toMatch(/2 level\(s\) raised/); // a: none → VIP2, b: VIP1 → VIP2
    expect([await levelOf(a), await levelOf(b)]).toEqual(['VIP2', 'VIP2']); // a: 17,000 and 3 active below
    expect(await ops('user:set-level', g.mail, 'VIP3')).toBe(0);
    const [grant] = await t.database.exec<{ from_level: string; to_level: string; reason: string }>(
      'select from_level, to_level, reason from user_level_changes where user_id = $1',
      [g.id],
    );
    expect(grant).toEqual({ from_level: 'none', to_level: 'VIP3', reason: 'operator' });
    expect(await ops('vip:thresholds', 'VIP2', '--team-volume', '500000', '--team-active', '5')).toBe(0);
  });

  it('the progress API: the level, the figures, each tier with what is missing, the changes', async () => {
    await computeVip(t.database.db, TZ, DAY);
    const p = await progress(e);
    expect(p).toMatchObject({ level: 'none', reached: 'none', figures: { ownVolume: '5000.00', teamVolume: '0.00', activeDirect: 0, teamActive: 0 } });
    expect(p.window).toEqual({ from: dayStart('2026-11-01', TZ).getTime(), to: dayStart(DAY, TZ).getTime(), timeZone: TZ });
    const vip1 = p.tiers.find((x) => x.level === 'VIP1')!;
    expect(vip1).toMatchObject({ match: 'any', reached: false });
    expect(vip1.conditions).toEqual([
      { measure: 'ownVolume', min: '10000', value: '5000.00', met: false, missing: '5000.00' },
      { measure: 'activeDirect', min: '1', value: '0', met: false, missing: '1' },
    ]);
    const pb = await progress(b);
    expect(pb.level).toBe('VIP2');
    expect(pb.changes.map((x) => [x.from, x.to, x.reason])).toEqual([
      ['VIP1', 'VIP2', 'reached'],
      ['none', 'VIP1', 'reached'],
    ]);
    expect(pb.tiers.find((x) => x.level === 'VIP2')!.conditions).toEqual([
      { measure: 'teamVolume', min: '500000', value: '17000.00', met: false, missing: '483000.00' },
      { measure: 'teamActive', min: '5', value: '3', met: false, missing: '2' },
    ]);
    // Before any computation: zeros, no window.
    const fresh = await user();
    expect(await progress(fresh)).toMatchObject({ computedAt: null, window: null, figures: { ownVolume: '0.00', activeDirect: 0 } });
    expect((await t.call('GET', '/user/api/vip/progress', {})).statusCode).toBe(401);
  });
});

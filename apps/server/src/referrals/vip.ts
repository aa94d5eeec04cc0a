// VIP progress (business.md "VIP tiers", "Settlement, precisely"): for a day D, each user's figures
// over the progress window before D (platform/windows.ts: the 30 days before D 00:00, cut at the
// 1st of the month) — own volume (notional of live robot fills), team volume, active direct
// referrals and active users in the team (ran a live robot in the window) — the tier they reach
// under the operator's thresholds, and the level raised to it when it is higher. A level never
// drops here; an operator may still set one (users/ops.ts `user:set-level`). Every change is kept
// in user_level_changes with its time and reason.
// One run is two set-based statements in one transaction: rerun for the same day, or killed at
// any line and run again, it writes the same figures and no second change.
import { DEFAULT_VIP_THRESHOLDS, VIP_TIERS, vipThresholds, type VipMeasure, type VipProgress, type VipThresholds, type VipTierRule } from '@lq/contracts';
import { getSetting, rowsOf, setSetting, sql, type Database, type SQL } from '@lq/db';
import { dayOf, dayStart, progressWindow, statsWindow, type StatsWindow } from '../platform/windows';


export const VIP_THRESHOLDS_KEY = 'vip.thresholds';
/** Levels in order: a level is raised only to one further along (VIP4 and VIP5 are operator grants). */
const LEVEL_ORDER = sql.raw(`array['none', 'VIP1', 'VIP2', 'VIP3', 'VIP4', 'VIP5']`);
const COLUMN = { ownVolume: 'own_volume', activeDirect: 'active_direct', teamVolume: 'team_volume', teamActive: 'team_active' } as const;

export async function thresholdsOf(db: Database): Promise<VipThresholds> {
  const stored = await getSetting<unknown>(db, VIP_THRESHOLDS_KEY);
  return stored === undefined ? DEFAULT_VIP_THRESHOLDS : vipThresholds.parse(stored);
}

export async function setThresholds(db: Database, value: VipThresholds): Promise<void> {
  await setSetting(db, VIP_THRESHOLDS_KEY, vipThresholds.parse(value));
}

const ruleSql = (rule: VipTierRule, of: string): SQL =>
  sql.join(
    rule.conditions.map((c) => sql`${sql.raw(`${of}.${COLUMN[c.measure]}`)} >= ${c.min}::numeric`),
    sql.raw(rule.match === 'any' ? ' or ' : ' and '),
  );

/** The tier figures `of` (an alias with the four measures) reach, highest first. */
const reachedSql = (t: VipThresholds, of: string): SQL =>
  sql`case when (${ruleSql(t.VIP3, of)}) then 'VIP3' when (${ruleSql(t.VIP2, of)}) then 'VIP2' when (${ruleSql(t.VIP1, of)}) then 'VIP1' else 'none' end`;

/**
 * CTEs ending in `name`: each user who did something live in [from, to) — their fills' notional
 * (`volume`) and whether a live robot of theirs ran in it (`active`). An empty window has nobody.
 * A fill counts once checked and not suspect (robots/fill-check.ts: an MT5 EA's made-up fill buys no level).
 */
function doersSql(name: string, from: string, to: string): SQL {
  const own = sql.raw(`${name}_own`);
  const ran = sql.raw(`${name}_ran`);
  return sql`${own} as (
      select r.user_id, sum(f.notional) as volume
        from robot_fills f join robots r on r.id = f.robot_id
       where r.mode = 'live' and f.checked_at is not null and f.suspect is null and f.filled_at >= ${from}::timestamptz and f.filled_at < ${to}::timestamptz
       group by r.user_id
    ), ${ran} as (
      select distinct user_id from robots
       where mode = 'live' and created_at < ${to}::timestamptz and (stopped_at is null or stopped_at >= ${from}::timestamptz)
         and ${from}::timestamptz < ${to}::timestamptz
    ), ${sql.raw(name)} as (
      select coalesce(o.user_id, a.user_id) as user_id, coalesce(o.volume, 0) as volume, a.user_id is not null as active
        from ${own} o full join ${ran} a on a.user_id = o.user_id
    )`;
}

export interface VipRun {
  asOf: string;
  window: StatsWindow;
  users: number;
  raised: number;
}

/** Computes every user's progress as of `day` (default: today in the platform timezone) and raises levels. */
export async function computeVip(db: Database, timeZone: string, day?: string): Promise<VipRun> {
  const asOf = day ?? dayOf(new Date(), timeZone);
  const w = progressWindow(timeZone, dayStart(asOf, timeZone));
  const t = await thresholdsOf(db);
  const from = w.from.toISOString();
  const to = w.to.toISOString();
  // The team page's figures over the whole statistics window (not cut at the 1st), kept beside.
  const sw = statsWindow(timeZone, dayStart(asOf, timeZone));
  const from30 = sw.from.toISOString();
  return db.transaction(async (tx) => {
    const written = rowsOf<{ n: number }>(
      await tx.execute(sql`with ${doersSql('doers', from, to)}, team as (
          select t.ancestor_id as user_id, sum(d.volume) as team_volume,
                 count(*) filter (where d.active) as team_active,
                 count(*) filter (where d.active and t.depth = 1) as active_direct
            from doers d join user_tree t on t.descendant_id = d.user_id
           group by t.ancestor_id
        ), ${doersSql('doers30', from30, to)}, team30 as (
          select t.ancestor_id as user_id, sum(d.volume) as team_volume, count(*) filter (where d.active) as team_active
            from doers30 d join user_tree t on t.descendant_id = d.user_id
           group by t.ancestor_id
        ), fig as (
          select u.id as user_id, coalesce(d.volume, 0) as own_volume, coalesce(tm.team_volume, 0) as team_volume,
                 coalesce(tm.active_direct, 0)::int as active_direct, coalesce(tm.team_active, 0)::int as team_active,
                 coalesce(t30.team_volume, 0) as team_volume_30d, coalesce(t30.team_active, 0)::int as team_active_30d
            from users u left join doers d on d.user_id = u.id left join team tm on tm.user_id = u.id left join team30 t30 on t30.user_id = u.id
        ), put as (
          insert into vip_progress (user_id, as_of, window_from, window_to, own_volume, team_volume, active_direct, team_active, reached, computed_at,
                                    team_volume_30d, team_active_30d)
          select f.user_id, ${asOf}::date, ${from}::timestamptz, ${to}::timestamptz, round(f.own_volume, 2), round(f.team_volume, 2),
                 f.active_direct, f.team_active, ${reachedSql(t, 'f')}, now(), round(f.team_volume_30d, 2), f.team_active_30d
            from fig f
          on conflict (user_id) do update set as_of = excluded.as_of, window_from = excluded.window_from, window_to = excluded.window_to,
            own_volume = excluded.own_volume, team_volume = excluded.team_volume, active_direct = excluded.active_direct,
            team_active = excluded.team_active, reached = excluded.reached, computed_at = excluded.computed_at,
            team_volume_30d = excluded.team_volume_30d, team_active_30d = excluded.team_active_30d
          returning 1
        )
        select count(*)::int as n from put`),
    );
    const [raised] = rowsOf<{ n: number }>(
      await tx.execute(sql`with raised as (
          update users u set user_level = p.reached, updated_at = now()
            from vip_progress p, users o
           where p.user_id = u.id and o.id = u.id and p.as_of = ${asOf}::date
             and array_position(${LEVEL_ORDER}, p.reached) > coalesce(array_position(${LEVEL_ORDER}, o.user_level), 99)
          returning u.id, o.user_level as from_level, p.reached as to_level
        ), kept as (
          insert into user_level_changes (user_id, from_level, to_level, reason, as_of)
          select id, from_level, to_level, 'reached', ${asOf}::date from raised returning 1
        )
        select count(*)::int as n from kept`),
    );
    return { asOf, window: w, users: written[0]?.n ?? 0, raised: raised?.n ?? 0 };
  });
}

/** A figure in hundredths, exactly ("500000" → 50000000n, "12.3" → 1230n). */
const cents = (x: string): bigint => {
  const [int = '0', frac = ''] = x.split('.');
  return BigInt(int) * 100n + BigInt((frac + '00').slice(0, 2));
};
const fromCents = (c: bigint): string => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
const COUNTS = new Set<VipMeasure>(['activeDirect', 'teamActive']);

/** How far `value` is from `min` (0 when reached): a count for counts, 2 decimals for volumes. */
function missingOf(measure: VipMeasure, min: string, value: string): { met: boolean; missing: string } {
  const gap = cents(min) - cents(value);
  if (gap <= 0n) return { met: true, missing: COUNTS.has(measure) ? '0' : '0.00' };
  return { met: false, missing: COUNTS.has(measure) ? String((gap + 99n) / 100n) : fromCents(gap) };
}

/** What the VIP page shows: the level, the last figures, each tier's conditions with what is missing, the level changes. */
export async function vipProgressOf(db: Database, userId: number, timeZone: string): Promise<VipProgress> {
  const t = await thresholdsOf(db);
  const [row] = rowsOf<{
    level: string;
    own_volume: string | null;
    team_volume: string | null;
    active_direct: number | null;
    team_active: number | null;
    reached: string | null;
    computed_at: Date | string | null;
    window_from: Date | string | null;
    window_to: Date | string | null;
  }>(
    await db.execute(sql`select u.user_level as level, p.own_volume::text as own_volume, p.team_volume::text as team_volume, p.active_direct, p.team_active,
        p.reached, p.computed_at, p.window_from, p.window_to
      from users u left join vip_progress p on p.user_id = u.id where u.id = ${userId}`),
  );
  const figures = {
    ownVolume: row?.own_volume ?? '0.00',
    teamVolume: row?.team_volume ?? '0.00',
    activeDirect: row?.active_direct ?? 0,
    teamActive: row?.team_active ?? 0,
  };
  const valueOf = { ownVolume: figures.ownVolume, teamVolume: figures.teamVolume, activeDirect: String(figures.activeDirect), teamActive: String(figures.teamActive) };
  const tiers = VIP_TIERS.map((level) => {
    const rule = t[level];
    const conditions = rule.conditions.map((c) => {
      const value = valueOf[c.measure];
      return { measure: c.measure, min: c.min, value, ...missingOf(c.measure, c.min, value) };
    });
    return { level, match: rule.match, conditions, reached: rule.match === 'any' ? conditions.some((c) => c.met) : conditions.every((c) => c.met) };
  });
  const changes = rowsOf<{ from_level: string; to_level: string; reason: 'reached' | 'operator'; at: Date | string }>(
    await db.execute(sql`select from_level, to_level, reason, at from user_level_changes where user_id = ${userId} order by id desc limit 20`),
  );
  return {
    level: row?.level ?? 'none',
    reached: row?.reached ?? 'none',
    computedAt: row?.computed_at ? new Date(row.computed_at).getTime() : null,
    window:
      row?.window_from && row.window_to
        ? { from: new Date(row.window_from).getTime(), to: new Date(row.window_to).getTime(), timeZone }
        : null,
    figures,
    tiers,
    changes: changes.map((c) => ({ from: c.from_level, to: c.to_level, reason: c.reason, at: new Date(c.at).getTime() })),
  };
}

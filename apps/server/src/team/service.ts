// The team (business.md "Referrals and team"): who is below a user in the referral tree
// (user_tree, a closure table: migration 0027) and what they did in the statistics window. A user
// reads only their own team: a `parent` that is not the caller or below them is "not found".
import { AppError, type TeamList, type TeamListQuery, type TeamMember, type TeamSummary } from '@lq/contracts';
import { rowsOf, sql, type Database, type SQL } from '@lq/db';
import type { StatsWindow } from '../platform/windows';
import { rebateSumsOf } from '../referrals';

type Runner = Pick<Database, 'execute'>;

const windowOut = (w: StatsWindow) => ({ from: w.from.getTime(), to: w.to.getTime(), timeZone: w.timeZone });

/** Fills in the window (of `f`, robot_fills). */
const inWindow = (w: StatsWindow) => sql`f.filled_at >= ${w.from.toISOString()}::timestamptz and f.filled_at < ${w.to.toISOString()}::timestamptz`;
/** A live robot of user `u` that ran at some time in the window. */
const ranLive = (u: SQL, w: StatsWindow) =>
  sql`exists (select 1 from robots ar where ar.user_id = ${u} and ar.mode = 'live' and ar.created_at < ${w.to.toISOString()}::timestamptz
    and (ar.stopped_at is null or ar.stopped_at >= ${w.from.toISOString()}::timestamptz))`;

/**
 * The team's figures. The daily VIP computation (referrals/vip.ts) stores them over this same window
 * (vip_progress team_volume_30d, team_active_30d): when it ran today they are one row; before it
 * has (a new server, just after midnight) they are summed from the fills.
 */
export async function teamSummaryOf(db: Runner, userId: number, w: StatsWindow): Promise<TeamSummary> {
  const [row] = rowsOf<{ direct: number; team: number; volume: string | null; active: number | null }>(
    await db.execute(sql`select
        (select count(*) from users where referrer_id = ${userId})::int as direct,
        (select count(*) from user_tree where ancestor_id = ${userId})::int as team,
        p.team_volume_30d::text as volume, p.team_active_30d as active
      from (select 1) one left join vip_progress p on p.user_id = ${userId} and p.window_to = ${w.to.toISOString()}::timestamptz`),
  );
  let { volume, active } = row;
  if (volume === null || active === null) {
    const [live] = rowsOf<{ volume: string; active: number }>(
      await db.execute(sql`select
          (select coalesce(sum(f.notional), 0)::numeric(30, 2)::text
             from user_tree t join robots r on r.user_id = t.descendant_id and r.mode = 'live' join robot_fills f on f.robot_id = r.id
            where t.ancestor_id = ${userId} and f.checked_at is not null and f.suspect is null and ${inWindow(w)}) as volume,
          (select count(*) from user_tree t where t.ancestor_id = ${userId} and ${ranLive(sql`t.descendant_id`, w)})::int as active`),
    );
    ({ volume, active } = live);
  }
  return { direct: row.direct, team: row.team, teamVolume: volume, activeUsers: active, window: windowOut(w), rebate: await rebateSumsOf(db, userId, w.timeZone) };
}

interface MemberRow {
  id: string | number;
  nickname: string | null;
  user_code: string;
  user_level: string;
  created_at: Date | string;
  direct: number;
  team: number;
  volume: string;
  active: boolean;
}

export async function teamListOf(db: Runner, callerId: number, q: TeamListQuery & { page: number; size: number }, w: StatsWindow): Promise<TeamList> {
  const parentId = q.parent ?? callerId;
  let depth = 0;
  if (parentId !== callerId) {
    const [below] = rowsOf<{ depth: number }>(await db.execute(sql`select depth from user_tree where ancestor_id = ${callerId} and descendant_id = ${parentId}`));
    // Not below the caller (or no such user): the same answer, so nothing is learnt about others.
    if (!below) throw new AppError('NOT_FOUND', {}, 'parent');
    depth = below.depth;
  }
  const [parent] = rowsOf<{ id: string | number; nickname: string | null; user_code: string }>(
    await db.execute(sql`select id, nickname, user_code from users where id = ${parentId}`),
  );
  if (!parent) throw new AppError('NOT_FOUND', {}, 'parent');
  const search = q.q ? sql`and (position(lower(${q.q}) in lower(coalesce(u.nickname, ''))) > 0 or starts_with(u.user_code, upper(${q.q})))` : sql``;
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from users u where u.referrer_id = ${parentId} ${search}`));
  const rows = rowsOf<MemberRow>(
    await db.execute(sql`select u.id, u.nickname, u.user_code, u.user_level, u.created_at,
        (select count(*) from users d where d.referrer_id = u.id)::int as direct,
        (select count(*) from user_tree t where t.ancestor_id = u.id)::int as team,
        (select coalesce(sum(f.notional), 0)::numeric(30, 2)::text
           from robots r join robot_fills f on f.robot_id = r.id
          where r.user_id = u.id and r.mode = 'live' and f.checked_at is not null and f.suspect is null and ${inWindow(w)}) as volume,
        ${ranLive(sql`u.id`, w)} as active
      from users u where u.referrer_id = ${parentId} ${search}
      order by u.created_at desc, u.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const list: TeamMember[] = rows.map((r) => ({
    id: Number(r.id),
    nickname: r.nickname,
    userCode: r.user_code,
    level: r.user_level,
    joinedAt: new Date(r.created_at).getTime(),
    volume: r.volume,
    active: r.active,
    direct: r.direct,
    team: r.team,
  }));
  return { parent: { id: Number(parent.id), nickname: parent.nickname, userCode: parent.user_code, depth }, list, total, window: windowOut(w) };
}

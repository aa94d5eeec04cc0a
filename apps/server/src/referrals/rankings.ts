// Rankings (business.md "Rankings"): three leaderboards over the statistics window (the 30 days
// before the day's 00:00 in the platform timezone) — own live robot volume, users who joined the
// team, rebates credited — computed once a day into ranking_entries, each board rewritten whole in
// one transaction (a reader sees the old board or the new one). Only users with something in the
// window are ranked; ties go to whoever registered first (the lower id: ids are handed out in
// registration order, and ordering by them spares joining every ranked row with users). Readers
// see others' names masked.
import { formatMoney, maskName, parseMoney, RANKING_BOARDS, RANKING_TOP, type RankingBoard, type RankingList, type RankingRow } from '@lq/contracts';
import { getSetting, rowsOf, setSetting, sql, type Database, type SQL } from '@lq/db';
import { dayOf, dayStart, statsWindow, type StatsWindow } from '../platform/windows';

export const RANKINGS_RUN_KEY = 'ranking.lastRun';

interface RunInfo {
  asOf: string;
  from: string;
  to: string;
  timeZone: string;
  computedAt: string;
}

/** Each board's value per user in the window: one select of (user_id, value). */
function boardSql(board: RankingBoard, w: StatsWindow): SQL {
  const from = sql`${w.from.toISOString()}::timestamptz`;
  const to = sql`${w.to.toISOString()}::timestamptz`;
  switch (board) {
    case 'volume':
      return sql`select r.user_id, sum(f.notional) as value
        from robot_fills f join robots r on r.id = f.robot_id
       where r.mode = 'live' and f.checked_at is not null and f.suspect is null and f.filled_at >= ${from} and f.filled_at < ${to} group by r.user_id`;
    case 'team':
      return sql`select t.ancestor_id as user_id, count(*) as value
        from users u join user_tree t on t.descendant_id = u.id
       where u.created_at >= ${from} and u.created_at < ${to} group by t.ancestor_id`;
    case 'rebate':
      return sql`select user_id, sum(amount) / 1000000.0 as value from rebates
       where created_at >= ${from} and created_at < ${to} group by user_id`;
  }
}

export interface RankingRun {
  asOf: string;
  window: StatsWindow;
  ranked: Record<RankingBoard, number>;
}

/** Computes every board as of `day` (default today in `timeZone`). */
export async function computeRankings(db: Database, timeZone: string, day?: string): Promise<RankingRun> {
  const asOf = day ?? dayOf(new Date(), timeZone);
  const w = statsWindow(timeZone, dayStart(asOf, timeZone));
  const ranked = {} as Record<RankingBoard, number>;
  await db.transaction(async (tx) => {
    for (const board of RANKING_BOARDS) {
      await tx.execute(sql`delete from ranking_entries where board = ${board}`);
      const [row] = rowsOf<{ n: number }>(
        await tx.execute(sql`with v as (${boardSql(board, w)}), put as (
            insert into ranking_entries (board, rank, user_id, value)
            select ${board}, row_number() over (order by v.value desc, v.user_id), v.user_id, round(v.value, 6)
              from v where v.value > 0
            returning 1)
          select count(*)::int as n from put`),
      );
      ranked[board] = row.n;
    }
    const info: RunInfo = { asOf, from: w.from.toISOString(), to: w.to.toISOString(), timeZone, computedAt: new Date().toISOString() };
    await setSetting(tx, RANKINGS_RUN_KEY, info);
  });
  return { asOf, window: w, ranked };
}

const valueOut = (board: RankingBoard, value: string): string => {
  if (board === 'team') return String(Math.round(Number(value)));
  if (board === 'rebate') return formatMoney(parseMoney(value) ?? 0n);
  return Number(value).toFixed(2);
};

interface EntryRow {
  rank: number;
  user_id: string;
  value: string;
  nickname: string | null;
  user_code: string;
  user_level: string;
}

/** A board's top, the viewer's own row (named, wherever it stands), and the run it comes from. */
export async function rankingListOf(db: Database, viewerId: number, board: RankingBoard): Promise<RankingList> {
  const run = await getSetting<RunInfo>(db, RANKINGS_RUN_KEY);
  const rows = rowsOf<EntryRow>(
    await db.execute(sql`select e.rank, e.user_id::text as user_id, e.value::text as value, u.nickname, u.user_code, u.user_level
      from ranking_entries e join users u on u.id = e.user_id
     where e.board = ${board} and (e.rank <= ${RANKING_TOP} or e.user_id = ${viewerId})
     order by e.rank`),
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from ranking_entries where board = ${board}`));
  const toRow = (r: EntryRow): RankingRow => {
    const self = Number(r.user_id) === viewerId;
    const name = r.nickname || r.user_code;
    return { rank: r.rank, name: self ? name : maskName(name), level: r.user_level, value: valueOut(board, r.value), self };
  };
  const all = rows.map(toRow);
  return {
    by: board,
    computedAt: run ? Date.parse(run.computedAt) : null,
    window: run ? { from: Date.parse(run.from), to: Date.parse(run.to), timeZone: run.timeZone } : null,
    list: all.filter((r) => r.rank <= RANKING_TOP),
    me: all.find((r) => r.self) ?? null,
    total,
  };
}

// Notices as notifications: a notice that has gone live (published now, or its scheduled time come)
// is fanned out to the users who switched `notice.published` on for a channel — one notification
// row each, born read (the notice page has its own badge; the centre does not list the kind), then
// delivered like any other by delivery.ts. A chunk of users per statement, keyed by user id with the
// notice's cursor moved in the same statement: an API request waits for one chunk at most, a crash
// resumes after the last chunk written, and a second run writes nothing twice (event keys).
import { rowsOf, sql, type Database } from '@lq/db';
import { noRequests, type Yielder } from '../platform/yield';

type Runner = Pick<Database, 'execute'>;

/** Users handed rows per statement (about 5 ms of the embedded database each). */
export const FANOUT_CHUNK = 200;

export interface FanOutResult {
  /** Notification rows written. */
  written: number;
  /** Notices whose fan-out finished. */
  finished: number;
}

/**
 * One chunk of the oldest notice waiting to be fanned out: the next `chunk` opted-in users after its
 * cursor get their row, the cursor moves to the last of them, and the notice is done when fewer
 * than `chunk` were left. Answers null when no notice waits.
 */
export async function fanOutChunk(db: Runner, chunk = FANOUT_CHUNK): Promise<{ noticeId: number; written: number; done: boolean } | null> {
  const [row] = rowsOf<{ id: string; written: number; done: boolean }>(
    await db.execute(sql`with n as (
        select id, category, fanout_cursor from notices
        where fanned_out_at is null and status = 'published' and publish_at <= now()
        order by publish_at, id limit 1 for update skip locked
      ), chosen as (
        select distinct p.user_id from notification_prefs p
        where p.kind = 'notice.published' and p.enabled and p.user_id > (select fanout_cursor from n) -- a bound on the index
        order by p.user_id limit ${chunk}
      ), written as (
        insert into notifications (user_id, kind, event_key, params, link, read_at)
        select c.user_id, 'notice.published', 'notice:' || n.id || ':' || c.user_id,
          jsonb_build_object('noticeId', n.id, 'category', n.category), '/pages/notice/notice?id=' || n.id, now()
        from chosen c, n
        on conflict (event_key) do nothing
        returning 1
      )
      update notices set
        fanout_cursor = coalesce((select max(user_id) from chosen), notices.fanout_cursor),
        fanned_out_at = case when (select count(*) from chosen) < ${chunk} then now() end
      from n where notices.id = n.id
      returning notices.id::text as id, (select count(*)::int from written) as written, notices.fanned_out_at is not null as done`),
  );
  return row ? { noticeId: Number(row.id), written: row.written, done: row.done } : null;
}

/**
 * Fans out every notice that waits, chunk after chunk, each its own statement, giving way to the
 * requests being answered before each one (platform/yield.ts).
 */
export async function fanOutNotices(db: Runner, options: { chunk?: number; requests?: Yielder } = {}): Promise<FanOutResult> {
  const requests = options.requests ?? noRequests;
  const result: FanOutResult = { written: 0, finished: 0 };
  // A notice about to start: fresh statistics first, so each chunk reads the next users from the
  // index (with stale ones — the embedded database has no autovacuum — every chunk sorted them all).
  const [starting] = rowsOf(
    await db.execute(sql`select 1 as n from notices where fanned_out_at is null and status = 'published' and publish_at <= now() and fanout_cursor = 0 limit 1`),
  );
  if (starting) await db.execute(sql`analyze notification_prefs`);
  for (;;) {
    await requests.quiet();
    const step = await fanOutChunk(db, options.chunk ?? FANOUT_CHUNK);
    if (!step) return result;
    result.written += step.written;
    if (step.done) result.finished++;
  }
}

// Dividends (business.md: "VIP5 and above share a configurable part of platform revenue monthly").
// The rule (docs/api.md "Dividends"): for a month M of the platform timezone that is over, the pool
// is `dividend.rate` (basis points, default 10 %) of M's revenue — every Lightning paid for
// purchases (unlock, packs, renewals) in M — rounded down; it is split equally among the users
// whose level at M's end (00:00 on the 1st of M+1, from user_level_changes) was VIP5 or above, each
// share rounded down; what rounding leaves stays with the platform. Paid into the rebate wallets in
// one ledger entry keyed dividend:<M> from the platform's rebate expense, in the transaction that
// writes the dividend_months row (the claim): settled once however often, or however killed, run.
import { TZDate } from '@date-fns/tz';
import { addMonths } from 'date-fns';
import { formatMoney } from '@lq/contracts';
import { getSetting, rowsOf, setSetting, sql, type Database } from '@lq/db';
import { postEntry } from '../wallet';
import { levelAtSql } from './rebates';

export const DIVIDEND_RATE_KEY = 'dividend.rate';
export const DEFAULT_DIVIDEND_RATE = 1000;
/** Levels that share: VIP5 and above (levels are ordered as listed). */
const SHARING_LEVELS = ['VIP5'];

export async function dividendRateOf(db: Database): Promise<number> {
  const stored = await getSetting<number>(db, DIVIDEND_RATE_KEY);
  return typeof stored === 'number' ? stored : DEFAULT_DIVIDEND_RATE;
}

export async function setDividendRate(db: Database, basisPoints: number): Promise<void> {
  if (!Number.isInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000) throw new RangeError(`a rate is 0–10000 basis points (got ${basisPoints})`);
  await setSetting(db, DIVIDEND_RATE_KEY, basisPoints);
}

/** [start, end) of month `month` (YYYY-MM) in `timeZone`. */
export function monthBounds(month: string, timeZone: string): { from: Date; to: Date } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new RangeError(`a month is YYYY-MM (got "${month}")`);
  const from = new TZDate(Number(m[1]), Number(m[2]) - 1, 1, timeZone);
  return { from: new Date(from.getTime()), to: new Date(addMonths(from, 1).getTime()) };
}

/** The month `months` after the one `now` falls in, in `timeZone` (YYYY-MM). */
function monthOf(now: Date, timeZone: string, months = 0): string {
  const d = addMonths(new TZDate(now.getTime(), timeZone), months);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

/** The month before the one `now` falls in, in `timeZone` (YYYY-MM). */
export const previousMonth = (now: Date, timeZone: string): string => monthOf(now, timeZone, -1);

/**
 * Settles every month that is over and has no settlement yet (issue 53 item 8: a cron job pg-boss
 * sends only within a minute of its time lost a month to a deploy at 01:00 on the 1st), from the
 * first month ever settled on — or, on a platform that settled none, the month just over: months
 * before dividends were paid are never paid now, at today's rate. Run at start and on each daily
 * pass; months settled before are skipped without being read again.
 */
export async function settleDueDividends(db: Database, timeZone: string, now: Date = new Date()): Promise<DividendRun[]> {
  const settled = new Set(rowsOf<{ month: string }>(await db.execute(sql`select month from dividend_months`)).map((r) => r.month));
  const last = previousMonth(now, timeZone);
  const first = [...settled].sort()[0] ?? last;
  const runs: DividendRun[] = [];
  for (let month = first; month <= last; month = monthOf(monthBounds(month, timeZone).to, timeZone)) {
    if (!settled.has(month)) runs.push(await settleDividends(db, timeZone, month, now));
  }
  return runs;
}

export interface DividendRun {
  month: string;
  /** False: the month had been settled before; the figures are that settlement's. */
  settledNow: boolean;
  revenue: bigint;
  rate: number;
  pool: bigint;
  recipients: number;
  perUser: bigint;
}

/** Settles month `month`; refuses a month that is not over (RangeError). */
export async function settleDividends(db: Database, timeZone: string, month: string, now: Date = new Date()): Promise<DividendRun> {
  const { from, to } = monthBounds(month, timeZone);
  if (to.getTime() > now.getTime()) throw new RangeError(`${month} is not over yet (${timeZone}): dividends are settled once it is`);
  const rate = await dividendRateOf(db);
  const sharing = sql.join(SHARING_LEVELS.map((x) => sql`${x}`), sql`, `);
  return db.transaction(async (tx) => {
    const [{ revenue }] = rowsOf<{ revenue: string }>(
      await tx.execute(sql`select coalesce(sum(l.amount), 0)::text as revenue
        from ledger_entries e join ledger_lines l on l.entry_id = e.id join ledger_accounts a on a.id = l.account_id
       where e.kind = 'purchase' and e.status = 'posted' and a.code = 'platform:revenue'
         and e.created_at >= ${from.toISOString()}::timestamptz and e.created_at < ${to.toISOString()}::timestamptz`),
    );
    // The level each candidate held at the month's end (rebates.ts levelAtSql).
    const end = sql`${to.toISOString()}::timestamptz`;
    const holders = rowsOf<{ id: string; level: string }>(
      await tx.execute(sql`select u.id::text as id, l.level from users u cross join lateral (select ${levelAtSql(sql`u.id`, end, sql`u.user_level`)} as level) l
        where (u.user_level in (${sharing}) or exists (select 1 from user_level_changes c where c.user_id = u.id and c.to_level in (${sharing})))
          and l.level in (${sharing})
        order by u.id`),
    );
    const pool = (BigInt(revenue) * BigInt(rate)) / 10_000n;
    const perUser = holders.length > 0 ? pool / BigInt(holders.length) : 0n;
    const [claimed] = rowsOf<{ month: string }>(
      await tx.execute(sql`insert into dividend_months (month, revenue, rate, pool, recipients, per_user)
        values (${month}, ${revenue}, ${rate}, ${pool.toString()}, ${perUser > 0n ? holders.length : 0}, ${perUser.toString()})
        on conflict (month) do nothing returning month`),
    );
    if (!claimed) {
      const [done] = rowsOf<{ revenue: string; rate: number; pool: string; recipients: number; per_user: string }>(
        await tx.execute(sql`select revenue::text as revenue, rate, pool::text as pool, recipients, per_user::text as per_user from dividend_months where month = ${month}`),
      );
      return { month, settledNow: false, revenue: BigInt(done.revenue), rate: done.rate, pool: BigInt(done.pool), recipients: done.recipients, perUser: BigInt(done.per_user) };
    }
    if (perUser > 0n) {
      await postEntry(tx, {
        key: `dividend:${month}`,
        kind: 'dividend',
        memo: `dividend ${month}`,
        meta: { month, pool: formatMoney(pool), perUser: formatMoney(perUser) },
        lines: [
          { account: { platform: 'rebate_expense' }, amount: -(perUser * BigInt(holders.length)) },
          ...holders.map((h) => ({ account: { userId: Number(h.id), wallet: 'rebate' as const }, amount: perUser })),
        ],
      });
      await tx.execute(sql`insert into dividends (month, user_id, level, amount)
        select ${month}, h.id, h.level, ${perUser.toString()}::bigint from jsonb_to_recordset(${JSON.stringify(holders)}::jsonb) as h(id bigint, level text)`);
    }
    return { month, settledNow: true, revenue: BigInt(revenue), rate, pool, recipients: perUser > 0n ? holders.length : 0, perUser };
  });
}

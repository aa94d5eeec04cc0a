// The console's dashboard and users: figures of the platform's day, and the user list searched,
// filtered, sorted and paged on the server (balances read from the ledger's accounts).
import { formatMoney, type ConsoleDashboard, type ConsoleSuspectFill, type ConsoleUserItem, type ConsoleUserList, type ConsoleUsersQuery } from '@lq/contracts';
import { containsPattern, rowsOf, sql, type Database, type SQL } from '@lq/db';
import { decimalText } from '../robots';

type Runner = Pick<Database, 'execute'>;
const money = (micro: string | null) => formatMoney(BigInt(micro ?? '0'));

export async function dashboardOf(db: Runner, timezone: string): Promise<ConsoleDashboard> {
  const [r] = rowsOf<{
    day_start: string;
    users: number;
    users_today: number;
    deposits_pending: number;
    deposits_today: string | null;
    withdrawals_waiting: number;
    withdrawals_amount: string | null;
    robots_running: number;
    fills_suspect: number;
    fills_suspect_users: number;
    revenue_today: string | null;
  }>(
    await db.execute(sql`with day as (select date_trunc('day', now() at time zone ${timezone}) at time zone ${timezone} as start)
      select (select start from day)::text as day_start,
        (select count(*)::int from users) as users,
        (select count(*)::int from users where created_at >= (select start from day)) as users_today,
        (select count(*)::int from chain_deposits where status in ('pending', 'confirmed')) as deposits_pending,
        (select sum(l.amount)::text from ledger_lines l join ledger_entries e on e.id = l.entry_id
          where e.kind = 'deposit' and e.status = 'posted' and l.user_id is not null and e.created_at >= (select start from day)) as deposits_today,
        (select count(*)::int from withdrawals where status = 'pendingReview') as withdrawals_waiting,
        (select sum(amount)::text from withdrawals where status = 'pendingReview') as withdrawals_amount,
        (select count(*)::int from robots where status = 'running') as robots_running,
        (select count(*)::int from robot_fills where suspect is not null and checked_at >= now() - interval '30 days') as fills_suspect,
        (select count(distinct r.user_id)::int from robot_fills f join robots r on r.id = f.robot_id
          where f.suspect is not null and f.checked_at >= now() - interval '30 days') as fills_suspect_users,
        (select sum(l.amount)::text from ledger_lines l join ledger_accounts a on a.id = l.account_id join ledger_entries e on e.id = l.entry_id
          where a.code in ('platform:revenue', 'platform:fees') and e.status = 'posted' and coalesce(e.resolved_at, e.created_at) >= (select start from day)) as revenue_today`),
  );
  // pg-boss makes its schema when it starts (a process without jobs may not have it).
  const [{ boss }] = rowsOf<{ boss: boolean }>(await db.execute(sql`select to_regclass('pgboss.job') is not null as boss`));
  const [{ failed }] = boss
    ? rowsOf<{ failed: number }>(await db.execute(sql`select count(*)::int as failed from pgboss.job where state = 'failed' and completed_on >= ${r.day_start}::timestamptz`))
    : [{ failed: 0 }];
  return {
    users: { total: r.users, today: r.users_today },
    deposits: { pending: r.deposits_pending, creditedToday: money(r.deposits_today) },
    withdrawals: { waiting: r.withdrawals_waiting, waitingAmount: money(r.withdrawals_amount) },
    robots: { running: r.robots_running },
    jobs: { failedToday: failed },
    revenue: { today: money(r.revenue_today) },
    fills: { suspect: r.fills_suspect, users: r.fills_suspect_users },
    dayStart: Date.parse(r.day_start),
    timezone,
  };
}

const balanceOf = sql`coalesce((select a.posted from ledger_accounts a where a.user_id = u.id and a.kind = 'balance'), 0)`;

const ORDER: Record<NonNullable<ConsoleUsersQuery['sort']>, SQL> = {
  id: sql`u.id`,
  '-id': sql`u.id desc`,
  mail: sql`u.mail, u.id`,
  '-mail': sql`u.mail desc, u.id desc`,
  balance: sql`${balanceOf}, u.id`,
  '-balance': sql`${balanceOf} desc, u.id desc`,
};

export async function consoleUsersOf(db: Runner, q: { q?: string; id?: number; level?: ConsoleUserItem['level']; sort: keyof typeof ORDER; page: number; size: number }): Promise<ConsoleUserList> {
  const parts: SQL[] = [sql`true`];
  if (q.id !== undefined) parts.push(sql`u.id = ${q.id}`);
  if (q.q) {
    const like = containsPattern(q.q);
    parts.push(sql`(u.mail ilike ${like} or u.user_code ilike ${like} or u.id::text = ${q.q})`);
  }
  if (q.level) parts.push(sql`u.user_level = ${q.level}`);
  const where = sql.join(parts, sql` and `);
  const rows = rowsOf<UserRow>(
    await db.execute(sql`select u.id::text as id, u.mail, u.user_code, u.user_level, u.country, u.created_at::text as created_at,
        u.frozen_at::text as frozen_at, u.frozen_reason,
        ${balanceOf}::text as balance,
        coalesce((select a.posted from ledger_accounts a where a.user_id = u.id and a.kind = 'rebate'), 0)::text as rebate,
        (select count(*)::int from robots r where r.user_id = u.id and r.status = 'running') as robots
      from users u where ${where} order by ${ORDER[q.sort]} limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from users u where ${where}`));
  return { list: rows.map(userItemOf), total };
}

type UserRow = {
  id: string;
  mail: string;
  user_code: string;
  user_level: ConsoleUserItem['level'];
  country: string;
  created_at: string;
  frozen_at: string | null;
  frozen_reason: string | null;
  balance: string;
  rebate: string;
  robots: number;
};

const userItemOf = (r: UserRow): ConsoleUserItem => ({
  id: Number(r.id),
  mail: r.mail,
  userCode: r.user_code,
  level: r.user_level,
  country: r.country,
  createdAt: Date.parse(r.created_at),
  balance: money(r.balance),
  rebate: money(r.rebate),
  robotsRunning: r.robots,
  frozenAt: r.frozen_at ? Date.parse(r.frozen_at) : null,
  frozenReason: r.frozen_reason,
});

/** One user as the list shows them, or null when unknown. */
/** A user's suspect fills (robots/fill-check.ts), newest 20. */
export async function suspectFillsOf(db: Runner, userId: number): Promise<ConsoleSuspectFill[]> {
  const rows = rowsOf<{ id: string; robot_id: string; symbol: string; action: string; qty: string; price: string; filled_at: string; suspect: ConsoleSuspectFill['reason'] }>(
    await db.execute(sql`select f.id::text as id, f.robot_id::text as robot_id, r.symbol, f.action, f.qty::text as qty, f.price::text as price,
        (extract(epoch from f.filled_at) * 1000)::bigint::text as filled_at, f.suspect
      from robot_fills f join robots r on r.id = f.robot_id
      where r.user_id = ${userId} and f.suspect is not null order by f.filled_at desc, f.id desc limit 20`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    robotId: Number(r.robot_id),
    symbol: r.symbol,
    action: r.action,
    qty: decimalText(r.qty),
    price: decimalText(r.price),
    filledAt: Number(r.filled_at),
    reason: r.suspect,
  }));
}

export async function consoleUserOf(db: Runner, userId: number): Promise<ConsoleUserItem | null> {
  return (await consoleUsersOf(db, { id: userId, sort: 'id', page: 1, size: 1 })).list[0] ?? null;
}

// Seats (spec §6, business.md "Benefits, seats and slots"): what an ACCOUNT needs to run robots on
// a market. In use = distinct accounts of the market holding at least one robot in running |
// paused | stopping; available = the basic 1 + unexpired `seat` grants of that market (or of both
// markets: market null). A robot on an account that already holds a seat needs no new one.
import { AppError, errorMessageKey, translate, type Locale, type SeatSummary } from '@lq/contracts';
import type { Database, DatabaseHandle } from '@lq/db';
import { sql, rowsOf } from '@lq/db';

export type Market = 'crypto' | 'forex';

/** Every user has one seat per market (the basic rights). */
export const BASIC_SEATS = 1;

/** Robot statuses that hold their account's seat. */
export const SEAT_HOLDING = ['running', 'paused', 'stopping'] as const;

/** NO_FREE_SEAT with the figures the web needs to offer opening a seat ({market, used, total}). */
export class NoFreeSeatError extends AppError {
  constructor(readonly data: { market: Market; used: number; total: number }) {
    super('NO_FREE_SEAT', { market: data.market, used: data.used, total: data.total });
  }

  envelope(locale: Locale) {
    return { code: this.code, msg: translate(locale, errorMessageKey('NO_FREE_SEAT'), this.params), data: this.data };
  }
}

type Runner = Pick<Database, 'execute'>;

/** Seats granted for a market: 1 + unexpired seat grants (market-specific or for both). */
export async function seatsTotal(db: Runner, userId: number, market: Market): Promise<number> {
  const r = rowsOf<{ n: number | string }>(
    await db.execute(sql`select coalesce(sum(quantity), 0)::int as n from entitlement_grants
      where user_id = ${userId} and kind = 'seat' and (market is null or market = ${market})
        and (expires_at is null or expires_at > now())`),
  );
  return BASIC_SEATS + Math.max(0, Number(r[0]?.n ?? 0));
}

/** Accounts of the market holding a seat, with their number of seat-holding robots. */
export async function seatHolders(
  db: Runner,
  userId: number,
  market: Market,
): Promise<Array<{ id: number; name: string; exchange: string; robots: number }>> {
  const rows = rowsOf<{ id: number | string; name: string; exchange: string; robots: number | string }>(
    await db.execute(sql`select a.id, a.account_name as name, a.exchange, count(r.id)::int as robots
      from robots r join trading_accounts a on a.id = r.account_id
     where r.user_id = ${userId} and r.market = ${market} and r.status in ('running', 'paused', 'stopping')
     group by a.id, a.account_name, a.exchange order by a.id`),
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name, exchange: r.exchange, robots: Number(r.robots) }));
}

export async function seatSummary(db: Runner, userId: number, market: Market): Promise<SeatSummary> {
  const [total, accounts] = await Promise.all([seatsTotal(db, userId, market), seatHolders(db, userId, market)]);
  return { market, used: accounts.length, total, free: Math.max(0, total - accounts.length), accounts };
}

/** Throws NO_FREE_SEAT unless `accountId` holds a seat already or a seat is free. Run inside the create transaction. */
export async function requireSeat(db: Runner, userId: number, market: Market, accountId: number): Promise<void> {
  const holders = await seatHolders(db, userId, market);
  if (holders.some((h) => h.id === accountId)) return;
  const total = await seatsTotal(db, userId, market);
  if (holders.length >= total) throw new NoFreeSeatError({ market, used: holders.length, total });
}

export function seatSummaryOf(database: DatabaseHandle, userId: number, market: Market): Promise<SeatSummary> {
  return seatSummary(database.db, userId, market);
}

// Seats (spec §6, business.md "Benefits, seats and slots"): what an ACCOUNT needs to run robots on
// a market. In use = distinct accounts of the market holding at least one robot in running |
// paused | stopping; owned = the unlock's 1 + live seat packs + operator grants (benefits/). A robot
// on an account that already holds a seat needs no new one.
import { AppError, errorMessageKey, translate, type Locale, type SeatSummary } from '@lq/contracts';
import type { Database, DatabaseHandle } from '@lq/db';
import { isUnlocked, notUnlocked, seatHolders, seatsOwned, type Market } from '../benefits';

export type { Market } from '../benefits';
export { SEAT_HOLDING } from '../benefits';

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

export async function seatSummary(db: Runner, userId: number, market: Market): Promise<SeatSummary> {
  const [total, accounts] = await Promise.all([seatsOwned(db, userId, market), seatHolders(db, userId, market)]);
  return { market, used: accounts.length, total, free: Math.max(0, total - accounts.length), accounts };
}

/**
 * Throws unless `accountId` holds a seat already or a seat is free: BENEFIT_NOT_UNLOCKED when the
 * user owns no seat for want of the unlock, NO_FREE_SEAT when all they own are taken. Run inside
 * the create transaction.
 */
export async function requireSeat(db: Runner, userId: number, market: Market, accountId: number): Promise<void> {
  const holders = await seatHolders(db, userId, market);
  if (holders.some((h) => h.id === accountId)) return;
  const total = await seatsOwned(db, userId, market);
  if (holders.length < total) return;
  if (total === 0 && !(await isUnlocked(db, userId))) throw await notUnlocked(db);
  throw new NoFreeSeatError({ market, used: holders.length, total });
}

export function seatSummaryOf(database: DatabaseHandle, userId: number, market: Market): Promise<SeatSummary> {
  return seatSummary(database.db, userId, market);
}

// What a user may use, per market (business.md "Benefits, seats and slots"): account seats (an
// account running robots on a market holds one) and backtest slots (a running backtest holds one).
// Owned = the basic unlock's 1 (bought, or granted by an operator: entitlement_grants kind
// `unlock`) + live packs + unexpired operator grants (`seat` / `backtest_slot`, of the market or of
// both: market null). Nothing is free: without the unlock or a grant a user owns none.
import { DATA_SOURCES, UNLOCK_GIVES, type AccountMarket, type EquityRights } from '@lq/contracts';
import { rowsOf, sql, type Database, type SQL } from '@lq/db';

export type Market = AccountMarket;
type Runner = Pick<Database, 'execute'>;

/** Robot statuses that hold their account's seat. */
export const SEAT_HOLDING = ['running', 'paused', 'stopping'] as const;
const FOREX_SOURCES = DATA_SOURCES.filter((s) => s.market === 'forex').map((s) => s.type as string);

/** Whether `user` (a column or a value) has the unlock, as one SQL expression. */
export const unlockedSql = (user: SQL): SQL => sql`(exists (select 1 from benefit_purchases up where up.user_id = ${user} and up.item = 'unlock')
  or exists (select 1 from entitlement_grants ug where ug.user_id = ${user} and ug.kind = 'unlock' and (ug.expires_at is null or ug.expires_at > now())))`;

/** The unlock: bought, or granted by an operator (or by the migration that started selling it). */
export async function isUnlocked(db: Runner, userId: number): Promise<boolean> {
  const [row] = rowsOf<{ unlocked: boolean }>(await db.execute(sql`select ${unlockedSql(sql`${userId}::bigint`)} as unlocked`));
  return !!row?.unlocked;
}

/** What the user owns of `kind` on `market`, with the soonest expiry among what can expire. */
async function owned(db: Runner, userId: number, kind: 'seat' | 'slot', market: Market, unlocked: boolean) {
  const grantKind = kind === 'seat' ? 'seat' : 'backtest_slot';
  const rows = rowsOf<{ quantity: number | string; expires_at: Date | string | null }>(
    await db.execute(sql`select quantity, expires_at from benefit_purchases
        where user_id = ${userId} and item = ${kind} and market = ${market} and expires_at > now()
      union all
      select quantity, expires_at from entitlement_grants
        where user_id = ${userId} and kind = ${grantKind} and (market is null or market = ${market}) and (expires_at is null or expires_at > now())`),
  );
  let total = unlocked ? UNLOCK_GIVES[kind] : 0;
  let nextExpiry: number | null = null;
  let expiringQuantity = 0;
  for (const r of rows) {
    total += Number(r.quantity);
    if (r.expires_at === null) continue;
    const at = new Date(r.expires_at).getTime();
    if (nextExpiry === null || at < nextExpiry) [nextExpiry, expiringQuantity] = [at, Number(r.quantity)];
    else if (at === nextExpiry) expiringQuantity += Number(r.quantity);
  }
  return { owned: Math.max(0, total), nextExpiry, expiringQuantity };
}

export async function seatsOwned(db: Runner, userId: number, market: Market): Promise<number> {
  const [row] = rowsOf<{ owned: number }>(await db.execute(sql`select ${seatsOwnedSql(sql`${userId}::bigint`, sql`${market}::text`)} as owned`));
  return Number(row?.owned ?? 0);
}

/** What a user owns of `item` on a market as one SQL expression over `user` and `market`: the unlock's, packs in force, grants in force. */
const ownedSql = (item: 'seat' | 'slot', user: SQL, market: SQL): SQL => sql`(
  (case when ${unlockedSql(user)} then ${UNLOCK_GIVES[item]} else 0 end)
  + coalesce((select sum(sp.quantity) from benefit_purchases sp where sp.user_id = ${user} and sp.item = ${item} and sp.market = ${market} and sp.expires_at > now()), 0)
  + coalesce((select sum(sg.quantity) from entitlement_grants sg where sg.user_id = ${user} and sg.kind = ${item === 'seat' ? 'seat' : 'backtest_slot'} and (sg.market is null or sg.market = ${market}) and (sg.expires_at is null or sg.expires_at > now())), 0)
)::int`;

/**
 * The seats a user owns on a market as one SQL expression over `user` and `market` (columns, for
 * set-based checks over many users in robots/seat-expiry.ts, or values): the sum `owned` also
 * makes for the rights page, where it needs each part's expiry too.
 */
export const seatsOwnedSql = (user: SQL, market: SQL): SQL => ownedSql('seat', user, market);

/** Whether the user has the basic rights, and the seats and slots they own per market, in one statement (the console's user panel). */
export async function ownedOf(db: Runner, userId: number): Promise<{ unlocked: boolean; owned: { market: Market; seats: number; slots: number }[] }> {
  const user = sql`${userId}::bigint`;
  const [row] = rowsOf<{ unlocked: boolean; forex_seats: number; forex_slots: number; crypto_seats: number; crypto_slots: number }>(
    await db.execute(sql`select ${unlockedSql(user)} as unlocked,
        ${ownedSql('seat', user, sql`'forex'`)} as forex_seats, ${ownedSql('slot', user, sql`'forex'`)} as forex_slots,
        ${ownedSql('seat', user, sql`'crypto'`)} as crypto_seats, ${ownedSql('slot', user, sql`'crypto'`)} as crypto_slots`),
  );
  return {
    unlocked: !!row.unlocked,
    owned: [
      { market: 'forex', seats: Number(row.forex_seats), slots: Number(row.forex_slots) },
      { market: 'crypto', seats: Number(row.crypto_seats), slots: Number(row.crypto_slots) },
    ],
  };
}

export async function slotsOwned(db: Runner, userId: number, market: Market): Promise<number> {
  return (await owned(db, userId, 'slot', market, await isUnlocked(db, userId))).owned;
}

/** Accounts of the market holding a seat, with their number of seat-holding robots. */
export async function seatHolders(db: Runner, userId: number, market: Market): Promise<Array<{ id: number; name: string; exchange: string; robots: number }>> {
  const rows = rowsOf<{ id: number | string; name: string; exchange: string; robots: number | string }>(
    await db.execute(sql`select a.id, a.account_name as name, a.exchange, count(r.id)::int as robots
      from robots r join trading_accounts a on a.id = r.account_id
     where r.user_id = ${userId} and r.market = ${market} and r.status in ('running', 'paused', 'stopping')
     group by a.id, a.account_name, a.exchange order by a.id`),
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name, exchange: r.exchange, robots: Number(r.robots) }));
}

/** Where a backtest of this market runs from: its data source's market. */
export const backtestMarketIs = (market: Market) =>
  market === 'forex' ? sql`data_source in (${sql.join(FOREX_SOURCES.map((s) => sql`${s}`), sql`, `)})` : sql`data_source not in (${sql.join(FOREX_SOURCES.map((s) => sql`${s}`), sql`, `)})`;

/** Backtests of the market running now (each holds a slot). */
export async function slotsUsed(db: Runner, userId: number, market: Market): Promise<number> {
  const [row] = rowsOf<{ n: number | string }>(
    await db.execute(sql`select count(*)::int as n from backtests where user_id = ${userId} and status = 1 and deleted_at is null and ${backtestMarketIs(market)}`),
  );
  return Number(row?.n ?? 0);
}

export async function rightsOf(db: Runner, userId: number): Promise<EquityRights> {
  const unlocked = await isUnlocked(db, userId);
  const markets = await Promise.all(
    (['forex', 'crypto'] as const).map(async (market) => {
      const [seats, slots, holders, running] = await Promise.all([
        owned(db, userId, 'seat', market, unlocked),
        owned(db, userId, 'slot', market, unlocked),
        seatHolders(db, userId, market),
        slotsUsed(db, userId, market),
      ]);
      const count = (o: typeof seats, used: number) => ({ ...o, used, free: Math.max(0, o.owned - used) });
      return { market, seats: count(seats, holders.length), slots: count(slots, running) };
    }),
  );
  return { unlocked, markets };
}

export interface Grant {
  id: number;
  kind: string;
  market: Market | null;
  quantity: number;
  origin: string;
  note: string | null;
  createdAt: number;
  expiresAt: number | null;
}

/** The grants of a user still in force, newest first. */
export async function grantsOf(db: Runner, userId: number): Promise<Grant[]> {
  const rows = rowsOf<GrantRow>(
    await db.execute(sql`select id::text as id, kind, market, quantity, origin, note, created_at::text as created_at, expires_at::text as expires_at
      from entitlement_grants where user_id = ${userId} and (expires_at is null or expires_at > now()) order by id desc`),
  );
  return rows.map(grantOf);
}

type GrantRow = { id: string; kind: string; market: Market | null; quantity: number; origin: string; note: string | null; created_at: string; expires_at: string | null };
const grantOf = (r: GrantRow): Grant => ({
  id: Number(r.id),
  kind: r.kind,
  market: r.market,
  quantity: r.quantity,
  origin: r.origin,
  note: r.note,
  createdAt: Date.parse(r.created_at),
  expiresAt: r.expires_at ? Date.parse(r.expires_at) : null,
});

/**
 * An operator's grant: seats or backtest slots of a market (or both: market null), for `days` or
 * for good, or the unlock. One statement: the grant, or why there is none — no such user, or the
 * unlock asked for a user who has it. Seats granted count at once for robots and for releasing a
 * frozen account.
 */
export async function grantEntitlement(
  db: Runner,
  g: { userId: number; kind: 'seat' | 'backtest_slot' | 'unlock'; market: Market | null; quantity: number; days: number | null; note: string },
): Promise<{ grant: Grant } | { refused: 'no-user' | 'unlocked' }> {
  const unlockTaken = g.kind === 'unlock' ? sql`and not ${unlockedSql(sql`${g.userId}::bigint`)}` : sql``;
  const [row] = rowsOf<GrantRow & { user_exists: boolean }>(
    await db.execute(sql`with made as (
        insert into entitlement_grants (user_id, kind, market, quantity, origin, note, expires_at)
        select ${g.userId}, ${g.kind}, ${g.market}, ${g.quantity}, 'operator', ${g.note}, ${g.days === null ? null : sql`now() + make_interval(days => ${g.days})`}
        where exists (select 1 from users where id = ${g.userId}) ${unlockTaken}
        returning id::text as id, kind, market, quantity, origin, note, created_at::text as created_at, expires_at::text as expires_at)
      select made.*, true as user_exists from made
      union all
      select null, null, null, null, null, null, null, null, exists (select 1 from users where id = ${g.userId}) where not exists (select 1 from made)`),
  );
  if (row.id !== null) return { grant: grantOf(row) };
  return { refused: row.user_exists ? 'unlocked' : 'no-user' };
}

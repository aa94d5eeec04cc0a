// The robot's intent journal and fill book in the database (robot_intents, robot_fills). Every write
// is fenced by the lease: it only happens while this runner holds the robot's lease, so a runner
// that lost its lease (paused by GC, partitioned) cannot journal, and therefore cannot send.
import type { DatabaseHandle, SqlParam } from '@lq/db';
import { accountNotionalOf, type Fill, type Instrument } from '@lq/engine';
import type { IntentJournal, IntentRecord, IntentState, KnownIntent, StoredFill } from '@lq/venues';

export class LeaseLostError extends Error {
  constructor(readonly robotId: number) {
    super(`robot ${robotId}: lease lost`);
    this.name = 'LeaseLostError';
  }
}

/** A fill row as the replay needs it, with the step (candle open time) it was booked at. */
export interface StoredFillRow extends StoredFill {
  readonly at: number;
}

/** A fill's value for its numeric(30, 8) column (a non-finite figure, which no real fill has, as 0). */
const notionalText = (n: number) => (Number.isFinite(n) ? n.toFixed(8) : '0');

const LEASED = `exists (select 1 from robots where id = $1 and lease_owner = $2 and lease_until > now())`;
/** `checked_at` of a fill of robot $1: null (to be checked) for a live MT5 robot, now() else. */
const UNCHECKED_IF_MT5 = `(select case when r.mode = 'live' and a.exchange = 'mt5' then null else now() end
    from robots r join trading_accounts a on a.id = r.account_id where r.id = $1)`;

export class DbIntentJournal implements IntentJournal {
  constructor(
    private readonly database: DatabaseHandle,
    readonly robotId: number,
    private readonly owner: string,
    /** The robot's instrument: a fill's value in the account currency is stored with it. */
    private readonly instrument: Instrument,
  ) {}

  async save(r: IntentRecord): Promise<void> {
    const rows = await this.database.exec(
      `insert into robot_intents (robot_id, client_order_id, tag, ticket, action, position_side, request, intent, state, filled, average, venue_order_id, error)
         select $1, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $11, $12, $13, $14 where ${LEASED}
       on conflict (robot_id, client_order_id) do update
         set state = excluded.state, filled = excluded.filled, average = excluded.average,
             venue_order_id = coalesce(excluded.venue_order_id, robot_intents.venue_order_id),
             error = coalesce(excluded.error, robot_intents.error), updated_at = now()
       returning id`,
      [
        this.robotId,
        this.owner,
        r.clientOrderId,
        r.tag,
        r.ticket,
        r.action,
        r.positionSide,
        JSON.stringify(r.request),
        JSON.stringify(r.intent),
        r.state,
        String(r.venueFilled),
        r.venueAverage === null ? null : String(r.venueAverage),
        r.venueOrderId,
        r.error,
      ],
    );
    if (rows.length === 0) throw new LeaseLostError(this.robotId);
  }

  async saveFill(r: IntentRecord, fill: Fill, key: string): Promise<void> {
    await insertFills(this.database, this.robotId, [{ clientOrderId: r.clientOrderId, key, fill, notional: accountNotionalOf(fill.qty, fill.price, this.instrument) }], this.owner);
  }

  /** The journal at restart. */
  async known(): Promise<KnownIntent[]> {
    const rows = await this.database.exec<{ client_order_id: string; state: string; filled: string; average: string | null; venue_order_id: string | null; updated_at: string | Date }>(
      `select client_order_id, state, filled, average, venue_order_id, updated_at from robot_intents where robot_id = $1`,
      [this.robotId],
    );
    return rows.map((x) => ({
      clientOrderId: x.client_order_id,
      state: x.state as IntentState,
      filled: Number(x.filled),
      average: x.average === null ? null : Number(x.average),
      venueOrderId: x.venue_order_id,
      updatedAt: new Date(x.updated_at).getTime(),
    }));
  }
}

/** Every fill of a robot in booking order (the replay feeds them back at their step). */
export async function loadFills(database: DatabaseHandle, robotId: number): Promise<StoredFillRow[]> {
  const rows = await database.exec<{ client_order_id: string; qty: string; price: string; fee: string; filled_at: string | Date }>(
    `select client_order_id, qty, price, fee, filled_at from robot_fills where robot_id = $1 order by id`,
    [robotId],
  );
  return rows.map((x) => ({
    clientOrderId: x.client_order_id,
    qty: Number(x.qty),
    price: Number(x.price),
    fee: Number(x.fee),
    at: new Date(x.filled_at).getTime(),
  }));
}

/** Inserts fills (idempotent on the fill key), fenced by the lease when `owner` is given. */
export async function insertFills(
  database: DatabaseHandle,
  robotId: number,
  fills: { clientOrderId: string; key: string; fill: Fill; notional: number }[],
  owner: string,
): Promise<void> {
  if (fills.length === 0) return;
  const params: unknown[] = [robotId, owner];
  const values: string[] = [];
  for (const f of fills) {
    const b = params.length;
    params.push(f.clientOrderId, f.key, f.fill.action, f.fill.side, String(f.fill.qty), String(f.fill.price), String(f.fill.fee), String(f.fill.pnl), f.fill.reason, new Date(f.fill.time).toISOString(), notionalText(f.notional));
    values.push(`($1::bigint, $${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}::numeric, $${b + 6}::numeric, $${b + 7}::numeric, $${b + 8}::numeric, $${b + 9}, $${b + 10}::timestamptz, $${b + 11}::numeric)`);
  }
  // A live MT5 fill is its Expert Advisor's word: it waits for the fill check (robots/fill-check.ts)
  // before it counts for volume. Fills of the exchanges' own APIs are checked as written.
  const rows = await database.exec(
    `insert into robot_fills (robot_id, client_order_id, fill_key, action, position_side, qty, price, fee, pnl, reason, filled_at, notional, checked_at)
       select v.*, ${UNCHECKED_IF_MT5} from (values ${values.join(', ')}) as v where ${LEASED}
     on conflict (robot_id, fill_key) do nothing
     returning id`,
    params as SqlParam[],
  );
  // Nothing inserted: either every key existed already (a replayed step) or the lease is gone.
  if (rows.length === 0) {
    const [ok] = await database.exec(`select 1 as ok where ${LEASED}`, [robotId, owner]);
    if (!ok) throw new LeaseLostError(robotId);
  }
}

/** Paper fills of many robots in one statement (the runner writes them after every robot decided). */
export async function insertPaperFills(
  database: DatabaseHandle,
  owner: string,
  fills: { robotId: number; clientOrderId: string; key: string; fill: Fill; notional: number }[],
): Promise<void> {
  for (let k = 0; k < fills.length; k += 500) {
    const part = fills.slice(k, k + 500);
    const params: SqlParam[] = [owner];
    const values: string[] = [];
    for (const f of part) {
      const b = params.length;
      params.push(f.robotId, f.clientOrderId, f.key, f.fill.action, f.fill.side, String(f.fill.qty), String(f.fill.price), String(f.fill.fee), String(f.fill.pnl), f.fill.reason, new Date(f.fill.time).toISOString(), notionalText(f.notional));
      values.push(`($${b + 1}::bigint, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}::numeric, $${b + 7}::numeric, $${b + 8}::numeric, $${b + 9}::numeric, $${b + 10}, $${b + 11}::timestamptz, $${b + 12}::numeric)`);
    }
    await database.exec(
      `insert into robot_fills (robot_id, client_order_id, fill_key, action, position_side, qty, price, fee, pnl, reason, filled_at, notional)
         select v.* from (values ${values.join(', ')}) as v(robot_id, client_order_id, fill_key, action, position_side, qty, price, fee, pnl, reason, filled_at, notional)
          where exists (select 1 from robots r where r.id = v.robot_id and r.lease_owner = $1)
       on conflict (robot_id, fill_key) do nothing`,
      params,
    );
  }
}

// Volume from made-up fills (issue 53 item 12). A live MT5 fill is what the user's own Expert
// Advisor reports: a modified EA could report a huge price or size and buy itself VIP volume. Each
// such fill waits (`checked_at` null, runner/journal.ts) until its minute's candle is recorded, and
// is then marked suspect when it is a demo account's, when its order's fills add up to more than
// the order sent (a close: more than its ticket's honest opening fills), when its price
// lies outside that candle's range (its neighbours' too: the broker's clock; plus a tolerance for
// the spread, the candles being bid prices), when opening it needed more margin than the account's
// equity holds at its leverage, or when its minute still has no candle after a day (a robot trades
// on candles it reads: a fill in a minute without any is made up or cannot be told from one).
// Suspect fills count for no VIP volume, ranking or team volume. Crypto fills come from the
// exchange's API, not the client.
import { accountNotionalOf, getInstrument, type Candles, type Instrument } from '@lq/engine';
import type { ConsoleSuspectFill } from '@lq/contracts';
import { rowsOf, sql, type DatabaseHandle } from '@lq/db';
import { liveSourceOf, loadRecordedRange } from '../market';

/** A fill is looked at once its minute's candle is closed and recorded. */
export const FILL_CHECK_AFTER_MS = 2 * 60_000;
/** A fill whose minute has no candle after a day is suspect (`noCandle`): nothing to judge it by. */
export const FILL_CHECK_GIVE_UP_MS = 24 * 60 * 60_000;
/** How far outside the candle's low–high a price may lie: the spread (wider at news) and the ask side. */
export const FILL_PRICE_TOLERANCE = 0.003;
const PAGE = 500;
const MINUTE = 60_000;

export type SuspectReason = ConsoleSuspectFill['reason'];

export interface FillToCheck {
  symbol: string;
  action: string;
  qty: number;
  price: number;
  at: number;
  /** The leverage (the account's or the robot's, the higher) and the equity last reported (null: none). */
  leverage: number;
  equity: number | null;
  /** The terminal said it is a demo account: play money trades no volume. */
  demo: boolean;
  /**
   * What its order may fill: an open's quantity; a close's, its ticket's opening fills found honest.
   * Null: no order of ours (the runner books every fill against one: made up).
   */
  ordered: number | null;
  /** Its order's fills up to this one (a close: every close of the ticket so far). */
  filledSoFar: number;
  /** A close whose ticket has opening fills still unchecked (wait for them), or suspect (then so is it). */
  openWaiting: boolean;
  openSuspect: boolean;
}

/** The candle range around a minute: low and high of it and its two neighbours; null when none is recorded. */
export type RangeOf = (minuteMs: number) => { low: number; high: number } | null;

/**
 * The verdict on one fill: a reason when suspect, null when it counts, undefined when it cannot
 * be judged yet (no candle of its minute recorded, and younger than a day).
 */
export function judgeFill(f: FillToCheck, rangeOf: RangeOf, nowMs: number): SuspectReason | null | undefined {
  const late = nowMs - f.at > FILL_CHECK_GIVE_UP_MS;
  if (f.demo) return 'demoAccount';
  if (!(f.price > 0) || !(f.qty > 0)) return 'outsideCandle';
  if (f.openSuspect) return 'overOrder';
  if (f.openWaiting && !late) return undefined;
  if (f.ordered === null || f.filledSoFar > f.ordered * (1 + 1e-9) + 1e-12) return 'overOrder';
  const range = rangeOf(Math.floor(f.at / MINUTE) * MINUTE);
  if (!range) return late ? 'noCandle' : undefined;
  if (f.price < range.low * (1 - FILL_PRICE_TOLERANCE) || f.price > range.high * (1 + FILL_PRICE_TOLERANCE)) return 'outsideCandle';
  if (f.action === 'open') {
    // No equity reported (an EA that leaves it out): nothing to bound the size by, so it waits, then is suspect.
    if (f.equity === null) return late ? 'overMargin' : undefined;
    const inst = instrumentOf(f.symbol);
    if (inst) {
      const margin = accountNotionalOf(f.qty, f.price, inst) / Math.max(1, f.leverage);
      if (margin > Math.max(0, f.equity) * (1 + FILL_PRICE_TOLERANCE)) return 'overMargin';
    }
  }
  return null;
}

function instrumentOf(symbol: string): Instrument | null {
  try {
    return getInstrument(symbol, 'mt5');
  } catch {
    return null;
  }
}

/** Low and high per minute of the 1m candles. */
function rangesOf(parts: Candles[]): RangeOf {
  const byMinute = new Map<number, { low: number; high: number }>();
  for (const c of parts) for (let i = 0; i < c.length; i++) byMinute.set(c.time[i], { low: c.low[i], high: c.high[i] });
  return (minute) => {
    let low = Infinity;
    let high = -Infinity;
    for (const m of [minute - MINUTE, minute, minute + MINUTE]) {
      const r = byMinute.get(m);
      if (r) {
        low = Math.min(low, r.low);
        high = Math.max(high, r.high);
      }
    }
    return low <= high ? { low, high } : null;
  };
}

interface WaitingRow {
  id: string;
  symbol: string;
  action: string;
  qty: string;
  price: string;
  at: string;
  cursor: string;
  leverage: number;
  equity: string | null;
  demo: boolean;
  ordered: string | null;
  filled_so_far: string;
  open_waiting: boolean;
  open_suspect: boolean;
}

export interface FillCheckRun {
  /** Fills this pass marked (checked), and of them suspect. */
  checked: number;
  suspect: number;
  /** Fills left for a later pass (their minute's candle not recorded yet). */
  waiting: number;
}

/** One pass over the live MT5 fills waiting for the check (every minute; safe to run twice or to stop at any line). */
export async function checkMt5Fills(database: DatabaseHandle, nowMs = Date.now()): Promise<FillCheckRun> {
  const run: FillCheckRun = { checked: 0, suspect: 0, waiting: 0 };
  const before = new Date(nowMs - FILL_CHECK_AFTER_MS).toISOString();
  // Keyset paging on (filled_at, id), the time as PostgreSQL prints it (exact to the microsecond).
  let after = { at: '-infinity', id: '0' };
  for (;;) {
    const rows = rowsOf<WaitingRow>(
      await database.db.execute(sql`select f.id::text as id, r.symbol, f.action, f.qty::text as qty, f.price::text as price,
          (extract(epoch from f.filled_at) * 1000)::bigint::text as at, f.filled_at::text as cursor,
          greatest(a.leverage, r.leverage) as leverage, a.bridge_state->>'equity' as equity, coalesce(a.bridge_state->>'demo' = 'true', false) as demo,
          case when i.action = 'open' then i.intent->>'qty' when i.action = 'close' then coalesce(t.honest, 0)::text end as ordered,
          coalesce(case when i.action = 'close' then
              (select sum(abs(g.qty)) from robot_fills g join robot_intents gi on gi.robot_id = g.robot_id and gi.client_order_id = g.client_order_id
                where gi.robot_id = f.robot_id and gi.action = 'close' and gi.ticket = i.ticket and (g.filled_at, g.id) <= (f.filled_at, f.id))
            else (select sum(abs(g.qty)) from robot_fills g where g.robot_id = f.robot_id and g.client_order_id = f.client_order_id and (g.filled_at, g.id) <= (f.filled_at, f.id)) end, 0)::text as filled_so_far,
          coalesce(t.waiting, 0) > 0 as open_waiting, coalesce(t.suspect, 0) > 0 as open_suspect
        from robot_fills f join robots r on r.id = f.robot_id join trading_accounts a on a.id = r.account_id
          left join robot_intents i on i.robot_id = f.robot_id and i.client_order_id = f.client_order_id
          -- the ticket of a close: its opening fills found honest, and how many still wait or were found suspect
          left join lateral (select sum(abs(o.qty)) filter (where o.checked_at is not null and o.suspect is null) as honest,
                count(*) filter (where o.checked_at is null) as waiting, count(*) filter (where o.suspect is not null) as suspect
              from robot_intents oi join robot_fills o on o.robot_id = oi.robot_id and o.client_order_id = oi.client_order_id
              where i.action = 'close' and oi.robot_id = f.robot_id and oi.action = 'open' and oi.tag = i.ticket) t on true
        where f.checked_at is null and f.filled_at < ${before}::timestamptz
          and (f.filled_at, f.id) > (${after.at}::timestamptz, ${after.id}::bigint)
        order by f.filled_at, f.id limit ${PAGE}`),
    );
    if (rows.length === 0) break;
    const verdicts: { id: string; suspect: SuspectReason | null }[] = [];
    const bySymbol = new Map<string, WaitingRow[]>();
    for (const r of rows) {
      const list = bySymbol.get(r.symbol);
      if (list) list.push(r);
      else bySymbol.set(r.symbol, [r]);
    }
    for (const [symbol, fills] of bySymbol) {
      const times = fills.map((f) => Number(f.at));
      const from = Math.floor(Math.min(...times) / MINUTE) * MINUTE - MINUTE;
      const to = Math.floor(Math.max(...times) / MINUTE) * MINUTE + 2 * MINUTE;
      const candles = await loadRecordedRange(database, { source: liveSourceOf('mt5'), symbol, timeframe: '1m' }, { source: 'mt5', symbol, timeframe: '1m' }, from, to);
      const rangeOf = rangesOf(candles);
      for (const f of fills) {
        const equity = f.equity === null ? null : Number(f.equity);
        const verdict = judgeFill(
          {
            symbol,
            action: f.action,
            qty: Math.abs(Number(f.qty)),
            price: Number(f.price),
            at: Number(f.at),
            leverage: f.leverage,
            equity: Number.isFinite(equity) ? equity : null,
            demo: f.demo,
            ordered: f.ordered === null ? null : Number(f.ordered),
            filledSoFar: Number(f.filled_so_far),
            openWaiting: f.open_waiting,
            openSuspect: f.open_suspect,
          },
          rangeOf,
          nowMs,
        );
        if (verdict === undefined) run.waiting++;
        else verdicts.push({ id: f.id, suspect: verdict });
      }
    }
    if (verdicts.length > 0) {
      // Marked once: a second pass (or process) finds them checked and leaves them.
      const values = sql.join(
        verdicts.map((v) => sql`(${v.id}::bigint, ${v.suspect}::text)`),
        sql`, `,
      );
      // What this pass marked (a pass beside it may have marked some first).
      const marked = rowsOf<{ suspect: string | null }>(
        await database.db.execute(sql`update robot_fills f set checked_at = now(), suspect = v.suspect
          from (values ${values}) as v(id, suspect) where f.id = v.id and f.checked_at is null returning f.suspect`),
      );
      run.checked += marked.length;
      run.suspect += marked.filter((m) => m.suspect !== null).length;
    }
    const last = rows[rows.length - 1];
    after = { at: last.cursor, id: last.id };
    if (rows.length < PAGE) break;
  }
  return run;
}

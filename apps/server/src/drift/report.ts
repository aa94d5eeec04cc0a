// A robot's live trades against its shadow's, from what is stored (issue 33, slice 2): the shadow's
// fills, the robot's fills, and the robot's record — its intents (state, the venue's error), its
// gate changes (paused, stopping, at their candle), its errors and reconciles, its stop.
import { getInstrument } from '@lq/engine';
import { rowsOf, sql, type DatabaseHandle } from '@lq/db';
import { venueOf } from '../strategy-setup';
import { matchTrades, type Matching, type RobotRecord, type TradeFill } from './match';

/** Two decision candles, at least 5 minutes: a live trade this close to the shadow's is the same decision. */
export const toleranceFor = (intervalMs: number) => Math.max(5 * 60_000, 2 * intervalMs);

const INTERVAL_MS: Record<string, number> = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '30m': 1_800_000, '1h': 3_600_000, '4h': 14_400_000, '1d': 86_400_000 };

export interface RobotMatching extends Matching {
  robotId: number;
  toleranceMs: number;
  /** Where the shadow has got to (null: no shadow yet). */
  cursor: number | null;
}

const ms = (v: string | Date | null) => (v === null ? null : new Date(v).getTime());

export async function matchingOf(database: DatabaseHandle, robotId: number): Promise<RobotMatching | null> {
  const db = database.db;
  const [robot] = rowsOf<{ symbol: string; interval: string; exchange: string; stopped_at: string | null; cursor: string | null }>(
    await db.execute(sql`select r.symbol, r.interval, a.exchange, r.stopped_at::text as stopped_at, s.cursor::text as cursor
      from robots r join trading_accounts a on a.id = r.account_id left join robot_shadows s on s.robot_id = r.id where r.id = ${robotId}`),
  );
  if (!robot) return null;
  const cursor = robot.cursor === null ? null : Number(robot.cursor);
  const shadow = rowsOf<{ client_order_id: string; action: TradeFill['action']; side: TradeFill['side']; qty: number; price: number; fee: number; filled_at: string; reason: string | null }>(
    await db.execute(sql`select client_order_id, action, side, qty, price, fee, filled_at::text as filled_at, reason from robot_shadow_fills where robot_id = ${robotId} order by seq`),
  ).map((f): TradeFill => ({ clientOrderId: f.client_order_id, action: f.action, side: f.side, qty: Number(f.qty), price: Number(f.price), fee: Number(f.fee), time: Number(f.filled_at), reason: f.reason }));
  // Only what the shadow has reached: a live fill after its cursor has no shadow to hold it against yet.
  const live = rowsOf<{ client_order_id: string; action: TradeFill['action']; position_side: TradeFill['side']; qty: string; price: string; fee: string; filled_at: string; reason: string | null }>(
    await db.execute(sql`select client_order_id, action, position_side, qty::text as qty, price::text as price, fee::text as fee, filled_at::text as filled_at, reason
      from robot_fills where robot_id = ${robotId} ${cursor === null ? sql`and false` : sql`and filled_at < to_timestamp(${(cursor + 60_000) / 1000})`} order by id`),
  ).map((f): TradeFill => ({ clientOrderId: f.client_order_id, action: f.action, side: f.position_side, qty: Number(f.qty), price: Number(f.price), fee: Number(f.fee), time: ms(f.filled_at)!, reason: f.reason }));
  const intents = rowsOf<{ client_order_id: string; state: string; error: string | null }>(
    await db.execute(sql`select client_order_id, state, error from robot_intents where robot_id = ${robotId}`),
  );
  const events = rowsOf<{ kind: string; message: string | null; detail: { at?: number; mode?: 'open' | 'paused' | 'stopping'; message?: string } | null; created_at: string }>(
    await db.execute(sql`select kind, message, detail, created_at::text as created_at from robot_events where robot_id = ${robotId} and kind in ('runner', 'error', 'reconciled') order by id`),
  );
  const record: RobotRecord = {
    intents: new Map(intents.map((i) => [i.client_order_id, { state: i.state, error: i.error }])),
    gates: events.filter((e) => e.kind === 'runner' && typeof e.detail?.at === 'number' && e.detail.mode).map((e) => ({ at: e.detail!.at!, mode: e.detail!.mode! })),
    errors: events
      .filter((e) => e.kind === 'error')
      .map((e) => ({ at: ms(e.created_at)!, key: (e.message ?? '').replace(/^robot\.error\./, ''), message: e.detail?.message ?? null })),
    reconciles: events.filter((e) => e.kind === 'reconciled').map((e) => ms(e.created_at)!),
    stoppedAt: ms(robot.stopped_at),
  };
  const instrument = getInstrument(robot.symbol, venueOf(robot.exchange));
  const toleranceMs = toleranceFor(INTERVAL_MS[robot.interval] ?? 60_000);
  return { robotId, toleranceMs, cursor, ...matchTrades(shadow, live, record, { toleranceMs, point: instrument.point, contractSize: instrument.contractSize }) };
}

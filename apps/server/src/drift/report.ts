// A robot's live trades against its shadow's, from what is stored (issue 33, slice 2): the shadow's
// fills, the robot's fills, and the robot's record — its intents (state, the venue's error), its
// gate changes (paused, stopping, at their candle), its errors and reconciles, its stop.
import { getInstrument, intervalToMs, lowerBound, type Candles } from '@lq/engine';
import { rowsOf, sql, type DatabaseHandle } from '@lq/db';
import { venueOf } from '../strategy-setup';
import type { RobotDrift } from '@lq/contracts';
import { latePairs, matchTrades, withFunding, withMarketMove, type CloseAt, type FundingPayment, type Matching, type Pair, type RobotRecord, type Trade, type TradeFill } from './match';
import { robotCandles } from './service';

/** Two decision candles, at least 5 minutes: a live trade this close to the shadow's is the same decision. */
export const toleranceFor = (intervalMs: number) => Math.max(5 * 60_000, 2 * intervalMs);

export interface RobotMatching extends Matching {
  robotId: number;
  toleranceMs: number;
  /** Where the shadow has got to (null: no shadow yet), and where it started. */
  cursor: number | null;
  fromMs: number | null;
  capital: number;
  alert: { gapPct: number; onMissed: boolean };
  /** The live robot's funding payments up to the cursor (negative: paid). */
  funding: FundingPayment[];
}

const ms = (v: string | Date | null) => (v === null ? null : new Date(v).getTime());

export async function matchingOf(database: DatabaseHandle, robotId: number): Promise<RobotMatching | null> {
  const db = database.db;
  const [robot] = rowsOf<{ symbol: string; interval: string; exchange: string; capital: string; stopped_at: string | null; cursor: string | null; from_ms: string | null; alert_pct: string; alert_missed: boolean }>(
    await db.execute(sql`select r.symbol, r.interval, a.exchange, r.capital::text as capital, r.drift_alert_pct::text as alert_pct, r.drift_alert_missed as alert_missed, r.stopped_at::text as stopped_at, s.cursor::text as cursor, s.from_ms::text as from_ms
      from robots r join trading_accounts a on a.id = r.account_id left join robot_shadows s on s.robot_id = r.id where r.id = ${robotId}`),
  );
  if (!robot) return null;
  const cursor = robot.cursor === null ? null : Number(robot.cursor);
  const shadow = rowsOf<{ client_order_id: string; action: TradeFill['action']; side: TradeFill['side']; qty: number; price: number; fee: number; pnl: number; filled_at: string; reason: string | null; ticket: string }>(
    await db.execute(sql`select client_order_id, action, side, qty, price, fee, pnl, filled_at::text as filled_at, reason, ticket from robot_shadow_fills where robot_id = ${robotId} order by seq`),
  ).map((f): TradeFill => ({ clientOrderId: f.client_order_id, action: f.action, side: f.side, qty: Number(f.qty), price: Number(f.price), fee: Number(f.fee), pnl: Number(f.pnl), time: Number(f.filled_at), reason: f.reason, ticket: f.ticket }));
  // Only what the shadow has reached: a live fill after its cursor has no shadow to hold it against yet.
  const live = rowsOf<{ client_order_id: string; action: TradeFill['action']; position_side: TradeFill['side']; qty: string; price: string; fee: string; pnl: string; filled_at: string; reason: string | null; ticket: string | null }>(
    await db.execute(sql`select f.client_order_id, f.action, f.position_side, f.qty::text as qty, f.price::text as price, f.fee::text as fee, f.pnl::text as pnl, f.filled_at::text as filled_at, f.reason, i.ticket
      from robot_fills f left join robot_intents i on i.robot_id = f.robot_id and i.client_order_id = f.client_order_id
      where f.robot_id = ${robotId} ${cursor === null ? sql`and false` : sql`and f.filled_at < to_timestamp(${(cursor + 60_000) / 1000})`} order by f.id`),
  ).map((f): TradeFill => ({ clientOrderId: f.client_order_id, action: f.action, side: f.position_side, qty: Number(f.qty), price: Number(f.price), fee: Number(f.fee), pnl: Number(f.pnl), time: ms(f.filled_at)!, reason: f.reason, ticket: f.ticket }));
  const funding = rowsOf<{ amount: string; paid_at: string }>(
    await db.execute(sql`select amount::text as amount, paid_at::text as paid_at from robot_funding where robot_id = ${robotId} ${cursor === null ? sql`and false` : sql`and paid_at < ${cursor + 60_000}`} order by paid_at`),
  ).map((f) => ({ time: Number(f.paid_at), amount: Number(f.amount) }));
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
  const toleranceMs = toleranceFor(intervalToMs(robot.interval));
  const fromMs = robot.from_ms === null ? null : Number(robot.from_ms);
  const options = { toleranceMs, point: instrument.point, contractSize: instrument.contractSize };
  const matched = matchTrades(shadow, live, record, options);
  // Pairs at different times: the candles between tell the market's move (timing) from the venue's slippage.
  const late = latePairs(matched.pairs);
  const pairs = late.length > 0 ? withMarketMove(matched.pairs, await closesAround(database, robot.exchange, robot.symbol, late), options) : matched.pairs;
  const matching = withFunding({ pairs, unpaired: matched.unpaired }, funding);
  return { robotId, toleranceMs, cursor, fromMs, capital: Number(robot.capital), alert: { gapPct: Number(robot.alert_pct), onMissed: robot.alert_missed }, funding, ...matching };
}

/** Late pairs closer than this share one candle read. */
const READ_GAP_MS = 6 * 3_600_000;

/**
 * The closes of the candles around the late pairs' times only (each pair's span and a candle either
 * side, spans nearer than `READ_GAP_MS` read together): the report is asked every minute, and a
 * month of candles is not read for a few late fills.
 */
async function closesAround(database: DatabaseHandle, exchange: string, symbol: string, late: readonly Pair[]): Promise<CloseAt> {
  const spans = late.map((p) => [Math.min(p.shadow.time, p.live.time) - 60_000, Math.max(p.shadow.time, p.live.time) + 60_000]).sort((a, b) => a[0] - b[0]);
  const merged: number[][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] - last[1] < READ_GAP_MS) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  const runs: Candles[] = [];
  for (const [fromMs, toMs] of merged) runs.push(...(await robotCandles(database, exchange, symbol, fromMs, toMs)).filter((c) => c.length > 0));
  return closesOf(runs);
}

/** The close of the last candle opened at or before a time (the candle the robot had then stepped), over runs in time order. */
function closesOf(runs: readonly Candles[]): CloseAt {
  return (time) => {
    for (let r = runs.length - 1; r >= 0; r--) {
      const c = runs[r];
      if (c.time[0] > time) continue;
      return c.close[lowerBound(c.time, c.length, time + 1) - 1];
    }
    return undefined;
  };
}

const net = (trades: readonly Trade[]) => trades.reduce((sum, t) => sum + t.pnl - t.fee, 0);
const round = (v: number, digits = 8) => Math.round(v * 10 ** digits) / 10 ** digits || 0;

/** Realised equity over time: the capital at the start, then after each trade and funding payment. */
function curveOf(trades: readonly Trade[], funding: readonly { time: number; amount: number }[], capital: number, fromMs: number | null, cursor: number | null): { time: number; value: number }[] {
  const out: { time: number; value: number }[] = [];
  if (fromMs !== null) out.push({ time: fromMs, value: capital });
  let value = capital;
  const changes = [...trades.map((t) => ({ time: t.time, amount: t.pnl - t.fee })), ...funding].sort((a, b) => a.time - b.time);
  for (const c of changes) {
    value += c.amount;
    out.push({ time: c.time, value: round(value) });
  }
  if (cursor !== null && (out.length === 0 || out[out.length - 1].time < cursor)) out.push({ time: cursor, value: round(value) });
  return out;
}

/**
 * The drift report: each side's realised result, the gap (live − shadow) and its parts — price
 * slippage of the paired trades, their fee differences, the live robot's funding (the backtest has
 * none), the shadow's trades the robot missed, the robot's extra trades, and the rest (timing and
 * size) — with the pairs, the unpaired trades and
 * both equity curves. Null for no such robot.
 */
export async function driftReportOf(database: DatabaseHandle, robotId: number): Promise<RobotDrift | null> {
  const m = await matchingOf(database, robotId);
  if (!m) return null;
  const liveTrades = [...m.pairs.map((p) => p.live), ...m.unpaired.filter((u) => u.on === 'live').map((u) => u.trade)];
  const shadowTrades = [...m.pairs.map((p) => p.shadow), ...m.unpaired.filter((u) => u.on === 'shadow').map((u) => u.trade)];
  const liveFunding = m.funding.reduce((s, f) => s + f.amount, 0);
  const side = (trades: Trade[], funding: number) => {
    const pnl = net(trades) + funding;
    return { pnl: round(pnl), fees: round(trades.reduce((s, t) => s + t.fee, 0)), funding: round(funding), trades: trades.length, returnPct: m.capital > 0 ? round((pnl / m.capital) * 100, 4) : 0 };
  };
  // The backtest models no funding: the live robot's is all drift.
  const live = side(liveTrades, liveFunding);
  const shadow = side(shadowTrades, 0);
  const total = net(liveTrades) + liveFunding - net(shadowTrades);
  const slippage = -m.pairs.reduce((s, p) => s + p.slippageMoney, 0);
  const fees = -m.pairs.reduce((s, p) => s + p.feeDiff, 0);
  const missed = -net(m.unpaired.filter((u) => u.on === 'shadow').map((u) => u.trade));
  const extra = net(m.unpaired.filter((u) => u.on === 'live').map((u) => u.trade));
  return {
    robotId,
    cursor: m.cursor,
    fromMs: m.fromMs,
    toleranceMs: m.toleranceMs,
    capital: m.capital,
    alert: m.alert,
    live,
    shadow,
    gap: {
      total: round(total),
      pct: m.capital > 0 ? round((total / m.capital) * 100, 4) : 0,
      slippage: round(slippage),
      fees: round(fees),
      funding: round(liveFunding),
      missed: round(missed),
      extra: round(extra),
      timing: round(total - slippage - fees - liveFunding - missed - extra),
    },
    pairs: m.pairs,
    unpaired: m.unpaired,
    curves: { live: curveOf(liveTrades, m.funding, m.capital, m.fromMs, m.cursor), shadow: curveOf(shadowTrades, [], m.capital, m.fromMs, m.cursor) },
  };
}

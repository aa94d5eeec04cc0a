// Matching a robot's live trades with its shadow backtest's (issue 33, slice 2). Pure: fills in,
// pairs and unpaired trades out.
//
// A trade is one order: the live side's fills of one client order id (partial fills summed, the
// price weighted by quantity), the shadow's one fill. Pairing, one-to-one:
//   1. by leg — the same client order id: the robot gives an intent the id the shadow's same
//      intent has, so an id on both sides is the same decision;
//   2. what is left, by action and position side at the nearest time within `toleranceMs`
//      (a strategy whose state drifted names its orders differently but still trades alike).
// Every trade left over is explained by the likeliest cause read from the robot's own record:
// its intents (refused by the venue and why, never filled), its gate events (paused, stopping),
// its errors (venue or bridge unreachable), its stop — or, for a close, that the position it
// closes was never opened (its opening trade is itself missed).
//
// A pair's price difference is split in two: what the market moved between the backtest's time and
// the live fill's (timing: a late order pays it), as far as it goes the price's way, and the rest,
// the execution (slippage).

export type Action = 'open' | 'close';
export type PositionSide = 'long' | 'short';

export interface TradeFill {
  clientOrderId: string;
  action: Action;
  side: PositionSide;
  qty: number;
  price: number;
  fee: number;
  /** Realised PnL of a closing fill (before fees), 0 for an opening one. */
  pnl: number;
  /** ms */
  time: number;
  /** Why a position closed (tp, sl, manual, …), or null. */
  reason: string | null;
  /** The position (ticket) the fill opens or closes, where known. */
  ticket?: string | null;
}

/** One order of one side, its fills together: quantity, fee and PnL summed, the price weighted by quantity, the first fill's time. */
export interface Trade extends TradeFill {
  fills: number;
}

export interface Pair {
  shadow: Trade;
  live: Trade;
  /** How the pair was found. */
  by: 'leg' | 'time';
  /** live − shadow (ms): positive, the live trade came later. */
  offsetMs: number;
  /** The market's move between the shadow's time and the live fill's, against the trader, in points (timing). */
  movePoints: number;
  /** The same in money over the live quantity. */
  moveMoney: number;
  /** Price worse for the trader than the shadow's beyond the market's move, in points (negative: better). */
  slippagePoints: number;
  /** The same in money over the live quantity (quote currency). */
  slippageMoney: number;
  /** live − shadow fees. */
  feeDiff: number;
  /** The live quantity is short of the shadow's (partial fill, or a size corrected to the venue's step). */
  qtyShort: number;
  /** Funding received (negative: paid) on the live position this pair's trade opened, while it was held (the backtest has none). */
  funding: number;
}

export type Cause =
  /** The venue refused the order (detail: its reason). */
  | 'refused'
  /** The order was sent but never filled (detail: its state). */
  | 'notFilled'
  /** The robot was paused when the shadow traded. */
  | 'paused'
  /** The robot was stopping or stopped. */
  | 'stopped'
  /** The venue or the MT5 bridge could not be reached around that time. */
  | 'venueDown'
  /** A live trade closing out at a stop, which the shadow does not do. */
  | 'stopCloseOut'
  /** A live trade adopted or closed by the reconcile after a restart. */
  | 'reconciled'
  /** A close whose position was never opened live: its opening trade is missed too (detail: that one's cause). */
  | 'openMissed'
  /** Nothing in the robot's record explains it. */
  | 'unknown';

export interface Unpaired {
  /** `shadow`: the backtest traded and the robot did not (a missed trade); `live`: the reverse (an extra trade). */
  on: 'shadow' | 'live';
  trade: Trade;
  cause: Cause;
  detail: string | null;
  /** As a pair's: funding on the live position an extra opening trade opened (0 for a missed trade). */
  funding: number;
}

/** What the robot's own record says: its intents by client id, its gate changes and errors in time. */
export interface RobotRecord {
  intents: ReadonlyMap<string, { state: string; error: string | null }>;
  /** Gate changes (open, paused, stopping) at their candle, in time order. */
  gates: readonly { at: number; mode: 'open' | 'paused' | 'stopping' }[];
  /** Venue errors in time order (kind `error` events: their key and message). */
  errors: readonly { at: number; key: string; message: string | null }[];
  /** Reconciles after restarts. */
  reconciles: readonly number[];
  /** When the robot stopped, or null. */
  stoppedAt: number | null;
}

export interface Matching {
  pairs: Pair[];
  unpaired: Unpaired[];
}

/** The fills of one side as trades (one per client order id), in time order. */
export function tradesOf(fills: readonly TradeFill[]): Trade[] {
  const byOrder = new Map<string, Trade & { notional: number }>();
  for (const f of fills) {
    const t = byOrder.get(f.clientOrderId);
    if (!t) {
      byOrder.set(f.clientOrderId, { clientOrderId: f.clientOrderId, action: f.action, side: f.side, qty: f.qty, price: f.price, fee: f.fee, pnl: f.pnl, time: f.time, fills: 1, reason: f.reason, ticket: f.ticket ?? null, notional: f.qty * f.price });
      continue;
    }
    t.qty += f.qty;
    t.notional += f.qty * f.price;
    t.price = t.qty > 0 ? t.notional / t.qty : f.price;
    t.fee += f.fee;
    t.pnl += f.pnl;
    t.time = Math.min(t.time, f.time);
    t.fills++;
    t.reason ??= f.reason;
  }
  return [...byOrder.values()].map(({ notional: _n, ...t }) => t).sort((a, b) => a.time - b.time || a.clientOrderId.localeCompare(b.clientOrderId));
}

/** Buying (opening a long, closing a short) at a higher price is worse; selling at a lower one. */
const buys = (t: Pick<Trade, 'action' | 'side'>) => (t.action === 'open') === (t.side === 'long');

/** The last close at or before `time` (the candle the robot had stepped then), for the timing part. */
export type CloseAt = (time: number) => number | undefined;

function pairOf(shadow: Trade, live: Trade, by: Pair['by'], o: MatchOptions, closeAt?: CloseAt): Pair {
  const { point, contractSize } = o;
  const direction = buys(live) ? 1 : -1;
  const worse = direction * (live.price - shadow.price);
  const from = live.time !== shadow.time ? closeAt?.(shadow.time) : undefined;
  const to = from !== undefined ? closeAt?.(live.time) : undefined;
  // The market's move explains the price's difference only as far as both go the same way: a limit
  // order filled at its price a candle apart has no timing cost, whatever the market did meanwhile.
  const marketMove = from !== undefined && to !== undefined ? direction * (to - from) : 0;
  const move = Math.sign(marketMove) === Math.sign(worse) ? Math.sign(worse) * Math.min(Math.abs(marketMove), Math.abs(worse)) : 0;
  return {
    shadow,
    live,
    by,
    offsetMs: live.time - shadow.time,
    // `|| 0`: no −0 for no move or no slippage.
    movePoints: point > 0 ? move / point || 0 : 0,
    moveMoney: move * live.qty * contractSize || 0,
    slippagePoints: point > 0 ? (worse - move) / point || 0 : 0,
    slippageMoney: (worse - move) * live.qty * contractSize || 0,
    feeDiff: live.fee - shadow.fee,
    qtyShort: Math.max(0, shadow.qty - live.qty),
    funding: 0,
  };
}

/** The gate mode at `at` (the last change at or before it). */
function gateAt(record: RobotRecord, at: number): 'open' | 'paused' | 'stopping' {
  let mode: 'open' | 'paused' | 'stopping' = 'open';
  for (const g of record.gates) {
    if (g.at > at) break;
    mode = g.mode;
  }
  return mode;
}

const VENUE_DOWN = new Set(['venueFault', 'unreachable', 'bridgeOffline', 'timeout']);

function missedCause(t: Trade, record: RobotRecord, toleranceMs: number): { cause: Cause; detail: string | null } {
  const intent = record.intents.get(t.clientOrderId);
  if (intent?.state === 'rejected') return { cause: 'refused', detail: intent.error };
  if (intent) return { cause: 'notFilled', detail: intent.state };
  if (record.stoppedAt !== null && t.time >= record.stoppedAt) return { cause: 'stopped', detail: null };
  const gate = gateAt(record, t.time);
  if (gate === 'paused') return { cause: 'paused', detail: null };
  if (gate === 'stopping') return { cause: 'stopped', detail: null };
  const down = record.errors.find((e) => VENUE_DOWN.has(e.key) && Math.abs(e.at - t.time) <= toleranceMs);
  if (down) return { cause: 'venueDown', detail: down.message };
  // A refusal near the time under another id (the strategy named the retry differently).
  const refusal = record.errors.find((e) => !VENUE_DOWN.has(e.key) && Math.abs(e.at - t.time) <= toleranceMs);
  if (refusal) return { cause: 'refused', detail: refusal.message ?? refusal.key };
  return { cause: 'unknown', detail: null };
}

function extraCause(t: Trade, record: RobotRecord, toleranceMs: number): { cause: Cause; detail: string | null } {
  if (t.action === 'close' && (t.reason === 'manual' || gateAt(record, t.time) === 'stopping')) return { cause: 'stopCloseOut', detail: null };
  if (record.reconciles.some((at) => Math.abs(at - t.time) <= toleranceMs)) return { cause: 'reconciled', detail: null };
  if (gateAt(record, t.time) === 'paused') return { cause: 'paused', detail: 'filled while paused (a resting order)' };
  return { cause: 'unknown', detail: null };
}

export interface MatchOptions {
  toleranceMs: number;
  point: number;
  contractSize: number;
}

/**
 * Pairs live trades with shadow trades, one-to-one (by leg, then by action, side and nearest time
 * within `toleranceMs`), and names the likeliest cause of each trade left over. A pair's price
 * difference is all slippage here; `withMarketMove` splits the late pairs' with the candles.
 */
export function matchTrades(shadowFills: readonly TradeFill[], liveFills: readonly TradeFill[], record: RobotRecord, o: MatchOptions): Matching {
  const shadow = tradesOf(shadowFills);
  const live = tradesOf(liveFills);
  const pairs: Pair[] = [];
  const liveById = new Map(live.map((t) => [t.clientOrderId, t]));
  const usedLive = new Set<Trade>();
  const leftShadow: Trade[] = [];
  for (const s of shadow) {
    const l = liveById.get(s.clientOrderId);
    if (l && l.action === s.action && l.side === s.side) {
      pairs.push(pairOf(s, l, 'leg', o));
      usedLive.add(l);
    } else leftShadow.push(s);
  }
  // By time: every candidate pair within the tolerance, closest first (ties: earlier shadow, earlier live).
  const leftLive = live.filter((l) => !usedLive.has(l));
  const candidates: { s: Trade; l: Trade; d: number }[] = [];
  for (const s of leftShadow) {
    for (const l of leftLive) {
      if (l.action !== s.action || l.side !== s.side) continue;
      const d = Math.abs(l.time - s.time);
      if (d <= o.toleranceMs) candidates.push({ s, l, d });
    }
  }
  candidates.sort((a, b) => a.d - b.d || a.s.time - b.s.time || a.l.time - b.l.time);
  const pairedShadow = new Set<Trade>();
  for (const c of candidates) {
    if (pairedShadow.has(c.s) || usedLive.has(c.l)) continue;
    pairs.push(pairOf(c.s, c.l, 'time', o));
    pairedShadow.add(c.s);
    usedLive.add(c.l);
  }
  pairs.sort((a, b) => a.shadow.time - b.shadow.time || a.live.time - b.live.time);
  const missed = leftShadow.filter((s) => !pairedShadow.has(s)).map((trade) => ({ on: 'shadow' as const, trade, ...missedCause(trade, record, o.toleranceMs), funding: 0 }));
  // A missed close whose position's opening is missed too: the robot had nothing to close.
  const missedOpens = new Map(missed.filter((u) => u.trade.action === 'open' && u.trade.ticket).map((u) => [u.trade.ticket, u]));
  for (const u of missed) {
    const open = u.trade.action === 'close' && u.trade.ticket ? missedOpens.get(u.trade.ticket) : undefined;
    if (open && (u.cause === 'unknown' || u.cause === open.cause)) Object.assign(u, { cause: 'openMissed', detail: open.detail ? `${open.cause}: ${open.detail}` : open.cause });
  }
  const unpaired: Unpaired[] = [
    ...missed,
    ...live.filter((l) => !usedLive.has(l)).map((trade) => ({ on: 'live' as const, trade, ...extraCause(trade, record, o.toleranceMs), funding: 0 })),
  ].sort((a, b) => a.trade.time - b.trade.time);
  return { pairs, unpaired };
}

/** The pairs at different times (those the market's move can explain part of). */
export const latePairs = (pairs: readonly Pair[]) => pairs.filter((p) => p.offsetMs !== 0);

/** The pairs with each late pair's price difference split into the market's move (timing) and the rest, read from the candles' closes. */
export function withMarketMove(pairs: readonly Pair[], closeAt: CloseAt, o: MatchOptions): Pair[] {
  return pairs.map((p) => (p.offsetMs === 0 ? p : { ...pairOf(p.shadow, p.live, p.by, o, closeAt), funding: p.funding }));
}

/** One funding settlement on the robot's symbol (negative: paid). */
export interface FundingPayment {
  time: number;
  amount: number;
}

/**
 * Shares each funding payment among the live positions (tickets) open at its time, in proportion to
 * their signed size (long +, short −) — a settlement pays rate × mark × net position, so each ticket's
 * share is what it alone would have paid — and books a ticket's funding on the trade that opened it
 * (a pair or an extra trade). A payment when no ticketed position was open, or the tickets net to
 * nothing, stays with the robot only (the gap's funding part holds every payment).
 */
export function withFunding(matching: Matching, payments: readonly FundingPayment[]): Matching {
  if (payments.length === 0) return matching;
  const live = [...matching.pairs.map((p) => p.live), ...matching.unpaired.filter((u) => u.on === 'live').map((u) => u.trade)].sort((a, b) => a.time - b.time);
  const opener = new Map<string, Trade>();
  const changes: { time: number; ticket: string; signed: number }[] = [];
  for (const t of live) {
    if (!t.ticket) continue;
    if (t.action === 'open' && !opener.has(t.ticket)) opener.set(t.ticket, t);
    const sign = t.side === 'long' ? 1 : -1;
    changes.push({ time: t.time, ticket: t.ticket, signed: (t.action === 'open' ? 1 : -1) * sign * t.qty });
  }
  const byOpener = new Map<Trade, number>();
  const held = new Map<string, number>();
  let next = 0;
  for (const pay of [...payments].sort((a, b) => a.time - b.time)) {
    // A trade at the settlement's own time came after it (the venue settles on the hour, before any order of that minute).
    while (next < changes.length && changes[next].time < pay.time) {
      const c = changes[next++];
      held.set(c.ticket, (held.get(c.ticket) ?? 0) + c.signed);
    }
    const open = [...held].filter(([ticket, signed]) => Math.abs(signed) > 1e-12 && opener.has(ticket));
    const net = open.reduce((sum, [, signed]) => sum + signed, 0);
    if (Math.abs(net) <= 1e-12) continue;
    for (const [ticket, signed] of open) {
      const trade = opener.get(ticket)!;
      byOpener.set(trade, (byOpener.get(trade) ?? 0) + (pay.amount * signed) / net);
    }
  }
  if (byOpener.size === 0) return matching;
  return {
    pairs: matching.pairs.map((p) => (byOpener.has(p.live) ? { ...p, funding: byOpener.get(p.live)! } : p)),
    unpaired: matching.unpaired.map((u) => (u.on === 'live' && byOpener.has(u.trade) ? { ...u, funding: byOpener.get(u.trade)! } : u)),
  };
}

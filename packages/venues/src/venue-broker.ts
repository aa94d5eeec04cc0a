// The engine's synchronous Broker port over an asynchronous Venue. Intents are recorded in a
// journal (state `sending`) before they are sent, with client order ids derived from
// (robot, intent tag, action); `flush()` sends what is queued, `sync()` queries what is open or
// unknown and turns fills into engine Fills. The robot runner owns the journal's storage.
//
// Runner mode (`deferFills`): fills are booked only in `sync()` (a deterministic point of the
// robot's candle loop), each saved through `journal.saveFill` before the strategy hears of it, so a
// restarted runner can replay the robot: `adopt()` the journal, re-run the strategy over its candles
// with `replaying` set (intents found in the journal are adopted, never sent; stored fills are fed
// back by `replayFills` at the step they were booked), then `reconcile()` with the venue.
import { fromVenueAmount, OrderRejectedError, toVenueAmount } from '@lq/engine';
import type { AmendIntent, Broker, Clock, CloseIntent, ExitReason, Fill, Instrument, OpenIntent, PendingOrder, PositionSide, Ticket } from '@lq/engine';
import type { PlaceOrderRequest, Venue, VenueFill, VenueMarket, VenueOrder } from './ccxt';
import { clientOrderId, isOurClientOrderId } from './client-order-id';
import { VenueError } from './errors';

export type IntentState = 'queued' | 'sending' | 'open' | 'unknown' | 'filled' | 'canceled' | 'rejected';

export interface IntentRecord {
  readonly clientOrderId: string;
  readonly tag: string;
  /** Tag of the ticket this order opens or closes. */
  readonly ticket: string;
  readonly action: 'open' | 'close';
  readonly positionSide: PositionSide;
  readonly request: PlaceOrderRequest;
  readonly intent: OpenIntent | CloseIntent;
  state: IntentState;
  /** Filled venue contracts booked as engine fills so far. */
  filled: number;
  average: number | null;
  cancelRequested: boolean;
  error: string | null;
  /** The venue's last answer about this order: cumulative amount filled, average price, its id. */
  venueFilled: number;
  venueAverage: number | null;
  venueOrderId: string | null;
  /** Cost (Σ venue amount × price) and fees of the fills booked so far. */
  bookedCost: number;
  bookedFee: number;
  /** The journal row's last update (epoch ms) when adopted from a journal. */
  updatedAt: number | null;
}

/** A fill as stored by the journal (the runner's robot_fills). `qty` in engine units. */
export interface StoredFill {
  readonly clientOrderId: string;
  readonly qty: number;
  readonly price: number;
  readonly fee: number;
}

/** Where intents are written before they are sent (the runner stores them in the database). */
export interface IntentJournal {
  save(record: IntentRecord): Promise<void>;
  /** Runner mode: stores a fill (idempotent on `key`) before the strategy is told about it. */
  saveFill?(record: IntentRecord, fill: Fill, key: string): Promise<void>;
}

/** A journal row loaded at restart (see `VenueBroker.adopt`). */
export interface KnownIntent {
  readonly clientOrderId: string;
  readonly state: IntentState;
  readonly filled: number;
  readonly average: number | null;
  readonly venueOrderId: string | null;
  readonly updatedAt: number;
}

export interface ReconcileResult {
  /** False: an intent's outcome cannot be known yet (wait and call again before trading). */
  readonly done: boolean;
  readonly queried: number;
  readonly resent: number;
  readonly orphansCanceled: string[];
  /** Net position at the venue and in our tickets (engine qty, + long − short). */
  readonly venuePosition: number;
  readonly ledgerPosition: number;
}

export class MemoryIntentJournal implements IntentJournal {
  readonly records = new Map<string, IntentRecord>();
  readonly writes: { clientOrderId: string; state: IntentState }[] = [];
  save(r: IntentRecord): Promise<void> {
    this.records.set(r.clientOrderId, { ...r });
    this.writes.push({ clientOrderId: r.clientOrderId, state: r.state });
    return Promise.resolve();
  }
}

export interface VenueBrokerOptions {
  venue: Venue;
  market: VenueMarket;
  instrument: Instrument;
  robotId: string;
  journal: IntentJournal;
  clock: Clock;
  /** An intent the venue refused or that needs a human (reject / fault / stop): pause the robot. */
  onError?: (error: VenueError, record: IntentRecord) => void;
  /** Runner mode: book fills only in `sync()` / `replayFills()`, persisted first (see the header). */
  deferFills?: boolean;
}

const FINAL: ReadonlySet<IntentState> = new Set(['filled', 'canceled', 'rejected']);
const EPS = 1e-9;

interface MutableTicket {
  tag: string;
  side: PositionSide;
  qty: number;
  entryPrice: number;
  entryTime: number;
  takeProfit: number | null;
  stopLoss: number | null;
  tpReason: ExitReason;
  slReason: ExitReason;
}

export class VenueBroker implements Broker {
  private readonly ticketList: MutableTicket[] = [];
  private readonly pendingList: PendingOrder[] = [];
  private readonly records = new Map<string, IntentRecord>();
  private readonly queue: { kind: 'place' | 'cancel'; record: IntentRecord }[] = [];
  private listener: ((fill: Fill) => void) | null = null;
  private readonly known = new Map<string, KnownIntent>();
  /** Replaying the robot's history: adopt journalled intents, send nothing, book only stored fills. */
  replaying = false;

  /** The instrument with the live market's unit: the engine's conversions then apply (one place). */
  private readonly venueInstrument: Instrument;

  constructor(private readonly o: VenueBrokerOptions) {
    this.venueInstrument = { ...o.instrument, venueUnit: o.market.contractSize };
  }

  /** Loads the journal of a restarted robot: intents re-emitted with these ids are adopted, not sent. */
  adopt(rows: Iterable<KnownIntent>): void {
    for (const r of rows) this.known.set(r.clientOrderId, r);
  }

  get tickets(): readonly Ticket[] {
    return this.ticketList;
  }

  get pending(): readonly PendingOrder[] {
    return this.pendingList;
  }

  /** Records by client order id (state as last saved). */
  get intents(): ReadonlyMap<string, IntentRecord> {
    return this.records;
  }

  setFillListener(listener: ((fill: Fill) => void) | null): void {
    this.listener = listener;
  }

  /** Engine quantity (contracts of the instrument) → venue amount, on the venue's step. */
  private toVenue(qty: number): number {
    const steps = Math.round(toVenueAmount(qty, this.venueInstrument) / this.o.market.amountStep);
    return Number((steps * this.o.market.amountStep).toFixed(10));
  }

  private toEngine(amount: number): number {
    return fromVenueAmount(amount, this.venueInstrument);
  }

  private isLive(tag: string): boolean {
    return this.ticketList.some((t) => t.tag === tag) || this.pendingList.some((p) => p.tag === tag);
  }

  private enqueue(intent: OpenIntent | CloseIntent, ticket: string, positionSide: PositionSide, qty: number): void {
    if (this.isLive(intent.tag)) throw new OrderRejectedError(`duplicate tag "${intent.tag}"`, intent.tag);
    if (intent.type === 'stop') throw new OrderRejectedError('stop orders are not sent to venues yet', intent.tag);
    const amount = this.toVenue(qty);
    const want = qty * this.o.instrument.contractSize;
    if (!(amount > 0) || Math.abs(amount * this.o.market.contractSize - want) > want * 1e-9) {
      throw new OrderRejectedError(`qty ${qty} is not a multiple of the venue's amount step ${this.o.market.amountStep}`, intent.tag);
    }
    const action = intent.kind;
    const buy = (action === 'open') === (positionSide === 'long');
    const record: IntentRecord = {
      clientOrderId: clientOrderId(this.o.robotId, intent.tag, action),
      tag: intent.tag,
      ticket,
      action,
      positionSide,
      intent,
      request: {
        symbol: this.o.market.symbol,
        clientOrderId: clientOrderId(this.o.robotId, intent.tag, action),
        side: buy ? 'buy' : 'sell',
        type: intent.type === 'limit' ? 'limit' : 'market',
        amount,
        price: intent.type === 'limit' ? intent.price : undefined,
        reduceOnly: action === 'close',
      },
      state: 'queued',
      filled: 0,
      average: null,
      cancelRequested: false,
      error: null,
      venueFilled: 0,
      venueAverage: null,
      venueOrderId: null,
      bookedCost: 0,
      bookedFee: 0,
      updatedAt: null,
    };
    const k = this.known.get(record.clientOrderId);
    if (k) {
      record.state = k.state;
      record.venueFilled = k.filled;
      record.venueAverage = k.average;
      record.venueOrderId = k.venueOrderId;
      record.updatedAt = k.updatedAt;
    }
    this.records.set(record.clientOrderId, record);
    this.pendingList.push({ tag: intent.tag, intent });
    this.queue.push({ kind: 'place', record });
  }

  submitOpen(intent: OpenIntent): void {
    this.enqueue(intent, intent.tag, intent.side, intent.qty);
  }

  submitClose(intent: CloseIntent): void {
    const t = this.ticketList.find((x) => x.tag === intent.ticket);
    if (!t) return;
    // One close at a time per ticket: a second reduce-only close would be refused by the venue.
    if (this.closing(t.tag)) return;
    this.enqueue(intent, t.tag, t.side, t.qty);
  }

  private closing(ticket: string): boolean {
    return this.pendingList.some((p) => p.intent.kind === 'close' && p.intent.ticket === ticket);
  }

  /**
   * Take profit / stop loss of the tickets, watched on each input candle (they are not venue orders
   * yet): a ticket whose level the candle's range touched is closed at market (tags `<ticket>#tp`,
   * `<ticket>#sl`). Deterministic in the candles, so a replay re-emits the same closes.
   */
  checkTriggers(high: number, low: number): void {
    for (const t of [...this.ticketList]) {
      if (this.closing(t.tag)) continue;
      const long = t.side === 'long';
      const tp = t.takeProfit !== null && (long ? high >= t.takeProfit : low <= t.takeProfit);
      const sl = t.stopLoss !== null && (long ? low <= t.stopLoss : high >= t.stopLoss);
      if (!tp && !sl) continue;
      const reason = sl ? t.slReason : t.tpReason;
      try {
        this.submitClose({ kind: 'close', tag: `${t.tag}#${sl ? 'sl' : 'tp'}`, ticket: t.tag, type: 'market', reason });
      } catch (e) {
        if (!(e instanceof OrderRejectedError)) throw e; // a size the venue cannot take: left to the strategy
      }
    }
  }

  amend(intent: AmendIntent): void {
    const t = this.ticketList.find((x) => x.tag === intent.ticket);
    if (!t) return;
    if (intent.takeProfit !== undefined) t.takeProfit = intent.takeProfit;
    if (intent.stopLoss !== undefined) t.stopLoss = intent.stopLoss;
    if (intent.takeProfitReason) t.tpReason = intent.takeProfitReason;
    if (intent.stopLossReason) t.slReason = intent.stopLossReason;
  }

  cancel(tag: string): void {
    const r = [...this.records.values()].find((x) => x.tag === tag && this.pendingList.some((p) => p.tag === tag));
    if (!r || r.cancelRequested) return;
    r.cancelRequested = true;
    this.queue.push({ kind: 'cancel', record: r });
  }

  closeAll(reason: ExitReason): void {
    // Pending market closes already do the job (cancelling them would leave their ticket open).
    for (const p of [...this.pendingList]) if (p.intent.kind === 'open' || p.intent.type !== 'market') this.cancel(p.tag);
    for (const t of [...this.ticketList]) {
      this.submitClose({ kind: 'close', tag: `${t.tag}#closeAll`, ticket: t.tag, type: 'market', reason });
    }
  }

  /** Net engine position of the tickets (+ long, − short). */
  get ledgerPosition(): number {
    let q = 0;
    for (const t of this.ticketList) q += t.side === 'long' ? t.qty : -t.qty;
    return q;
  }

  /** Intents not settled yet: queued, in flight, open or of unknown outcome. */
  get busy(): boolean {
    return this.queue.length > 0 || [...this.records.values()].some((r) => !FINAL.has(r.state) || r.venueFilled > r.filled + EPS);
  }

  private async save(r: IntentRecord, state: IntentState, error: string | null = null): Promise<void> {
    r.state = state;
    if (error !== null) r.error = error;
    if (this.replaying) return;
    await this.o.journal.save(r);
  }

  /** Replay: the queue as a live flush would have left it, from the journal instead of the venue. */
  private flushReplay(): void {
    const keep: { kind: 'place' | 'cancel'; record: IntentRecord }[] = [];
    for (const op of this.queue) {
      const r = op.record;
      const k = this.known.get(r.clientOrderId);
      if (op.kind === 'place') {
        if (k && k.state !== 'queued') continue; // was sent: adopted with its journalled state
        if (r.cancelRequested) {
          this.dropPending(r);
          r.state = 'canceled';
          continue;
        }
        keep.push(op); // never sent (crash before the journal write): sent after the replay
      } else if (!k) {
        keep.push(op);
      }
    }
    this.queue.length = 0;
    this.queue.push(...keep);
  }

  /**
   * Sends what is queued, in order. Each order is journalled `sending` before it leaves. Stops at
   * a `retry` answer (the op stays queued); `resolve` leaves the intent `unknown` for `sync()`.
   */
  async flush(): Promise<void> {
    if (this.replaying) return this.flushReplay();
    while (this.queue.length > 0) {
      const op = this.queue[0];
      const r = op.record;
      if (op.kind === 'place') {
        if (this.known.has(r.clientOrderId) && r.state !== 'queued') {
          this.queue.shift(); // adopted from the journal: it was sent before; reconcile / sync follow it
          continue;
        }
        if (r.cancelRequested && r.state === 'queued') {
          this.queue.shift();
          this.dropPending(r);
          await this.save(r, 'canceled');
          continue;
        }
        await this.save(r, 'sending');
        try {
          const order = await this.o.venue.placeOrder(r.request);
          this.queue.shift();
          await this.apply(r, order);
        } catch (e) {
          if (!(e instanceof VenueError)) throw e;
          if (e.action === 'retry') {
            await this.save(r, 'queued', e.message);
            return;
          }
          this.queue.shift();
          if (e.action === 'resolve') {
            await this.save(r, 'unknown', e.message);
            continue;
          }
          this.dropPending(r);
          await this.save(r, 'rejected', e.message);
          this.o.onError?.(e, r);
        }
      } else {
        this.queue.shift();
        if (r.state !== 'open' && r.state !== 'unknown') continue;
        const order = await this.o.venue.cancelOrder(r.request.symbol, r.clientOrderId);
        if (order) await this.apply(r, order);
        else if (r.state === 'open') {
          if (!this.o.deferFills) this.dropPending(r);
          await this.save(r, 'canceled');
        }
      }
    }
  }

  /**
   * Replay: the fills stored at this step (in booking order), booked exactly as `sync()` booked them
   * live; then the same pending-order bookkeeping as `sync()`.
   */
  replayFills(fills: readonly StoredFill[]): void {
    for (const f of fills) {
      const r = this.records.get(f.clientOrderId);
      if (!r) continue;
      const amount = this.toVenueExact(f.qty);
      r.filled += amount;
      r.bookedCost += amount * f.price;
      r.bookedFee += f.fee;
      this.bookFill(r, f.qty, f.price, f.fee);
    }
    this.settlePending();
  }

  /** Drops pending orders that are over: final at the venue and every fill booked. */
  private settlePending(): void {
    for (const r of this.records.values()) {
      if (FINAL.has(r.state) && r.filled >= r.venueFilled - EPS) this.dropPending(r);
    }
  }

  private toVenueExact(qty: number): number {
    return toVenueAmount(qty, this.venueInstrument);
  }

  /** Queries every open or unknown intent and books new fills. */
  async sync(): Promise<void> {
    const watched = [...this.records.values()].filter((r) => r.state === 'open' || r.state === 'unknown');
    // Runner mode: one open-orders call answers for every order still resting; the others are queried.
    const resting = new Map<string, VenueOrder>();
    if (this.o.deferFills && watched.filter((r) => r.state === 'open').length > 1) {
      for (const o of await this.o.venue.fetchOpenOrders(this.o.market.symbol)) resting.set(o.clientOrderId, o);
    }
    for (const r of watched) {
      const order = (r.state === 'open' ? resting.get(r.clientOrderId) : undefined) ?? (await this.o.venue.fetchOrder(r.request.symbol, r.clientOrderId));
      if (order) await this.apply(r, order);
    }
    if (!this.o.deferFills) return;
    const due = [...this.records.values()].filter((r) => r.venueFilled > r.filled + EPS);
    if (due.length > 0) {
      const fees = await this.orderFees(due);
      for (const r of due) await this.bookDelta(r, fees);
    }
    this.settlePending();
  }

  /** Total fee per venue order id of these records (venues that report their trades), else null. */
  private async orderFees(records: IntentRecord[]): Promise<Map<string, number> | null> {
    const v = this.o.venue as Venue & { fetchFills?: (symbol: string, since?: number) => Promise<VenueFill[]> };
    if (typeof v.fetchFills !== 'function') return null;
    try {
      const since = Math.min(...records.map((r) => r.updatedAt ?? Infinity));
      const fills = await v.fetchFills(this.o.market.symbol, Number.isFinite(since) ? since - 86_400_000 : undefined);
      const out = new Map<string, number>();
      for (const f of fills) out.set(f.orderId, (out.get(f.orderId) ?? 0) + f.fee);
      return out;
    } catch {
      return null;
    }
  }

  /** Books what the venue filled beyond what is booked: one fill, saved before the strategy hears of it. */
  private async bookDelta(r: IntentRecord, fees: Map<string, number> | null): Promise<void> {
    const delta = r.venueFilled - r.filled;
    const avg = r.venueAverage ?? r.request.price ?? 0;
    const price = (avg * r.venueFilled - r.bookedCost) / delta;
    const total = r.venueOrderId !== null ? fees?.get(r.venueOrderId) : undefined;
    const fee = total !== undefined ? Math.max(0, total - r.bookedFee) : 0;
    const qty = this.toEngine(delta);
    r.filled = r.venueFilled;
    r.bookedCost = avg * r.venueFilled;
    r.bookedFee += fee;
    const fill = this.makeFill(r, qty, price, fee);
    await this.o.journal.saveFill?.(r, fill, `${r.clientOrderId}:${r.filled.toFixed(10)}`);
    await this.o.journal.save(r);
    this.applyFill(r, fill);
  }

  /**
   * After a restart, once the replay is done and before trading (venues.md §5): every intent that
   * was in flight, open or of unknown outcome is queried by its client id; one that the venue never
   * received (after `resolveWindowMs` since it was journalled) is queued to be sent again with the
   * same id; open orders with our prefix that no intent of this robot owns are cancelled; positions
   * are compared with the tickets. `done` false: an outcome cannot be known yet, call again.
   */
  async reconcile(opts: { nowMs: number; resolveWindowMs: number }): Promise<ReconcileResult> {
    this.replaying = false;
    await this.o.venue.loadMarkets(true);
    const symbol = this.o.market.symbol;
    let queried = 0;
    let resent = 0;
    let done = true;
    for (const r of this.records.values()) {
      if (r.state === 'queued' && !this.queue.some((q) => q.record === r)) {
        this.queue.push({ kind: 'place', record: r });
        continue;
      }
      if (r.state !== 'sending' && r.state !== 'unknown' && r.state !== 'open') continue;
      queried++;
      const order = await this.o.venue.fetchOrder(symbol, r.clientOrderId);
      if (order) {
        this.snapshot(r, order);
        await this.save(r, this.stateOf(order));
        if (r.cancelRequested && r.state === 'open') this.queue.push({ kind: 'cancel', record: r });
      } else if (r.state === 'open') {
        await this.save(r, 'canceled'); // past the venue's retention: it never filled
      } else if (opts.nowMs - (r.updatedAt ?? 0) >= opts.resolveWindowMs) {
        // Never received (a request can no longer be accepted after recvWindow): send the same id.
        if (r.cancelRequested) await this.save(r, 'canceled');
        else {
          await this.save(r, 'queued');
          this.queue.push({ kind: 'place', record: r });
          resent++;
        }
      } else done = false;
    }
    const orphansCanceled: string[] = [];
    const venuePosition = { value: 0 };
    if (done) {
      for (const o of await this.o.venue.fetchOpenOrders(symbol)) {
        if (!isOurClientOrderId(o.clientOrderId)) continue;
        const r = this.records.get(o.clientOrderId);
        if (r && (r.state === 'open' || r.state === 'unknown' || r.state === 'sending')) continue;
        await this.o.venue.cancelOrder(symbol, o.clientOrderId);
        orphansCanceled.push(o.clientOrderId);
      }
      for (const p of await this.o.venue.fetchPositions([symbol])) {
        if (p.symbol !== symbol) continue;
        venuePosition.value += this.toEngine(p.side === 'long' ? p.contracts : -p.contracts);
      }
    }
    return { done, queried, resent, orphansCanceled, venuePosition: venuePosition.value, ledgerPosition: this.ledgerPosition };
  }

  private snapshot(r: IntentRecord, order: VenueOrder): void {
    if (order.filled >= r.venueFilled) {
      r.venueFilled = order.filled;
      r.venueAverage = order.average ?? order.price ?? r.venueAverage;
    }
    if (order.id) r.venueOrderId = order.id;
  }

  private stateOf(order: VenueOrder): IntentState {
    return order.status === 'open' ? 'open' : order.status === 'closed' ? 'filled' : order.status === 'rejected' ? 'rejected' : 'canceled';
  }

  private dropPending(r: IntentRecord): void {
    const i = this.pendingList.findIndex((p) => p.tag === r.tag);
    if (i >= 0) this.pendingList.splice(i, 1);
  }

  private async apply(r: IntentRecord, order: VenueOrder): Promise<void> {
    if (this.o.deferFills) {
      this.snapshot(r, order);
      await this.save(r, this.stateOf(order));
      return;
    }
    const delta = order.filled - r.filled;
    if (delta > 1e-12) {
      const avg = order.average ?? order.price ?? 0;
      const price = r.filled > 0 && r.average !== null ? (avg * order.filled - r.average * r.filled) / delta : avg;
      r.filled = order.filled;
      r.average = avg;
      this.bookFill(r, this.toEngine(delta), price);
    }
    const done = order.status !== 'open';
    if (done) this.dropPending(r);
    await this.save(r, order.status === 'open' ? 'open' : order.status === 'closed' ? 'filled' : order.status === 'rejected' ? 'rejected' : 'canceled');
  }

  private bookFill(r: IntentRecord, qty: number, price: number, fee = 0): void {
    this.applyFill(r, this.makeFill(r, qty, price, fee));
  }

  private makeFill(r: IntentRecord, qty: number, price: number, fee: number): Fill {
    let pnl = 0;
    if (r.action === 'close') {
      const t = this.ticketList.find((x) => x.tag === r.ticket);
      if (t) pnl = (price - t.entryPrice) * Math.min(qty, t.qty) * this.o.instrument.contractSize * (t.side === 'long' ? 1 : -1);
    }
    return {
      tag: r.tag,
      ticket: r.ticket,
      action: r.action,
      side: r.positionSide,
      qty,
      price,
      fee,
      time: this.o.clock.now(),
      maker: r.request.type === 'limit',
      pnl,
      reason: r.intent.kind === 'close' ? r.intent.reason : null,
    };
  }

  /** Updates the tickets with a fill and tells the listener. */
  private applyFill(r: IntentRecord, fill: Fill): void {
    const { qty, price, time } = fill;
    if (r.action === 'open') {
      const t = this.ticketList.find((x) => x.tag === r.ticket);
      const open = r.intent as OpenIntent;
      if (t) {
        t.entryPrice = (t.entryPrice * t.qty + price * qty) / (t.qty + qty);
        t.qty += qty;
      } else {
        this.ticketList.push({
          tag: r.ticket,
          side: r.positionSide,
          qty,
          entryPrice: price,
          entryTime: time,
          takeProfit: open.takeProfit ?? null,
          stopLoss: open.stopLoss ?? null,
          tpReason: open.takeProfitReason ?? 'orderTakeProfit',
          slReason: open.stopLossReason ?? 'orderStopLoss',
        });
      }
    } else {
      const i = this.ticketList.findIndex((x) => x.tag === r.ticket);
      if (i >= 0) {
        const t = this.ticketList[i];
        t.qty -= Math.min(qty, t.qty);
        if (t.qty <= 1e-12) this.ticketList.splice(i, 1);
      }
    }
    this.listener?.(fill);
  }
}

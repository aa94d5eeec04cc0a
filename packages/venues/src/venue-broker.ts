// The engine's synchronous Broker port over an asynchronous Venue. Intents are recorded in a
// journal (state `sending`) before they are sent, with client order ids derived from
// (robot, intent tag, action); `flush()` sends what is queued, `sync()` queries what is open or
// unknown and turns fills into engine Fills. The robot runner owns the journal's storage.
import { OrderRejectedError } from '@lq/engine';
import type { AmendIntent, Broker, Clock, CloseIntent, ExitReason, Fill, Instrument, OpenIntent, PendingOrder, PositionSide, Ticket } from '@lq/engine';
import type { PlaceOrderRequest, Venue, VenueMarket, VenueOrder } from './ccxt';
import { clientOrderId } from './client-order-id';
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
}

/** Where intents are written before they are sent (the runner stores them in the database). */
export interface IntentJournal {
  save(record: IntentRecord): Promise<void>;
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
}

interface MutableTicket {
  tag: string;
  side: PositionSide;
  qty: number;
  entryPrice: number;
  entryTime: number;
  takeProfit: number | null;
  stopLoss: number | null;
}

export class VenueBroker implements Broker {
  private readonly ticketList: MutableTicket[] = [];
  private readonly pendingList: PendingOrder[] = [];
  private readonly records = new Map<string, IntentRecord>();
  private readonly queue: { kind: 'place' | 'cancel'; record: IntentRecord }[] = [];
  private listener: ((fill: Fill) => void) | null = null;

  constructor(private readonly o: VenueBrokerOptions) {}

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

  /** Engine quantity (contracts of the instrument) → venue amount. */
  private toVenue(qty: number): number {
    const coins = qty * this.o.instrument.contractSize;
    const steps = Math.round(coins / this.o.market.contractSize / this.o.market.amountStep);
    return Number((steps * this.o.market.amountStep).toFixed(10));
  }

  private toEngine(amount: number): number {
    return (amount * this.o.market.contractSize) / this.o.instrument.contractSize;
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
    };
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
    this.enqueue(intent, t.tag, t.side, t.qty);
  }

  amend(intent: AmendIntent): void {
    const t = this.ticketList.find((x) => x.tag === intent.ticket);
    if (!t) return;
    if (intent.takeProfit !== undefined) t.takeProfit = intent.takeProfit;
    if (intent.stopLoss !== undefined) t.stopLoss = intent.stopLoss;
  }

  cancel(tag: string): void {
    const r = [...this.records.values()].find((x) => x.tag === tag && this.pendingList.some((p) => p.tag === tag));
    if (!r || r.cancelRequested) return;
    r.cancelRequested = true;
    this.queue.push({ kind: 'cancel', record: r });
  }

  closeAll(reason: ExitReason): void {
    for (const p of [...this.pendingList]) this.cancel(p.tag);
    for (const t of [...this.ticketList]) {
      this.submitClose({ kind: 'close', tag: `${t.tag}#closeAll`, ticket: t.tag, type: 'market', reason });
    }
  }

  private async save(r: IntentRecord, state: IntentState, error: string | null = null): Promise<void> {
    r.state = state;
    if (error !== null) r.error = error;
    await this.o.journal.save(r);
  }

  /**
   * Sends what is queued, in order. Each order is journalled `sending` before it leaves. Stops at
   * a `retry` answer (the op stays queued); `resolve` leaves the intent `unknown` for `sync()`.
   */
  async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const op = this.queue[0];
      const r = op.record;
      if (op.kind === 'place') {
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
          this.dropPending(r);
          await this.save(r, 'canceled');
        }
      }
    }
  }

  /** Queries every open or unknown intent and books new fills. */
  async sync(): Promise<void> {
    for (const r of this.records.values()) {
      if (r.state !== 'open' && r.state !== 'unknown') continue;
      const order = await this.o.venue.fetchOrder(r.request.symbol, r.clientOrderId);
      if (order) await this.apply(r, order);
    }
  }

  private dropPending(r: IntentRecord): void {
    const i = this.pendingList.findIndex((p) => p.tag === r.tag);
    if (i >= 0) this.pendingList.splice(i, 1);
  }

  private async apply(r: IntentRecord, order: VenueOrder): Promise<void> {
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

  private bookFill(r: IntentRecord, qty: number, price: number): void {
    const time = this.o.clock.now();
    let pnl = 0;
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
        });
      }
    } else {
      const i = this.ticketList.findIndex((x) => x.tag === r.ticket);
      if (i >= 0) {
        const t = this.ticketList[i];
        const q = Math.min(qty, t.qty);
        pnl = (price - t.entryPrice) * q * this.o.instrument.contractSize * (t.side === 'long' ? 1 : -1);
        t.qty -= q;
        if (t.qty <= 1e-12) this.ticketList.splice(i, 1);
      }
    }
    this.listener?.({
      tag: r.tag,
      ticket: r.ticket,
      action: r.action,
      side: r.positionSide,
      qty,
      price,
      fee: 0,
      time,
      maker: r.request.type === 'limit',
      pnl,
      reason: r.intent.kind === 'close' ? r.intent.reason : null,
    });
  }
}

// The simulated broker: THE one place for the fill, fee, spread, margin, liquidation and status
// rules (README.md "Simulation rules" states them). Prices on the candle path are bids; a buy pays
// the ask = bid + spread. All money is in the account currency (USD / USDT).
//
// Speed: resting triggers (limit / stop orders, ticket TP / SL, the liquidation price) are indexed by
// the lowest level that fires on a rise (`upMin`) and the highest that fires on a fall (`downMax`);
// a candle that stays strictly between them costs two comparisons. Positions are aggregated
// (quantity and Σ qty × entry per side) so floating PnL, margin and the liquidation price are O(1).
import { moneyDigits, quoteIsAccount, roundMoney } from './instruments';
import { OrderRejectedError, type Broker } from './ports';
import type {
  AmendIntent,
  Candles,
  CloseIntent,
  ExitReason,
  Fill,
  Instrument,
  OpenIntent,
  OrderType,
  PendingOrder,
  PositionSide,
  Ticket,
  TradeRecord,
} from './types';

export interface SimulatedBrokerOptions {
  instrument: Instrument;
  capital: number;
  leverage: number;
  makerFee: number;
  takerFee: number;
  spreadPoints?: number;
  slippagePoints?: number;
  recordFills?: boolean;
}

interface SimTicket {
  tag: string;
  side: PositionSide;
  qty: number;
  entryPrice: number;
  entryTime: number;
  takeProfit: number | null;
  stopLoss: number | null;
  entryFee: number;
  tpReason: ExitReason;
  slReason: ExitReason;
  /** Bid level at which TP / SL fire (NaN = none) and whether on a rise. */
  tpLevel: number;
  tpUp: boolean;
  slLevel: number;
  slUp: boolean;
}

interface SimOrder {
  tag: string;
  intent: OpenIntent | CloseIntent;
  open: boolean;
  buy: boolean;
  type: OrderType;
  price: number;
  level: number;
  up: boolean;
  /** A limit that could fill when placed pays the taker fee. */
  taker: boolean;
  done: boolean;
}

/** Which trigger the index points at. */
const enum Hit {
  None,
  Order,
  TakeProfit,
  StopLoss,
  Liquidation,
}

/**
 * Removes `item` from `list`, keeping the order: a shift and a pop (no array allocated, unlike
 * `splice`); the lists are short and the item is usually near the front.
 */
function removeItem<T>(list: T[], item: T): void {
  const n = list.length;
  let k = 0;
  while (k < n && list[k] !== item) k++;
  if (k === n) return;
  for (let j = k + 1; j < n; j++) list[j - 1] = list[j];
  list.pop();
}

/** List length above which tickets / pending orders are also indexed by tag (dropped below half). */
const INDEX_FROM = 16;

function indexByTag<T extends { tag: string }>(list: readonly T[]): Map<string, T> {
  const index = new Map<string, T>();
  for (const x of list) index.set(x.tag, x);
  return index;
}

export const StopCode = { none: 0, liquidate: 4, capital: 5 } as const;

const EXIT_REASONS: readonly ExitReason[] = [
  'signal',
  'takeProfit',
  'stopLoss',
  'orderTakeProfit',
  'orderStopLoss',
  'trailingStop',
  'gridTakeProfit',
  'cycleTakeProfit',
  'windowEnd',
  'liquidation',
  'endOfData',
  'manual',
];

/** Numbers per trade / fill row of the broker's record columns. */
const TRADE_STRIDE = 9;
const FILL_STRIDE = 6;

export class SimulatedBroker implements Broker {
  readonly tickets: SimTicket[] = [];
  readonly pending: SimOrder[] = [];

  // Closed trades and recorded fills are kept as columns (numbers in one growing Float64Array, the
  // strings in plain arrays) and turned into objects only when `trades` / `fills` is read: an object
  // with number fields costs a heap number per field, and those objects would survive every
  // young-generation collection of the run.
  private tradeN = 0;
  private tradeNum = new Float64Array(512 * TRADE_STRIDE);
  private readonly tradeTag: string[] = [];
  private readonly tradeList: TradeRecord[] = [];
  private fillN = 0;
  private fillNum = new Float64Array(1024 * FILL_STRIDE);
  private readonly fillTag: string[] = [];
  /** A fill's ticket tag when it differs from the fill's tag (never, so far: a ticket takes its order's tag). */
  private readonly fillTicket = new Map<number, string>();
  private readonly fillList: Fill[] = [];

  /** Closed round trips, in closing order (built from the columns on read; the same array each time). */
  get trades(): TradeRecord[] {
    const list = this.tradeList;
    const num = this.tradeNum;
    for (let k = list.length; k < this.tradeN; k++) {
      const o = k * TRADE_STRIDE;
      const f = num[o + 8];
      const qty = num[o];
      list.push({
        tag: this.tradeTag[k],
        side: (f & 1) === 0 ? 'long' : 'short',
        qty,
        lots: qty,
        entryTime: num[o + 1],
        entryPrice: num[o + 2],
        exitTime: num[o + 3],
        exitPrice: num[o + 4],
        pnl: num[o + 5],
        grossPnl: num[o + 6],
        fee: num[o + 7],
        reason: EXIT_REASONS[f >> 1],
      });
    }
    return list;
  }

  /** Recorded fills (with `recordFills`), in order (built from the columns on read; the same array each time). */
  get fills(): Fill[] {
    const list = this.fillList;
    const num = this.fillNum;
    for (let k = list.length; k < this.fillN; k++) {
      const o = k * FILL_STRIDE;
      const f = num[o + 5];
      const r = f >> 3;
      list.push({
        tag: this.fillTag[k],
        ticket: this.fillTicket.get(k) ?? this.fillTag[k],
        action: (f & 1) === 0 ? 'open' : 'close',
        side: (f & 2) === 0 ? 'long' : 'short',
        qty: num[o],
        price: num[o + 1],
        fee: num[o + 2],
        time: num[o + 3],
        maker: (f & 4) !== 0,
        pnl: num[o + 4],
        reason: r === 0 ? null : EXIT_REASONS[r - 1],
      });
    }
    return list;
  }

  // Account (account currency). Every number field has a number initialiser: a field declared
  // without one starts as `undefined` (ES2022 class fields), so V8 would store it tagged and box
  // every double written to it or read from it in the hot loop.
  readonly capital: number = NaN;
  realised = 0;
  fees = 0;
  funding = 0;
  // Aggregated position (read by the kernel's inlined fast path; only the broker writes them).
  longQty = 0;
  longCost = 0;
  shortQty = 0;
  shortCost = 0;

  // Trade statistics, updated on each close.
  tradeCount = 0;
  wins = 0;
  losses = 0;
  grossProfit = 0;
  grossLoss = 0;

  // Floating PnL extremes along the candle path.
  maxFloatingProfit = 0;
  maxFloatingLoss = 0;

  /** 0 running, 4 liquidated, 5 insufficient capital. */
  stopCode: 0 | 4 | 5 = 0;
  stopReason = '';

  private readonly instrument: Instrument;
  readonly cs: number = NaN;
  private readonly lev: number = NaN;
  private readonly makerFee: number = NaN;
  private readonly takerFee: number = NaN;
  readonly spread: number = NaN;
  /** 10^digits of a price: ask-side levels are snapped to this grid (see `bidLevel`). */
  private readonly priceScale: number = 1;
  private readonly slip: number = NaN;
  private readonly mmRate: number = NaN;
  readonly usdBase: boolean = false;
  private readonly recordFills: boolean = true;
  private readonly moneyDigits: number = 0;
  private readonly moneyScale: number = 1;
  // Tag → ticket / pending order indexes, kept only while the lists are long: below
  // INDEX_FROM entries a scan of the list is cheaper than hashing a fresh tag string (most tags
  // are found at once: the strategy passes the very string object the ticket was tagged with).
  private ticketIndex: Map<string, SimTicket> | null = null;
  /**
   * Closed tickets and executed market orders, reused for the next ones: an object with number
   * fields costs a heap number per field when created, while a reused one is written in place.
   * (A strategy reads `tickets` / `pending` during a call and keeps no reference to an entry.)
   */
  private readonly ticketPool: SimTicket[] = [];
  private readonly orderPool: SimOrder[] = [];
  private orderIndex: Map<string, SimOrder> | null = null;
  readonly queue: SimOrder[] = [];
  private listener: ((fill: Fill) => void) | null = null;

  // Candle path state (the kernel sets time / cur on candles it skips).
  time = 0;
  cur = NaN;
  private inPath = false;

  // Trigger index.
  dirty = true;
  upMin = Infinity;
  downMax = -Infinity;
  private upHit: Hit = Hit.None;
  private downHit: Hit = Hit.None;
  private upRef: SimOrder | SimTicket | null = null;
  private downRef: SimOrder | SimTicket | null = null;

  constructor(opts: SimulatedBrokerOptions) {
    const inst = opts.instrument;
    if (!quoteIsAccount(inst) && !inst.symbol.startsWith('USD')) {
      throw new Error(`${inst.symbol}: PnL conversion to USD needs a USD quote or a USD base`);
    }
    if (!(opts.leverage > 0)) throw new Error(`leverage must be > 0, got ${opts.leverage}`);
    if (!(opts.capital > 0)) throw new Error(`capital must be > 0, got ${opts.capital}`);
    this.instrument = inst;
    this.capital = opts.capital;
    this.balance = opts.capital;
    this.cs = inst.contractSize;
    this.lev = opts.leverage;
    this.makerFee = opts.makerFee;
    this.takerFee = opts.takerFee;
    this.spread = (opts.spreadPoints ?? 0) * inst.point;
    this.priceScale = 10 ** inst.digits;
    this.slip = (opts.slippagePoints ?? 0) * inst.point;
    // Maintenance never exceeds half the initial margin (a 50 % stop-out level at high leverage).
    this.mmRate = Math.min(inst.maintenanceMarginRate, 0.5 / opts.leverage);
    this.usdBase = !quoteIsAccount(inst);
    this.recordFills = opts.recordFills ?? true;
    this.moneyDigits = moneyDigits(inst);
    this.moneyScale = 10 ** this.moneyDigits;
  }

  setFillListener(listener: ((fill: Fill) => void) | null): void {
    this.listener = listener;
  }

  // --- account ------------------------------------------------------------------------------

  /** capital + realised − fees − funding, kept up to date on every change. */
  balance = NaN;
  private syncBalance(): void {
    this.balance = this.capital + this.realised - this.fees - this.funding;
  }
  get hasPosition(): boolean {
    return this.longQty + this.shortQty > 0;
  }
  /** Floating PnL if the bid were `bid` (longs at the bid, shorts at the ask). */
  floatingAt(bid: number): number {
    if (this.longQty + this.shortQty === 0) return 0;
    const q = this.floatSlope * bid + this.floatIntercept;
    return this.usdBase ? q / bid : q;
  }
  equityAt(bid: number): number {
    return this.balance + this.floatingAt(bid);
  }
  /** Initial margin of the open tickets (at their entry prices), kept up to date on every fill. */
  usedMargin = 0;
  /** Floating PnL in quote currency is `floatSlope × bid + floatIntercept` (kept up to date on every fill). */
  floatSlope = 0;
  floatIntercept = 0;
  private syncMargin(): void {
    this.floatSlope = this.cs * (this.longQty - this.shortQty);
    this.floatIntercept = this.cs * (this.shortCost - this.longCost - this.shortQty * this.spread);
    this.usedMargin = this.usdBase
      ? (this.cs * (this.longQty + this.shortQty)) / this.lev
      : (this.cs * (this.longCost + this.shortCost)) / this.lev;
  }
  /** Notional in the account currency. */
  private notional(qty: number, price: number): number {
    return this.usdBase ? qty * this.cs : qty * this.cs * price;
  }

  // --- Broker port ----------------------------------------------------------------------------

  submitOpen(intent: OpenIntent): void {
    const tag = intent.tag;
    if (this.findTicket(tag) !== undefined || this.findOrder(tag) !== undefined) {
      throw new OrderRejectedError(`duplicate tag "${tag}": a ticket or pending order already uses it`, tag);
    }
    this.checkQty(intent.qty, tag);
    const buy = intent.side === 'long';
    const order = this.newOrder(tag, intent, true, buy, intent.type, intent.price);
    if (intent.type === 'market' && this.inPath) {
      this.fillOpen(order, this.marketPrice(buy), false);
      this.orderPool.push(order);
      return;
    }
    this.addOrder(order);
  }

  submitClose(intent: CloseIntent): void {
    const t = this.findTicket(intent.ticket);
    if (!t) return; // already closed (TP / SL / liquidation): not an error
    if (intent.type === 'market' && this.inPath) {
      this.closeTicket(t, this.marketPrice(t.side === 'short'), false, intent.reason);
      return;
    }
    if (this.findOrder(intent.tag) !== undefined) {
      throw new OrderRejectedError(`duplicate tag "${intent.tag}": a pending order already uses it`, intent.tag);
    }
    this.addOrder(this.newOrder(intent.tag, intent, false, t.side === 'short', intent.type, intent.price));
  }

  amend(intent: AmendIntent): void {
    const t = this.findTicket(intent.ticket);
    if (!t) return;
    if (intent.takeProfit !== undefined) t.takeProfit = intent.takeProfit;
    if (intent.stopLoss !== undefined) t.stopLoss = intent.stopLoss;
    if (intent.takeProfitReason) t.tpReason = intent.takeProfitReason;
    if (intent.stopLossReason) t.slReason = intent.stopLossReason;
    this.setTicketLevels(t);
    this.dirty = true;
  }

  cancel(tag: string): void {
    const o = this.findOrder(tag);
    if (o) this.removeOrder(o);
  }

  closeAll(reason: ExitReason): void {
    while (this.pending.length > 0) this.removeOrder(this.pending[this.pending.length - 1]);
    if (this.inPath) {
      while (this.tickets.length > 0 && this.stopCode === 0) {
        const t = this.tickets[0];
        this.closeTicket(t, this.marketPrice(t.side === 'short'), false, reason);
      }
      return;
    }
    for (const t of this.tickets) {
      const intent: CloseIntent = { kind: 'close', tag: `${t.tag}#closeAll`, ticket: t.tag, type: 'market', reason };
      this.addOrder(this.newOrder(intent.tag, intent, false, t.side === 'short', 'market', undefined));
    }
  }

  // --- candle processing (simulation only) ----------------------------------------------------

  /** Simulates the path of candle `i`: open → nearer extreme → other extreme → close. */
  processCandle(c: Candles, i: number): void {
    const h = c.high[i];
    const l = c.low[i];
    this.time = c.time[i];
    if (this.dirty) this.reindex();
    if (h < this.upMin && l > this.downMax) {
      // Nothing can fire inside this candle.
      if (this.longQty + this.shortQty > 0) {
        this.trackFloating(l);
        this.trackFloating(h);
      }
      this.cur = c.close[i];
      return;
    }
    const o = c.open[i];
    this.inPath = true;
    this.cur = o;
    this.trackFloating(o);
    this.runQueue();
    this.settle();
    if (o - l <= h - o) {
      this.moveTo(l);
      this.moveTo(h);
    } else {
      this.moveTo(h);
      this.moveTo(l);
    }
    this.moveTo(c.close[i]);
    this.inPath = false;
  }

  /** Funding / swap at `bid`: longs pay rate × notional, shorts receive it (negative rates reverse). */
  applyFunding(rate: number, bid: number): void {
    if (!(rate !== 0) || this.longQty + this.shortQty === 0) return;
    this.funding += rate * (this.notional(this.longQty, bid) - this.notional(this.shortQty, bid));
    this.syncBalance();
    this.dirty = true;
  }

  /** Last simulated bid. */
  get lastPrice(): number {
    return this.cur;
  }

  openTickets(): Ticket[] {
    return this.tickets.map((t) => ({ ...t }));
  }

  // --- internals ------------------------------------------------------------------------------

  private findTicket(tag: string): SimTicket | undefined {
    const index = this.ticketIndex;
    if (index !== null) return index.get(tag);
    const list = this.tickets;
    for (let k = 0; k < list.length; k++) if (list[k].tag === tag) return list[k];
    return undefined;
  }

  private findOrder(tag: string): SimOrder | undefined {
    const index = this.orderIndex;
    if (index !== null) return index.get(tag);
    const list = this.pending;
    for (let k = 0; k < list.length; k++) if (list[k].tag === tag) return list[k];
    return undefined;
  }

  private checkQty(qty: number, tag: string): void {
    const inst = this.instrument;
    const steps = qty / inst.qtyStep;
    if (!(qty >= inst.minQty - 1e-12) || Math.abs(steps - Math.round(steps)) > 1e-6) {
      throw new OrderRejectedError(
        `order "${tag}": size ${qty} must be ≥ ${inst.minQty} and a multiple of ${inst.qtyStep} (use snapQty)`,
        tag,
      );
    }
  }

  private newOrder(
    tag: string,
    intent: OpenIntent | CloseIntent,
    open: boolean,
    buy: boolean,
    type: OrderType,
    price: number | undefined,
  ): SimOrder {
    let level = NaN;
    let up = false;
    let taker = true;
    if (type !== 'market') {
      if (!(price !== undefined && price > 0 && Number.isFinite(price))) {
        throw new OrderRejectedError(`${type} order "${tag}" needs a positive price`, tag);
      }
      up = type === 'limit' ? !buy : buy;
      level = buy ? this.bidLevel(price) : price;
      const ref = this.cur;
      taker = type === 'stop' || (Number.isFinite(ref) && (up ? ref >= level : ref <= level));
    }
    const o = this.orderPool.pop();
    if (o === undefined) return { tag, intent, open, buy, type, price: price ?? NaN, level, up, taker, done: false };
    o.tag = tag;
    o.intent = intent;
    o.open = open;
    o.buy = buy;
    o.type = type;
    o.price = price ?? NaN;
    o.level = level;
    o.up = up;
    o.taker = taker;
    o.done = false;
    return o;
  }

  private addOrder(o: SimOrder): void {
    const pending = this.pending;
    pending.push(o);
    const index = this.orderIndex;
    if (index !== null) index.set(o.tag, o);
    else if (pending.length > INDEX_FROM) this.orderIndex = indexByTag(pending);
    if (o.type === 'market') this.queue.push(o);
    this.dirty = true;
  }

  private removeOrder(o: SimOrder): void {
    if (o.done) return;
    o.done = true;
    removeItem(this.pending, o);
    const index = this.orderIndex;
    if (index !== null) {
      if (this.pending.length < INDEX_FROM >> 1) this.orderIndex = null;
      else index.delete(o.tag);
    }
    this.dirty = true;
  }

  /** Executes queued market orders at the current path price (the open of the candle after the decision). */
  private runQueue(): void {
    const queue = this.queue;
    if (queue.length === 0) return;
    for (let k = 0; k < queue.length && this.stopCode === 0; k++) {
      const o = this.queue[k];
      if (o.done) continue;
      if (o.open) this.fillOpen(o, this.marketPrice(o.buy), false);
      else {
        const t = this.findTicket((o.intent as CloseIntent).ticket);
        this.removeOrder(o);
        if (t) this.closeTicket(t, this.marketPrice(o.buy), false, (o.intent as CloseIntent).reason);
      }
    }
    // pop(), not `length = 0`: setting an array's length is a call into the runtime. Executed (or
    // cancelled) market orders are in no list any more: reused by the next orders.
    while (queue.length > 0) {
      const o = queue.pop() as SimOrder;
      if (o.done) this.orderPool.push(o);
    }
    this.dirty = true;
  }

  private marketPrice(buy: boolean): number {
    return buy ? this.askAt(this.cur) + this.slip : this.cur - this.slip;
  }

  /** Moves the path price to `target`, firing every trigger crossed, nearest first. */
  private moveTo(target: number): void {
    while (this.stopCode === 0) {
      if (this.dirty) this.reindex();
      let next: number;
      if (target > this.cur) {
        if (this.upMin > target) break;
        next = this.upMin;
      } else {
        if (this.downMax < target) break;
        next = this.downMax;
      }
      this.cur = next;
      this.trackFloating(next);
      this.settle();
    }
    if (this.stopCode !== 0) return;
    this.cur = target;
    this.trackFloating(target);
  }

  /** Fires every trigger that is satisfied at the current price. */
  private settle(): void {
    while (this.stopCode === 0) {
      if (this.dirty) this.reindex();
      if (this.upMin <= this.cur) this.fire(this.upHit, this.upRef);
      else if (this.downMax >= this.cur) this.fire(this.downHit, this.downRef);
      else break;
      if (this.longQty + this.shortQty > 0) this.trackFloating(this.cur);
    }
  }

  private fire(hit: Hit, ref: SimOrder | SimTicket | null): void {
    const cur = this.cur;
    switch (hit) {
      case Hit.Order: {
        const o = ref as SimOrder;
        let price: number;
        if (o.type === 'limit') price = o.buy ? Math.min(o.price, this.askAt(cur)) : Math.max(o.price, cur);
        else price = o.buy ? Math.max(o.price, this.askAt(cur)) + this.slip : Math.min(o.price, cur) - this.slip;
        const maker = o.type === 'limit' && !o.taker;
        if (o.open) this.fillOpen(o, price, maker);
        else {
          this.removeOrder(o);
          const t = this.findTicket((o.intent as CloseIntent).ticket);
          if (t) this.closeTicket(t, price, maker, (o.intent as CloseIntent).reason);
        }
        break;
      }
      case Hit.TakeProfit: {
        const t = ref as SimTicket;
        const tp = t.takeProfit as number;
        const price = t.side === 'long' ? Math.max(tp, cur) : Math.min(tp, this.askAt(cur));
        this.closeTicket(t, price, true, t.tpReason);
        break;
      }
      case Hit.StopLoss: {
        const t = ref as SimTicket;
        const sl = t.stopLoss as number;
        const price = t.side === 'long' ? Math.min(sl, cur) - this.slip : Math.max(sl, this.askAt(cur)) + this.slip;
        this.closeTicket(t, price, false, t.slReason);
        break;
      }
      case Hit.Liquidation:
        this.liquidate();
        break;
      default:
        this.dirty = true;
    }
  }

  private fillOpen(o: SimOrder, price: number, maker: boolean): void {
    const intent = o.intent as OpenIntent;
    const qty = intent.qty;
    const notional = this.notional(qty, price);
    const fee = notional * (maker ? this.makerFee : this.takerFee);
    const required = notional / this.lev;
    const free = this.equityAt(this.cur) - this.usedMargin;
    this.removeOrder(o);
    if (required + fee > free + 1e-9) {
      this.stop(
        5,
        `insufficient capital: order "${o.tag}" (${qty} @ ${price}) needs initial margin ${required.toFixed(2)} + fee ${fee.toFixed(2)}, free margin is ${free.toFixed(2)}`,
      );
      return;
    }
    let t = this.ticketPool.pop();
    if (t === undefined) {
      t = {
        tag: o.tag,
        side: intent.side,
        qty,
        entryPrice: price,
        entryTime: this.time,
        takeProfit: intent.takeProfit ?? null,
        stopLoss: intent.stopLoss ?? null,
        entryFee: fee,
        tpReason: intent.takeProfitReason ?? 'orderTakeProfit',
        slReason: intent.stopLossReason ?? 'orderStopLoss',
        tpLevel: NaN,
        tpUp: false,
        slLevel: NaN,
        slUp: false,
      };
    } else {
      t.tag = o.tag;
      t.side = intent.side;
      t.qty = qty;
      t.entryPrice = price;
      t.entryTime = this.time;
      t.takeProfit = intent.takeProfit ?? null;
      t.stopLoss = intent.stopLoss ?? null;
      t.entryFee = fee;
      t.tpReason = intent.takeProfitReason ?? 'orderTakeProfit';
      t.slReason = intent.stopLossReason ?? 'orderStopLoss';
    }
    this.setTicketLevels(t);
    if (t.side === 'long') {
      this.longQty += qty;
      this.longCost += qty * price;
    } else {
      this.shortQty += qty;
      this.shortCost += qty * price;
    }
    this.fees += fee;
    this.syncBalance();
    this.syncMargin();
    const tickets = this.tickets;
    tickets.push(t);
    const index = this.ticketIndex;
    if (index !== null) index.set(t.tag, t);
    else if (tickets.length > INDEX_FROM) this.ticketIndex = indexByTag(tickets);
    this.dirty = true;
    this.emit(o.tag, t.tag, 'open', t.side, qty, price, fee, maker, 0, null);
  }

  private closeTicket(t: SimTicket, price: number, maker: boolean, reason: ExitReason): void {
    const qty = t.qty;
    const long = t.side === 'long';
    let gross = qty * this.cs * (long ? price - t.entryPrice : t.entryPrice - price);
    if (this.usdBase) gross /= price;
    const fee = this.notional(qty, price) * (maker ? this.makerFee : this.takerFee);
    this.realised += gross;
    this.fees += fee;
    this.syncBalance();
    if (long) {
      this.longQty -= qty;
      this.longCost -= qty * t.entryPrice;
    } else {
      this.shortQty -= qty;
      this.shortCost -= qty * t.entryPrice;
    }
    removeItem(this.tickets, t);
    const index = this.ticketIndex;
    if (index !== null) {
      if (this.tickets.length < INDEX_FROM >> 1) this.ticketIndex = null;
      else index.delete(t.tag);
    }
    if (this.tickets.length === 0) {
      // Exact zero instead of accumulated rounding.
      this.longQty = this.longCost = this.shortQty = this.shortCost = 0;
    }
    this.syncMargin();
    // Pending close orders of this ticket go with it.
    for (let j = this.pending.length - 1; j >= 0; j--) {
      const o = this.pending[j];
      if (!o.open && (o.intent as CloseIntent).ticket === t.tag) this.removeOrder(o);
    }
    this.dirty = true;
    const totalFee = t.entryFee + fee;
    const pnl = gross - totalFee;
    this.tradeCount++;
    if (pnl > 0) {
      this.wins++;
      this.grossProfit += pnl;
    } else if (pnl < 0) {
      this.losses++;
      this.grossLoss -= pnl;
    }
    const n = this.tradeN++;
    let num = this.tradeNum;
    if ((n + 1) * TRADE_STRIDE > num.length) {
      num = new Float64Array(num.length * 2);
      num.set(this.tradeNum);
      this.tradeNum = num;
    }
    const o = n * TRADE_STRIDE;
    num[o] = qty;
    num[o + 1] = t.entryTime;
    num[o + 2] = t.entryPrice;
    num[o + 3] = this.time;
    num[o + 4] = price;
    num[o + 5] = this.money(pnl);
    num[o + 6] = this.money(gross);
    num[o + 7] = this.money(totalFee);
    num[o + 8] = (long ? 0 : 1) | (EXIT_REASONS.indexOf(reason) << 1); // side (bit 0: short) | reason << 1
    this.tradeTag.push(t.tag);
    this.emit(t.tag, t.tag, 'close', t.side, qty, price, fee, maker, gross, reason);
    // Reused by the next fill: nothing refers to a closed ticket any more (the trigger index is dirty).
    this.ticketPool.push(t);
  }

  private liquidate(): void {
    const bid = this.cur;
    const equity = this.equityAt(bid);
    this.stopCode = 4; // set first: no strategy callbacks for the liquidation fills
    while (this.pending.length > 0) this.removeOrder(this.pending[this.pending.length - 1]);
    while (this.tickets.length > 0) {
      const t = this.tickets[0];
      this.closeTicket(t, t.side === 'long' ? bid : this.askAt(bid), false, 'liquidation');
    }
    this.stopReason = `liquidated at ${bid}: equity ${equity.toFixed(2)} fell to the maintenance margin`;
  }

  private stop(code: 4 | 5, reason: string): void {
    this.stopCode = code;
    this.stopReason = reason;
  }

  private emit(
    tag: string,
    ticket: string,
    action: 'open' | 'close',
    side: PositionSide,
    qty: number,
    price: number,
    fee: number,
    maker: boolean,
    pnl: number,
    reason: ExitReason | null,
  ): void {
    if (this.recordFills) {
      const n = this.fillN++;
      let num = this.fillNum;
      if ((n + 1) * FILL_STRIDE > num.length) {
        num = new Float64Array(num.length * 2);
        num.set(this.fillNum);
        this.fillNum = num;
      }
      const o = n * FILL_STRIDE;
      num[o] = qty;
      num[o + 1] = price;
      num[o + 2] = this.money(fee);
      num[o + 3] = this.time;
      num[o + 4] = this.money(pnl);
      // close | short << 1 | maker << 2 | (reason index + 1) << 3
      num[o + 5] =
        (action === 'open' ? 0 : 1) |
        (side === 'long' ? 0 : 2) |
        (maker ? 4 : 0) |
        ((reason === null ? 0 : EXIT_REASONS.indexOf(reason) + 1) << 3);
      this.fillTag.push(tag);
      if (ticket !== tag) this.fillTicket.set(n, ticket);
    }
    if (this.listener !== null && this.stopCode === 0) {
      const fill: Fill = { tag, ticket, action, side, qty, price, fee: this.money(fee), time: this.time, maker, pnl: this.money(pnl), reason };
      this.listener(fill);
    }
  }

  /** Report rounding of money (see `roundMoney`), with the scale precomputed. */
  private money(x: number): number {
    const scaled = x * this.moneyScale;
    if (scaled < 4e15 && scaled > -4e15) return (scaled < 0 ? -Math.round(-scaled) : Math.round(scaled)) / this.moneyScale;
    return roundMoney(x, this.moneyDigits);
  }

  private setTicketLevels(t: SimTicket): void {
    const long = t.side === 'long';
    // Long: TP is a sell limit (fires on a rise), SL a sell stop (on a fall). Short: mirrored, at the ask.
    t.tpLevel = t.takeProfit === null ? NaN : long ? t.takeProfit : this.bidLevel(t.takeProfit);
    t.tpUp = long;
    t.slLevel = t.stopLoss === null ? NaN : long ? t.stopLoss : this.bidLevel(t.stopLoss);
    t.slUp = !long;
  }

  /**
   * The bid at which an ask-side level (a buy order's price, a short's TP / SL) fires: price −
   * spread on the price grid. 1.05001 − 0.0002 is 1.0498100000000001 in floats, above the bid tick
   * 1.04981, so the candle whose ask touched the stop exactly would not have fired it.
   */
  private bidLevel(price: number): number {
    return this.spread === 0 ? price : this.onGrid(price - this.spread);
  }

  /** The ask at a bid, on the price grid (a buy limit touched exactly fills at its own price). */
  private askAt(bid: number): number {
    return this.spread === 0 ? bid : this.onGrid(bid + this.spread);
  }

  /**
   * `x` put on the instrument's price grid when it is within a millionth of a grid step of it (float
   * noise of a sum of prices); k / 10^digits is the very double the candles' decimals parse to.
   * Off-grid values (a fill with slippage, an off-grid order price) are left as they are.
   */
  private onGrid(x: number): number {
    const scale = this.priceScale;
    const k = Math.round(x * scale);
    return Math.abs(x * scale - k) < 1e-6 ? k / scale : x;
  }

  /** Recomputes the nearest rising and falling trigger, including the liquidation price. */
  reindex(): void {
    let upMin = Infinity;
    let downMax = -Infinity;
    let upHit = Hit.None;
    let downHit = Hit.None;
    let upRef: SimOrder | SimTicket | null = null;
    let downRef: SimOrder | SimTicket | null = null;
    const pending = this.pending;
    for (let k = 0; k < pending.length; k++) {
      const o = pending[k];
      if (o.type === 'market') continue;
      if (o.up) {
        if (o.level < upMin) {
          upMin = o.level;
          upHit = Hit.Order;
          upRef = o;
        }
      } else if (o.level > downMax) {
        downMax = o.level;
        downHit = Hit.Order;
        downRef = o;
      }
    }
    const tickets = this.tickets;
    for (let k = 0; k < tickets.length; k++) {
      const t = tickets[k];
      const tp = t.tpLevel;
      if (tp === tp) {
        if (t.tpUp) {
          if (tp < upMin) {
            upMin = tp;
            upHit = Hit.TakeProfit;
            upRef = t;
          }
        } else if (tp > downMax) {
          downMax = tp;
          downHit = Hit.TakeProfit;
          downRef = t;
        }
      }
      const sl = t.slLevel;
      if (sl === sl) {
        if (t.slUp) {
          if (sl < upMin) {
            upMin = sl;
            upHit = Hit.StopLoss;
            upRef = t;
          }
        } else if (sl > downMax) {
          downMax = sl;
          downHit = Hit.StopLoss;
          downRef = t;
        }
      }
    }
    // Liquidation: equity − maintenance margin is m·p + q ≤ 0 (after multiplying by p > 0 for USD-base pairs).
    const n = this.longQty + this.shortQty;
    if (n > 0) {
      const cs = this.cs;
      const f1 = cs * (this.longQty - this.shortQty);
      const f0 = cs * (this.shortCost - this.longCost - this.shortQty * this.spread);
      const mm = this.mmRate * cs * n;
      const k0 = this.balance;
      const m = this.usdBase ? k0 + f1 - mm : f1 - mm;
      const q = this.usdBase ? f0 : k0 + f0;
      if (m > 0) {
        const p = -q / m;
        if (p > 0 && p > downMax) {
          downMax = p;
          downHit = Hit.Liquidation;
        }
      } else if (m < 0) {
        const p = -q / m;
        const level = p > 0 ? p : -Infinity; // m < 0 and p ≤ 0: below water at every price
        if (level < upMin) {
          upMin = level;
          upHit = Hit.Liquidation;
        }
      } else if (q <= 0) {
        upMin = -Infinity;
        upHit = Hit.Liquidation;
      }
    }
    // Queued market orders execute at the next open: no candle may take the fast path until then.
    this.upMin = this.queue.length > 0 ? -Infinity : upMin;
    this.downMax = downMax;
    this.upHit = upHit;
    this.downHit = downHit;
    this.upRef = upRef;
    this.downRef = downRef;
    this.dirty = false;
  }

  private trackFloating(bid: number): void {
    const f = this.floatingAt(bid);
    if (f > this.maxFloatingProfit) this.maxFloatingProfit = f;
    if (f < this.maxFloatingLoss) this.maxFloatingLoss = f;
  }
}

export type { PendingOrder };

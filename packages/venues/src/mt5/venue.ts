// The `Venue` of an MT5 account (exchange 'mt5'): orders go to the user's terminal through the
// bridge session of the account; results, deals, positions and balance come back from the EA.
//
// How the robot runner builds one (server side, ROLE including the API that holds the bridge):
//
//   const venue = new Mt5Venue({ session: app.bridge.session(account.id) });
//
// `app.bridge` is the BridgeHub of apps/server/src/bridge; `session(accountId)` always answers (an
// offline account's session throws VenueRetryableError on placeOrder: nothing was sent). Amounts
// are lots, prices the broker's; symbols are ours (EURUSD), mapped to the broker's names
// (EURUSD.m) from the EA's hello by base / profit currency, or by `symbolMap`.
import {
  MT5_PAUSE_RETCODES,
  MT5_RETCODES,
  retcodeName,
  type Mt5Hello,
  type Mt5Position,
  type Mt5Result,
  type Mt5Symbol,
} from '@lq/contracts';
import { createHash } from 'node:crypto';
import type { PlaceOrderRequest, Venue, VenueBalance, VenueFill, VenueMarket, VenueOrder, VenueOrderStatus, VenuePosition } from '../ccxt';
import {
  VenueFaultError,
  VenueRejectedError,
  VenueRetryableError,
  VenueStopError,
  VenueUnknownOutcomeError,
} from '../errors';
import { isOurMagic, magicOf, Mt5OfflineError, type Mt5BridgeSession, type Mt5IntentRequest } from './link';

export interface Mt5VenueOptions {
  session: Mt5BridgeSession;
  /** Our symbol → the broker's name, when the user confirmed another mapping (EURUSD → EURUSD.ecn). */
  symbolMap?: Record<string, string>;
  /** How long placeOrder waits for the EA's result (default ttl + 5 s). */
  timeoutMs?: number;
  /** How long the EA may hold an intent before executing it (default 10 s). */
  ttlMs?: number;
  /** Market order deviation in points (Instant / Request execution). */
  deviationPts?: number;
}

/** A place request that may name the order it closes (hedging: the position opened by that clientId). */
export interface Mt5PlaceOrderRequest extends PlaceOrderRequest {
  closes?: string;
  stopLoss?: number;
  takeProfit?: number;
}

export interface Mt5VenueMarket extends VenueMarket {
  /** The broker's symbol (EURUSD.m). */
  readonly brokerSymbol: string;
  readonly digits: number;
  readonly maxAmount: number;
  readonly stopsLevel: number;
  readonly point: number;
}

const decimals = (step: number): number => {
  const s = String(step);
  if (s.includes('e-')) return Number(s.split('e-')[1]);
  return s.includes('.') ? s.split('.')[1].length : 0;
};

const num = (s: string | null | undefined): number | null => (s === null || s === undefined ? null : Number(s));

/** The cancel intent's clientId for an order's clientId (≤ 32 chars). */
export function cancelClientId(clientId: string): string {
  return 'cx' + createHash('sha256').update(clientId).digest('hex').slice(0, 30);
}

const STOP_RETCODES = new Set<number>(
  (['TRADE_DISABLED', 'SERVER_DISABLES_AT', 'CLIENT_DISABLES_AT', 'ONLY_REAL'] as const).map((n) => MT5_RETCODES[n].code),
);
const PAUSE_RETCODES = new Set<number>(MT5_PAUSE_RETCODES.map((n) => MT5_RETCODES[n].code));

export class Mt5Venue implements Venue {
  private markets = new Map<string, Mt5VenueMarket>();
  private marketsOf: Mt5Hello | null = null;

  constructor(private readonly o: Mt5VenueOptions) {}

  get session(): Mt5BridgeSession {
    return this.o.session;
  }

  private hello(): Mt5Hello {
    const h = this.o.session.terminal();
    if (!h) throw new VenueRetryableError('the MT5 terminal has not connected yet');
    return h;
  }

  loadMarkets(reload = false): Promise<Mt5VenueMarket[]> {
    const h = this.hello();
    if (reload || this.marketsOf !== h) {
      this.markets.clear();
      const byName = new Map(h.symbols.map((s) => [s.name, s]));
      const pick = new Map<string, Mt5Symbol>();
      for (const s of h.symbols) {
        const ours = `${s.base}${s.quote}`.toUpperCase();
        const prev = pick.get(ours);
        // an exact name wins over suffixed ones (EURUSD over EURUSD.m)
        if (!prev || (s.name === ours && prev.name !== ours)) pick.set(ours, s);
      }
      for (const [ours, broker] of Object.entries(this.o.symbolMap ?? {})) {
        const s = byName.get(broker);
        if (s) pick.set(ours, s);
      }
      for (const [ours, s] of pick) this.markets.set(ours, toMarket(ours, s));
      this.marketsOf = h;
    }
    return Promise.resolve([...this.markets.values()]);
  }

  async market(symbol: string): Promise<Mt5VenueMarket> {
    await this.loadMarkets();
    const m = this.markets.get(symbol);
    if (!m) throw new VenueFaultError(`the MT5 terminal offers no symbol for ${symbol}`);
    return m;
  }

  fetchBalance(): Promise<VenueBalance> {
    const hb = this.o.session.heartbeat();
    const h = this.hello();
    if (!hb) throw new VenueRetryableError('no heartbeat from the MT5 terminal yet');
    return Promise.resolve({ currency: h.currency, total: Number(hb.equity), free: Number(hb.freeMargin), used: Number(hb.margin) });
  }

  private ourPositions(): Mt5Position[] {
    const snap = this.o.session.snapshot();
    if (!snap) throw new VenueRetryableError('no snapshot from the MT5 terminal yet');
    return snap.positions.filter((p) => isOurMagic(p.magic));
  }

  async fetchPositions(symbols?: string[]): Promise<VenuePosition[]> {
    await this.loadMarkets();
    const toOurs = new Map([...this.markets.values()].map((m) => [m.brokerSymbol, m.symbol]));
    const agg = new Map<string, { symbol: string; side: 'long' | 'short'; lots: number; cost: number; pnl: number }>();
    for (const p of this.ourPositions()) {
      const symbol = toOurs.get(p.symbol) ?? p.symbol;
      if (symbols && !symbols.includes(symbol)) continue;
      const side = p.side === 'buy' ? 'long' : 'short';
      const key = `${symbol}:${side}`;
      const a = agg.get(key) ?? { symbol, side, lots: 0, cost: 0, pnl: 0 };
      a.lots += Number(p.volume);
      a.cost += Number(p.volume) * Number(p.priceOpen);
      a.pnl += Number(p.profit) + Number(p.swap);
      agg.set(key, a);
    }
    return [...agg.values()].map((a) => ({
      symbol: a.symbol,
      side: a.side,
      contracts: Number(a.lots.toFixed(8)),
      entryPrice: a.lots > 0 ? a.cost / a.lots : 0,
      markPrice: null,
      unrealizedPnl: a.pnl,
      leverage: null,
      marginMode: this.hello().marginMode,
    }));
  }

  private checkVolume(m: Mt5VenueMarket, amount: number): string {
    const steps = amount / m.amountStep;
    const whole = Math.round(steps);
    if (!(amount > 0) || Math.abs(steps - whole) > 1e-7) {
      throw new VenueRejectedError(`volume ${amount} is not a multiple of ${m.symbol}'s step ${m.amountStep}`, 'invalidOrder');
    }
    if ((m.minAmount !== null && amount < m.minAmount - 1e-12) || amount > m.maxAmount + 1e-12) {
      throw new VenueRejectedError(`volume ${amount} is outside ${m.minAmount ?? 0}…${m.maxAmount} lots`, 'invalidOrder');
    }
    return (whole * m.amountStep).toFixed(decimals(m.amountStep));
  }

  private price(m: Mt5VenueMarket, p: number | undefined): string | null {
    if (p === undefined) return null;
    const ticks = Math.round(p / m.tickSize);
    return (ticks * m.tickSize).toFixed(m.digits);
  }

  /** The position a close acts on (hedging): the one opened by `closes`, else the oldest opposite one. */
  private positionFor(m: Mt5VenueMarket, req: Mt5PlaceOrderRequest): string | null {
    const want = req.side === 'buy' ? 'sell' : 'buy';
    const ps = this.ourPositions().filter((p) => p.symbol === m.brokerSymbol && p.side === want);
    if (req.closes) {
      const magic = magicOf(req.closes);
      const own = ps.find((p) => p.magic === magic);
      if (own) return own.ticket;
    }
    const sorted = [...ps].sort((a, b) => a.timeMsc - b.timeMsc);
    return sorted.find((p) => Number(p.volume) >= req.amount - 1e-12)?.ticket ?? sorted[0]?.ticket ?? null;
  }

  /**
   * Sends one intent, once; the EA executes a clientId at most once (journal + magic), so a call
   * repeated with the same id returns the stored result. Errors:
   * - terminal offline / stale: `VenueRetryableError` (nothing sent);
   * - no answer, or the EA reports `unknown`: `VenueUnknownOutcomeError` (fetchOrder resolves it);
   * - refused: `VenueRejectedError` (NO_MONEY: insufficientFunds; invalid volume, price, stops:
   *   invalidOrder) or `VenueStopError` (trading disabled on the account).
   */
  async placeOrder(req: Mt5PlaceOrderRequest): Promise<VenueOrder> {
    const m = await this.market(req.symbol);
    const volume = this.checkVolume(m, req.amount);
    const netting = this.hello().marginMode !== 'hedging';
    let positionTicket: string | null = null;
    if (req.reduceOnly) {
      const want = req.side === 'buy' ? 'sell' : 'buy';
      const has = this.ourPositions().some((p) => p.symbol === m.brokerSymbol && p.side === want);
      if (!has) throw new VenueRejectedError(`no ${want} position on ${m.brokerSymbol} to reduce`, 'invalidOrder');
      if (!netting) positionTicket = this.positionFor(m, req);
    }
    const intent: Mt5IntentRequest = {
      clientId: req.clientOrderId,
      action: req.type === 'limit' ? 'pending' : 'deal',
      symbol: m.brokerSymbol,
      side: req.side,
      orderType: req.type === 'limit' ? 'limit' : 'market',
      volume,
      price: req.type === 'limit' ? this.price(m, req.price) : null,
      sl: this.price(m, req.stopLoss),
      tp: this.price(m, req.takeProfit),
      deviationPts: this.o.deviationPts ?? 10,
      positionTicket,
      ttlMs: this.o.ttlMs ?? 10_000,
    };
    let result: Mt5Result;
    try {
      result = await this.o.session.execute(intent, this.o.timeoutMs);
    } catch (e) {
      if (e instanceof Mt5OfflineError) throw new VenueRetryableError(e.message, null, 'Mt5Offline');
      throw new VenueFaultError(e instanceof Error ? e.message : String(e));
    }
    return this.orderFrom(req.clientOrderId, m, req, result, true);
  }

  private orderFrom(clientId: string, m: Mt5VenueMarket, req: Pick<PlaceOrderRequest, 'side' | 'type' | 'amount' | 'price' | 'reduceOnly'>, r: Mt5Result, throwing: boolean): VenueOrder {
    const code = r.retcode;
    const codeText = code === null ? null : String(code);
    const why = `${retcodeName(code) ?? codeText ?? r.outcome}${r.comment ? `: ${r.comment}` : ''}`;
    if (throwing) {
      if (r.outcome === 'unknown') throw new VenueUnknownOutcomeError(`MT5 outcome unknown (${why})`, clientId, codeText, 'Mt5Exec');
      if (r.outcome === 'not_found') throw new VenueRejectedError(`MT5 order ${clientId} was not executed (${why})`, 'operationRejected', codeText, 'Mt5Exec');
      if (r.outcome === 'rejected') {
        if (code !== null && STOP_RETCODES.has(code)) throw new VenueStopError(`MT5 refused: ${why}`, codeText, 'Mt5Exec');
        if (code === MT5_RETCODES.NO_MONEY.code) throw new VenueRejectedError(`MT5 refused: ${why}`, 'insufficientFunds', codeText, 'Mt5Exec');
        const invalid = code !== null && (retcodeName(code)?.startsWith('INVALID') ?? false);
        throw new VenueRejectedError(`MT5 refused: ${why}`, invalid || code === null ? 'invalidOrder' : 'operationRejected', codeText, 'Mt5Exec');
      }
    }
    let status: VenueOrderStatus;
    let filled = num(r.volume) ?? 0;
    let average = num(r.price);
    if (r.outcome === 'placed') {
      // a pending order: open while the snapshot lists it; filled by the deals of its magic
      const deals = this.o.session.dealsOf(clientId).filter((d) => d.entry === 'in' || d.entry === 'inout' || d.entry === 'out');
      filled = deals.reduce((s, d) => s + Number(d.volume), 0);
      average = filled > 0 ? deals.reduce((s, d) => s + Number(d.volume) * Number(d.price), 0) / filled : null;
      const open = r.order !== null && this.o.session.isOrderOpen(r.order);
      status = open ? 'open' : filled >= req.amount - 1e-12 ? 'closed' : 'canceled';
    } else if (r.outcome === 'filled' || r.outcome === 'partial') {
      status = 'closed';
    } else {
      status = 'rejected';
      filled = 0;
    }
    return {
      id: r.order ?? '',
      clientOrderId: clientId,
      symbol: m.symbol,
      side: req.side,
      type: req.type,
      status,
      price: req.price ?? average,
      average,
      amount: req.amount,
      filled,
      remaining: Math.max(0, req.amount - filled),
      reduceOnly: req.reduceOnly ?? false,
      timestamp: null,
    };
  }

  /** The state of an intent by clientId; null when never sent, not yet answered, unknown or not found. */
  async fetchOrder(symbol: string, clientOrderId: string): Promise<VenueOrder | null> {
    const m = await this.market(symbol);
    const r = this.o.session.lookup(clientOrderId);
    if (!r || r.outcome === 'unknown' || r.outcome === 'not_found') return null;
    const sent = this.o.session.intentOf(clientOrderId);
    const snapOrder = this.o.session.snapshot()?.orders.find((o) => o.ticket === r.order);
    const req = {
      side: sent?.side ?? snapOrder?.side ?? 'buy',
      type: (sent ? sent.orderType !== 'market' : r.outcome === 'placed') ? ('limit' as const) : ('market' as const),
      amount: Number(sent?.volume ?? snapOrder?.volumeInitial ?? r.volume ?? 0),
      price: sent?.price ? Number(sent.price) : undefined,
      reduceOnly: sent ? sent.positionTicket !== null && sent.positionTicket !== undefined : false,
    };
    return this.orderFrom(clientOrderId, m, req, r, false);
  }

  /** Removes a pending order (a `remove` intent with its own clientId); returns the order's state. */
  async cancelOrder(symbol: string, clientOrderId: string): Promise<VenueOrder | null> {
    const m = await this.market(symbol);
    const r = this.o.session.lookup(clientOrderId);
    if (!r || r.outcome !== 'placed' || r.order === null) return this.fetchOrder(symbol, clientOrderId);
    const open = this.o.session.snapshot()?.orders.find((o) => o.ticket === r.order);
    if (!open) return this.fetchOrder(symbol, clientOrderId);
    let res: Mt5Result;
    try {
      res = await this.o.session.execute(
        { clientId: cancelClientId(clientOrderId), action: 'remove', symbol: m.brokerSymbol, side: open.side, orderType: open.type, volume: open.volumeCurrent, orderTicket: r.order, ttlMs: this.o.ttlMs ?? 10_000 },
        this.o.timeoutMs,
      );
    } catch (e) {
      if (e instanceof Mt5OfflineError) throw new VenueRetryableError(e.message, null, 'Mt5Offline');
      throw e;
    }
    if (res.outcome === 'unknown') throw new VenueUnknownOutcomeError('MT5 cancel outcome unknown', clientOrderId, null, 'Mt5Exec');
    const before = await this.fetchOrder(symbol, clientOrderId);
    if (!before) return null;
    const removed = res.outcome === 'filled' || res.outcome === 'placed';
    return removed && before.status === 'open' ? { ...before, status: 'canceled' } : before;
  }

  /** Broker time − UTC, from the last heartbeat (rounded to 15 min), in ms. */
  private brokerOffsetMs(): number {
    const hb = this.o.session.heartbeat();
    if (!hb) return 0;
    return Math.round((hb.brokerTime - hb.gmtTime) / 900) * 900_000;
  }

  /** Our deals on a symbol since a UTC time, oldest first (fees: commission + fee as a positive cost). */
  async fetchFills(symbol: string, since?: number): Promise<VenueFill[]> {
    const m = await this.market(symbol);
    const offset = this.brokerOffsetMs();
    const deals = await this.o.session.fetchDeals(since === undefined ? 0 : since + offset);
    return deals
      .filter((d) => d.symbol === m.brokerSymbol)
      .map((d) => ({
        id: d.deal,
        orderId: d.order,
        clientOrderId: this.o.session.clientIdOf(d.magic),
        symbol: m.symbol,
        side: d.side,
        price: Number(d.price),
        amount: Number(d.volume),
        fee: Math.max(0, -(Number(d.commission) + Number(d.fee))),
        feeCurrency: this.o.session.terminal()?.currency ?? null,
        maker: false,
        timestamp: d.brokerTimeMsc - offset,
      }));
  }

  async fetchOpenOrders(symbol: string): Promise<VenueOrder[]> {
    const m = await this.market(symbol);
    const snap = this.o.session.snapshot();
    if (!snap) throw new VenueRetryableError('no snapshot from the MT5 terminal yet');
    return snap.orders
      .filter((o) => o.symbol === m.brokerSymbol && isOurMagic(o.magic))
      .map((o) => ({
        id: o.ticket,
        clientOrderId: this.o.session.clientIdOf(o.magic) ?? '',
        symbol,
        side: o.side,
        type: o.type === 'market' ? 'market' : 'limit',
        status: 'open' as const,
        price: Number(o.priceOpen),
        average: null,
        amount: Number(o.volumeInitial),
        filled: Number(o.volumeInitial) - Number(o.volumeCurrent),
        remaining: Number(o.volumeCurrent),
        reduceOnly: false,
        timestamp: o.timeMsc,
      }));
  }

  /** Whether an error code of the EA should pause the robot (NO_MONEY, trading disabled …). */
  static pauses(retcode: number | null): boolean {
    return retcode !== null && PAUSE_RETCODES.has(retcode);
  }
}

function toMarket(ours: string, s: Mt5Symbol): Mt5VenueMarket {
  return {
    symbol: ours,
    ccxtSymbol: s.name,
    venueId: s.name,
    brokerSymbol: s.name,
    base: s.base,
    quote: s.quote,
    contractSize: Number(s.contractSize),
    tickSize: Number(s.tickSize) || Number(s.point),
    amountStep: Number(s.volumeStep),
    minAmount: Number(s.volumeMin),
    maxAmount: Number(s.volumeMax),
    minNotional: null,
    digits: s.digits,
    stopsLevel: s.stopsLevel,
    point: Number(s.point),
  };
}

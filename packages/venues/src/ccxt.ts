// ccxt venue adapter: Binance USDⓈ-M (`binanceusdm`) and OKX USDT swaps (`okx`). Every ccxt error
// is translated here into a VenueError by what the caller must do; reads retry, order placement is
// never resent (an unknown outcome is resolved by querying the client order id).
// ccxt takes seconds to import (every exchange it has): it is loaded by the first venue that calls
// out, not by importing @lq/venues (every server test, child process and boot would pay for it).
import type * as CcxtLib from 'ccxt';
import type { Exchange, Market as CcxtMarket, Order as CcxtOrder, Str, okx } from 'ccxt';
import type { VenueSizeSpec } from '@lq/engine';
import { CLIENT_ORDER_ID_FORMAT } from './client-order-id';
import {
  VenueError,
  VenueFaultError,
  VenueRejectedError,
  VenueRetryableError,
  VenueStopError,
  VenueUnknownOutcomeError,
} from './errors';

export type CcxtVenueId = 'binanceusdm' | 'okx';

export interface CcxtVenueConfig {
  venue: CcxtVenueId;
  apiKey: string;
  secret: string;
  /** OKX passphrase. */
  password?: string;
  /** Another origin for every REST endpoint (the fake exchange on 127.0.0.1, a proxy). */
  origin?: string;
  /** ccxt request timeout (default 10 000 ms). */
  timeoutMs?: number;
  /** Attempts of a read before its error is thrown (default 4). */
  readAttempts?: number;
  /** First backoff between read attempts, doubled each time (default 250 ms). */
  backoffMs?: number;
  /** Cap of a single backoff or Retry-After wait (default 30 000 ms). */
  maxWaitMs?: number;
  /** How long an unknown order outcome is polled for (default recvWindow 10 s + 5 s). */
  resolveWindowMs?: number;
  /** Injected for tests; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** ccxt's own request spacing (default on; off against a local fake exchange). */
  enableRateLimit?: boolean;
}

type Ccxt = typeof CcxtLib;
let ccxtLib: Ccxt | undefined;
/** The ccxt module, imported once on first use. */
export async function loadCcxt(): Promise<Ccxt> {
  return (ccxtLib ??= await import('ccxt'));
}

export interface VenueMarket {
  /** Our symbol: BTCUSDT. */
  readonly symbol: string;
  /** ccxt's unified symbol: BTC/USDT:USDT. */
  readonly ccxtSymbol: string;
  /** The venue's id: BTCUSDT (Binance), BTC-USDT-SWAP (OKX). */
  readonly venueId: string;
  readonly base: string;
  readonly quote: string;
  /** Coins per 1 of order amount (1 on Binance, ctVal on OKX). */
  readonly contractSize: number;
  readonly tickSize: number;
  readonly amountStep: number;
  readonly minAmount: number | null;
  /** null: the venue states none. */
  readonly maxAmount?: number | null;
  readonly minNotional: number | null;
}

/** A venue's live market as the engine's size spec: the same conversion as the catalog's sizes. */
export function sizeSpecOf(m: VenueMarket): VenueSizeSpec {
  return {
    unit: m.contractSize,
    amountStep: m.amountStep,
    minAmount: m.minAmount ?? m.amountStep,
    maxAmount: m.maxAmount ?? null,
    minNotional: m.minNotional ?? 0,
  };
}

export interface VenueBalance {
  readonly currency: string;
  readonly total: number;
  readonly free: number;
  readonly used: number;
}

export interface VenuePosition {
  readonly symbol: string;
  readonly side: 'long' | 'short';
  /** Amount in venue contracts (coins on Binance). */
  readonly contracts: number;
  readonly entryPrice: number;
  readonly markPrice: number | null;
  readonly unrealizedPnl: number | null;
  readonly leverage: number | null;
  readonly marginMode: string | null;
}

export type VenueOrderStatus = 'open' | 'closed' | 'canceled' | 'expired' | 'rejected';

export interface VenueOrder {
  readonly id: string;
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly type: string;
  readonly status: VenueOrderStatus;
  readonly price: number | null;
  readonly average: number | null;
  readonly amount: number;
  readonly filled: number;
  readonly remaining: number;
  readonly reduceOnly: boolean;
  readonly timestamp: number | null;
}

/** A funding payment on a perpetual: negative when paid. */
export interface VenueFunding {
  id: string;
  amount: number;
  time: number;
}

export interface VenueFill {
  readonly id: string;
  readonly orderId: string;
  /** OKX reports it; Binance does not (match by orderId). */
  readonly clientOrderId: string | null;
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly price: number;
  /** Venue contracts. */
  readonly amount: number;
  /** Fee paid (positive), in `feeCurrency`. */
  readonly fee: number;
  readonly feeCurrency: string | null;
  readonly maker: boolean;
  readonly timestamp: number;
}

export interface PlaceOrderRequest {
  readonly symbol: string;
  /** From clientOrderId(robot, signal, leg). */
  readonly clientOrderId: string;
  readonly side: 'buy' | 'sell';
  readonly type: 'market' | 'limit';
  /** In venue contracts (coins on Binance). */
  readonly amount: number;
  readonly price?: number;
  readonly reduceOnly?: boolean;
}

/** What binding an API key checks (venues.md §6). */
export interface KeyCheck {
  canTrade: boolean;
  canWithdraw: boolean;
  ipRestricted: boolean;
  /** One-way (net) position mode. */
  oneWay: boolean;
  /** Binance: the symbol's margin type is cross; OKX: null (cross is chosen per order). */
  crossMargin: boolean | null;
  /** Reasons to refuse the key: withdrawEnabled, tradingDisabled, hedgeMode, accountLevel. */
  problems: string[];
  /** Reasons to warn: noIpRestriction, notCrossMargin. */
  warnings: string[];
}

/** The venue calls a live robot needs, in our types; implemented by CcxtVenue (and later mt5). */
export interface Venue {
  loadMarkets(reload?: boolean): Promise<VenueMarket[]>;
  fetchBalance(): Promise<VenueBalance>;
  fetchPositions(symbols?: string[]): Promise<VenuePosition[]>;
  placeOrder(req: PlaceOrderRequest): Promise<VenueOrder>;
  /** null when the venue does not know the id (never placed, or past its retention horizon). */
  fetchOrder(symbol: string, clientOrderId: string): Promise<VenueOrder | null>;
  /** Cancels an open order; returns its final state, or null when the venue does not know it. */
  cancelOrder(symbol: string, clientOrderId: string): Promise<VenueOrder | null>;
  fetchOpenOrders(symbol: string): Promise<VenueOrder[]>;
}

/** binanceusdm whose error map also applies off fapi.binance.com (venues.md §1 gotcha). */
function binanceUsdmClass(lib: Ccxt) {
  return class BinanceUsdm extends lib.binanceusdm {
    override getExceptionsByUrl(url: Str, exactOrBroad: string): Record<string, unknown> {
      const type = url?.includes('/fapi/') ? 'linear' : url?.includes('/sapi/') ? 'spot' : undefined;
      if (type === undefined) return super.getExceptionsByUrl(url, exactOrBroad);
      return this.safeDict(this.safeDict(this.exceptions, type, {}) ?? {}, exactOrBroad, {}) ?? {};
    }
  };
}
let BinanceUsdm: ReturnType<typeof binanceUsdmClass> | undefined;

const DUPLICATE_CODES = new Set(['-4116', '51016']);
/** Venue refusals ccxt leaves as plain ExchangeError (OKX 51169: reduce-only without a position). */
const EXTRA_REJECT_CODES = new Set(['51169']);
/** Codes that prove an order call was not processed (venues.md §4). */
const NOT_PROCESSED_CODES = new Set(['-1021', '-1003', '-1015', '50011', '50102']);

/** The venue's raw code from a ccxt message `"<id> {json}"` (OKX per-order sCode included). */
export function venueCodeOf(e: unknown): string | null {
  const msg = e instanceof Error ? e.message : String(e);
  const s = /"sCode"\s*:\s*"(\d+)"/.exec(msg);
  if (s && s[1] !== '0') return s[1];
  const m = /"code"\s*:\s*"?(-?\d+)"?/.exec(msg);
  return m && m[1] !== '0' ? m[1] : null;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class CcxtVenue implements Venue {
  private ex: Exchange | undefined;
  private markets = new Map<string, VenueMarket>();
  private readonly sleep: (ms: number) => Promise<void>;
  /** No call before this time (epoch ms): set by a 429 / 418 Retry-After. */
  private pausedUntil = 0;

  constructor(private readonly cfg: CcxtVenueConfig) {
    this.sleep = cfg.sleep ?? defaultSleep;
  }

  /** The ccxt exchange; `open()` first (every call out does). */
  get exchange(): Exchange {
    if (!this.ex) throw new Error('CcxtVenue: open() first');
    return this.ex;
  }

  /** Loads ccxt (once per process) and creates the exchange (once per venue). */
  async open(): Promise<Exchange> {
    if (this.ex) return this.ex;
    const lib = await loadCcxt();
    if (this.ex) return this.ex;
    const cfg = this.cfg;
    const common = {
      apiKey: cfg.apiKey,
      secret: cfg.secret,
      timeout: cfg.timeoutMs ?? 10_000,
      enableRateLimit: cfg.enableRateLimit ?? true,
    };
    if (cfg.venue === 'binanceusdm') {
      BinanceUsdm ??= binanceUsdmClass(lib);
      this.ex = new BinanceUsdm({ ...common, options: { fetchCurrencies: false, recvWindow: 10_000, maxRetriesOnFailure: 0 } });
    } else {
      this.ex = new lib.okx({
        ...common,
        password: cfg.password,
        has: { fetchCurrencies: false },
        options: { fetchMarkets: { types: ['swap'] }, defaultType: 'swap', maxRetriesOnFailure: 0 },
      });
    }
    if (cfg.origin) this.setOrigin(this.ex, cfg.origin);
    return this.ex;
  }

  private setOrigin(exchange: Exchange, origin: string): void {
    const api = exchange.urls.api as Record<string, unknown>;
    for (const k of Object.keys(api)) {
      if (typeof api[k] === 'string') api[k] = (api[k]).replace(/^https?:\/\/[^/]+/, origin.replace(/\/$/, ''));
    }
  }

  // ---- error translation -------------------------------------------------------------------

  private retryAfterMs(): number | null {
    const h = (this.ex?.last_response_headers ?? {}) as Record<string, string>;
    const v = h['Retry-After'] ?? h['retry-after'];
    if (v === undefined) return null;
    const s = Number(v);
    return Number.isFinite(s) ? s * 1000 : null;
  }

  /** ccxt error → VenueError. `write` marks an order call, whose network failures are unknown outcomes. */
  translate(e: unknown, op: 'read' | 'write', clientOrderId = ''): VenueError {
    if (e instanceof VenueError) return e;
    const code = venueCodeOf(e);
    const msg = e instanceof Error ? e.message : String(e);
    const src = e instanceof Error ? e.constructor.name : null;
    // Before ccxt is loaded nothing can have thrown one of its errors.
    const lib = ccxtLib;
    if (!lib) return new VenueFaultError(msg, code, src);
    const { DDoSProtection, RateLimitExceeded, InvalidNonce, OperationFailed, BadResponse, AuthenticationError, InsufficientFunds, BadSymbol, NotSupported, ArgumentsRequired, InvalidOrder, BadRequest, OperationRejected, ExchangeError } = lib;
    if (e instanceof DDoSProtection || e instanceof RateLimitExceeded) {
      const after = this.retryAfterMs();
      if (after !== null) this.pausedUntil = Math.max(this.pausedUntil, Date.now() + Math.min(after, this.cfg.maxWaitMs ?? 30_000));
      return new VenueRetryableError(msg, code, src, after);
    }
    if (e instanceof InvalidNonce) return new VenueRetryableError(msg, code, src);
    if (e instanceof OperationFailed || e instanceof BadResponse) {
      // NetworkError, RequestTimeout, ExchangeNotAvailable, OnMaintenance, 5xx codes.
      if (op === 'write') return new VenueUnknownOutcomeError(msg, clientOrderId, code, src);
      return new VenueRetryableError(msg, code, src);
    }
    if (e instanceof AuthenticationError) return new VenueStopError(msg, code, src);
    if (e instanceof InsufficientFunds) return new VenueRejectedError(msg, 'insufficientFunds', code, src);
    if (e instanceof BadSymbol || e instanceof NotSupported || e instanceof ArgumentsRequired) return new VenueFaultError(msg, code, src);
    if (e instanceof InvalidOrder) return new VenueRejectedError(msg, 'invalidOrder', code, src);
    if (e instanceof BadRequest) return new VenueRejectedError(msg, 'badRequest', code, src);
    if (e instanceof OperationRejected) return new VenueRejectedError(msg, 'operationRejected', code, src);
    if (e instanceof ExchangeError && code !== null && EXTRA_REJECT_CODES.has(code)) return new VenueRejectedError(msg, 'invalidOrder', code, src);
    if (e instanceof ExchangeError) return new VenueFaultError(msg, code, src);
    return new VenueFaultError(msg, code, src);
  }

  private async waitRateLimit(): Promise<void> {
    const wait = this.pausedUntil - Date.now();
    if (wait > 0) await this.sleep(wait);
  }

  /** A read with retries: any `retry` outcome is retried with backoff, Retry-After respected. */
  private async read<T>(fn: (attempt: number) => Promise<T>): Promise<T> {
    const attempts = this.cfg.readAttempts ?? 4;
    let backoff = this.cfg.backoffMs ?? 250;
    await this.open();
    for (let i = 1; ; i++) {
      await this.waitRateLimit();
      try {
        return await fn(i);
      } catch (e) {
        const err = this.translate(e, 'read');
        if (err.action !== 'retry' || i >= attempts) throw err;
        if (err.source === 'InvalidNonce') await this.resyncClock();
        const retryAfter = err instanceof VenueRetryableError ? err.retryAfterMs : null;
        if (retryAfter === null) await this.sleep(Math.min(backoff, this.cfg.maxWaitMs ?? 30_000));
        backoff *= 2;
      }
    }
  }

  private async resyncClock(): Promise<void> {
    try {
      await this.exchange.loadTimeDifference();
      this.exchange.options.adjustForTimeDifference = true;
    } catch {
      // the next attempt reports the error
    }
  }

  // ---- markets -----------------------------------------------------------------------------

  async loadMarkets(reload = false): Promise<VenueMarket[]> {
    // ccxt caches a failed load: later attempts force a reload.
    const ms = await this.read((attempt) => this.exchange.loadMarkets(reload || attempt > 1));
    this.markets.clear();
    for (const m of Object.values(ms)) {
      if (!m || !m.swap || !m.linear || m.settle !== 'USDT' || m.active === false) continue;
      const vm = toVenueMarket(m);
      this.markets.set(vm.symbol, vm);
    }
    return [...this.markets.values()];
  }

  async market(symbol: string): Promise<VenueMarket> {
    if (this.markets.size === 0) await this.loadMarkets();
    const m = this.markets.get(symbol);
    if (!m) throw new VenueFaultError(`${this.cfg.venue} has no USDT swap ${symbol}`);
    return m;
  }

  // ---- account -----------------------------------------------------------------------------

  async fetchBalance(): Promise<VenueBalance> {
    const b = await this.read(() => this.exchange.fetchBalance());
    const row = (b as unknown as Record<string, { total?: number; free?: number; used?: number } | undefined>).USDT ?? {};
    return { currency: 'USDT', total: row.total ?? 0, free: row.free ?? 0, used: row.used ?? 0 };
  }

  async fetchPositions(symbols?: string[]): Promise<VenuePosition[]> {
    const ccxtSymbols = symbols ? await Promise.all(symbols.map(async (s) => (await this.market(s)).ccxtSymbol)) : undefined;
    if (this.markets.size === 0) await this.loadMarkets();
    const ps = await this.read(() => this.exchange.fetchPositions(ccxtSymbols));
    const bySymbol = new Map([...this.markets.values()].map((m) => [m.ccxtSymbol, m.symbol]));
    const out: VenuePosition[] = [];
    for (const p of ps) {
      const contracts = Math.abs(p.contracts ?? 0);
      if (!(contracts > 0)) continue;
      out.push({
        symbol: bySymbol.get(p.symbol ?? '') ?? p.symbol ?? '',
        side: p.side === 'short' ? 'short' : 'long',
        contracts,
        entryPrice: p.entryPrice ?? 0,
        markPrice: p.markPrice ?? null,
        unrealizedPnl: p.unrealizedPnl ?? null,
        leverage: p.leverage ?? null,
        marginMode: p.marginMode ?? null,
      });
    }
    return out;
  }

  // ---- orders ------------------------------------------------------------------------------

  async fetchOrder(symbol: string, clientOrderId: string): Promise<VenueOrder | null> {
    const m = await this.market(symbol);
    try {
      const o = await this.read(() => this.exchange.fetchOrder('', m.ccxtSymbol, { clientOrderId }));
      return toVenueOrder(o, m);
    } catch (e) {
      if (e instanceof VenueError && e.source === 'OrderNotFound') return null;
      throw e;
    }
  }

  async fetchOpenOrders(symbol: string): Promise<VenueOrder[]> {
    const m = await this.market(symbol);
    const os = await this.read(() => this.exchange.fetchOpenOrders(m.ccxtSymbol));
    return os.map((o) => toVenueOrder(o, m));
  }

  /**
   * Funding paid (negative) or received on a symbol from `since` on, oldest first, every page
   * (perpetuals settle every 8 hours; the drift monitor records it). None where ccxt has no history.
   */
  async fetchFunding(symbol: string, since: number): Promise<VenueFunding[]> {
    const m = await this.market(symbol);
    if (!this.exchange.has.fetchFundingHistory) return [];
    const PAGE = 1000;
    const out: VenueFunding[] = [];
    for (let from = since; ; ) {
      const rows = await this.read(() => this.exchange.fetchFundingHistory(m.ccxtSymbol, from, PAGE));
      const page = rows.map((r) => ({ id: String(r.id), amount: r.amount ?? 0, time: r.timestamp ?? 0 })).sort((a, b) => a.time - b.time);
      out.push(...page);
      if (page.length < PAGE) return out;
      from = page[page.length - 1].time + 1;
    }
  }

  /** Our fills on a symbol since a time (restart reconcile: since the last booked fill), oldest first. */
  async fetchFills(symbol: string, since?: number): Promise<VenueFill[]> {
    const m = await this.market(symbol);
    const ts = await this.read(() => this.exchange.fetchMyTrades(m.ccxtSymbol, since));
    return ts
      .map((t) => ({
        id: String(t.id),
        orderId: String(t.order ?? ''),
        clientOrderId: ((t.info as Record<string, unknown> | undefined)?.clOrdId as string | undefined) || null,
        symbol: m.symbol,
        side: t.side === 'sell' ? ('sell' as const) : ('buy' as const),
        price: t.price ?? 0,
        amount: t.amount ?? 0,
        fee: Math.abs(t.fee?.cost ?? 0),
        feeCurrency: t.fee?.currency ?? null,
        maker: t.takerOrMaker === 'maker',
        timestamp: t.timestamp ?? 0,
      }))
      .sort((a, b) => a.timestamp - b.timestamp);
  }

  /**
   * Sends one order, once. Never resent by this adapter:
   * - accepted → the order (OKX answers ids only: followed by a query);
   * - duplicate client id (-4116 / 51016) → the live order with that id is ours: adopted;
   * - unknown outcome (timeout, reset, 5xx) → resolved by querying the client id for the resolve
   *   window: found → adopted; still absent → `VenueRetryableError` (the request can no longer be
   *   accepted: recvWindow), the caller may send the same id again; queries failing →
   *   `VenueUnknownOutcomeError`;
   * - 429 / 418 / clock → `VenueRetryableError` (not processed; Retry-After in `retryAfterMs`);
   * - refused → `VenueRejectedError`, `VenueStopError` or `VenueFaultError`.
   */
  async placeOrder(req: PlaceOrderRequest): Promise<VenueOrder> {
    if (!CLIENT_ORDER_ID_FORMAT.test(req.clientOrderId)) {
      throw new VenueFaultError(`client order id ${req.clientOrderId} does not match ${String(CLIENT_ORDER_ID_FORMAT)}`);
    }
    const m = await this.market(req.symbol);
    await this.waitRateLimit();
    const params: Record<string, unknown> = { clientOrderId: req.clientOrderId };
    if (req.reduceOnly) params.reduceOnly = true;
    if (this.cfg.venue === 'binanceusdm') params.newOrderRespType = 'RESULT';
    else params.tdMode = 'cross';
    let created: CcxtOrder;
    try {
      created = await this.exchange.createOrder(m.ccxtSymbol, req.type, req.side, req.amount, req.type === 'limit' ? req.price : undefined, params);
    } catch (e) {
      const code = venueCodeOf(e);
      if (code !== null && DUPLICATE_CODES.has(code)) {
        const live = await this.fetchOrder(req.symbol, req.clientOrderId);
        if (live) return live;
      }
      const err = this.translate(e, 'write', req.clientOrderId);
      if (err.source === 'InvalidNonce' || (code !== null && NOT_PROCESSED_CODES.has(code))) {
        if (err.source === 'InvalidNonce') await this.resyncClock();
        throw err.action === 'retry' ? err : new VenueRetryableError(err.message, code, err.source);
      }
      if (err.action === 'resolve') return this.resolve(req, err);
      throw err;
    }
    if (created.status === undefined || created.status === null || created.amount === undefined) {
      const o = await this.fetchOrder(req.symbol, req.clientOrderId);
      if (o) return o;
    }
    return toVenueOrder(created, m);
  }

  /** Polls the client id after an unknown outcome; never resends. */
  private async resolve(req: PlaceOrderRequest, cause: VenueError): Promise<VenueOrder> {
    const window = this.cfg.resolveWindowMs ?? 15_000;
    const deadline = Date.now() + window;
    let backoff = this.cfg.backoffMs ?? 250;
    let lastError: VenueError | null = null;
    for (;;) {
      try {
        const o = await this.fetchOrder(req.symbol, req.clientOrderId);
        if (o) return o;
        lastError = null;
      } catch (e) {
        lastError = e instanceof VenueError ? e : this.translate(e, 'read');
        if (lastError.action !== 'retry') throw lastError;
      }
      if (Date.now() >= deadline) break;
      await this.sleep(Math.min(backoff, Math.max(0, deadline - Date.now())));
      backoff *= 2;
    }
    if (lastError) {
      throw new VenueUnknownOutcomeError(`${cause.message}; the order could not be queried: ${lastError.message}`, req.clientOrderId, cause.venueCode, cause.source);
    }
    throw new VenueRetryableError(`order ${req.clientOrderId} was not placed (${cause.message}); the same id may be sent again`, cause.venueCode, cause.source);
  }

  async cancelOrder(symbol: string, clientOrderId: string): Promise<VenueOrder | null> {
    const m = await this.market(symbol);
    await this.waitRateLimit();
    try {
      const o = await this.exchange.cancelOrder('', m.ccxtSymbol, { clientOrderId });
      if (o.status === undefined || o.status === null) return await this.fetchOrder(symbol, clientOrderId);
      return toVenueOrder(o, m);
    } catch (e) {
      // Unknown to the venue, or no longer open: the order's final state (or null) is the answer.
      if (ccxtLib && e instanceof ccxtLib.OrderNotFound) return this.fetchOrder(symbol, clientOrderId);
      const err = this.translate(e, 'write', clientOrderId);
      if (err.action === 'resolve') {
        // Cancelling is idempotent at the venue, but we still only query: the caller sees the state.
        const o = await this.fetchOrder(symbol, clientOrderId).catch(() => null);
        if (o) return o;
      }
      throw err;
    }
  }

  /** Read-only checks of a key being bound: permissions, IP restriction, position and margin mode. */
  async checkKey(symbol = 'BTCUSDT'): Promise<KeyCheck> {
    const m = await this.market(symbol);
    let check: Omit<KeyCheck, 'problems' | 'warnings'>;
    let accountLevelOk = true;
    if (this.cfg.venue === 'binanceusdm') {
      const ex = this.exchange as InstanceType<NonNullable<typeof BinanceUsdm>>;
      const r = await this.read(() => ex.sapiGetAccountApiRestrictions());
      const mode = await this.read(() => ex.fetchPositionMode(m.ccxtSymbol));
      const margin = await this.read(() => ex.fetchMarginMode(m.ccxtSymbol));
      check = {
        canTrade: r.enableFutures === true,
        canWithdraw: r.enableWithdrawals === true,
        ipRestricted: r.ipRestrict === true,
        oneWay: mode.hedged === false,
        crossMargin: margin.marginMode === 'cross',
      };
    } else {
      const ex = this.exchange as okx;
      const res = await this.read(() => ex.privateGetAccountConfig());
      const data = (res.data as Record<string, unknown>[] | undefined)?.[0] ?? {};
      const perm = typeof data.perm === 'string' ? data.perm.split(',') : [];
      check = {
        canTrade: perm.includes('trade'),
        canWithdraw: perm.includes('withdraw'),
        ipRestricted: typeof data.ip === 'string' && data.ip !== '',
        oneWay: data.posMode === 'net_mode',
        crossMargin: null,
      };
      accountLevelOk = ['2', '3', '4'].includes(String(data.acctLv));
    }
    const problems: string[] = [];
    const warnings: string[] = [];
    if (check.canWithdraw) problems.push('withdrawEnabled');
    if (!check.canTrade) problems.push('tradingDisabled');
    if (!check.oneWay) problems.push('hedgeMode');
    if (!accountLevelOk) problems.push('accountLevel');
    if (!check.ipRestricted) warnings.push('noIpRestriction');
    if (check.crossMargin === false) warnings.push('notCrossMargin');
    return { ...check, problems, warnings };
  }

  /** Cross margin and one-way mode; "already set" answers count as done. */
  async ensureCrossOneWay(symbol: string, leverage: number): Promise<void> {
    const m = await this.market(symbol);
    const done = (e: unknown): void => {
      if (ccxtLib && e instanceof ccxtLib.NoChange) return;
      if (venueCodeOf(e) === '-4059') return;
      throw this.translate(e, 'read');
    };
    await this.exchange.setPositionMode(false, m.ccxtSymbol).catch(done);
    await this.exchange.setMarginMode('cross', m.ccxtSymbol, this.cfg.venue === 'okx' ? { lever: leverage } : {}).catch(done);
    await this.exchange.setLeverage(leverage, m.ccxtSymbol, this.cfg.venue === 'okx' ? { mgnMode: 'cross' } : {}).catch(done);
  }
}

function toVenueMarket(m: NonNullable<CcxtMarket>): VenueMarket {
  const base = m.base;
  const quote = m.quote;
  return {
    symbol: `${base}${quote}`,
    ccxtSymbol: m.symbol,
    venueId: m.id ?? m.symbol,
    base,
    quote,
    contractSize: m.contractSize ?? 1,
    tickSize: m.precision.price ?? 0,
    amountStep: m.precision.amount ?? 0,
    minAmount: m.limits.amount?.min ?? null,
    maxAmount: m.limits.amount?.max ?? null,
    minNotional: m.limits.cost?.min ?? null,
  };
}

function toStatus(o: CcxtOrder): VenueOrderStatus {
  const raw = (o.info as Record<string, unknown> | undefined)?.status;
  if (raw === 'EXPIRED') return 'expired';
  switch (o.status) {
    case 'open':
    case 'closed':
    case 'canceled':
    case 'expired':
    case 'rejected':
      return o.status;
    default:
      return 'open';
  }
}

function toVenueOrder(o: CcxtOrder, m: VenueMarket): VenueOrder {
  const amount = o.amount ?? 0;
  const filled = o.filled ?? 0;
  return {
    id: String(o.id),
    clientOrderId: o.clientOrderId ?? '',
    symbol: m.symbol,
    side: o.side === 'sell' ? 'sell' : 'buy',
    type: o.type ?? 'unknown',
    status: toStatus(o),
    price: o.price ?? null,
    average: o.average ?? null,
    amount,
    filled,
    remaining: o.remaining ?? amount - filled,
    reduceOnly: o.reduceOnly ?? false,
    timestamp: o.timestamp ?? null,
  };
}

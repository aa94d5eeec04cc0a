// Fake Binance USDⓈ-M futures REST server on 127.0.0.1 for tests and local demos (node:http, in
// memory, deterministic). Enough of the API for ccxt's binanceusdm: markets, balance, positions,
// create / query / cancel orders, with HMAC-SHA256 signatures and timestamps checked as Binance
// does, a controllable market clock over real candles, and fault injection through /__admin/*.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { BinanceApiError, BinanceBook, DEFAULT_MARKETS, fmt, orderJson, type FakeMarket, type FakeOrder } from './binance';
import { FUNDING_INTERVAL_MS } from '../funding';
import { CandleReplay } from './candles';
import type { Candles } from '@lq/engine';

export type FaultAction =
  | { type: 'hang' }
  | { type: 'reset' }
  | { type: 'accept_then_hang' }
  | { type: 'accept_then_reset' }
  | { type: 'http'; status: number; venueCode?: number; msg?: string; body?: string; headers?: Record<string, string> }
  | { type: 'rate_limit'; retryAfterS: number }
  | { type: 'partial'; fillQty: number; then: 'rest' | 'expire' | 'cancel' }
  /**
   * The answer waits `ms` of wall time. With `marketMs` (Binance) the order also reaches the book
   * that much market time late: acknowledged NEW, it executes at the first candle `marketMs` after
   * it was sent, at that candle's price — what a slow link costs in market time.
   */
  | { type: 'latency'; ms: number; marketMs?: number }
  /** A market order (Binance) fills `bps` basis points worse than the mark, against the trader. */
  | { type: 'slippage'; bps: number };

export interface FaultRule {
  method?: string;
  path: string;
  match?: { clientOrderId?: string };
  /** Let this many matching requests through first (default 0). */
  skip?: number;
  /** Apply this many times (default 1; 0 = every time). */
  times?: number;
  action: FaultAction;
}

export interface JournalEntry {
  method: string;
  path: string;
  params: Record<string, string>;
  status: number;
  fault?: string;
  at: number;
}

export interface FakeSeed {
  markets?: FakeMarket[];
  /** USDT wallet balance. */
  balance?: number;
  positions?: { symbol: string; amt: number; entryPrice: number }[];
  prices?: Record<string, number>;
  leverage?: Record<string, number>;
  /** Added to the wall clock for timestamp checks (simulates a server clock ahead or behind). */
  clockOffsetMs?: number;
  /** apiKey → secret. */
  keys?: Record<string, string>;
  /** Create answer for market orders: FILLED (default, RESULT response) or NEW (fill after the ack). */
  ackState?: 'NEW' | 'FILLED';
  /** Market clock (ms); with candles, prices follow the candle closes at this time. */
  timeMs?: number;
  /** Funding rate settled every 8 hours of market time on open positions (default 0: none). */
  fundingRate?: number;
  /**
   * Key and account settings merged into Binance's apiRestrictions (enableWithdrawals, enableFutures,
   * ipRestrict), `dualSidePosition` and `marginType` (CROSSED / ISOLATED), or OKX's account config
   * (perm, ip, acctLv, posMode).
   */
  account?: Record<string, unknown>;
}

/**
 * Market clock mode. `manual` (default): the clock moves only through `advance()` / the admin
 * endpoint. `wall`: it follows the wall clock from where it is, `speed` times as fast (60 = one 1m
 * candle per second), replaying every candle it passes.
 */
export type FakeClockMode = { mode: 'manual' } | { mode: 'wall'; speed?: number };

/** One OHLCV row in market time (open time ms). */
export interface FakeCandleRow {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface FakeExchangeOptions {
  clock?: FakeClockMode;
  port?: number;
  host?: string;
  keys?: Record<string, string>;
  /** symbol → candles to replay (e.g. loaded with loadCandleFile). */
  candles?: Record<string, Candles>;
  faults?: FaultRule[];
  balance?: number;
}

export const DEFAULT_KEYS: Record<string, string> = { 'fake-key': 'fake-secret' };

interface RuleState {
  rule: FaultRule;
  seen: number;
  applied: number;
}

const PUBLIC = new Set(['/fapi/v1/time', '/fapi/v1/ping', '/fapi/v1/exchangeInfo', '/fapi/v1/ticker/price', '/fapi/v1/ticker/24hr', '/fapi/v1/klines']);

const INTERVAL_MS: Record<string, number> = { '1m': 60_000, '3m': 180_000, '5m': 300_000, '15m': 900_000, '30m': 1_800_000, '1h': 3_600_000, '2h': 7_200_000, '4h': 14_400_000, '1d': 86_400_000 };
/** Binance interval / OKX bar → ms (OKX: 1m, 5m, 1H, 4H, 1Dutc …). */
export function barMs(bar: string | undefined): number {
  const key = (bar ?? '1m').replace(/utc$/i, '').replace(/H$/, 'h').replace(/D$/, 'd');
  return INTERVAL_MS[key] ?? 60_000;
}

/** HTTP server, journal, fault rules, keys and candle clock shared by the fake venues. */
export abstract class FakeVenueServer {
  book!: BinanceBook;
  journal: JournalEntry[] = [];
  protected rules: RuleState[] = [];
  protected keys: Record<string, string> = {};
  protected clockOffsetMs = 0;
  protected ackState: 'NEW' | 'FILLED' = 'FILLED';
  protected accountSettings: Record<string, unknown> = {};
  protected replays = new Map<string, CandleReplay>();
  timeMs = 0;
  /** Market clock at the last reset: each symbol replays from its own first candle, elapsed time shared. */
  protected epochMs = 0;
  private server: Server;
  private sockets = new Set<Socket>();
  private clockMode: FakeClockMode = { mode: 'manual' };
  /** Wall mode: wall time and market time at the last anchor. */
  private wallAnchor = 0;
  private marketAnchor = 0;
  private wallTimer: NodeJS.Timeout | null = null;

  protected abstract newBook(balance: number): BinanceBook;
  protected abstract parseParams(method: string, url: URL, body: string): Record<string, string>;
  protected abstract isPublic(path: string): boolean;
  protected abstract authenticate(req: IncomingMessage, method: string, url: URL, body: string, params: Record<string, string>): void;
  protected abstract route(method: string, path: string, params: Record<string, string>, body: string, fault: FaultAction | null): unknown;
  /** The venue's error answer for a book rejection (Binance codes inside). */
  protected abstract errorAnswer(e: BinanceApiError): { status: number; json: unknown };
  protected abstract rateLimitJson(): unknown;
  protected abstract httpFaultJson(venueCode: number | undefined, msg: string | undefined): unknown;

  constructor(protected readonly opts: FakeExchangeOptions = {}) {
    for (const [s, c] of Object.entries(opts.candles ?? {})) this.replays.set(s, new CandleReplay(c));
    this.reset();
    if (opts.clock) this.setClock(opts.clock);
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(this.opts.port ?? 0, this.opts.host ?? '127.0.0.1', resolve));
    return this.origin;
  }

  get origin(): string {
    const a = this.server.address() as AddressInfo;
    return `http://${a.address}:${a.port}`;
  }

  async close(): Promise<void> {
    if (this.wallTimer) clearInterval(this.wallTimer);
    this.wallTimer = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  reset(): void {
    this.book = this.newBook(this.opts.balance ?? 10_000);
    this.journal = [];
    this.rules = (this.opts.faults ?? []).map((rule) => ({ rule, seen: 0, applied: 0 }));
    this.keys = { ...(this.opts.keys ?? DEFAULT_KEYS) };
    this.clockOffsetMs = 0;
    this.ackState = 'FILLED';
    this.accountSettings = {};
    const first = [...this.replays.values()][0];
    this.timeMs = first ? first.startMs : Date.UTC(2025, 0, 1);
    this.epochMs = this.timeMs;
    this.applyCandles(this.timeMs, this.timeMs);
  }

  seed(s: FakeSeed): void {
    if (s.markets) {
      this.book.markets.clear();
      for (const m of s.markets) this.book.markets.set(m.symbol, m);
    }
    if (s.balance !== undefined) this.book.wallet = s.balance;
    for (const p of s.positions ?? []) this.book.positions.set(p.symbol, { amt: p.amt, entryPrice: p.entryPrice });
    for (const [k, v] of Object.entries(s.leverage ?? {})) this.book.leverage.set(k, v);
    if (s.clockOffsetMs !== undefined) this.clockOffsetMs = s.clockOffsetMs;
    if (s.keys) this.keys = { ...s.keys };
    if (s.ackState) this.ackState = s.ackState;
    if (s.fundingRate !== undefined) this.book.fundingRate = s.fundingRate;
    if (s.account) this.accountSettings = { ...this.accountSettings, ...s.account };
    if (s.timeMs !== undefined) {
      this.timeMs = s.timeMs;
      this.applyCandles(s.timeMs, s.timeMs);
    }
    for (const [k, v] of Object.entries(s.prices ?? {})) this.book.setPrice(k, v, this.timeMs);
  }

  addFault(rule: FaultRule): void {
    this.rules.push({ rule, seen: 0, applied: 0 });
  }

  clearFaults(): void {
    this.rules = [];
  }

  /** Switches the market clock between manual and wall-clock (optionally accelerated) mode. */
  setClock(mode: FakeClockMode): void {
    this.syncWallClock();
    this.clockMode = mode;
    this.wallAnchor = Date.now();
    this.marketAnchor = this.timeMs;
    if (this.wallTimer) clearInterval(this.wallTimer);
    this.wallTimer = null;
    if (mode.mode === 'wall') {
      this.wallTimer = setInterval(() => this.syncWallClock(), 200);
      this.wallTimer.unref();
    }
  }

  /** Wall mode: moves the market clock to where the wall clock says it is. */
  syncWallClock(): void {
    if (this.clockMode.mode !== 'wall') return;
    const target = this.marketAnchor + (Date.now() - this.wallAnchor) * (this.clockMode.speed ?? 1);
    if (target > this.timeMs) this.advance(target - this.timeMs);
  }

  /**
   * Candles of `symbol` in market time, oldest first: every candle opened at or before the market
   * clock (the last one still forming, as a venue's newest kline), from `fromMs`, at most `limit`
   * (the newest ones when `fromMs` is absent), aggregated to `intervalMs` when it is a multiple of
   * the data's interval.
   */
  candleRows(symbol: string, intervalMs: number, opts: { fromMs?: number; toMs?: number; limit: number }): FakeCandleRow[] {
    const r = this.replays.get(symbol);
    if (!r) return [];
    const c = r.candles;
    const shift = r.startMs - this.epochMs;
    const last = r.indexAt(this.timeMs + shift);
    const step = c.intervalMs;
    const iv = intervalMs >= step && intervalMs % step === 0 ? intervalMs : step;
    const to = Math.min(opts.toMs ?? Infinity, this.timeMs);
    const rows: FakeCandleRow[] = [];
    const push = (i: number): void => {
      const t = c.time[i] - shift;
      const b = Math.floor(t / iv) * iv;
      const prev = rows[rows.length - 1];
      if (prev && prev.time === b) {
        prev.high = Math.max(prev.high, c.high[i]);
        prev.low = Math.min(prev.low, c.low[i]);
        prev.close = c.close[i];
        prev.volume += c.volume[i];
      } else rows.push({ time: b, open: c.open[i], high: c.high[i], low: c.low[i], close: c.close[i], volume: c.volume[i] });
    };
    if (opts.fromMs !== undefined) {
      const from = Math.floor(opts.fromMs / iv) * iv;
      let i = Math.max(0, r.indexAt(from + shift));
      if (i < c.length && c.time[i] - shift < from) i++;
      for (; i <= last && i < c.length; i++) {
        const t = c.time[i] - shift;
        if (t > to) break;
        push(i);
        if (rows.length > opts.limit) {
          rows.pop();
          break;
        }
      }
    } else {
      // The newest `limit` buckets: walk back far enough, then keep the tail.
      let i = Math.min(last, c.length - 1);
      const startBucket = Math.floor((Math.min(c.time[Math.max(0, i)] - shift, to)) / iv) * iv - (opts.limit - 1) * iv;
      while (i > 0 && c.time[i - 1] - shift >= startBucket) i--;
      for (; i <= last && i < c.length; i++) {
        if (c.time[i] - shift > to) break;
        push(i);
      }
      if (rows.length > opts.limit) rows.splice(0, rows.length - opts.limit);
    }
    return rows;
  }

  /** 24 h figures at the market clock from the replayed candles (null without candles). */
  protected ticker24h(symbol: string): { last: number; open: number; high: number; low: number; volume: number } | null {
    const rows = this.candleRows(symbol, 60_000, { fromMs: this.timeMs - 86_400_000, limit: 1440 });
    if (rows.length === 0) return null;
    let high = -Infinity;
    let low = Infinity;
    let volume = 0;
    for (const x of rows) {
      if (x.high > high) high = x.high;
      if (x.low < low) low = x.low;
      volume += x.volume;
    }
    return { last: this.book.price(symbol), open: rows[0].open, high, low, volume };
  }

  /** Advances the market clock, replaying every candle in between (limits fill on high / low). */
  advance(ms: number): void {
    const from = this.timeMs;
    this.timeMs += ms;
    this.applyCandles(from, this.timeMs);
    // Funding settlements the clock passed, on the positions as they stand now.
    for (let t = Math.floor(from / FUNDING_INTERVAL_MS + 1) * FUNDING_INTERVAL_MS; t <= this.timeMs; t += FUNDING_INTERVAL_MS) this.book.settleFunding(t);
  }

  private applyCandles(fromMs: number, toMs: number): void {
    for (const [symbol, r] of this.replays) {
      const c = r.candles;
      const shift = r.startMs - this.epochMs;
      const a = Math.max(0, r.indexAt(fromMs + shift));
      const b = r.indexAt(toMs + shift);
      for (let i = a; i <= b && i < c.length; i++) {
        this.book.setPrice(symbol, c.close[i], Math.max(c.time[i] - shift, fromMs), c.low[i], c.high[i]);
      }
    }
  }

  protected now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  private matchFault(method: string, path: string, params: Record<string, string>): FaultAction | null {
    for (const st of this.rules) {
      const r = st.rule;
      if (r.path !== path || (r.method && r.method.toUpperCase() !== method)) continue;
      const cid = params.newClientOrderId ?? params.origClientOrderId ?? params.clOrdId;
      if (r.match?.clientOrderId !== undefined && r.match.clientOrderId !== cid) continue;
      const times = r.times ?? 1;
      if (times !== 0 && st.applied >= times) continue;
      st.seen++;
      if (st.seen <= (r.skip ?? 0)) continue;
      st.applied++;
      return r.action;
    }
    return null;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = (req.method ?? 'GET').toUpperCase();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    this.syncWallClock();
    try {
      if (url.pathname.startsWith('/__admin/')) return this.admin(url.pathname, method, body, res);
      const params = this.parseParams(method, url, body);
      const entry: JournalEntry = { method, path: url.pathname, params: { ...params }, status: 200, at: Date.now() };
      delete entry.params.signature;
      this.journal.push(entry);
      if (this.journal.length > 20_000) this.journal.splice(0, 10_000); // long demo runs
      const fault = this.matchFault(method, url.pathname, params);
      if (fault) entry.fault = fault.type;
      const send = (status: number, json: unknown, headers: Record<string, string> = {}): void => {
        entry.status = status;
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(json));
      };
      if (fault?.type === 'latency') await new Promise((r) => setTimeout(r, fault.ms));
      if (fault?.type === 'hang') return void (entry.status = 0);
      if (fault?.type === 'reset') return void (entry.status = 0, req.socket.destroy());
      if (fault?.type === 'rate_limit') {
        return send(429, this.rateLimitJson(), { 'Retry-After': String(fault.retryAfterS) });
      }
      if (fault?.type === 'http') {
        entry.status = fault.status;
        res.writeHead(fault.status, { 'content-type': fault.body !== undefined ? 'text/html' : 'application/json', ...(fault.headers ?? {}) });
        return void res.end(fault.body ?? JSON.stringify(this.httpFaultJson(fault.venueCode, fault.msg)));
      }
      if (!this.isPublic(url.pathname)) this.authenticate(req, method, url, body, params);
      const result = this.route(method, url.pathname, params, body, fault);
      if (fault?.type === 'accept_then_hang') return void (entry.status = 0);
      if (fault?.type === 'accept_then_reset') return void (entry.status = 0, req.socket.destroy());
      send(200, result);
    } catch (e) {
      if (e instanceof BinanceApiError) {
        const answer = this.errorAnswer(e);
        const last = this.journal[this.journal.length - 1];
        if (last) last.status = answer.status;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.json));
      } else {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: -1000, msg: String(e) }));
      }
    }
  }

  private admin(path: string, method: string, body: string, res: ServerResponse): void {
    const json = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    let out: unknown = { ok: true };
    switch (path) {
      case '/__admin/reset':
        this.reset();
        break;
      case '/__admin/seed':
        this.seed(json);
        break;
      case '/__admin/faults':
        if (method === 'GET') out = this.rules.map((r) => r.rule);
        else if (method === 'DELETE') this.clearFaults();
        else for (const r of Array.isArray(json) ? (json as FaultRule[]) : [json as unknown as FaultRule]) this.addFault(r);
        break;
      case '/__admin/requests':
        out = this.journal;
        break;
      case '/__admin/price':
        this.book.setPrice(String(json.symbol), Number(json.price), this.timeMs);
        break;
      case '/__admin/clock':
        if (json.mode === 'wall' || json.mode === 'manual') {
          this.setClock(json.mode === 'wall' ? { mode: 'wall', speed: typeof json.speed === 'number' ? json.speed : 1 } : { mode: 'manual' });
        }
        if (typeof json.advanceMs === 'number') this.advance(json.advanceMs);
        out = { timeMs: this.timeMs, prices: Object.fromEntries(this.book.prices) };
        break;
      case '/__admin/state':
        out = {
          timeMs: this.timeMs,
          wallet: this.book.wallet,
          positions: Object.fromEntries(this.book.positions),
          orders: this.book.orders.map(orderJson),
          prices: Object.fromEntries(this.book.prices),
        };
        break;
      default:
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ error: 'unknown admin path' }));
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(out));
  }
}

/** Binance USDⓈ-M futures (`/fapi`, a few `/sapi` reads). */
export class FakeBinance extends FakeVenueServer {
  protected newBook(balance: number): BinanceBook {
    const b = new BinanceBook(DEFAULT_MARKETS, balance);
    b.prices.set('BTCUSDT', 60_000);
    b.prices.set('ETHUSDT', 3_000);
    return b;
  }

  protected parseParams(method: string, url: URL, body: string): Record<string, string> {
    const raw = method === 'GET' || method === 'DELETE' ? url.search.slice(1) : body;
    return Object.fromEntries(new URLSearchParams(raw));
  }

  protected isPublic(path: string): boolean {
    return PUBLIC.has(path) || path.startsWith('/sapi/v1/capital') || path === '/sapi/v1/margin/allPairs';
  }

  protected errorAnswer(e: BinanceApiError): { status: number; json: unknown } {
    return { status: e.status, json: { code: e.code, msg: e.message } };
  }

  protected rateLimitJson(): unknown {
    return { code: -1003, msg: 'Too many requests; please use the websocket for live updates.' };
  }

  protected httpFaultJson(venueCode: number | undefined, msg: string | undefined): unknown {
    return { code: venueCode ?? -1000, msg: msg ?? 'An unknown error occurred while processing the request.' };
  }

  protected authenticate(req: IncomingMessage, method: string, _url: URL, body: string, params: Record<string, string>): void {
    const raw = method === 'GET' || method === 'DELETE' ? _url.search.slice(1) : body;
    const key = req.headers['x-mbx-apikey'];
    const secret = typeof key === 'string' ? this.keys[key] : undefined;
    if (secret === undefined) throw new BinanceApiError(401, -2015, 'Invalid API-key, IP, or permissions for action.');
    const at = raw.lastIndexOf('&signature=');
    if (at < 0) throw new BinanceApiError(400, -1102, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.");
    const expected = Buffer.from(createHmac('sha256', secret).update(raw.slice(0, at)).digest('hex'));
    const given = Buffer.from(raw.slice(at + '&signature='.length));
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new BinanceApiError(400, -1022, 'Signature for this request is not valid.');
    }
    const ts = Number(params.timestamp);
    const recvWindow = Number(params.recvWindow ?? 5000);
    const now = this.now();
    if (!Number.isFinite(ts) || ts > now + 1000 || now - ts > recvWindow) {
      throw new BinanceApiError(400, -1021, "Timestamp for this request is outside of the recvWindow.");
    }
  }

  protected route(method: string, path: string, p: Record<string, string>, _body: string, fault: FaultAction | null): unknown {
    const b = this.book;
    const now = this.now();
    const key = `${method} ${path}`;
    switch (key) {
      case 'GET /fapi/v1/ping':
        return {};
      case 'GET /fapi/v1/time':
        return { serverTime: now };
      case 'GET /fapi/v1/exchangeInfo':
        return this.exchangeInfo();
      case 'GET /sapi/v1/capital/config/getall':
      case 'GET /sapi/v1/margin/allPairs':
        return [];
      case 'GET /sapi/v1/account/apiRestrictions':
        return {
          ipRestrict: false,
          createTime: now,
          enableWithdrawals: false,
          enableReading: true,
          enableFutures: true,
          enableSpotAndMarginTrading: false,
          ...this.accountSettings,
        };
      case 'GET /fapi/v1/symbolConfig':
        return [...b.markets.keys()]
          .filter((s) => !p.symbol || s === p.symbol)
          .map((symbol) => ({ symbol, marginType: this.accountSettings.marginType ?? 'CROSSED', isAutoAddMargin: 'false', leverage: b.lev(symbol), maxNotionalValue: '1000000' }));
      case 'GET /fapi/v1/klines': {
        b.market(p.symbol);
        const iv = barMs(p.interval);
        const limit = Math.min(1500, Math.max(1, Number(p.limit ?? 500)));
        const rows = this.candleRows(p.symbol, iv, {
          fromMs: p.startTime !== undefined ? Number(p.startTime) : undefined,
          toMs: p.endTime !== undefined ? Number(p.endTime) : undefined,
          limit,
        });
        return rows.map((x) => [x.time, fmt(x.open), fmt(x.high), fmt(x.low), fmt(x.close), fmt(x.volume), x.time + iv - 1, fmt(x.volume * x.close), 1, '0', '0', '0']);
      }
      case 'GET /fapi/v1/ticker/24hr': {
        const one = (s: string): Record<string, unknown> => {
          const t = this.ticker24h(s);
          const last = b.price(s);
          const open = t?.open ?? last;
          return {
            symbol: s,
            priceChange: fmt(last - open),
            priceChangePercent: fmt(open > 0 ? ((last - open) / open) * 100 : 0),
            weightedAvgPrice: fmt(last),
            lastPrice: fmt(last),
            lastQty: '0',
            openPrice: fmt(open),
            highPrice: fmt(t?.high ?? last),
            lowPrice: fmt(t?.low ?? last),
            volume: fmt(t?.volume ?? 0),
            quoteVolume: fmt((t?.volume ?? 0) * last),
            openTime: this.timeMs - 86_400_000,
            closeTime: this.timeMs,
            firstId: 0,
            lastId: 0,
            count: 0,
          };
        };
        return p.symbol ? one(p.symbol) : [...b.markets.keys()].map(one);
      }
      case 'GET /fapi/v1/ticker/price':
        return p.symbol ? { symbol: p.symbol, price: fmt(b.price(p.symbol)), time: now } : [...b.markets.keys()].map((s) => ({ symbol: s, price: fmt(b.price(s)), time: now }));
      case 'GET /fapi/v2/account':
      case 'GET /fapi/v3/account':
        return this.account(now);
      case 'GET /fapi/v2/balance':
      case 'GET /fapi/v3/balance':
        return [this.usdtAsset(now)];
      case 'GET /fapi/v1/leverageBracket':
        return [...b.markets.keys()].map((symbol) => ({
          symbol,
          brackets: [{ bracket: 1, initialLeverage: 125, notionalCap: 50_000, notionalFloor: 0, maintMarginRatio: 0.004, cum: 0 }],
        }));
      case 'GET /fapi/v2/positionRisk':
      case 'GET /fapi/v3/positionRisk':
        return this.positionRisk(p.symbol);
      case 'GET /fapi/v1/positionSide/dual':
        return { dualSidePosition: this.accountSettings.dualSidePosition === true };
      case 'POST /fapi/v1/positionSide/dual':
        return { code: 200, msg: 'success' };
      case 'POST /fapi/v1/leverage': {
        b.market(p.symbol);
        b.leverage.set(p.symbol, Number(p.leverage));
        return { symbol: p.symbol, leverage: Number(p.leverage), maxNotionalValue: '1000000' };
      }
      case 'POST /fapi/v1/marginType':
        if (p.marginType === 'CROSSED') throw new BinanceApiError(400, -4046, 'No need to change margin type.');
        throw new BinanceApiError(400, -4048, 'Margin type cannot be changed if there exists position.');
      case 'POST /fapi/v1/order':
        return this.createOrder(p, fault, now);
      case 'GET /fapi/v1/order':
        return orderJson(this.lookup(p, -2013, 'Order does not exist.'));
      case 'DELETE /fapi/v1/order': {
        const o = this.lookup(p, -2011, 'Unknown order sent.');
        if (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED') throw new BinanceApiError(400, -2011, 'Unknown order sent.');
        b.cancel(o, now);
        return orderJson(o);
      }
      case 'GET /fapi/v1/openOrders':
        return b.openOrders(p.symbol).map(orderJson);
      case 'GET /fapi/v1/allOrders':
        return b.orders.filter((o) => o.symbol === p.symbol).map(orderJson);
      case 'GET /fapi/v1/income': {
        // Funding payments only (the one income type the fake produces), oldest first.
        if (p.incomeType && p.incomeType !== 'FUNDING_FEE') return [];
        const limit = Math.min(1000, Math.max(1, Number(p.limit ?? 100)));
        return b.funding
          .filter((f) => (!p.symbol || f.symbol === p.symbol) && (!p.startTime || f.time >= Number(p.startTime)) && (!p.endTime || f.time <= Number(p.endTime)))
          .slice(0, limit)
          .map((f) => ({ symbol: f.symbol, incomeType: 'FUNDING_FEE', income: fmt(f.amount), asset: 'USDT', info: 'FUNDING_FEE', time: f.time, tranId: String(f.id), tradeId: '' }));
      }
      case 'GET /fapi/v1/userTrades':
        return b.trades
          .filter(
            (t) =>
              t.symbol === p.symbol &&
              (!p.orderId || String(t.orderId) === p.orderId) &&
              (!p.startTime || t.time >= Number(p.startTime)) &&
              (!p.endTime || t.time <= Number(p.endTime)),
          )
          .map((t) => ({
            id: t.id,
            orderId: t.orderId,
            symbol: t.symbol,
            side: t.side,
            price: fmt(t.price),
            qty: fmt(t.qty),
            quoteQty: fmt(t.qty * t.price),
            realizedPnl: '0',
            commission: fmt(t.commission),
            commissionAsset: 'USDT',
            maker: t.maker,
            buyer: t.side === 'BUY',
            positionSide: 'BOTH',
            time: t.time,
          }));
      default:
        throw new BinanceApiError(404, -5000, `Path ${path} could not be found.`);
    }
  }

  private lookup(p: Record<string, string>, code: number, msg: string): FakeOrder {
    const o = this.book.find(p.symbol, p.orderId ? Number(p.orderId) : undefined, p.origClientOrderId);
    if (!o) throw new BinanceApiError(400, code, msg);
    return o;
  }

  private createOrder(p: Record<string, string>, fault: FaultAction | null, now: number): unknown {
    const b = this.book;
    const order = b.create(
      {
        symbol: p.symbol,
        side: p.side,
        type: p.type,
        quantity: Number(p.quantity),
        price: p.price !== undefined ? Number(p.price) : undefined,
        clientOrderId: p.newClientOrderId,
        reduceOnly: p.reduceOnly === 'true',
      },
      now,
    );
    if (fault?.type === 'slippage') order.slippageBps = fault.bps;
    if (fault?.type === 'latency' && fault.marketMs) {
      // Not in the book yet: the candles from `notBefore` on execute it (BinanceBook.setPrice).
      order.notBefore = this.timeMs + fault.marketMs;
      return orderJson(order);
    }
    const mark = b.price(order.symbol);
    if (fault?.type === 'partial') {
      b.fill(order, fault.fillQty, order.type === 'LIMIT' ? order.price : mark, order.type === 'LIMIT', now);
      if (fault.then === 'expire') b.cancel(order, now, 'EXPIRED');
      else if (fault.then === 'cancel') b.cancel(order, now, 'CANCELED');
      return orderJson(order);
    }
    const crosses = order.type === 'MARKET' || (order.side === 'BUY' ? mark <= order.price : mark >= order.price);
    if (!crosses) return orderJson(order);
    const ack = orderJson(order);
    b.fill(order, order.origQty, order.type === 'MARKET' ? b.slipped(order, mark) : order.price, false, now);
    return this.ackState === 'NEW' ? ack : orderJson(order);
  }

  private exchangeInfo(): unknown {
    return {
      timezone: 'UTC',
      serverTime: this.now(),
      rateLimits: [],
      assets: [{ asset: 'USDT', marginAvailable: true }],
      symbols: [...this.book.markets.values()].map((m) => ({
        symbol: m.symbol,
        pair: m.symbol,
        contractType: 'PERPETUAL',
        deliveryDate: 4133404800000,
        onboardDate: 1569398400000,
        status: 'TRADING',
        baseAsset: m.baseAsset,
        quoteAsset: m.quoteAsset,
        marginAsset: m.quoteAsset,
        pricePrecision: 2,
        quantityPrecision: 3,
        baseAssetPrecision: 8,
        quotePrecision: 8,
        underlyingType: 'COIN',
        triggerProtect: '0.0500',
        orderTypes: ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'],
        timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
        filters: [
          { filterType: 'PRICE_FILTER', tickSize: m.tickSize, minPrice: m.tickSize, maxPrice: '4529764' },
          { filterType: 'LOT_SIZE', stepSize: m.stepSize, minQty: m.minQty, maxQty: m.maxQty },
          { filterType: 'MARKET_LOT_SIZE', stepSize: m.stepSize, minQty: m.minQty, maxQty: m.maxQty },
          { filterType: 'MIN_NOTIONAL', notional: m.minNotional },
        ],
      })),
    };
  }

  private usdtAsset(now: number): Record<string, unknown> {
    const b = this.book;
    const u = b.unrealized();
    return {
      asset: 'USDT',
      walletBalance: fmt(b.wallet),
      unrealizedProfit: fmt(u),
      marginBalance: fmt(b.wallet + u),
      maintMargin: '0',
      initialMargin: fmt(b.initialMargin()),
      positionInitialMargin: '0',
      openOrderInitialMargin: '0',
      crossWalletBalance: fmt(b.wallet),
      crossUnPnl: fmt(u),
      availableBalance: fmt(b.available()),
      maxWithdrawAmount: fmt(Math.max(0, b.available())),
      updateTime: now,
    };
  }

  private account(now: number): unknown {
    const b = this.book;
    const u = b.unrealized();
    return {
      totalInitialMargin: fmt(b.initialMargin()),
      totalMaintMargin: '0',
      totalWalletBalance: fmt(b.wallet),
      totalUnrealizedProfit: fmt(u),
      totalMarginBalance: fmt(b.wallet + u),
      availableBalance: fmt(b.available()),
      maxWithdrawAmount: fmt(Math.max(0, b.available())),
      assets: [this.usdtAsset(now)],
      positions: [],
    };
  }

  private positionRisk(symbol?: string): unknown[] {
    const b = this.book;
    const out: unknown[] = [];
    for (const [s, p] of b.positions) {
      if (symbol && s !== symbol) continue;
      if (p.amt === 0) continue;
      const mark = b.price(s);
      out.push({
        symbol: s,
        positionSide: 'BOTH',
        positionAmt: fmt(p.amt),
        entryPrice: fmt(p.entryPrice),
        breakEvenPrice: fmt(p.entryPrice),
        markPrice: fmt(mark),
        unRealizedProfit: fmt((mark - p.entryPrice) * p.amt),
        liquidationPrice: '0',
        isolatedMargin: '0',
        notional: fmt(p.amt * mark),
        marginAsset: 'USDT',
        isolatedWallet: '0',
        initialMargin: fmt((Math.abs(p.amt) * mark) / b.lev(s)),
        maintMargin: fmt(Math.abs(p.amt) * mark * 0.004),
        adl: 0,
        updateTime: this.now(),
      });
    }
    return out;
  }
}

// FakeEa: a Node `ws` client that behaves like mt5/LightningBridge.mq5 in a terminal, on top of
// FakeMt5Broker, a trade server with netting or hedging accounts, suffixed symbols, volume steps,
// prices from the forex files in ../shared/data, scripted retcodes and pending orders. The EA
// keeps an append-only journal (RECEIVED → SENDING → RESULT) that survives `crash()` +
// `restart()`, resolves SENDING entries by magic after a restart, answers a known clientId with
// `duplicate` and its stored result, and can drop its connection or crash at any step
// (design: mt5-bridge.md §5, §6, §9). Tests only: it talks to 127.0.0.1.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import {
  BRIDGE_DEAL_OVERLAP_MS,
  BRIDGE_JOURNAL_TAIL,
  BRIDGE_PROTOCOL_VERSION,
  MT5_RETCODES,
  parseServerMessage,
  retcodeClass,
  type Mt5Deal,
  type Mt5Intent,
  type Mt5JournalEntry,
  type Mt5Order,
  type Mt5Position,
  type Mt5Result,
  type Mt5ServerMessage,
  type Mt5Symbol,
  type Mt5Welcome,
} from '@lq/contracts';
import { loadCandleFile, CandleReplay } from '../fake/candles';

// ---------------------------------------------------------------- the trade server

export interface FakeMt5SymbolSpec extends Mt5Symbol {
  /** Spread in points (ask = bid + spread × point). */
  spreadPts: number;
}

const RC = MT5_RETCODES;

/** EURUSD, GBPUSD, USDJPY, XAUUSD with a broker suffix (".m"), 0.01-lot steps. */
export function fakeMt5Symbols(suffix = ''): FakeMt5SymbolSpec[] {
  const fx = (base: string, quote: string, digits: number): FakeMt5SymbolSpec => ({
    name: `${base}${quote}${suffix}`,
    base,
    quote,
    digits,
    point: (10 ** -digits).toFixed(digits),
    tickSize: (10 ** -digits).toFixed(digits),
    contractSize: '100000',
    volumeMin: '0.01',
    volumeMax: '50',
    volumeStep: '0.01',
    stopsLevel: 10,
    freezeLevel: 0,
    fillingMode: 2,
    executionMode: 'market',
    spreadPts: 8,
  });
  return [
    fx('EUR', 'USD', 5),
    fx('GBP', 'USD', 5),
    fx('USD', 'JPY', 3),
    { ...fx('XAU', 'USD', 2), name: `XAUUSD${suffix}`, contractSize: '100', volumeStep: '0.01', spreadPts: 30 },
  ];
}

/** The forex files of ../shared/data the fake prices come from. */
export const FAKE_MT5_PRICE_FILES: Record<string, string> = {
  EURUSD: 'dukascopy_EURUSD_1m.csv.gz',
  GBPUSD: 'fxcm_GBPUSD_1m.csv.gz',
  USDJPY: 'fxcm_USDJPY_1m.csv.gz',
  XAUUSD: 'oanda_XAUUSD_1h.csv.gz',
};

export function defaultFakeDataDir(): string {
  return process.env.FAKE_DATA_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
}

export interface FakeMt5BrokerOptions {
  marginMode?: 'netting' | 'hedging';
  suffix?: string;
  symbols?: FakeMt5SymbolSpec[];
  /** Candle files directory (default ../shared/data); a symbol without a file uses `prices`. */
  dataDir?: string | null;
  /** Fixed bids by our symbol (EURUSD), used when no file is loaded. */
  prices?: Record<string, number>;
  balance?: number;
  /** Broker time = UTC + this (GMT+2 by default). */
  gmtOffsetMs?: number;
  /** Tickets (orders, deals, positions) start after this (default 1000). */
  firstTicket?: number;
  /** UTC of the fake world's start (default: now, so deal times agree with the PC clock). */
  startUtcMs?: number;
  /** Candle history before the world's start (the replay starts this far into each file; default 0). */
  historyMs?: number;
}

export interface FakeMt5SendRequest {
  action: Mt5Intent['action'];
  symbol: string;
  side: 'buy' | 'sell';
  orderType: Mt5Intent['orderType'];
  volume: number;
  price: number | null;
  sl: number | null;
  tp: number | null;
  magic: string;
  positionTicket: string | null;
  orderTicket: string | null;
}

export interface FakeMt5SendResult {
  retcode: number;
  order: string | null;
  deal: string | null;
  price: number | null;
  volume: number | null;
}

interface ScriptStep {
  retcode: number;
  /** For unknown-class codes (TIMEOUT): the broker did execute the order. */
  executed?: boolean;
  /** DONE_PARTIAL: fraction filled. */
  fraction?: number;
}

export interface FakeMt5DealRow extends Omit<Mt5Deal, 'v' | 'type' | 'mid' | 'ts'> {
  /** When the deal happened (UTC ms). */
  utcMs: number;
}

export class FakeMt5Broker {
  readonly marginMode: 'netting' | 'hedging';
  readonly symbols: FakeMt5SymbolSpec[];
  readonly positions = new Map<string, Mt5Position>();
  readonly orders = new Map<string, Mt5Order>();
  readonly deals: FakeMt5DealRow[] = [];
  /** Every OrderSend that reached the server: magic and answer. */
  readonly sends: { magic: string; action: string; retcode: number; created: boolean }[] = [];
  balance: number;
  /** The replay clock (UTC ms), per symbol offset from each file's first candle. */
  elapsedMs = 0;
  readonly gmtOffsetMs: number;
  /** Called after a pending order filled on a price move (the terminal's OnTradeTransaction). */
  readonly listeners: (() => void)[] = [];
  private ticket = 1000;
  private readonly script: ScriptStep[] = [];
  private readonly replays = new Map<string, CandleReplay>();
  private readonly fixed = new Map<string, number>();
  /** UTC of the fake world at elapsedMs = 0 (prices still replay each file from its first candle). */
  private readonly baseUtc: number;
  private readonly historyMs: number;

  constructor(o: FakeMt5BrokerOptions = {}) {
    this.marginMode = o.marginMode ?? 'hedging';
    this.symbols = o.symbols ?? fakeMt5Symbols(o.suffix ?? '');
    this.balance = o.balance ?? 10_000;
    this.gmtOffsetMs = o.gmtOffsetMs ?? 2 * 3_600_000;
    this.ticket = o.firstTicket ?? 1000;
    this.baseUtc = Math.floor((o.startUtcMs ?? Date.now()) / 60_000) * 60_000;
    this.historyMs = o.historyMs ?? 0;
    const defaults: Record<string, number> = { EURUSD: 1.085, GBPUSD: 1.27, USDJPY: 150.1, XAUUSD: 2000, ...o.prices };
    for (const [k, v] of Object.entries(defaults)) this.fixed.set(k, v);
    const dir = o.dataDir === undefined ? defaultFakeDataDir() : o.dataDir;
    if (dir && !o.prices) {
      for (const s of this.symbols) {
        const file = FAKE_MT5_PRICE_FILES[`${s.base}${s.quote}`];
        if (file && existsSync(path.join(dir, file))) this.replays.set(s.name, new CandleReplay(loadCandleFile(path.join(dir, file))));
      }
    }
  }

  /** UTC now of the fake world. */
  get utcMs(): number {
    return this.baseUtc + this.elapsedMs;
  }

  spec(name: string): FakeMt5SymbolSpec | undefined {
    return this.symbols.find((s) => s.name === name);
  }

  /** The bid: the close of the current candle of the symbol's file (each file from its first candle). */
  bid(name: string): number {
    const s = this.spec(name);
    if (!s) throw new Error(`unknown symbol ${name}`);
    const r = this.replays.get(name);
    if (r) {
      const i = Math.max(0, r.indexAt(r.startMs + this.historyMs + this.elapsedMs));
      return r.candles.close[Math.min(i, r.candles.length - 1)];
    }
    return this.fixed.get(`${s.base}${s.quote}`) ?? 1;
  }

  /**
   * Closed 1m bars (open time ≥ fromUtcMs, UTC of the fake world) from the symbol's file, or flat
   * bars at the fixed price: what CopyRates gives the EA.
   */
  bars(name: string, fromUtcMs: number, count: number): [number, string, string, string, string, string][] {
    const s = this.spec(name);
    if (!s) return [];
    const out: [number, string, string, string, string, string][] = [];
    const nowMinute = Math.floor(this.utcMs / 60_000) * 60_000;
    const first = Math.max(Math.ceil(fromUtcMs / 60_000) * 60_000, this.baseUtc - this.historyMs);
    const r = this.replays.get(name);
    const f = (x: number) => x.toFixed(s.digits);
    for (let t = first; t < nowMinute && out.length < count; t += 60_000) {
      if (r) {
        const fileT = r.startMs + (t - this.baseUtc) + this.historyMs;
        const i = r.indexAt(fileT);
        if (i < 0 || r.candles.time[i] !== fileT) continue; // a gap in the file
        const c = r.candles;
        out.push([t, f(c.open[i]), f(c.high[i]), f(c.low[i]), f(c.close[i]), '0']);
      } else {
        const p = f(this.bid(name));
        out.push([t, p, p, p, p, '0']);
      }
    }
    return out;
  }

  ask(name: string): number {
    const s = this.spec(name)!;
    return Number((this.bid(name) + s.spreadPts * Number(s.point)).toFixed(s.digits));
  }

  setPrice(ours: string, bid: number): void {
    for (const s of this.symbols) if (`${s.base}${s.quote}` === ours) this.replays.delete(s.name);
    this.fixed.set(ours, bid);
    this.triggerPending();
  }

  /** Moves the replay clock; pending orders that the new prices reach are filled. */
  advance(ms: number): void {
    this.elapsedMs += ms;
    this.triggerPending();
  }

  /** The next OrderSend calls answer these retcodes, in order (then normal execution). */
  scriptRetcodes(...steps: (number | ScriptStep)[]): void {
    for (const s of steps) this.script.push(typeof s === 'number' ? { retcode: s } : s);
  }

  private nextTicket(): string {
    return String(++this.ticket);
  }

  /** Orders created per magic (an order = a DONE / PLACED / partial answer, or an executed timeout). */
  ordersCreated(magic: string): number {
    return this.sends.filter((s) => s.magic === magic && s.created).length;
  }

  /** What the EA finds by magic after a restart. */
  findByMagic(magic: string): { order: Mt5Order | null; position: Mt5Position | null; deals: FakeMt5DealRow[] } {
    return {
      order: [...this.orders.values()].find((o) => o.magic === magic) ?? null,
      position: [...this.positions.values()].find((p) => p.magic === magic) ?? null,
      deals: this.deals.filter((d) => d.magic === magic),
    };
  }

  orderSend(req: FakeMt5SendRequest): FakeMt5SendResult {
    const step = this.script.shift();
    const none: FakeMt5SendResult = { retcode: 0, order: null, deal: null, price: null, volume: null };
    if (step && step.retcode !== RC.DONE.code && step.retcode !== RC.DONE_PARTIAL.code && step.retcode !== RC.PLACED.code) {
      const executed = step.executed === true && retcodeClass(step.retcode) === 'unknown';
      if (executed) this.execute(req, 1);
      this.sends.push({ magic: req.magic, action: req.action, retcode: step.retcode, created: executed });
      return { ...none, retcode: step.retcode };
    }
    const s = this.spec(req.symbol);
    if (!s) return this.answer(req, { ...none, retcode: RC.INVALID.code });
    const vstep = Number(s.volumeStep);
    if (req.volume < Number(s.volumeMin) - 1e-12 || req.volume > Number(s.volumeMax) + 1e-12 || Math.abs(req.volume / vstep - Math.round(req.volume / vstep)) > 1e-7) {
      return this.answer(req, { ...none, retcode: RC.INVALID_VOLUME.code });
    }
    if (req.action === 'remove') {
      const o = req.orderTicket ? this.orders.get(req.orderTicket) : undefined;
      if (!o) return this.answer(req, { ...none, retcode: RC.INVALID_ORDER.code });
      this.orders.delete(o.ticket);
      return this.answer(req, { ...none, retcode: RC.DONE.code, order: o.ticket });
    }
    if (req.action === 'pending') {
      if (req.price === null) return this.answer(req, { ...none, retcode: RC.INVALID_PRICE.code });
      const ticket = this.nextTicket();
      this.orders.set(ticket, {
        ticket,
        symbol: s.name,
        side: req.side,
        type: req.orderType === 'stop' ? 'stop' : 'limit',
        volumeInitial: req.volume.toFixed(2),
        volumeCurrent: req.volume.toFixed(2),
        priceOpen: req.price.toFixed(s.digits),
        magic: req.magic,
        timeMsc: this.utcMs,
      });
      const r = this.answer(req, { ...none, retcode: RC.PLACED.code, order: ticket, volume: req.volume, price: req.price }, true);
      this.triggerPending();
      return r;
    }
    if (req.positionTicket && !this.positions.has(req.positionTicket)) return this.answer(req, { ...none, retcode: RC.POSITION_CLOSED.code });
    const margin = req.volume * Number(s.contractSize) * this.bid(s.name) * 0.01;
    if (!req.positionTicket && margin > this.balance * 50) return this.answer(req, { ...none, retcode: RC.NO_MONEY.code });
    const fraction = step?.retcode === RC.DONE_PARTIAL.code ? (step.fraction ?? 0.5) : 1;
    const done = this.execute(req, fraction);
    return this.answer(req, { retcode: fraction < 1 ? RC.DONE_PARTIAL.code : RC.DONE.code, ...done }, true);
  }

  private answer(req: FakeMt5SendRequest, r: FakeMt5SendResult, created = false): FakeMt5SendResult {
    this.sends.push({ magic: req.magic, action: req.action, retcode: r.retcode, created });
    return r;
  }

  /** Executes a market deal (or part of it): netting nets per symbol, hedging opens or closes by ticket. */
  private execute(req: FakeMt5SendRequest, fraction: number, fromOrder?: Mt5Order): { order: string; deal: string; price: number; volume: number } {
    const s = this.spec(req.symbol)!;
    const vstep = Number(s.volumeStep);
    const volume = Math.max(vstep, Math.floor((req.volume * fraction) / vstep + 1e-9) * vstep);
    const price = fromOrder ? Number(fromOrder.priceOpen) : req.side === 'buy' ? this.ask(s.name) : this.bid(s.name);
    const order = fromOrder?.ticket ?? this.nextTicket();
    const deal = this.nextTicket();
    let entry: Mt5Deal['entry'] = 'in';
    let positionId: string;
    let profit = 0;
    const cs = Number(s.contractSize);
    const target =
      this.marginMode === 'netting'
        ? [...this.positions.values()].find((p) => p.symbol === s.name)
        : req.positionTicket
          ? this.positions.get(req.positionTicket)
          : undefined;
    if (target && target.side !== req.side) {
      const held = Number(target.volume);
      const closed = Math.min(held, volume);
      profit = (price - Number(target.priceOpen)) * closed * cs * (target.side === 'buy' ? 1 : -1);
      positionId = target.ticket;
      const left = Number((held - volume).toFixed(8));
      if (left > 1e-9) {
        entry = 'out';
        this.positions.set(target.ticket, { ...target, volume: left.toFixed(2) });
      } else if (left < -1e-9) {
        entry = 'inout';
        this.positions.set(target.ticket, { ...target, side: req.side, volume: (-left).toFixed(2), priceOpen: price.toFixed(s.digits), magic: req.magic });
      } else {
        entry = 'out';
        this.positions.delete(target.ticket);
      }
    } else if (target) {
      const held = Number(target.volume);
      const avg = (Number(target.priceOpen) * held + price * volume) / (held + volume);
      this.positions.set(target.ticket, { ...target, volume: (held + volume).toFixed(2), priceOpen: avg.toFixed(s.digits) });
      positionId = target.ticket;
    } else {
      positionId = order;
      this.positions.set(positionId, {
        ticket: positionId,
        symbol: s.name,
        side: req.side,
        volume: volume.toFixed(2),
        priceOpen: price.toFixed(s.digits),
        sl: req.sl === null ? null : req.sl.toFixed(s.digits),
        tp: req.tp === null ? null : req.tp.toFixed(s.digits),
        magic: req.magic,
        profit: '0',
        swap: '0',
        timeMsc: this.utcMs,
      });
    }
    this.balance += profit;
    this.deals.push({
      deal,
      order,
      positionId,
      magic: req.magic,
      symbol: s.name,
      side: req.side,
      entry,
      volume: volume.toFixed(2),
      price: price.toFixed(s.digits),
      commission: '0',
      swap: '0',
      fee: '0',
      profit: profit.toFixed(2),
      reason: 'expert',
      brokerTimeMsc: this.utcMs + this.gmtOffsetMs,
      utcMs: this.utcMs,
    });
    return { order, deal, price, volume };
  }

  private triggerPending(): void {
    let filled = false;
    for (const o of [...this.orders.values()]) {
      const hit = o.side === 'buy' ? this.ask(o.symbol) <= Number(o.priceOpen) : this.bid(o.symbol) >= Number(o.priceOpen);
      if (!hit || o.type !== 'limit') continue;
      this.orders.delete(o.ticket);
      this.execute(
        { action: 'deal', symbol: o.symbol, side: o.side, orderType: 'market', volume: Number(o.volumeCurrent), price: null, sl: null, tp: null, magic: o.magic, positionTicket: null, orderTicket: null },
        1,
        o,
      );
      filled = true;
    }
    if (filled) for (const l of this.listeners) l();
  }

  /** Floating P&L per position at current prices. */
  snapshotPositions(): Mt5Position[] {
    return [...this.positions.values()].map((p) => {
      const s = this.spec(p.symbol)!;
      const px = p.side === 'buy' ? this.bid(p.symbol) : this.ask(p.symbol);
      const pnl = (px - Number(p.priceOpen)) * Number(p.volume) * Number(s.contractSize) * (p.side === 'buy' ? 1 : -1);
      return { ...p, profit: pnl.toFixed(2) };
    });
  }

  equity(): number {
    return this.balance + this.snapshotPositions().reduce((a, p) => a + Number(p.profit), 0);
  }
}

// ---------------------------------------------------------------- the EA

export type FakeEaStep = 'received' | 'acked' | 'sending' | 'sent' | 'result' | 'exec';

export interface FakeEaFault {
  /** Only for this clientId (default: the next intent). */
  clientId?: string;
  at: FakeEaStep;
  /** drop: the connection breaks, the EA keeps running; crash: the terminal dies there. */
  kind: 'drop' | 'crash';
}

export interface FakeEaJournalLine {
  clientId: string;
  seq: number;
  magic: string;
  state: 'received' | 'sending' | 'result';
  result: Mt5Result | null;
  intent: Mt5Intent;
  /** Set on results found by the restart resolution (sent as exec after the next welcome). */
  resolved?: boolean;
}

export interface FakeEaOptions {
  /** ws://127.0.0.1:<port>/bridge/v1 */
  url: string;
  token: string;
  broker: FakeMt5Broker;
  login?: string;
  server?: string;
  demo?: boolean;
  /** Delay before each OrderSend (ms). */
  latencyMs?: number;
  /** The journal file: pass the same array to a new FakeEa to model a reinstalled EA. */
  journal?: FakeEaJournalLine[];
  caps?: { allowedSymbols?: string[]; maxLotsPerOrder?: string; maxOpenPositions?: number; maxOrdersPerMinute?: number; allowRealAccount?: boolean };
  /** Local clock (default Date.now). */
  now?: () => number;
}

type Waiter = { test: (m: Mt5ServerMessage) => boolean; resolve: (m: Mt5ServerMessage) => void };

export class FakeEa {
  readonly journal: FakeEaJournalLine[];
  readonly received: Mt5ServerMessage[] = [];
  readonly faults: FakeEaFault[] = [];
  welcome: Mt5Welcome | null = null;
  /** The close code and reason of the last connection (4403, 4409 …). */
  lastClose: { code: number; reason: string } | null = null;
  private ws: WebSocket | null = null;
  private generation = 0;
  private alive = false;
  private mid = 0;
  private offsetMs = 0;
  private queue: Mt5Intent[] = [];
  private working = false;
  private waiters: Waiter[] = [];
  private readonly now: () => number;
  private sentDeals = new Set<string>();

  constructor(private readonly o: FakeEaOptions) {
    this.journal = o.journal ?? [];
    this.now = o.now ?? Date.now;
    o.broker.listeners.push(() => {
      if (!this.alive || !this.welcome) return;
      this.sendDeals(0);
      this.sendSnapshot();
    });
  }

  get broker(): FakeMt5Broker {
    return this.o.broker;
  }

  get connected(): boolean {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Journal state per clientId (the last line). */
  entry(clientId: string): FakeEaJournalLine | undefined {
    for (let i = this.journal.length - 1; i >= 0; i--) if (this.journal[i].clientId === clientId) return this.journal[i];
    return undefined;
  }

  private write(line: Omit<FakeEaJournalLine, 'seq' | 'magic' | 'intent'> & { intent: Mt5Intent }): void {
    this.journal.push({ ...line, seq: line.intent.seq, magic: line.intent.magic });
  }

  /** Opens the socket, says hello, waits for welcome, sends deals since the cursor and a snapshot. */
  async connect(): Promise<Mt5Welcome> {
    if (this.ws) this.ws.terminate();
    const gen = ++this.generation;
    this.alive = true;
    this.welcome = null;
    this.lastClose = null;
    const ws = new WebSocket(this.o.url, { headers: { authorization: `Bearer ${this.o.token}` } });
    this.ws = ws;
    const opened = new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (req, res) => {
        req.destroy();
        reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { statusCode: res.statusCode }));
      });
      ws.once('error', reject);
    });
    const closed = new Promise<never>((_resolve, reject) => {
      ws.once('close', (code, reason) => {
        this.lastClose = { code, reason: reason.toString() };
        if (this.ws === ws) this.ws = null;
        reject(Object.assign(new Error(`closed ${code} ${reason.toString()}`), { code }));
      });
    });
    closed.catch(() => undefined);
    ws.on('message', (data: Buffer) => {
      if (gen !== this.generation) return;
      const m = parseServerMessage(data.toString('utf8'));
      if (m) this.onMessage(m);
    });
    await opened;
    this.send({
      type: 'hello',
      version: 'fake-1.0',
      login: this.o.login ?? '5001234',
      server: this.o.server ?? 'FakeBroker-Demo',
      company: 'Fake Broker Ltd',
      currency: 'USD',
      marginMode: this.broker.marginMode,
      demo: this.o.demo ?? true,
      tradeAllowed: true,
      symbols: this.broker.symbols.map(({ spreadPts: _spread, ...s }) => s),
      journal: this.tail(),
      caps: {
        allowedSymbols: this.o.caps?.allowedSymbols ?? [],
        maxLotsPerOrder: this.o.caps?.maxLotsPerOrder ?? '10',
        maxOpenPositions: this.o.caps?.maxOpenPositions ?? 100,
        maxOrdersPerMinute: this.o.caps?.maxOrdersPerMinute ?? 600,
        allowRealAccount: this.o.caps?.allowRealAccount ?? false,
      },
    });
    const welcome = (await Promise.race([this.next((m) => m.type === 'welcome'), closed])) as Mt5Welcome;
    this.welcome = welcome;
    this.offsetMs = welcome.serverUtc - this.now();
    this.sentDeals.clear();
    const from = welcome.dealCursor > 0 ? welcome.dealCursor - BRIDGE_DEAL_OVERLAP_MS : 0;
    this.sendDeals(from);
    // results found by the restart resolution, then the state of the account
    for (const line of this.latestLines()) {
      if (line.state === 'result' && line.result && line.result.outcome !== 'unknown' && line.resolved) this.sendExec(line.clientId, line.result);
    }
    this.sendSnapshot();
    void this.work();
    return welcome;
  }

  /** The terminal restarts: the socket dies, SENDING entries are resolved by magic, then it connects. */
  async restart(): Promise<Mt5Welcome> {
    this.crash();
    this.resolveJournal();
    return this.connect();
  }

  /** The terminal dies now (socket reset, in-flight work abandoned; the journal stays). */
  crash(): void {
    this.generation++;
    this.alive = false;
    this.queue = [];
    this.working = false;
    this.ws?.terminate();
    this.ws = null;
  }

  /** The network drops; the EA keeps running (sends are lost until `connect()`). */
  drop(): void {
    this.ws?.terminate();
    this.ws = null;
  }

  close(): void {
    this.generation++;
    this.alive = false;
    this.ws?.close(1000, 'bye');
    this.ws = null;
  }

  /**
   * Restart resolution: SENDING / unknown entries looked up by magic in orders, positions, deals
   * (RECEIVED ones never reached OrderSend: not_found, unless a deal says otherwise).
   */
  resolveJournal(): void {
    for (const line of this.latestLines()) {
      const open = line.state !== 'result' || line.result?.outcome === 'unknown';
      if (!open) continue;
      const found = this.broker.findByMagic(line.magic);
      let result: Mt5Result;
      const inDeals = found.deals.filter((d) => d.entry === 'in' || d.entry === 'inout' || d.entry === 'out');
      if (inDeals.length > 0) {
        const vol = inDeals.reduce((a, d) => a + Number(d.volume), 0);
        const px = inDeals.reduce((a, d) => a + Number(d.volume) * Number(d.price), 0) / vol;
        result = { outcome: 'filled', retcode: RC.DONE.code, order: inDeals[0].order, deal: inDeals[0].deal, price: px.toFixed(8).replace(/0+$/, '').replace(/\.$/, ''), volume: vol.toFixed(2), comment: 'resolved by magic' };
      } else if (found.order) {
        result = { outcome: 'placed', retcode: RC.PLACED.code, order: found.order.ticket, deal: null, price: found.order.priceOpen, volume: found.order.volumeInitial, comment: 'resolved by magic' };
      } else {
        result = { outcome: 'not_found', retcode: null, order: null, deal: null, price: null, volume: null, comment: 'not found by magic' };
      }
      this.journal.push({ ...line, state: 'result', result, resolved: true });
    }
  }

  /** The EA's periodic recheck of unresolved entries (5 min in the EA): resolves and reports them. */
  recheck(): void {
    const n = this.journal.length;
    this.resolveJournal();
    for (const line of this.journal.slice(n)) if (line.result) this.sendExec(line.clientId, line.result);
  }

  private latestLines(): FakeEaJournalLine[] {
    const last = new Map<string, FakeEaJournalLine>();
    for (const l of this.journal) last.set(l.clientId, l);
    return [...last.values()];
  }

  private tail(): Mt5JournalEntry[] {
    return this.latestLines()
      .slice(-BRIDGE_JOURNAL_TAIL)
      .map((l) => ({ clientId: l.clientId, seq: l.seq, magic: l.magic, state: l.state, result: l.result }));
  }

  private send(msg: Record<string, unknown> & { type: string }): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ v: BRIDGE_PROTOCOL_VERSION, mid: `e${++this.mid}`, ts: this.now(), ...msg }));
  }

  /** Sends a raw frame (protocol tests). */
  sendRaw(text: string): void {
    this.ws?.send(text);
  }

  heartbeat(termConnected = true): void {
    this.send({
      type: 'hb',
      termConnected,
      pingMs: 35,
      brokerTime: Math.floor((this.broker.utcMs + this.broker.gmtOffsetMs) / 1000),
      gmtTime: Math.floor(this.broker.utcMs / 1000),
      balance: this.broker.balance.toFixed(2),
      equity: this.broker.equity().toFixed(2),
      margin: '0.00',
      freeMargin: this.broker.equity().toFixed(2),
    });
  }

  private sendDeals(fromBrokerMs: number): void {
    for (const d of this.broker.deals) {
      if (d.brokerTimeMsc < fromBrokerMs || this.sentDeals.has(d.deal)) continue;
      this.sentDeals.add(d.deal);
      const { utcMs: _utc, ...deal } = d;
      this.send({ type: 'deal', ...deal });
    }
  }

  sendSnapshot(): void {
    this.send({ type: 'snapshot', positions: this.broker.snapshotPositions(), orders: [...this.broker.orders.values()] });
  }

  private sendExec(clientId: string, r: Mt5Result): void {
    this.send({ type: 'exec', clientId, ...r });
  }

  /** The next server message matching `test` (already received ones count when `past`). */
  next(test: (m: Mt5ServerMessage) => boolean): Promise<Mt5ServerMessage> {
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  private onMessage(m: Mt5ServerMessage): void {
    this.received.push(m);
    for (const w of [...this.waiters]) {
      if (w.test(m)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
    if (m.type === 'intent') {
      this.queue.push(m);
      void this.work();
    } else if (m.type === 'bars_req') {
      const known = this.broker.spec(m.symbol);
      this.send({ type: 'bars', reqId: m.reqId, symbol: m.symbol, bars: known ? this.broker.bars(m.symbol, m.fromMs, m.count) : [], error: known ? null : 'unknown symbol' });
    }
  }

  private fault(clientId: string, at: FakeEaStep): 'drop' | 'crash' | null {
    const i = this.faults.findIndex((f) => f.at === at && (f.clientId === undefined || f.clientId === clientId));
    if (i < 0) return null;
    const [f] = this.faults.splice(i, 1);
    if (f.kind === 'crash') this.crash();
    else this.drop();
    return f.kind;
  }

  /** Intents run one at a time, in seq order (the EA has one thread). */
  private async work(): Promise<void> {
    if (this.working) return;
    this.working = true;
    const gen = this.generation;
    try {
      while (this.queue.length > 0 && gen === this.generation) {
        this.queue.sort((a, b) => a.seq - b.seq);
        const intent = this.queue.shift()!;
        await this.run(intent, gen);
      }
    } finally {
      if (gen === this.generation) this.working = false;
    }
  }

  /** Returns false when the terminal crashed during it. */
  private async run(intent: Mt5Intent, gen: number): Promise<void> {
    const known = this.entry(intent.clientId);
    // not_found (verified by magic: never executed) runs again as a new intent
    if (known && !(known.state === 'result' && known.result?.outcome === 'not_found')) {
      const result = known.state === 'result' ? known.result : null;
      this.send({ type: 'ack', clientId: intent.clientId, seq: intent.seq, status: 'duplicate', reason: null, result });
      return;
    }
    const reject = (reason: string) => {
      const result: Mt5Result = { outcome: 'rejected', retcode: null, order: null, deal: null, price: null, volume: null, comment: reason };
      this.write({ clientId: intent.clientId, state: 'result', result, intent });
      this.send({ type: 'ack', clientId: intent.clientId, seq: intent.seq, status: 'rejected', reason, result: null });
    };
    if (this.now() + this.offsetMs > intent.ts + intent.ttlMs) return reject('expired');
    this.write({ clientId: intent.clientId, state: 'received', result: null, intent });
    if (this.fault(intent.clientId, 'received') === 'crash') return;
    const spec = this.broker.spec(intent.symbol);
    const caps = this.o.caps ?? {};
    const maxLots = Math.min(Number(caps.maxLotsPerOrder ?? '10'), Number(this.welcome?.limits.maxLotsPerOrder ?? '10'));
    if (!spec) return reject('unknown symbol');
    if (caps.allowedSymbols && caps.allowedSymbols.length > 0 && !caps.allowedSymbols.includes(intent.symbol)) return reject('symbol not allowed');
    if (Number(intent.volume) > maxLots) return reject('above MaxLotsPerOrder');
    if (!(this.o.demo ?? true) && !(caps.allowRealAccount ?? false)) return reject('real account not allowed');
    this.send({ type: 'ack', clientId: intent.clientId, seq: intent.seq, status: 'accepted', reason: null, result: null });
    if (this.fault(intent.clientId, 'acked') === 'crash') return;
    if (this.o.latencyMs) await new Promise((r) => setTimeout(r, this.o.latencyMs));
    if (gen !== this.generation) return;
    this.write({ clientId: intent.clientId, state: 'sending', result: null, intent });
    if (this.fault(intent.clientId, 'sending') === 'crash') return;
    let res: FakeMt5SendResult = { retcode: 0, order: null, deal: null, price: null, volume: null };
    for (let attempt = 0; attempt < 3; attempt++) {
      res = this.broker.orderSend({
        action: intent.action,
        symbol: intent.symbol,
        side: intent.side,
        orderType: intent.orderType,
        volume: Number(intent.volume),
        price: intent.price === null ? null : Number(intent.price),
        sl: intent.sl === null ? null : Number(intent.sl),
        tp: intent.tp === null ? null : Number(intent.tp),
        magic: intent.magic,
        positionTicket: intent.positionTicket,
        orderTicket: intent.orderTicket,
      });
      if (retcodeClass(res.retcode) !== 'retry') break;
    }
    if (this.fault(intent.clientId, 'sent') === 'crash') return;
    const cls = retcodeClass(res.retcode);
    let result: Mt5Result;
    const base = { retcode: res.retcode || null, order: res.order, deal: res.deal, price: res.price === null ? null : res.price.toFixed(spec.digits), volume: res.volume === null ? null : res.volume.toFixed(2), comment: null };
    if (cls === 'ok') {
      const outcome = res.retcode === RC.PLACED.code ? 'placed' : res.retcode === RC.DONE_PARTIAL.code ? 'partial' : 'filled';
      result = { ...base, outcome: intent.action === 'remove' ? 'filled' : outcome };
    } else if (cls === 'unknown') {
      // never resend: look it up by magic now; absent → unknown (resolved after a restart / recheck)
      const found = this.broker.findByMagic(intent.magic);
      const d = found.deals[0];
      result = d
        ? { outcome: 'filled', retcode: RC.DONE.code, order: d.order, deal: d.deal, price: d.price, volume: d.volume, comment: 'found by magic' }
        : { ...base, outcome: 'unknown' };
    } else {
      result = { ...base, outcome: 'rejected' };
    }
    this.write({ clientId: intent.clientId, state: 'result', result, intent });
    if (this.fault(intent.clientId, 'result') === 'crash') return;
    this.sendExec(intent.clientId, result);
    if (this.fault(intent.clientId, 'exec') === 'crash') return;
    this.sendDeals(0);
    this.sendSnapshot();
  }
}

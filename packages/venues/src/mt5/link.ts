// The server side of one MT5 account's bridge, independent of the transport and the database:
// the Fastify route (apps/server/src/bridge) feeds it frames and persists through its hooks, tests
// drive it over a bare `ws` server. One Mt5Link per account lives across connections, so intents
// sent before a drop are resolved after the EA reconnects (design: mt5-bridge.md §4, §6, §7).
import { createHash, randomUUID } from 'node:crypto';
import {
  BRIDGE_CLIENT_ID,
  BRIDGE_CLOSE,
  BRIDGE_MAX_BARS,
  BRIDGE_MAGIC_BASE,
  BRIDGE_MAGIC_SPAN,
  BRIDGE_OFFLINE_MS,
  BRIDGE_PROTOCOL_VERSION,
  BRIDGE_STALE_MS,
  parseEaMessage,
  type Mt5Bar,
  type Mt5Deal,
  type Mt5EaMessage,
  type Mt5Heartbeat,
  type Mt5Hello,
  type Mt5Intent,
  type Mt5Result,
  type Mt5ServerMessage,
  type Mt5Snapshot,
  type Mt5Welcome,
} from '@lq/contracts';

/** The magic number of an intent: MAGIC_BASE + 40 bits of SHA-256(clientId); stable across restarts. */
export function magicOf(clientId: string): string {
  const h = Number.parseInt(createHash('sha256').update(clientId).digest('hex').slice(0, 10), 16);
  return String(BRIDGE_MAGIC_BASE + (h % BRIDGE_MAGIC_SPAN));
}

export function isOurMagic(magic: string): boolean {
  const m = Number(magic);
  return Number.isSafeInteger(m) && m >= BRIDGE_MAGIC_BASE && m < BRIDGE_MAGIC_BASE + BRIDGE_MAGIC_SPAN;
}

/**
 * - `offline`: no session, or silent > 60 s (robots are paused);
 * - `syncing`: connected, hello done, waiting for the EA's deals and snapshot (no intents yet);
 * - `stale`: silent > 15 s, disconnected for less than 60 s, or the terminal is off its broker;
 * - `online`: intents may be sent.
 */
export type Mt5LinkStatus = 'online' | 'syncing' | 'stale' | 'offline';

/** What one intent asks the EA to do (the `intent` message without header, seq and magic). */
export interface Mt5IntentRequest {
  clientId: string;
  action: Mt5Intent['action'];
  /** The broker's symbol name. */
  symbol: string;
  side: 'buy' | 'sell';
  orderType: Mt5Intent['orderType'];
  volume: string;
  price?: string | null;
  sl?: string | null;
  tp?: string | null;
  deviationPts?: number;
  positionTicket?: string | null;
  orderTicket?: string | null;
  /** How long the intent may wait before the EA executes it (default 10 s). */
  ttlMs?: number;
  expiry?: number | null;
}

/** The account's bridge as the venue adapter (and the runner) sees it. */
export interface Mt5BridgeSession {
  readonly accountId: number;
  status(): Mt5LinkStatus;
  /** The last hello (kept after a disconnect): symbols, margin mode, currency, login. */
  terminal(): Mt5Hello | null;
  heartbeat(): Mt5Heartbeat | null;
  snapshot(): Mt5Snapshot | null;
  /**
   * Sends an intent once and waits for its result (at most `timeoutMs`, default the ttl + 5 s).
   * Throws Mt5OfflineError when nothing was sent. A known clientId is not sent again: its stored
   * result is returned, or the call waits for it; only a `not_found` result (the EA verified by
   * magic that it never executed) is sent again, and the EA runs it as new. Resolves
   * `{outcome:'unknown'}` on timeout.
   */
  execute(req: Mt5IntentRequest, timeoutMs?: number): Promise<Mt5Result>;
  /** The latest result of a clientId (null: never sent, or no answer yet). */
  lookup(clientId: string): Mt5Result | null;
  /** Deals seen with this clientId's magic. */
  dealsOf(clientId: string): Mt5Deal[];
  /** The clientId a magic number belongs to (intents sent through this link). */
  clientIdOf(magic: string): string | null;
  /** Whether a pending order is open: placed after the last snapshot, or listed in it. */
  isOrderOpen(ticket: string): boolean;
  /** The intent sent for a clientId (null when only its result is known, e.g. from the EA's journal). */
  intentOf(clientId: string): Mt5IntentRequest | null;
  /** Deals of our magics: this process's and, with a store, earlier ones (brokerTimeMsc ≥ since). */
  fetchDeals(sinceBrokerMs?: number): Promise<Mt5DealRecord[]>;
  /** Closed 1m bars of a broker symbol from the terminal (open time ≥ fromMs, UTC), oldest first. */
  fetchBars(symbol: string, fromMs: number, count?: number, timeoutMs?: number): Promise<Mt5Bar[]>;
}

/** A deal without the message header. */
export type Mt5DealRecord = Omit<Mt5Deal, 'v' | 'type' | 'mid' | 'ts'>;

export class Mt5OfflineError extends Error {
  constructor(readonly status: Mt5LinkStatus) {
    super(`the MT5 bridge is ${status}: intent not sent`);
    this.name = 'Mt5OfflineError';
  }
}

/** Thrown by a hello hook to close the connection with a code (4403 login/server mismatch). */
export class Mt5CloseError extends Error {
  constructor(
    readonly code: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'Mt5CloseError';
  }
}

export interface Mt5Socket {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** Persistence and policy, supplied by the server (all optional for tests). */
export interface Mt5LinkHooks {
  /** Validates / binds (login, server); throw Mt5CloseError to refuse. */
  hello?(hello: Mt5Hello): Promise<void>;
  /** Broker time (ms) of the newest stored deal: the welcome's dealCursor. */
  dealCursor?(): Promise<number>;
  /** Store a deal (idempotent per deal id). */
  deal?(deal: Mt5Deal, clientId: string | null): Promise<void>;
  heartbeat?(hb: Mt5Heartbeat): Promise<void>;
  snapshot?(snapshot: Mt5Snapshot): Promise<void>;
  /** Stored deals (brokerTimeMsc ≥ since), for fetchDeals after a restart. */
  loadDeals?(sinceBrokerMs: number): Promise<Mt5DealRecord[]>;
  /** An intent's result arrived (exec, or an ack with a result). */
  result?(clientId: string, result: Mt5Result): Promise<void>;
}

export interface Mt5LinkOptions {
  hooks?: Mt5LinkHooks;
  /** Injected clock (default Date.now). */
  now?: () => number;
  limits?: Mt5Welcome['limits'];
  staleMs?: number;
  offlineMs?: number;
}

interface Pending {
  /** null for a clientId only known from the EA (exec after a server restart). */
  intent: Omit<Mt5Intent, 'seq' | 'mid'> | null;
  delivered: boolean;
  result: Mt5Result | null;
  waiters: ((r: Mt5Result) => void)[];
}

interface Connection {
  id: number;
  socket: Mt5Socket;
  hello: boolean;
}

const isFinal = (r: Mt5Result | null): r is Mt5Result => r !== null && r.outcome !== 'unknown';

export class Mt5Link implements Mt5BridgeSession {
  private conn: Connection | null = null;
  private nextConnId = 1;
  private lastHello: Mt5Hello | null = null;
  private lastHb: Mt5Heartbeat | null = null;
  private lastSnapshot: Mt5Snapshot | null = null;
  private synced = false;
  private lastSeen = 0;
  private seq = 0;
  private mid = 0;
  private readonly intents = new Map<string, Pending>();
  private readonly magics = new Map<string, string>();
  private readonly deals = new Map<string, Mt5Deal>();
  /** Orders reported `placed` since the last snapshot (which does not list them yet). */
  private readonly placedSinceSnapshot = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
  private readonly barRequests = new Map<string, { resolve: (bars: Mt5Bar[]) => void; reject: (e: Error) => void }>();
  private nextReq = 0;
  private readonly now: () => number;
  /** The latest messages received (any connection, at most 500); tests read it. */
  readonly received: Mt5EaMessage[] = [];

  constructor(
    readonly accountId: number,
    private readonly opts: Mt5LinkOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  // ---- connections ---------------------------------------------------------------------------

  /** Whether a connection is attached and heard from within the stale limit. */
  get live(): boolean {
    return this.conn !== null && this.now() - this.lastSeen <= (this.opts.staleMs ?? BRIDGE_STALE_MS);
  }

  get connected(): boolean {
    return this.conn !== null;
  }

  /** Id of the attached connection (the `id` attach returned), or null. */
  get connectionId(): number | null {
    return this.conn?.id ?? null;
  }

  /** Time (from the injected clock) of the last frame received. */
  get lastSeenAt(): number {
    return this.lastSeen;
  }

  /**
   * Attaches a new connection (replacing any previous one). Call the returned `receive` for each
   * text frame, synchronously from the socket's message event, and `closed` when it closes.
   */
  attach(socket: Mt5Socket): { id: number; receive: (raw: string) => Promise<void>; closed: () => void } {
    if (this.conn) this.conn.socket.close(BRIDGE_CLOSE.replaced, 'replaced by a newer session');
    const conn: Connection = { id: this.nextConnId++, socket, hello: false };
    this.conn = conn;
    this.synced = false;
    this.lastSeen = this.now();
    return {
      id: conn.id,
      receive: (raw) => {
        this.chain = this.chain.then(() => this.handle(conn, raw)).catch(() => undefined);
        return this.chain;
      },
      closed: () => {
        if (this.conn === conn) {
          this.conn = null;
          this.synced = false;
        }
      },
    };
  }

  /** Kill switch: the EA rejects every intent until `resume()` (it persists the halt). */
  halt(reason: string): boolean {
    return this.conn !== null && this.send(this.conn, { type: 'halt', reason: reason.slice(0, 128) });
  }

  resume(): boolean {
    return this.conn !== null && this.send(this.conn, { type: 'resume' });
  }

  /** Closes the current connection (revocation, shutdown). */
  close(code: number, reason: string): void {
    const c = this.conn;
    this.conn = null;
    this.synced = false;
    c?.socket.close(code, reason);
  }

  private send(conn: Connection, msg: Record<string, unknown> & { type: Mt5ServerMessage['type'] }): boolean {
    if (this.conn !== conn) return false;
    try {
      conn.socket.send(JSON.stringify({ v: BRIDGE_PROTOCOL_VERSION, mid: `s${++this.mid}`, ts: this.now(), ...msg }));
      return true;
    } catch {
      return false;
    }
  }

  private async handle(conn: Connection, raw: string): Promise<void> {
    if (this.conn !== conn) return;
    const msg = parseEaMessage(raw);
    if (!msg || (!conn.hello && msg.type !== 'hello')) {
      this.drop(conn, BRIDGE_CLOSE.protocol, msg ? 'hello first' : 'invalid message');
      return;
    }
    this.lastSeen = this.now();
    this.received.push(msg);
    if (this.received.length > 500) this.received.splice(0, this.received.length - 500);
    switch (msg.type) {
      case 'hello':
        await this.onHello(conn, msg);
        return;
      case 'ack': {
        const p = this.intents.get(msg.clientId);
        if (!p) return;
        if (msg.status === 'rejected') {
          await this.settle(msg.clientId, { outcome: 'rejected', retcode: null, order: null, deal: null, price: null, volume: null, comment: msg.reason ?? 'rejected' });
        } else if (msg.status === 'duplicate' && msg.result) {
          await this.settle(msg.clientId, msg.result);
        }
        return;
      }
      case 'exec': {
        const { clientId, outcome, retcode, order, deal, price, volume, comment } = msg;
        if (!this.intents.has(clientId)) this.intents.set(clientId, { intent: null, delivered: true, result: null, waiters: [] });
        await this.settle(clientId, { outcome, retcode, order, deal, price, volume, comment });
        return;
      }
      case 'deal': {
        const known = this.deals.has(msg.deal);
        this.deals.set(msg.deal, msg);
        if (!known) await this.opts.hooks?.deal?.(msg, this.magics.get(msg.magic) ?? null);
        return;
      }
      case 'snapshot':
        this.lastSnapshot = msg;
        this.placedSinceSnapshot.clear();
        await this.opts.hooks?.snapshot?.(msg);
        if (!this.synced) {
          this.synced = true;
          this.redeliver(conn);
        }
        return;
      case 'bars': {
        const r = this.barRequests.get(msg.reqId);
        this.barRequests.delete(msg.reqId);
        if (r) {
          if (msg.error) r.reject(new Error(`the terminal has no bars of ${msg.symbol}: ${msg.error}`));
          else r.resolve(msg.bars);
        }
        return;
      }
      case 'hb':
        this.lastHb = msg;
        this.send(conn, { type: 'hb_ack', serverUtc: this.now() });
        await this.opts.hooks?.heartbeat?.(msg);
        return;
    }
  }

  private drop(conn: Connection, code: number, reason: string): void {
    if (this.conn === conn) {
      this.conn = null;
      this.synced = false;
    }
    conn.socket.close(code, reason);
  }

  private async onHello(conn: Connection, hello: Mt5Hello): Promise<void> {
    if (conn.hello) return;
    try {
      await this.opts.hooks?.hello?.(hello);
    } catch (e) {
      this.drop(conn, e instanceof Mt5CloseError ? e.code : BRIDGE_CLOSE.protocol, e instanceof Error ? e.message : 'refused');
      return;
    }
    conn.hello = true;
    this.lastHello = hello;
    for (const j of hello.journal) {
      this.magics.set(j.magic, j.clientId);
      if (!j.result) continue;
      // results the server did not know (it restarted) become lookups; known ones settle
      if (!this.intents.has(j.clientId)) this.intents.set(j.clientId, { intent: null, delivered: true, result: j.result, waiters: [] });
      else if (isFinal(j.result)) await this.settle(j.clientId, j.result);
    }
    const cursor = (await this.opts.hooks?.dealCursor?.()) ?? 0;
    this.send(conn, {
      type: 'welcome',
      sessionId: randomUUID(),
      limits: this.opts.limits ?? { maxLotsPerOrder: '100', maxOpenPositions: 200, maxOrdersPerMinute: 60 },
      dealCursor: cursor,
      serverUtc: this.now(),
      magicBase: String(BRIDGE_MAGIC_BASE),
      magicSpan: String(BRIDGE_MAGIC_SPAN),
    });
  }

  /** After a reconnect: every intent without a final result goes again (the EA dedupes by clientId). */
  private redeliver(conn: Connection): void {
    for (const [, p] of this.intents) {
      if (isFinal(p.result) || !p.intent) continue;
      p.delivered = this.send(conn, { ...p.intent, seq: ++this.seq }) || p.delivered;
    }
  }

  private async settle(clientId: string, result: Mt5Result): Promise<void> {
    const p = this.intents.get(clientId);
    if (!p) return;
    if (isFinal(p.result) && !isFinal(result)) return;
    p.result = result;
    if (result.outcome === 'placed' && result.order) this.placedSinceSnapshot.add(result.order);
    for (const w of p.waiters.splice(0)) w(result);
    await this.opts.hooks?.result?.(clientId, result);
  }

  // ---- Mt5BridgeSession ----------------------------------------------------------------------

  status(): Mt5LinkStatus {
    const silent = this.now() - this.lastSeen;
    if (this.lastSeen === 0 || silent > (this.opts.offlineMs ?? BRIDGE_OFFLINE_MS)) return 'offline';
    if (!this.conn || silent > (this.opts.staleMs ?? BRIDGE_STALE_MS)) return 'stale';
    if (!this.conn.hello || !this.synced) return 'syncing';
    if (this.lastHb && !this.lastHb.termConnected) return 'stale';
    return 'online';
  }

  terminal(): Mt5Hello | null {
    return this.lastHello;
  }

  heartbeat(): Mt5Heartbeat | null {
    return this.lastHb;
  }

  snapshot(): Mt5Snapshot | null {
    return this.lastSnapshot;
  }

  lookup(clientId: string): Mt5Result | null {
    return this.intents.get(clientId)?.result ?? null;
  }

  dealsOf(clientId: string): Mt5Deal[] {
    const magic = magicOf(clientId);
    return [...this.deals.values()].filter((d) => d.magic === magic);
  }

  clientIdOf(magic: string): string | null {
    return this.magics.get(magic) ?? null;
  }

  intentOf(clientId: string): Mt5IntentRequest | null {
    const i = this.intents.get(clientId)?.intent;
    if (!i) return null;
    const { v: _v, type: _t, ts: _ts, magic: _m, ...req } = i;
    return req;
  }

  async fetchDeals(sinceBrokerMs = 0): Promise<Mt5DealRecord[]> {
    const byId = new Map<string, Mt5DealRecord>();
    for (const d of (await this.opts.hooks?.loadDeals?.(sinceBrokerMs)) ?? []) byId.set(d.deal, d);
    for (const d of this.deals.values()) {
      if (d.brokerTimeMsc < sinceBrokerMs) continue;
      const { v: _v, type: _t, mid: _m, ts: _ts, ...rec } = d;
      byId.set(d.deal, rec);
    }
    return [...byId.values()].filter((d) => isOurMagic(d.magic)).sort((a, b) => a.brokerTimeMsc - b.brokerTimeMsc);
  }

  fetchBars(symbol: string, fromMs: number, count = BRIDGE_MAX_BARS, timeoutMs = 10_000): Promise<Mt5Bar[]> {
    const conn = this.conn;
    if (!conn || !conn.hello) return Promise.reject(new Mt5OfflineError(this.status()));
    const reqId = `b${++this.nextReq}`;
    return new Promise<Mt5Bar[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.barRequests.delete(reqId);
        reject(new Error(`no bars of ${symbol} from the terminal within ${timeoutMs} ms`));
      }, timeoutMs);
      this.barRequests.set(reqId, {
        resolve: (bars) => {
          clearTimeout(timer);
          resolve(bars);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      if (!this.send(conn, { type: 'bars_req', reqId, symbol, fromMs: Math.max(0, Math.floor(fromMs)), count: Math.min(BRIDGE_MAX_BARS, Math.max(1, count)) })) {
        this.barRequests.get(reqId)?.reject(new Mt5OfflineError(this.status()));
        this.barRequests.delete(reqId);
      }
    });
  }

  isOrderOpen(ticket: string): boolean {
    return this.placedSinceSnapshot.has(ticket) || (this.lastSnapshot?.orders.some((o) => o.ticket === ticket) ?? false);
  }

  execute(req: Mt5IntentRequest, timeoutMs?: number): Promise<Mt5Result> {
    if (!BRIDGE_CLIENT_ID.test(req.clientId)) return Promise.reject(new Error(`bad clientId ${req.clientId}`));
    const ttlMs = req.ttlMs ?? 10_000;
    let p = this.intents.get(req.clientId);
    // a final result is the answer; `not_found` (verified never executed) may be sent again
    const rerun = p?.result?.outcome === 'not_found';
    if (p && isFinal(p.result) && !rerun) return Promise.resolve(p.result);
    if (!p || !p.intent || rerun) {
      const status = this.status();
      const conn = this.conn;
      if (status !== 'online' || !conn) return Promise.reject(new Mt5OfflineError(status));
      const magic = magicOf(req.clientId);
      this.magics.set(magic, req.clientId);
      const intent: NonNullable<Pending['intent']> = {
        v: BRIDGE_PROTOCOL_VERSION,
        type: 'intent',
        ts: this.now(),
        clientId: req.clientId,
        magic,
        action: req.action,
        symbol: req.symbol,
        side: req.side,
        orderType: req.orderType,
        volume: req.volume,
        price: req.price ?? null,
        sl: req.sl ?? null,
        tp: req.tp ?? null,
        deviationPts: req.deviationPts ?? 10,
        positionTicket: req.positionTicket ?? null,
        orderTicket: req.orderTicket ?? null,
        ttlMs,
        expiry: req.expiry ?? null,
      };
      p = { intent, delivered: false, result: rerun ? null : (p?.result ?? null), waiters: p?.waiters ?? [] };
      this.intents.set(req.clientId, p);
      p.delivered = this.send(conn, { ...intent, seq: ++this.seq });
    }
    const pending = p;
    return new Promise<Mt5Result>((resolve) => {
      const timer = setTimeout(() => {
        const i = pending.waiters.indexOf(done);
        if (i >= 0) pending.waiters.splice(i, 1);
        resolve(pending.result ?? { outcome: 'unknown', retcode: null, order: null, deal: null, price: null, volume: null, comment: 'no answer from the terminal' });
      }, timeoutMs ?? ttlMs + 5_000);
      const done = (r: Mt5Result) => {
        clearTimeout(timer);
        resolve(r);
      };
      pending.waiters.push(done);
    });
  }
}

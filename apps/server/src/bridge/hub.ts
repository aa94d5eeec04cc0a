// The MT5 bridge hub: one Mt5Link per trading account (exchange 'mt5'), persistence of what the
// EA reports (login/server binding, deals, heartbeats), and the staleness sweep that pauses an
// offline account's robots. The robot runner asks it for an account's session:
//
//   new Mt5Venue({ session: app.bridge.session(accountId) })
//
// (registered as the runner's venue factory for exchange 'mt5' by the bridge plugin).
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { BRIDGE_CLOSE, type Mt5Deal, type Mt5Heartbeat, type Mt5Hello } from '@lq/contracts';
import { and, eq, isNull, mt5Deals, robotEvents, robots, sql, tradingAccounts, type Database } from '@lq/db';
import { Mt5CloseError, Mt5Link, type Mt5DealRecord, type Mt5LinkStatus } from '@lq/venues';
import { BridgeCandleSource } from './candles';

export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export interface BridgeHubOptions {
  db: Database;
  log?: FastifyBaseLogger;
  /** Injected clock (tests); default Date.now. */
  now?: () => number;
}

interface AccountState {
  link: Mt5Link;
  /** The status the last sweep saw (pause once per offline episode). */
  lastStatus: Mt5LinkStatus;
  /** When the account last went silent before an offline episode (null: none in progress). */
  silentSince: number | null;
}

/** Robots paused by an offline bridge are continued when it is back within this time. */
export const BRIDGE_AUTO_RESUME_MS = 10 * 60_000;

export class BridgeHub {
  private readonly accounts = new Map<number, AccountState>();
  private nowFn: () => number;

  constructor(private readonly o: BridgeHubOptions) {
    this.nowFn = o.now ?? Date.now;
  }

  /** The hub's clock; tests move it forward to check staleness without waiting. */
  now(): number {
    return this.nowFn();
  }

  setClock(now: () => number): void {
    this.nowFn = now;
  }

  /** The account whose bridge token this is (an unbound account's token no longer exists). */
  async accountForToken(token: string): Promise<{ id: number; userId: number } | null> {
    if (!token || token.length > 200) return null;
    const rows = await this.o.db
      .select({ id: tradingAccounts.id, userId: tradingAccounts.userId })
      .from(tradingAccounts)
      .where(and(eq(tradingAccounts.bridgeTokenHash, tokenHash(token)), eq(tradingAccounts.exchange, 'mt5'), isNull(tradingAccounts.unboundAt)));
    return rows[0] ?? null;
  }

  /** The bridge session of an account (created on first use; offline until its EA connects). */
  session(accountId: number): Mt5Link {
    return this.state(accountId).link;
  }

  private state(accountId: number): AccountState {
    let s = this.accounts.get(accountId);
    if (!s) {
      const link = new Mt5Link(accountId, {
        now: () => this.nowFn(),
        hooks: {
          hello: (h) => this.onHello(accountId, h),
          dealCursor: () => this.dealCursor(accountId),
          deal: (d, clientId) => this.onDeal(accountId, d, clientId),
          heartbeat: (hb) => this.onHeartbeat(accountId, hb),
          loadDeals: (since) => this.storedDeals(accountId, since),
        },
      });
      s = { link, lastStatus: 'offline', silentSince: null };
      this.accounts.set(accountId, s);
    }
    return s;
  }

  /** Sessions whose EA is online now (candle sources pick one of them). */
  onlineSessions(): Mt5Link[] {
    return [...this.accounts.values()].map((s) => s.link).filter((l) => l.status() === 'online');
  }

  /** The runner's candle source for a forex symbol: bars from an online terminal (see bridge/candles.ts). */
  candleSource(symbol: string): BridgeCandleSource {
    return new BridgeCandleSource(this, symbol);
  }

  /** Whether a new connection of this account must be refused: another one is live (not stale). */
  busy(accountId: number): boolean {
    const s = this.accounts.get(accountId);
    return s !== undefined && s.link.live;
  }

  /** The token was rotated or the account unbound: close its session (4401). */
  revoke(accountId: number): void {
    this.accounts.get(accountId)?.link.close(BRIDGE_CLOSE.revoked, 'token revoked');
  }

  closeAll(): void {
    for (const s of this.accounts.values()) s.link.close(1001, 'server shutting down');
  }

  private async onHello(accountId: number, h: Mt5Hello): Promise<void> {
    const db = this.o.db;
    // first hello binds the token to (login, server); later ones must match
    await db
      .update(tradingAccounts)
      .set({ mt5Login: h.login, mt5Server: h.server, keyLast4: sql`coalesce(${tradingAccounts.keyLast4}, ${h.login.slice(-4)})` })
      .where(and(eq(tradingAccounts.id, accountId), isNull(tradingAccounts.mt5Login)));
    const [row] = await db.select({ login: tradingAccounts.mt5Login, server: tradingAccounts.mt5Server }).from(tradingAccounts).where(eq(tradingAccounts.id, accountId));
    if (!row || row.login !== h.login || row.server !== h.server) {
      this.o.log?.warn({ accountId }, 'mt5 bridge: hello from another login/server refused');
      throw new Mt5CloseError(BRIDGE_CLOSE.mismatch, 'this token is bound to another MT5 login/server');
    }
  }

  private async dealCursor(accountId: number): Promise<number> {
    const rows = await this.o.db
      .select({ at: sql<string | null>`max((${mt5Deals.payload}->>'brokerTimeMsc')::bigint)` })
      .from(mt5Deals)
      .where(eq(mt5Deals.accountId, accountId));
    return Number(rows[0]?.at ?? 0);
  }

  private async onDeal(accountId: number, d: Mt5Deal, clientId: string | null): Promise<void> {
    const { v: _v, type: _t, mid: _m, ts: _ts, ...payload } = d;
    await this.o.db
      .insert(mt5Deals)
      .values({ accountId, deal: d.deal, order: d.order, positionId: d.positionId, magic: d.magic, clientOrderId: clientId, payload })
      .onConflictDoNothing();
  }

  private async storedDeals(accountId: number, sinceBrokerMs: number): Promise<Mt5DealRecord[]> {
    const rows = await this.o.db
      .select({ payload: mt5Deals.payload })
      .from(mt5Deals)
      .where(and(eq(mt5Deals.accountId, accountId), sql`(${mt5Deals.payload}->>'brokerTimeMsc')::bigint >= ${sinceBrokerMs}`));
    return rows.map((r) => r.payload as Mt5DealRecord);
  }

  private async onHeartbeat(accountId: number, hb: Mt5Heartbeat): Promise<void> {
    const link = this.session(accountId);
    const t = link.terminal();
    const nowMs = this.nowFn();
    await this.o.db
      .update(tradingAccounts)
      .set({
        bridgeSeenAt: new Date(nowMs),
        bridgeState: {
          status: link.status(),
          termConnected: hb.termConnected,
          pingMs: hb.pingMs,
          balance: Number(hb.balance),
          equity: Number(hb.equity),
          margin: Number(hb.margin),
          freeMargin: Number(hb.freeMargin),
          currency: t?.currency ?? null,
          marginMode: t?.marginMode ?? null,
          demo: t?.demo ?? null,
          version: t?.version ?? null,
          // broker time is not UTC: its offset, rounded to 15 min; the PC clock's error vs ours
          brokerOffsetMin: Math.round((hb.brokerTime - hb.gmtTime) / 900) * 15,
          pcClockSkewMs: hb.gmtTime * 1000 - nowMs,
          at: new Date(nowMs).toISOString(),
        },
      })
      .where(eq(tradingAccounts.id, accountId));
  }

  /**
   * Staleness sweep (every second in the server; tests call it after moving the clock): an account
   * that turns offline (> 60 s silent) gets its running robots paused with reason `mt5Offline` and
   * an event on each robot; when its EA is back (online again) within 10 minutes, those robots are
   * continued (the runner reconciles them with the venue as after any continue), else they stay
   * paused for the user. Returns the accounts paused now. Sweeps run one after another: the
   * server's timer and a caller never interleave (one would skip a change the other is still writing).
   */
  sweep(): Promise<number[]> {
    const run = this.sweeping.then(
      () => this.sweepOnce(),
      () => this.sweepOnce(),
    );
    this.sweeping = run.catch(() => []);
    return run;
  }

  private sweeping: Promise<number[]> = Promise.resolve([]);

  private async sweepOnce(): Promise<number[]> {
    const paused: number[] = [];
    for (const [accountId, s] of this.accounts) {
      const status = s.link.status();
      const was = s.lastStatus;
      s.lastStatus = status;
      if (status === was) continue;
      if (status === 'offline' && s.link.lastSeenAt > 0 && s.silentSince === null) {
        s.silentSince = s.link.lastSeenAt;
        await this.pauseRobots(accountId);
        paused.push(accountId);
      } else if (status === 'online' && s.silentSince !== null) {
        const away = this.nowFn() - s.silentSince;
        s.silentSince = null;
        if (away < BRIDGE_AUTO_RESUME_MS) await this.resumeRobots(accountId);
      }
      await this.o.db
        .update(tradingAccounts)
        .set({ bridgeState: sql`coalesce(${tradingAccounts.bridgeState}, '{}'::jsonb) || ${JSON.stringify({ status })}::jsonb` })
        .where(eq(tradingAccounts.id, accountId));
    }
    return paused;
  }

  private async resumeRobots(accountId: number): Promise<void> {
    await this.o.db.transaction(async (tx) => {
      const rows = await tx
        .update(robots)
        .set({ status: 'running', pauseReason: null, updatedAt: new Date() })
        .where(and(eq(robots.accountId, accountId), eq(robots.status, 'paused'), eq(robots.pauseReason, 'mt5Offline')))
        .returning({ id: robots.id });
      if (rows.length > 0) {
        await tx.insert(robotEvents).values(rows.map((r) => ({ robotId: r.id, kind: 'continued', message: 'robot.continued', detail: { by: 'mt5Bridge' } })));
      }
      this.o.log?.info({ accountId, robots: rows.length }, 'mt5 bridge back: robots continued');
    });
  }

  private async pauseRobots(accountId: number): Promise<void> {
    const silentS = Math.round((this.nowFn() - this.session(accountId).lastSeenAt) / 1000);
    await this.o.db.transaction(async (tx) => {
      const rows = await tx
        .update(robots)
        .set({ status: 'paused', pauseReason: 'mt5Offline', updatedAt: new Date() })
        .where(and(eq(robots.accountId, accountId), eq(robots.status, 'running')))
        .returning({ id: robots.id });
      if (rows.length > 0) {
        await tx.insert(robotEvents).values(rows.map((r) => ({ robotId: r.id, kind: 'paused', message: 'mt5Offline', detail: { silentSeconds: silentS } })));
      }
      this.o.log?.warn({ accountId, robots: rows.length }, 'mt5 bridge offline: robots paused');
    });
  }
}

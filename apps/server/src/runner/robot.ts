// One robot driven by the runner: its strategy (the backtest's factory and code), a broker (paper:
// the SimulatedBroker; live: VenueBroker over the account's venue with the journal in the
// database) and the 1m candles of its feed, resampled to its decision interval.
//
// Every step is a function of stored data: the candles (in the store), the fills (robot_fills, each
// stamped with the open time of the candle whose step booked it), the journal (robot_intents) and the
// gate events (robot_events kind `runner`: pause / continue / stop applied at a candle). So after a
// crash the robot is rebuilt by replaying its steps from its first candle, then reconciled with the
// venue (live), and only then trades again.
import type { DatabaseHandle, RobotRow } from '@lq/db';
import { LiveKernel, accountNotionalOf, getInstrument, type Fill, type Instrument, type LiveCandle, type Strategy } from '@lq/engine';
import { getStrategy, needsAi, runSettings, type SideModeName } from '@lq/strategies';
import {
  VenueBroker,
  VenueRejectedError,
  clientOrderId,
  createPaperRobot,
  type PaperRobot,
  type ReconcileResult,
  type Venue,
  type VenueError,
  type VenueMarket,
} from '@lq/venues';
import { AiStream } from '../../../../packages/engine/src/ai/index';
import { venueOf } from '../strategy-setup';
import type { CandleFeed, Bar } from './feed';
import { MINUTE } from './feed';
import { DbIntentJournal, LeaseLostError, insertPaperFills, loadFills, type StoredFillRow } from './journal';

export type GateMode = 'open' | 'paused' | 'stopping';

const DAY = 86_400_000;

/**
 * Warm-up history of an AI robot's signal: the decision candles of the store in the window before the
 * robot's first decision candle — 90 days, or 600 decision bars when that is longer (the model's
 * first fit needs 50 + 500 + 12 bars), at most one year. A function of the interval only, so a
 * replay after a restart seeds the same candles.
 */
export function aiWarmupMs(intervalMs: number): number {
  return Math.min(365 * DAY, Math.max(90 * DAY, 600 * intervalMs));
}

/** The robot columns a driver needs, with its account's exchange. */
export type DriverRow = Pick<RobotRow, 'id' | 'mode' | 'status' | 'strategy' | 'symbol' | 'params' | 'capital' | 'leverage' | 'accountId' | 'lastCandleAt'> & {
  exchange: string;
};

export interface DriverOptions {
  database: DatabaseHandle;
  owner: string;
  resolveWindowMs: number;
  /** Live robots: the account's venue (shared by the robots of one account). */
  venue: Venue | null;
  feed: CandleFeed;
  log: { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void; error(o: unknown, m?: string): void };
}

/** What one step changed, for the runner's batched write. */
export interface StepReport {
  income: number;
  live: Record<string, unknown>;
  lastCandleAt: number;
}

/** 1m candles in, decision candles out (a bucket is decided by its last minute, or when a later one shows a gap). */
class Resampler {
  private bucket = NaN;
  private o = 0;
  private h = 0;
  private l = 0;
  private c = 0;
  private v = 0;
  private open = false;
  constructor(
    private readonly intervalMs: number,
    private readonly offsetMs: number,
  ) {}
  private bucketOf(t: number): number {
    return Math.floor((t - this.offsetMs) / this.intervalMs) * this.intervalMs + this.offsetMs;
  }
  private take(): LiveCandle {
    this.open = false;
    return { time: this.bucket, open: this.o, high: this.h, low: this.l, close: this.c, volume: this.v };
  }
  /** Decision candles completed by this input candle: a gapped previous bucket (before), this one (after). */
  push(b: Bar, before: LiveCandle[], after: LiveCandle[]): void {
    const bucket = this.bucketOf(b.time);
    if (this.open && bucket !== this.bucket) before.push(this.take());
    if (bucket !== this.bucket) {
      this.bucket = bucket;
      this.o = b.open;
      this.h = b.high;
      this.l = b.low;
      this.v = 0;
    } else {
      if (b.high > this.h) this.h = b.high;
      if (b.low < this.l) this.l = b.low;
    }
    this.c = b.close;
    this.v += b.volume;
    this.open = true;
    if (this.bucketOf(b.time + MINUTE) !== bucket) after.push(this.take());
  }
  /** The bucket still open (its last minute missing), decided now. */
  flush(out: LiveCandle[]): void {
    if (this.open) out.push(this.take());
  }
}

interface GateEvent {
  at: number;
  mode: GateMode;
}

/** What a robot's strategy runs with: the backtest's settings of its parameters on its instrument. */
export interface RobotSettings {
  intervalMs: number;
  utcOffsetMinutes: number;
  makerFee: number;
  takerFee: number;
  spreadPoints: number | undefined;
  leverage: number;
  ai: boolean;
}

/** A robot's strategy and settings, built as the backtest builds them (the runner and the drift monitor's shadow alike). */
export function robotStrategyOf(row: Pick<DriverRow, 'strategy' | 'params' | 'leverage'>, instrument: Instrument): { strategy: Strategy; settings: RobotSettings } {
  const def = getStrategy(row.strategy);
  const params = def.schema.parse(row.params);
  const p = params as Record<string, unknown>;
  const s = runSettings(params, instrument);
  return {
    strategy: def.create(params, instrument),
    settings: {
      intervalMs: s.intervalMs ?? MINUTE,
      utcOffsetMinutes: s.utcOffsetMinutes,
      makerFee: s.makerFee,
      takerFee: s.takerFee,
      spreadPoints: s.spreadPoints,
      leverage: row.leverage,
      ai: needsAi({ side: p.side as SideModeName, useAiIndicator: p.useAiIndicator === true }),
    },
  };
}

/**
 * The paper robot of a strategy with its settings: a paper robot runs it, and the drift monitor's
 * shadow replays it — built in one place, so the two can never be configured apart (a paper
 * robot's drift is 0 by construction).
 */
export function paperRobotOf(strategy: Strategy, instrument: Instrument, capital: number, s: RobotSettings): PaperRobot {
  return createPaperRobot({
    strategy,
    instrument,
    capital,
    leverage: s.leverage,
    makerFee: s.makerFee,
    takerFee: s.takerFee,
    spreadPoints: s.spreadPoints,
    intervalMs: s.intervalMs,
    utcOffsetMinutes: s.utcOffsetMinutes,
  });
}

/**
 * An AI robot's signal stream, seeded with the decision candles in the `aiWarmupMs` window before
 * the bucket of its first candle: the same `fromMs` and stored candles give the same signals on
 * every replay, in the runner and in the shadow backtest.
 */
export async function seededAiStream(range: (fromMs: number, toMs: number) => Promise<Bar[]>, fromMs: number, intervalMs: number, offsetMs: number): Promise<AiStream> {
  const bucketOf = (t: number) => Math.floor((t - offsetMs) / intervalMs) * intervalMs + offsetMs;
  const end = bucketOf(fromMs);
  const bars = await range(bucketOf(end - aiWarmupMs(intervalMs)), end);
  const resampler = new Resampler(intervalMs, offsetMs);
  const decisions: LiveCandle[] = [];
  for (const b of bars) resampler.push(b, decisions, decisions);
  resampler.flush(decisions);
  const stream = new AiStream(intervalMs, { seed: 1 });
  for (const d of decisions) stream.push(d);
  return stream;
}

/** Pause reason key of a venue error the runner cannot retry. */
export function reasonKey(e: VenueError): string {
  if (e instanceof VenueRejectedError) return e.reason;
  if (e.action === 'stop') return 'authentication';
  return 'venueFault';
}

export class RobotDriver {
  readonly id: number;
  readonly mode: 'paper' | 'live';
  /** Status as last read from the database (running | paused | stopping). */
  status: string;
  /** `init` → (live: `reconciling`) → `live`; `done` once stopped; `failed`: rebuild from the database. */
  phase: 'init' | 'reconciling' | 'live' | 'done' | 'failed' = 'init';
  failure: unknown = null;
  /** Open time of the last 1m candle stepped. */
  cursor = NaN;
  private fromMs = NaN;
  private readonly instrument: Instrument;
  private strategy!: Strategy;
  private kernel!: LiveKernel;
  private paper: PaperRobot | null = null;
  private broker: VenueBroker | null = null;
  private journal: DbIntentJournal | null = null;
  private resampler!: Resampler;
  private readonly clock = { t: 0, now: () => this.clock.t };
  private gate: GateMode = 'open';
  private gateEvents: GateEvent[] = [];
  private replayFills = new Map<number, StoredFillRow[]>();
  private pendingError: { key: string; error: VenueError; clientOrderId: string } | null = null;
  private market: VenueMarket | null = null;
  private readonly capital: number;
  lastReconcile: ReconcileResult | null = null;
  /** performance.now() when the last live decision was made (the bench measures from the candle's arrival). */
  lastDecisionAt = NaN;

  constructor(
    readonly row: DriverRow,
    private readonly o: DriverOptions,
  ) {
    this.id = row.id;
    this.mode = row.mode === 'paper' ? 'paper' : 'live';
    this.status = row.status;
    // The sizes the account's venue takes (the robot's create checked its params against them).
    this.instrument = getInstrument(row.symbol, venueOf(row.exchange));
    this.capital = Number(row.capital);
  }

  private buildStrategy(): RobotSettings {
    const built = robotStrategyOf(this.row, this.instrument);
    this.strategy = built.strategy;
    return built.settings;
  }

  /**
   * AI robots: the AI signal is computed as the decision candles come (AiStream, equal to the
   * backtest's computeAiSignal), seeded with the decision candles of the store in the
   * `aiWarmupMs` window before the bucket of the robot's first candle. The strategy sees only its
   * own candles; the signal is aligned with its decision index. Same fromMs + same stored candles
   * → the same signals on every replay.
   */
  private async seedAi(intervalMs: number, offsetMs: number): Promise<void> {
    this.kernel.attachAi(await seededAiStream((from, to) => this.o.feed.range(from, to), this.fromMs, intervalMs, offsetMs));
  }

  /** Builds the robot and replays its history; a live robot then reconciles (`reconcileStep`). */
  async init(): Promise<void> {
    const db = this.o.database;
    const s = this.buildStrategy();
    const offsetMs = s.intervalMs >= 86_400_000 ? -s.utcOffsetMinutes * 60_000 : 0;
    this.resampler = new Resampler(s.intervalMs, offsetMs);
    if (this.mode === 'paper') {
      this.paper = paperRobotOf(this.strategy, this.instrument, this.capital, s);
      this.kernel = this.paper.kernel;
    } else {
      if (!this.o.venue) throw new Error(`robot ${this.id}: no venue`);
      const venue = this.o.venue;
      this.market = (await venue.loadMarkets()).find((m) => m.symbol === this.row.symbol) ?? null;
      if (!this.market) throw new Error(`robot ${this.id}: the venue has no ${this.row.symbol}`);
      this.journal = new DbIntentJournal(db, this.id, this.o.owner, this.instrument);
      this.broker = new VenueBroker({
        venue,
        market: this.market,
        instrument: this.instrument,
        robotId: String(this.id),
        journal: this.journal,
        clock: this.clock,
        deferFills: true,
        onError: (error, record) => {
          this.pendingError ??= { key: reasonKey(error), error, clientOrderId: record.clientOrderId };
        },
      });
      this.broker.adopt(await this.journal.known());
      this.kernel = new LiveKernel({
        strategy: this.strategy,
        broker: this.broker,
        instrument: this.instrument,
        intervalMs: s.intervalMs,
        capital: this.capital,
        leverage: s.leverage,
        utcOffsetMinutes: s.utcOffsetMinutes,
      });
      for (const f of await loadFills(db, this.id)) {
        const list = this.replayFills.get(f.at);
        if (list) list.push(f);
        else this.replayFills.set(f.at, [f]);
      }
    }
    // Where the robot starts, and the gate changes it went through.
    const events = await db.exec<{ detail: { fromMs?: number; at?: number; mode?: GateMode } | null }>(
      `select detail from robot_events where robot_id = $1 and kind = 'runner' order by id`,
      [this.id],
    );
    for (const e of events) {
      const d = e.detail ?? {};
      if (typeof d.fromMs === 'number' && Number.isNaN(this.fromMs)) this.fromMs = d.fromMs;
      if (typeof d.at === 'number' && d.mode) this.gateEvents.push({ at: d.at, mode: d.mode });
    }
    if (Number.isNaN(this.fromMs)) {
      // First drive: start with the next candle the feed closes.
      const newest = this.o.feed.newest;
      if (newest === null) throw new Error('feed not ready');
      this.fromMs = newest + MINUTE;
      await this.event('runner', 'robot.runner.started', { fromMs: this.fromMs });
      if (s.ai) await this.seedAi(s.intervalMs, offsetMs);
      this.cursor = this.fromMs - MINUTE;
      this.phase = this.mode === 'live' ? 'reconciling' : 'live';
      return;
    }
    // Replay the steps already taken (the last one possibly interrupted).
    if (s.ai) await this.seedAi(s.intervalMs, offsetMs);
    this.cursor = this.fromMs - MINUTE;
    const last = this.row.lastCandleAt;
    if (last !== null && last >= this.fromMs) {
      const bars = await this.o.feed.range(this.fromMs, last + MINUTE);
      if (this.broker) this.broker.replaying = true;
      for (const b of bars) {
        await this.step(b, true);
        if (this.phase === 'done') return;
      }
      if (this.broker) this.broker.replaying = false;
    }
    this.replayFills.clear();
    this.phase = this.mode === 'live' ? 'reconciling' : 'live';
  }

  /** Live robots after (re)start: reconcile with the venue before any new step. True when done. */
  async reconcileStep(): Promise<boolean> {
    const b = this.broker!;
    const r = await b.reconcile({ nowMs: Date.now(), resolveWindowMs: this.o.resolveWindowMs });
    this.lastReconcile = r;
    if (!r.done) return false;
    this.clock.t = this.cursor;
    await b.flush();
    await this.event('reconciled', 'robot.reconciled', {
      queried: r.queried,
      resent: r.resent,
      orphansCanceled: r.orphansCanceled,
      venuePosition: r.venuePosition,
      ledgerPosition: r.ledgerPosition,
    });
    if (Math.abs(r.venuePosition - r.ledgerPosition) > 1e-9) {
      this.o.log.warn({ robot: this.id, venue: r.venuePosition, ledger: r.ledgerPosition }, 'runner: position differs from the ledger');
    }
    this.phase = 'live';
    await this.afterErrors();
    return true;
  }

  private desiredGate(): GateMode {
    // A halted strategy (halt intent or error) closes out at the next step, then stops.
    if (this.status === 'stopping' || this.kernel.haltReason !== null) return 'stopping';
    return this.status === 'paused' ? 'paused' : 'open';
  }

  private applyGate(mode: GateMode): void {
    this.gate = mode;
    this.kernel.gate = mode === 'open';
    // Paper: the market closes run at the next candle's open. Live: every stopping step (below).
    if (mode === 'stopping' && this.paper) this.paper.broker.closeAll('manual');
  }

  /** One closed 1m candle. `replay`: rebuilding state from stored data (nothing written or sent). */
  async step(b: Bar, replay: boolean): Promise<void> {
    const t = b.time;
    this.clock.t = t;
    this.lastClose = b.close;
    // Gate changes: from the stored events in a replay, from the status live (stored first).
    if (replay) {
      for (const g of this.gateEvents) if (g.at === t) this.applyGate(g.mode);
    } else {
      const want = this.desiredGate();
      if (want !== this.gate && !(this.gate === 'stopping')) {
        await this.event('runner', `robot.runner.${want}`, { at: t, mode: want });
        this.applyGate(want);
      }
    }
    let decided = false;
    const before: LiveCandle[] = [];
    const after: LiveCandle[] = [];
    this.resampler.push(b, before, after);
    if (this.paper) {
      const p = this.paper;
      // PaperFeed = the backtest loop per input candle; the resampler above only tracks buckets.
      const r = p.feed.onInputCandle(b.time, b.open, b.high, b.low, b.close, b.volume);
      decided = before.length + after.length > 0;
      this.cursor = t;
      if (!replay) {
        if (decided) this.lastDecisionAt = performance.now();
      } else this.kernel.fills.length = 0;
      if (r !== null && this.gate !== 'stopping') await this.finish(`halted: ${r}`, replay);
      else if (this.gate === 'stopping' && p.broker.tickets.length === 0 && p.broker.pending.length === 0) await this.finish(null, replay);
      return;
    }
    const broker = this.broker!;
    if (!replay) await this.markStep(t);
    broker.replayFills(this.replayFills.get(t) ?? []);
    if (!replay) await broker.sync();
    broker.checkTriggers(b.high, b.low);
    // Stopping: cancel what rests and close every ticket, also one a fill just opened.
    if (this.gate === 'stopping') broker.closeAll('manual');
    for (const d of before) this.kernel.onCandle(d);
    for (const d of after) this.kernel.onCandle(d);
    decided = before.length + after.length > 0;
    if (decided && !replay) this.lastDecisionAt = performance.now();
    await broker.flush();
    this.kernel.fills.length = 0;
    this.cursor = t;
    if (replay) {
      if (this.gate === 'stopping' && broker.tickets.length === 0 && !broker.busy) this.phase = 'done';
      return;
    }
    await this.afterErrors();
    if (this.gate === 'stopping' && broker.tickets.length === 0 && !broker.busy) await this.finish(null, false);
  }

  /** Write-ahead of a live step: the replay after a crash includes this candle. */
  private async markStep(t: number): Promise<void> {
    const rows = await this.o.database.exec(
      `update robots set last_candle_at = $3 where id = $1 and lease_owner = $2 and lease_until > now() returning id`,
      [this.id, this.o.owner, t],
    );
    if (rows.length === 0) throw new LeaseLostError(this.id);
  }

  /**
   * A paper robot asked to stop before it ever had candles (no kernel, nothing at any venue): the
   * stop ends now instead of waiting for a feed that may never come.
   */
  async stopBeforeStart(): Promise<boolean> {
    if (this.mode !== 'paper' || this.kernel !== undefined) return false;
    await this.finish(null, false);
    return true;
  }

  /** Paper fills of the steps since the last call, for the runner's batched write (after every decision). */
  takePaperFills(): { robotId: number; clientOrderId: string; key: string; fill: Fill; notional: number }[] {
    // No kernel yet (no candles so far, e.g. a forex robot with no terminal online): no fills.
    if (this.kernel === undefined) return [];
    const fills = this.kernel.fills;
    if (fills.length === 0) return [];
    const rows = fills.map((f) => ({
      robotId: this.id,
      clientOrderId: clientOrderId(String(this.id), f.tag, f.action),
      key: `p:${f.ticket}:${f.action}`,
      fill: f,
      notional: accountNotionalOf(f.qty, f.price, this.instrument),
    }));
    fills.length = 0;
    return rows;
  }

  /** A venue refusal the runner cannot retry: pause with the reason (key + the venue's message). */
  private async afterErrors(): Promise<void> {
    const pe = this.pendingError;
    if (!pe) return;
    this.pendingError = null;
    const reason = `${pe.key}: ${pe.error.message}`.slice(0, 500);
    await this.o.database.exec(
      `update robots set status = 'paused', pause_reason = $3, updated_at = now() where id = $1 and lease_owner = $2 and status = 'running'`,
      [this.id, this.o.owner, reason],
    );
    await this.event('error', `robot.error.${pe.key}`, { clientOrderId: pe.clientOrderId, venueCode: pe.error.venueCode, message: pe.error.message });
    if (this.status === 'running') this.status = 'paused';
  }

  /** Stopped: closed out (user stop) or halted by the strategy. */
  private async finish(reason: string | null, replay: boolean): Promise<void> {
    this.phase = 'done';
    if (replay) return;
    const halt = this.kernel === undefined ? null : this.kernel.haltReason;
    const stopReason = reason ?? (halt !== null ? `halted: ${halt}` : null);
    // The last paper fills (closing out) are written before the lease is given back.
    if (this.paper) await insertPaperFills(this.o.database, this.o.owner, this.takePaperFills());
    // The event while the lease is held; the final income and live figures (no position left) in
    // the same update that gives the lease back (the runner's batched report needs the lease).
    await this.event('stopped', 'robot.stopped', { reason: stopReason });
    const last = this.report();
    await this.o.database.exec(
      `update robots set status = 'stopped', stopped_at = now(), stop_reason = coalesce(stop_reason, $3), lease_owner = null, lease_until = null, updated_at = now(),
              income = coalesce($4::numeric, income), live = coalesce($5::jsonb, live)
        where id = $1 and lease_owner = $2`,
      [this.id, this.o.owner, stopReason, last ? last.income.toFixed(8) : null, last ? JSON.stringify(last.live) : null],
    );
  }

  private async event(kind: string, message: string, detail: Record<string, unknown>): Promise<void> {
    const rows = await this.o.database.exec(
      `insert into robot_events (robot_id, kind, message, detail)
         select $1, $3, $4, $5::jsonb where exists (select 1 from robots where id = $1 and lease_owner = $2 and lease_until > now())
       returning id`,
      [this.id, this.o.owner, kind, message, JSON.stringify(detail)],
    );
    if (rows.length === 0) throw new LeaseLostError(this.id);
  }

  /** Income and live figures after the last step (the runner writes them in one batch). */
  report(): StepReport | null {
    if (Number.isNaN(this.cursor) || this.cursor < this.fromMs) return null;
    const price = this.lastClose;
    const fig = this.kernel.figures(Number.isFinite(price) ? price : undefined);
    const tickets = this.kernel.broker.tickets;
    let position = 0;
    for (const t of tickets) position += t.side === 'long' ? t.qty : -t.qty;
    const income = fig.balance - this.capital;
    return {
      income,
      lastCandleAt: this.cursor,
      live: {
        equity: round(fig.equity),
        floating: round(fig.floating),
        position: round(position, 8),
        price: Number.isFinite(price) ? price : null,
        at: this.cursor + MINUTE,
        positions: tickets.map((t) => ({ side: t.side, qty: t.qty, price: t.entryPrice })),
      },
    };
  }

  /** Close of the last candle stepped (for the live figures). */
  lastClose = NaN;

  /** Steps every new closed candle of the feed. */
  async tick(): Promise<number> {
    const bars = this.o.feed.after(this.cursor);
    let n = 0;
    for (const b of bars) {
      if (b.time <= this.cursor) continue;
      await this.step(b, false);
      n++;
      if (this.phase === 'done') break;
    }
    return n;
  }
}

const round = (x: number, digits = 4): number => {
  const s = 10 ** digits;
  return Math.round(x * s) / s;
};

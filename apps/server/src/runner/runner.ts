// The robot runner (ROLE=runner, part of ROLE=all): leases robots, feeds them closed 1m candles,
// and writes what they do. One loop per process: heartbeat (its own timer), lease new robots, poll
// the candle feeds, step every robot, write income and live figures in one batch.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { DatabaseHandle, SqlParam } from '@lq/db';
import { VenueError, type Venue } from '@lq/venues';
import { ccxtVenueId, venueOrigin } from '../trading-accounts';
import type { Config } from '../platform/config';
import { liveSourceOf } from '../market';
import { CandleFeed, VenueCandleSource, type CandleSource } from './feed';
import { LeaseLostError, insertPaperFills } from './journal';
import { acquireLeases, releaseLeases, renewLeases } from './lease';
import { RobotDriver, reasonKey, type DriverRow, type StepReport } from './robot';
import { createVenue, VenueCache } from './venues';

export interface RunnerLog {
  info(o: unknown, m?: string): void;
  warn(o: unknown, m?: string): void;
  error(o: unknown, m?: string): void;
}

export interface RunnerOptions {
  database: DatabaseHandle;
  config: Config;
  log: RunnerLog;
  /** Candle source of a (source, symbol) series (undefined: the default, the venue's public klines at its configured origin). */
  candleSource?: (source: string, symbol: string) => CandleSource | undefined;
  /** Venue of an account; default: createVenue (ccxt with the account's credentials, or a registered factory). */
  venue?: (accountId: number, exchange: string) => Promise<Venue>;
}

interface Held {
  driver: RobotDriver | null;
  status: string;
  /** No rebuild before this time (after a failure). */
  retryAt: number;
  failures: number;
}

export class Runner {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly held = new Map<number, Held>();
  private readonly feeds = new Map<string, CandleFeed>();
  private readonly venues: VenueCache;
  private loop: NodeJS.Timeout | null = null;
  private beat: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Steps taken (all robots), for tests and the log. */
  steps = 0;
  /** performance.now() when the last tick had polled its feeds (new candles in memory). */
  polledAt = NaN;

  constructor(private readonly o: RunnerOptions) {
    this.venues = new VenueCache((accountId, exchange) => (o.venue ? o.venue(accountId, exchange) : createVenue({ config: o.config, database: o.database, accountId, exchange })));
  }

  private get cfg() {
    return this.o.config;
  }

  get robotIds(): number[] {
    return [...this.held.keys()];
  }

  driver(id: number): RobotDriver | null {
    return this.held.get(id)?.driver ?? null;
  }

  start(): void {
    this.stopped = false;
    const tick = (): void => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch((e: unknown) => this.o.log.error({ err: e }, 'runner: tick failed'))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.loop = setTimeout(tick, this.cfg.RUNNER_POLL_MS);
        });
    };
    this.beat = setInterval(() => void this.heartbeat().catch((e: unknown) => this.o.log.warn({ err: e }, 'runner: heartbeat failed')), this.cfg.RUNNER_HEARTBEAT_MS);
    tick();
    this.o.log.info({ owner: this.owner }, 'runner started');
  }

  /** Stops the loop and gives the leases back (another runner takes over at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.loop) clearTimeout(this.loop);
    if (this.beat) clearInterval(this.beat);
    await this.running;
    await releaseLeases(this.o.database, this.owner, this.robotIds).catch(() => undefined);
    this.held.clear();
  }

  /** Renews the leases; robots no longer held are dropped at once. */
  async heartbeat(): Promise<void> {
    const ids = this.robotIds;
    if (ids.length === 0) return;
    const kept = await renewLeases(this.o.database, this.owner, ids, this.cfg.RUNNER_LEASE_MS);
    const status = new Map(kept.map((k) => [Number(k.id), k.status]));
    for (const id of ids) {
      const h = this.held.get(id);
      if (!h) continue;
      const s = status.get(id);
      if (s === undefined) {
        this.held.delete(id);
        this.o.log.warn({ robot: id }, 'runner: lease lost');
        continue;
      }
      h.status = s;
      if (h.driver) h.driver.status = s;
    }
  }

  private feedFor(source: string, symbol: string): CandleFeed {
    const k = `${source}:${symbol}`;
    let f = this.feeds.get(k);
    if (!f) {
      const custom = this.o.candleSource?.(source, symbol);
      const src: CandleSource =
        custom ??
        (source === 'binance' || source === 'okx'
          ? new VenueCandleSource(ccxtVenueId(source), symbol, venueOrigin(this.cfg, source), this.cfg.RUNNER_CCXT_THROTTLE)
          : { fetchClosed: () => Promise.reject(new Error(`no candle source for ${source}`)) });
      // Recorded under the venue's live source; the imported history is only read.
      f = new CandleFeed(this.o.database, { source: liveSourceOf(source), symbol, timeframe: '1m' }, src, undefined, { source, symbol, timeframe: '1m' });
      this.feeds.set(k, f);
    }
    return f;
  }

  private venueFor(accountId: number, exchange: string): Promise<Venue> {
    return this.venues.get(accountId, exchange);
  }


  /** One pass: lease, poll feeds, step robots, write figures. */
  async tick(): Promise<void> {
    const db = this.o.database;
    const free = this.cfg.RUNNER_MAX_ROBOTS - this.held.size;
    for (const r of await acquireLeases(db, this.owner, this.cfg.RUNNER_LEASE_MS, free)) {
      this.held.set(Number(r.id), { driver: null, status: r.status, retryAt: 0, failures: 0 });
    }
    if (this.held.size === 0) return;
    // Build the drivers that are missing (new leases, or rebuilt after a failure).
    const missing = [...this.held.entries()].filter(([, h]) => h.driver === null && h.retryAt <= Date.now()).map(([id]) => id);
    if (missing.length > 0) {
      const rows = await db.exec<DriverRow>(
        `select r.id::int as id, r.mode, r.status, r.strategy, r.symbol, r.params, r.capital, r.leverage, r.account_id::int as "accountId",
                r.last_candle_at as "lastCandleAt", a.exchange
           from robots r join trading_accounts a on a.id = r.account_id where r.id = any($1::bigint[])`,
        [`{${missing.join(',')}}`],
      );
      for (const row of rows) {
        const h = this.held.get(row.id);
        if (!h) continue;
        row.lastCandleAt = row.lastCandleAt === null ? null : Number(row.lastCandleAt);
        try {
          const venue = row.mode === 'paper' ? null : await this.venueFor(row.accountId, row.exchange);
          h.driver = new RobotDriver(row, {
            database: db,
            owner: this.owner,
            resolveWindowMs: this.cfg.RUNNER_RESOLVE_WINDOW_MS,
            venue,
            feed: this.feedFor(row.exchange, row.symbol),
            log: this.o.log,
          });
          h.driver.status = h.status;
        } catch (e) {
          this.fail(row.id, h, e);
        }
      }
    }
    // New candles of every series in use.
    const used = new Set<CandleFeed>();
    for (const h of this.held.values()) if (h.driver) used.add(this.feedFor(h.driver.row.exchange, h.driver.row.symbol));
    await Promise.all([...used].map((f) => f.poll()));
    this.polledAt = performance.now();
    // Step the robots (concurrently: one slow venue does not hold the others).
    const reports: [number, StepReport][] = [];
    await Promise.all(
      [...this.held.entries()].map(async ([id, h]) => {
        const d = h.driver;
        if (!d) return;
        try {
          if (d.phase === 'init') {
            const feed = this.feedFor(d.row.exchange, d.row.symbol);
            if (!feed.caughtUp || feed.newest === null) {
              // A stop must end: a paper robot without candles yet has nothing to close.
              if (d.status === 'stopping' && (await d.stopBeforeStart())) this.held.delete(id);
              return;
            }
            await d.init();
          }
          if (d.phase === 'reconciling' && !(await d.reconcileStep())) return;
          if (d.phase === 'live') {
            const n = await d.tick();
            this.steps += n;
            if (n > 0) {
              const r = d.report();
              if (r) reports.push([id, r]);
            }
          }
          if (d.phase === 'done') this.held.delete(id);
          h.failures = 0;
        } catch (e) {
          this.fail(id, h, e);
        }
      }),
    );
    // Paper fills after every decision was made: one batched write. A robot whose fills cannot be
    // taken fails alone (rebuilt from the database), never the tick of the others.
    const paperFills = [...this.held.entries()].flatMap(([id, h]) => {
      if (h.driver?.mode !== 'paper') return [];
      try {
        return h.driver.takePaperFills();
      } catch (e) {
        this.fail(id, h, e);
        return [];
      }
    });
    await insertPaperFills(this.o.database, this.owner, paperFills);
    await this.writeReports(reports);
  }

  private fail(id: number, h: Held, e: unknown): void {
    if (e instanceof LeaseLostError) {
      this.held.delete(id);
      this.o.log.warn({ robot: id }, 'runner: lease lost');
      return;
    }
    // The account cannot be used (key revoked, permissions): retrying cannot fix it — pause with the reason.
    if (e instanceof VenueError && e.action === 'stop') void this.pauseForError(id, e).catch(() => undefined);
    // Rebuilt from the database (replay + reconcile) after a pause: never continue a half step.
    h.driver = null;
    h.failures++;
    h.retryAt = Date.now() + Math.min(30_000, 250 * 2 ** Math.min(h.failures, 7));
    this.o.log.warn({ robot: id, err: e instanceof Error ? e.message : String(e) }, 'runner: robot step failed; rebuilding');
  }

  private async pauseForError(id: number, e: VenueError): Promise<void> {
    const key = reasonKey(e);
    // The pause and its event in one statement: nobody reads a robot paused without its reason's event.
    const rows = await this.o.database.exec(
      `with paused as (
         update robots set status = 'paused', pause_reason = $3, updated_at = now() where id = $1 and lease_owner = $2 and status = 'running' returning id
       )
       insert into robot_events (robot_id, kind, message, detail) select id, 'error', $4, $5::jsonb from paused returning robot_id`,
      [id, this.owner, `${key}: ${e.message}`.slice(0, 500), `robot.error.${key}`, JSON.stringify({ venueCode: e.venueCode, message: e.message })],
    );
    if (rows.length === 0) return;
    this.o.log.warn({ robot: id, reason: key }, 'runner: robot paused');
  }

  private async writeReports(reports: [number, StepReport][]): Promise<void> {
    if (reports.length === 0) return;
    const params: SqlParam[] = [this.owner];
    const values: string[] = [];
    for (const [id, r] of reports) {
      const b = params.length;
      params.push(id, r.income.toFixed(8), JSON.stringify(r.live), r.lastCandleAt);
      values.push(`($${b + 1}::bigint, $${b + 2}::numeric, $${b + 3}::jsonb, $${b + 4}::bigint)`);
    }
    await this.o.database.exec(
      `update robots as r set income = v.income, live = v.live, last_candle_at = greatest(coalesce(r.last_candle_at, 0), v.t), updated_at = now()
         from (values ${values.join(', ')}) as v(id, income, live, t)
        where r.id = v.id and r.lease_owner = $1`,
      params,
    );
  }
}

// Backtests and recommendations: the rules (VIP, slots, maintenance, parameters, data), the rows,
// and what the API reads back. The CPU work runs in jobs.ts on worker threads.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import {
  AppError,
  BACKTEST_RANGE_MIN_DAYS,
  BACKTEST_TAB_STATUSES,
  isVipLevel,
  translate,
  type BacktestDetail,
  type BacktestEquity,
  type BacktestItem,
  type BacktestKline,
  type BacktestList,
  type BacktestReport,
  type BacktestStatus,
  type BacktestSummary,
  type BacktestTab,
  type BacktestTrades,
  klineIntervalFor,
  KLINE_MAX_CANDLES,
  type Locale,
  type Recommendation,
  type RecommendPreset,
  type RobotPrefill,
  type SizeNotice,
} from '@lq/contracts';
import {
  and,
  backtestResults,
  backtests,
  count,
  desc,
  eq,
  getSetting,
  inArray,
  isNull,
  recommendations,
  SETTING_KEYS,
  setSetting,
  sql,
  users,
  type BacktestRow,
  type Database,
  type DatabaseHandle,
  type RecommendationRow,
} from '@lq/db';
import { getInstrument, intervalToMs, lowerBound, resample, type Candles, type Instrument } from '@lq/engine';
import { parseIsoMs, runSettings } from '@lq/strategies';
import type { AuthUser } from '../platform/auth';
import { invalid, RequestValidationError } from '../platform/http';
import { checkParamsMatch, checkStrategyParams, parseStrategyParams, strategySetupOf } from '../strategy-setup';
import { loadCandleRange } from '../market';
import { backtestMarketIs, isUnlocked, notUnlocked, slotsOwned, type Market } from '../benefits';
import { resolveSeries, type ResolvedSeries } from './data';
import { ThreadRunner } from './thread-pool';
import type { StoredTrade } from './compute';
import { klineMarkers, type KlineTrade } from './kline';

export const QUEUES = { backtest: 'backtest.run', recommend: 'recommend.run' } as const;
const DAY_MS = 86_400_000;
const MIN_RANGE_DAYS = BACKTEST_RANGE_MIN_DAYS;

// ---------------------------------------------------------------- the per-database service

/** State shared by the routes and the job workers of one database: threads, running tasks, pg-boss. */
export class BacktestService {
  runner = new ThreadRunner(1);
  /** Running tasks of this process: `backtest:<id>` / `recommend:<id>` → abort. */
  readonly running = new Map<string, AbortController>();
  boss: PgBoss | undefined;
  readonly workerIds: Record<keyof typeof QUEUES, string[]> = { backtest: [], recommend: [] };
  closing = false;
  log: FastifyBaseLogger | undefined;
  timers: NodeJS.Timeout[] = [];

  constructor(readonly database: DatabaseHandle) {}

  get db(): Database {
    return this.database.db;
  }

  /** Sends the job of a row (job id chosen by us and stored first, so a worker never misses it). */
  async enqueue(kind: keyof typeof QUEUES, id: number, jobId: string): Promise<void> {
    if (!this.boss) return; // no pg-boss in this process: the start-up recovery of a worker sends it
    await this.boss.send(QUEUES[kind], { id }, { id: jobId, retryLimit: 0, expireInSeconds: 3600 });
    for (const w of this.workerIds[kind]) this.boss.notifyWorker(w);
  }

  abort(kind: keyof typeof QUEUES, id: number): void {
    this.running.get(`${kind}:${id}`)?.abort();
  }

  /**
   * Shutdown: runs in progress are released (their rows go back to "queued" and their jobs end),
   * so the start-up recovery of the next worker process queues them again; then threads stop.
   */
  async close(): Promise<void> {
    this.closing = true;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    for (const key of this.running.keys()) {
      const [kind, idText] = key.split(':');
      const id = Number(idText);
      try {
        if (kind === 'backtest') {
          await this.database.exec(`update backtests set started_at = null, summary = null, progress = 0 where id = $1 and status = 1`, [id]);
        } else {
          await this.database.exec(`update recommendations set result = null, progress = 0 where id = $1 and status = 'running'`, [id]);
        }
      } catch (err) {
        this.log?.warn({ err, key }, 'could not release a run at shutdown');
      }
    }
    for (const ac of this.running.values()) ac.abort();
    this.boss = undefined;
    this.workerIds.backtest = [];
    this.workerIds.recommend = [];
    await this.runner.close();
  }

  /** After a close (an app rebuilt on the same database, as the tests do). */
  reopen(): void {
    if (!this.closing) return;
    this.closing = false;
    this.runner = new ThreadRunner(1);
  }
}

const services = new WeakMap<DatabaseHandle, BacktestService>();
export function backtestService(database: DatabaseHandle): BacktestService {
  let s = services.get(database);
  if (!s) {
    s = new BacktestService(database);
    services.set(database, s);
  }
  return s;
}

// ---------------------------------------------------------------- helpers

const round = (x: number | null | undefined, digits: number): number | null =>
  x === null || x === undefined || !Number.isFinite(x) ? null : Number(x.toFixed(digits));
const money = (x: unknown) => round(typeof x === 'number' ? x : Number(x), 2) ?? 0;
const ratio = (x: unknown) => round(typeof x === 'number' ? x : Number(x), 6) ?? 0;
const moneyOrNull = (x: unknown) => round(typeof x === 'number' ? x : x === null ? NaN : Number(x), 2);
const ratioOrNull = (x: unknown) => round(typeof x === 'number' ? x : x === null ? NaN : Number(x), 6);

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

async function dataFor(
  database: DatabaseHandle,
  market: 'crypto' | 'forex',
  symbol: string,
  fromMs: number,
  toMs: number,
): Promise<ResolvedSeries> {
  const { best, available } = await resolveSeries(database, market, symbol, fromMs, toMs);
  const availableText =
    available.length === 0
      ? '-'
      : available.map((a) => `${a.timeframe} ${isoDay(a.firstTime)} – ${isoDay(a.lastTime)}`).join('; ');
  if (!best || best.toMs - best.fromMs < MIN_RANGE_DAYS * DAY_MS) {
    throw new AppError('MARKET_DATA_MISSING', { symbol, from: isoDay(fromMs), to: isoDay(toMs), available: availableText }, 'params.start');
  }
  return best;
}

async function requireBacktestAllowed(db: Database, user: AuthUser): Promise<void> {
  if (await backtestMaintenanceOn(db)) throw new AppError('BACKTEST_MAINTENANCE');
  // The level as it is now, not as the session cache saw it: an operator's grant counts at once.
  const [current] = await db.select({ userLevel: users.userLevel }).from(users).where(eq(users.id, user.id));
  if (!isVipLevel(current?.userLevel ?? user.userLevel)) throw new AppError('NOT_VIP');
}

/** Backtest slots of a market: the unlock's 1 + live slot packs + operator grants (benefits/). */
export function slotsOf(database: DatabaseHandle, userId: number, market: Market): Promise<number> {
  return slotsOwned(database.db, userId, market);
}

// ---------------------------------------------------------------- create

export interface CreateInput {
  strategy: string;
  dataSource: string;
  symbol: string;
  params: Record<string, unknown>;
}

/** Validates everything, reserves a slot and queues the job. */
export async function createBacktest(
  svc: BacktestService,
  user: AuthUser,
  input: CreateInput,
  locale: Locale,
): Promise<{ backtest: BacktestDetail; notices: SizeNotice[] }> {
  const { database } = svc;
  await requireBacktestAllowed(svc.db, user);
  const { market, definition, instrument } = strategySetupOf(input);

  const raw = input.params;
  checkParamsMatch(raw, market, instrument);
  for (const name of ['start', 'end'] as const) {
    if (raw[name] === undefined || raw[name] === null || raw[name] === '') throw invalid(['params', name], 'validation.required');
  }
  const params = parseStrategyParams(definition, raw, market, instrument);

  const notices = checkStrategyParams(params, instrument, definition, locale);
  const settings = runSettings(params as never, instrument);
  const fromMs = settings.fromMs!;
  const toMs = settings.toMs!;
  const series = await dataFor(database, market, instrument.symbol, fromMs, toMs);
  if (params.interval !== undefined) {
    const ms = intervalToMs(params.interval as string);
    if (ms < series.intervalMs || ms % series.intervalMs !== 0) {
      throw new AppError('INTERVAL_TOO_FINE', { field: 'params.interval', timeframe: series.timeframe, symbol: instrument.symbol }, 'params.interval');
    }
  } else {
    params.interval = series.timeframe;
  }

  const jobId = randomUUID();
  const slots = await slotsOf(database, user.id, market);
  // Inside the transaction only `tx` may be used: PGlite has one connection, held by it.
  const row = await svc.db.transaction(async (tx) => {
    // Serialize the slot check per user.
    await tx.execute(sql`select id from users where id = ${user.id} for update`);
    const [{ running }] = await tx
      .select({ running: count() })
      .from(backtests)
      .where(and(eq(backtests.userId, user.id), eq(backtests.status, 1), isNull(backtests.deletedAt), backtestMarketIs(market)));
    if (Number(running) >= slots) {
      // Nothing owned for want of the unlock: say so (the web offers it); else the slots are full.
      if (slots === 0 && !(await isUnlocked(tx, user.id))) throw await notUnlocked(tx);
      throw new AppError('BACKTEST_SLOTS_FULL', { slots });
    }
    const [inserted] = await tx
      .insert(backtests)
      .values({
        userId: user.id,
        status: 1,
        progress: 0,
        strategy: definition.type,
        dataSource: input.dataSource,
        candleSource: series.source,
        symbol: instrument.symbol,
        interval: series.timeframe,
        timezone: typeof params.timezone === 'string' ? params.timezone : 'UTC',
        params,
        capital: String(params.capital),
        leverage: String(params.leverage),
        fromAt: new Date(fromMs),
        toAt: new Date(toMs),
        jobId,
      })
      .returning();
    return inserted;
  });
  await svc.enqueue('backtest', row.id, jobId);
  return { backtest: toDetail(row, locale), notices };
}

// ---------------------------------------------------------------- reading

function reasonText(locale: Locale, stored: string | null): { key: string | null; text: string | null } {
  if (!stored) return { key: null, text: null };
  const colon = stored.indexOf(':');
  const key = colon < 0 ? stored : stored.slice(0, colon);
  const detail = colon < 0 ? '' : stored.slice(colon + 1).trim();
  const messageKey = `backtest.reason.${key}`;
  const text = translate(locale, messageKey, { detail });
  return { key, text: text === messageKey ? detail || key : text };
}

function summaryOf(row: BacktestRow): BacktestSummary | null {
  const s = row.summary as Record<string, unknown> | null;
  if (!s || row.status === 1 || s.finalEquity === undefined) return null;
  const capital = Number(row.capital);
  const finalEquity = money(s.finalEquity);
  return {
    finalEquity,
    profit: money(Number(s.finalEquity) - capital),
    totalReturn: ratio(s.totalReturn),
    tradeCount: Number(s.tradeCount ?? 0),
    winRate: ratio(s.winRate),
    maxDrawdown: ratio(s.maxDrawdown),
    drawdownAmount: money(s.drawdownAmount),
    maxFloatingLoss: money(s.maxFloatingLoss),
    maxFloatingProfit: money(s.maxFloatingProfit),
    riskReward: ratioOrNull(s.riskReward),
    totalFees: money(s.totalFees),
  };
}

function feesOf(row: BacktestRow, instrument: Instrument | null) {
  const p = row.params as Record<string, unknown>;
  const market = instrument?.market ?? (row.dataSource === 'binance' ? 'crypto' : 'forex');
  const def = market === 'crypto' ? { maker: 0.0002, taker: 0.0005 } : { maker: 0, taker: 0 };
  return {
    makerFee: typeof p.makerFee === 'number' ? p.makerFee : def.maker,
    takerFee: typeof p.takerFee === 'number' ? p.takerFee : def.taker,
  };
}

function safeInstrument(symbol: string): Instrument | null {
  try {
    return getInstrument(symbol);
  } catch {
    return null;
  }
}

/** The run's phase and candles from a running row's heartbeat (jobs.ts), when it has reported one. */
function progressStepOf(summary: unknown): BacktestItem['progressStep'] {
  const step = (summary as { step?: { phase?: unknown; done?: unknown; total?: unknown } } | null)?.step;
  if (!step || (step.phase !== 'loading' && step.phase !== 'ai' && step.phase !== 'simulating')) return null;
  const done = Number(step.done);
  const total = Number(step.total);
  return Number.isFinite(done) && Number.isFinite(total) ? { phase: step.phase, done, total } : null;
}

export function toItem(row: BacktestRow, locale: Locale): BacktestItem {
  const p = row.params as Record<string, unknown>;
  const instrument = safeInstrument(row.symbol);
  const reason = reasonText(locale, row.statusReason);
  const startTime = row.fromAt.getTime();
  const endTime = row.toAt.getTime();
  return {
    id: row.id,
    status: row.status as BacktestStatus,
    statusReason: reason.text,
    statusReasonKey: reason.key,
    progress: row.status === 1 ? row.progress : 100,
    progressStep: row.status === 1 ? progressStepOf(row.summary) : null,
    strategy: row.strategy,
    dataSource: row.dataSource,
    market: instrument?.market ?? (row.dataSource === 'binance' ? 'crypto' : 'forex'),
    symbol: row.symbol,
    interval: typeof p.interval === 'string' ? p.interval : row.interval,
    timezone: row.timezone,
    capital: money(row.capital),
    leverage: Number(row.leverage),
    start: typeof p.start === 'string' ? p.start : '',
    end: typeof p.end === 'string' ? p.end : '',
    startTime,
    endTime,
    range: Number(((endTime - startTime) / DAY_MS).toFixed(2)),
    takeProfit: typeof p.takeProfit === 'number' ? p.takeProfit : null,
    stopLoss: typeof p.stopLoss === 'number' ? p.stopLoss : null,
    ...feesOf(row, instrument),
    contractValue: instrument?.contractSize ?? 1,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    summary: summaryOf(row),
  };
}

export function toDetail(row: BacktestRow, locale: Locale): BacktestDetail {
  return { ...toItem(row, locale), params: row.params as Record<string, unknown> };
}

/** The caller's backtest (not deleted), or 404 (also for another user's id). */
export async function getOwnBacktest(db: Database, userId: number, id: number): Promise<BacktestRow> {
  const [row] = await db
    .select()
    .from(backtests)
    .where(and(eq(backtests.id, id), eq(backtests.userId, userId), isNull(backtests.deletedAt)));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function listBacktests(
  db: Database,
  userId: number,
  tab: BacktestTab,
  page: number,
  pageSize: number,
  locale: Locale,
): Promise<BacktestList> {
  const where = and(
    eq(backtests.userId, userId),
    isNull(backtests.deletedAt),
    inArray(backtests.status, [...BACKTEST_TAB_STATUSES[tab]]),
  );
  const [{ total }] = await db.select({ total: count() }).from(backtests).where(where);
  const rows = await db
    .select()
    .from(backtests)
    .where(where)
    .orderBy(desc(backtests.createdAt), desc(backtests.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const n = Number(total);
  return { list: rows.map((r) => toItem(r, locale)), total: n, page, pageSize, hasMore: page * pageSize < n };
}

function requireReport(row: BacktestRow): Record<string, unknown> {
  const s = row.summary as Record<string, unknown> | null;
  if (row.status === 1 || !s || s.finalEquity === undefined) throw new AppError('BACKTEST_NO_REPORT');
  return s;
}

export function reportOf(row: BacktestRow, locale: Locale): BacktestReport {
  const s = requireReport(row);
  const item = toItem(row, locale);
  const ai = s.ai as { hitRate: number | null; baseRate: number | null; predictions: number } | null | undefined;
  return {
    id: row.id,
    status: item.status,
    statusReason: item.statusReason,
    statusReasonKey: item.statusReasonKey,
    strategy: row.strategy,
    symbol: row.symbol,
    market: item.market,
    interval: item.interval,
    timezone: row.timezone,
    startTime: item.startTime,
    endTime: item.endTime,
    candleCount: Number(s.candleCount ?? 0),
    capital: item.capital,
    leverage: item.leverage,
    makerFee: item.makerFee,
    takerFee: item.takerFee,
    contractValue: item.contractValue,
    finalEquity: money(s.finalEquity),
    profit: money(Number(s.finalEquity) - Number(row.capital)),
    totalReturn: ratio(s.totalReturn),
    annualisedReturn: ratioOrNull(s.annualisedReturn),
    realisedPnl: money(s.realisedPnl),
    floatingPnl: money(s.floatingPnl),
    tradeCount: Number(s.tradeCount ?? 0),
    winRate: ratio(s.winRate),
    maxDrawdown: ratio(s.maxDrawdown),
    drawdownAmount: money(s.drawdownAmount),
    maxFloatingLoss: money(s.maxFloatingLoss),
    maxFloatingProfit: money(s.maxFloatingProfit),
    riskReward: ratioOrNull(s.riskReward),
    totalFees: money(s.totalFees),
    totalFunding: money(s.totalFunding),
    sharpe: ratioOrNull(s.sharpe),
    sortino: ratioOrNull(s.sortino),
    calmar: ratioOrNull(s.calmar),
    profitFactor: ratioOrNull(s.profitFactor),
    expectancy: moneyOrNull(s.expectancy),
    exposureTime: ratio(s.exposureTime),
    longestDrawdownMs: Number(s.longestDrawdownMs ?? 0),
    openPositions: Number(s.openPositions ?? 0),
    monthlyReturns: ((s.monthly as { month: string; return: number }[] | undefined) ?? []).map((m) => ({
      month: m.month,
      return: ratio(m.return),
    })),
    ai: ai ? { hitRate: ratioOrNull(ai.hitRate), baseRate: ratioOrNull(ai.baseRate), predictions: ai.predictions } : null,
  };
}

const priceRound = (instrument: Instrument | null, x: number) =>
  instrument ? Number(x.toFixed(Math.max(instrument.digits, 2))) : x;

export async function tradesOf(
  database: DatabaseHandle,
  row: BacktestRow,
  page: number,
  pageSize: number,
  order: 'asc' | 'desc',
): Promise<BacktestTrades> {
  requireReport(row);
  const [{ total }] = await database.exec<{ total: number }>(
    'select jsonb_array_length(trades)::int as total from backtest_results where backtest_id = $1',
    [row.id],
  );
  const n = Number(total ?? 0);
  // 1-based positions of the page, in the asked order.
  const first = (page - 1) * pageSize;
  let lo: number, hi: number;
  if (order === 'asc') [lo, hi] = [first + 1, Math.min(n, first + pageSize)];
  else [lo, hi] = [Math.max(1, n - first - pageSize + 1), n - first];
  let rows: { i: number; e: StoredTrade }[] = [];
  if (hi >= lo) {
    rows = await database.exec<{ i: number; e: StoredTrade }>(
      `select t.i::int as i, t.e from backtest_results r, jsonb_array_elements(r.trades) with ordinality t(e, i)
        where r.backtest_id = $1 and t.i between $2 and $3 order by t.i`,
      [row.id, lo, hi],
    );
  }
  if (order === 'desc') rows.reverse();
  const instrument = safeInstrument(row.symbol);
  return {
    list: rows.map(({ i, e }) => ({
      no: Number(i),
      side: e[0] === 0 ? 'long' : 'short',
      lots: e[1],
      entryTime: e[2],
      entryPrice: priceRound(instrument, e[3]),
      exitTime: e[4],
      exitPrice: priceRound(instrument, e[5]),
      pnl: money(e[6]),
      fee: round(e[7], 4) ?? 0,
      reason: e[8],
    })),
    total: n,
    page,
    pageSize,
    hasMore: first + pageSize < n,
  };
}

export async function equityOf(db: Database, row: BacktestRow, maxPoints: number): Promise<BacktestEquity> {
  requireReport(row);
  const [res] = await db.select({ equity: backtestResults.equity }).from(backtestResults).where(eq(backtestResults.backtestId, row.id));
  const all = (res?.equity as [number, number][] | undefined) ?? [];
  let points = all;
  if (all.length > maxPoints) {
    points = [];
    const step = (all.length - 1) / (maxPoints - 1);
    for (let k = 0; k < maxPoints; k++) points.push(all[Math.round(k * step)]);
  }
  return { capital: money(row.capital), points: points.map(([t, e]) => [t, money(e)]) };
}

export async function klineOf(
  svc: BacktestService,
  row: BacktestRow,
  query: { from?: number; to?: number; interval?: string; maxCandles: number },
): Promise<BacktestKline> {
  requireReport(row);
  const instrument = safeInstrument(row.symbol);
  const dataMs = intervalToMs(row.interval);
  const rangeFrom = row.fromAt.getTime();
  const rangeTo = row.toAt.getTime();
  if (query.from !== undefined && query.to !== undefined && !(query.to > query.from)) throw invalid(['to'], 'validation.startAfterEnd');
  // The window is clipped to the backtest: there is nothing of it outside.
  let from = Math.max(query.from ?? rangeFrom, rangeFrom);
  const to = Math.max(Math.min(query.to ?? rangeTo, rangeTo), from);
  const choice = klineIntervalFor(to - from, dataMs, query.maxCandles, query.interval ? intervalToMs(query.interval) : dataMs);
  const raw =
    to > from
      ? await loadCandleRange(svc.database, {
          source: row.candleSource,
          symbol: row.symbol,
          timeframe: row.interval,
          fromMs: Math.floor(from / choice.ms) * choice.ms,
          toMs: to,
        })
      : undefined;
  const c: Candles | undefined = raw && (choice.ms === dataMs ? raw : resample(raw, choice.ms));
  const total = c?.length ?? 0;
  // maxCandles picks the interval; only a window too long even for KLINE_MAX_CANDLES daily
  // candles (8 years) keeps its latest ones, and `from` then says where the answer starts.
  const start = Math.max(0, total - KLINE_MAX_CANDLES);
  if (c && start > 0) from = c.time[start];
  const candles: BacktestKline['candles'] = [];
  for (let i = start; c && i < total; i++) {
    candles.push([
      c.time[i],
      priceRound(instrument, c.open[i]),
      priceRound(instrument, c.high[i]),
      priceRound(instrument, c.low[i]),
      priceRound(instrument, c.close[i]),
      Number(c.volume[i].toFixed(4)),
    ]);
  }
  // Every trade entering or leaving inside the window; klineMarkers groups them when dense.
  const trades =
    to > from
      ? await svc.database.exec<KlineTrade>(
          `select t.i::int as trade, t.e from backtest_results r, jsonb_array_elements(r.trades) with ordinality t(e, i)
            where r.backtest_id = $1
              and (((t.e->>2)::float8 >= $2 and (t.e->>2)::float8 < $3) or ((t.e->>4)::float8 >= $2 and (t.e->>4)::float8 < $3))
            order by t.i`,
          [row.id, from, to],
        )
      : [];
  const barOf = (at: number) => {
    const k = c ? lowerBound(c.time, total, at + 1) - 1 : -1;
    return c && k >= start ? c.time[k] : Math.floor(at / choice.ms) * choice.ms;
  };
  const events = klineMarkers(trades, { from, to }, barOf, { price: (p) => priceRound(instrument, p), money });
  return {
    symbol: row.symbol,
    interval: choice.name,
    dataInterval: row.interval,
    from,
    to,
    rangeFrom,
    rangeTo,
    digits: instrument?.digits ?? 2,
    candles,
    ...events,
  };
}

export async function cancelBacktest(svc: BacktestService, row: BacktestRow, locale: Locale): Promise<BacktestItem> {
  if (row.status !== 1) throw new AppError('BACKTEST_NOT_RUNNING');
  const [updated] = await svc.db
    .update(backtests)
    .set({ status: 3, statusReason: 'cancelled', cancelledAt: new Date(), finishedAt: new Date() })
    .where(and(eq(backtests.id, row.id), eq(backtests.status, 1)))
    .returning();
  if (!updated) throw new AppError('BACKTEST_NOT_RUNNING');
  svc.abort('backtest', row.id);
  if (row.jobId && svc.boss) await svc.boss.cancel(QUEUES.backtest, row.jobId).catch(() => undefined);
  return toItem(updated, locale);
}

export async function deleteBacktest(svc: BacktestService, row: BacktestRow): Promise<void> {
  await svc.db
    .update(backtests)
    .set({
      deletedAt: new Date(),
      ...(row.status === 1 ? { status: 3, statusReason: 'cancelled', cancelledAt: new Date(), finishedAt: new Date() } : {}),
    })
    .where(eq(backtests.id, row.id));
  if (row.status === 1) {
    svc.abort('backtest', row.id);
    if (row.jobId && svc.boss) await svc.boss.cancel(QUEUES.backtest, row.jobId).catch(() => undefined);
  }
}

/** Backtest-only fields that a robot form does not take. */
const BACKTEST_ONLY = ['start', 'end'];

export function robotPrefillOf(row: BacktestRow): RobotPrefill {
  if (row.status === 1) throw new AppError('BACKTEST_NO_REPORT');
  const params = Object.fromEntries(Object.entries(row.params as Record<string, unknown>).filter(([k]) => !BACKTEST_ONLY.includes(k)));
  return { type: 1, strategy: row.strategy, dataSource: row.dataSource, symbol: row.symbol, params, fromBacktest: row.id };
}

// ---------------------------------------------------------------- recommendations

export interface RecommendInput {
  strategy: string;
  dataSource: string;
  symbol: string;
  capital: number;
  start: string;
  end: string;
  params?: Record<string, unknown>;
  budget?: number;
  seed?: number;
}

/** Parameters a recommendation may not fix (they come from the request itself). */
const NOT_FIXABLE = ['market', 'symbol', 'capital', 'start', 'end'];

export async function createRecommendation(
  svc: BacktestService,
  user: AuthUser,
  input: RecommendInput,
  locale: Locale,
): Promise<Recommendation> {
  await requireBacktestAllowed(svc.db, user);
  const { market, definition, instrument } = strategySetupOf(input);
  const fromMs = parseIsoMs(input.start);
  const toMs0 = parseIsoMs(input.end);
  if (Number.isNaN(fromMs)) throw invalid(['start'], 'validation.invalidDate');
  if (Number.isNaN(toMs0)) throw invalid(['end'], 'validation.invalidDate');
  // A date-only end includes its whole day, as for backtests.
  const toMs = toMs0 + (input.end.trim().length === 10 ? DAY_MS : 0);
  if (fromMs > toMs0) throw invalid(['end'], 'validation.startAfterEnd');
  if (toMs - fromMs < MIN_RANGE_DAYS * DAY_MS) throw invalid(['end'], 'validation.rangeMin7Days');
  const fixed = { ...(input.params ?? {}) };
  for (const k of NOT_FIXABLE) {
    if (k in fixed) throw invalid(['params', k], 'validation.notFixable');
  }
  const series = await dataFor(svc.database, market, instrument.symbol, fromMs, toMs);
  // The fixed parameters must pass the strategy schema with the defaults around them.
  const sample = await loadCandleRange(svc.database, { ...series, fromMs: series.fromMs, toMs: series.fromMs + DAY_MS });
  const price = sample.length > 0 ? sample.close[0] : 1;
  const probe = {
    ...definition.defaults(instrument, { capital: input.capital, price }),
    ...fixed,
    capital: input.capital,
    symbol: instrument.symbol,
    market,
  };
  const parsed = definition.schema.safeParse(probe);
  if (!parsed.success) {
    throw new RequestValidationError(parsed.error.issues.map((i) => ({ ...i, path: ['params', ...i.path] })));
  }
  if (fixed.interval !== undefined) {
    const ms = typeof fixed.interval === 'string' ? intervalToMs(fixed.interval) : NaN;
    if (ms < series.intervalMs || ms % series.intervalMs !== 0) {
      throw new AppError('INTERVAL_TOO_FINE', { field: 'params.interval', timeframe: series.timeframe, symbol: instrument.symbol }, 'params.interval');
    }
  }
  const jobId = randomUUID();
  const row = await svc.db.transaction(async (tx) => {
    await tx.execute(sql`select id from users where id = ${user.id} for update`);
    const [{ running }] = await tx
      .select({ running: count() })
      .from(recommendations)
      .where(and(eq(recommendations.userId, user.id), eq(recommendations.status, 'running')));
    if (Number(running) > 0) throw new AppError('RECOMMEND_BUSY');
    const [inserted] = await tx
      .insert(recommendations)
      .values({
        userId: user.id,
        status: 'running',
        strategy: definition.type,
        dataSource: input.dataSource,
        candleSource: `${series.source}:${series.timeframe}`,
        symbol: instrument.symbol,
        capital: String(input.capital),
        fromAt: new Date(fromMs),
        toAt: new Date(toMs),
        fixed,
        budget: input.budget ?? null,
        seed: input.seed ?? 1,
        jobId,
      })
      .returning();
    return inserted;
  });
  await svc.enqueue('recommend', row.id, jobId);
  return toRecommendation(row, locale);
}

/** `source:timeframe` of a recommendation's candles. */
export function seriesOfRecommendation(row: RecommendationRow): { source: string; timeframe: string } {
  const i = row.candleSource.lastIndexOf(':');
  return { source: row.candleSource.slice(0, i), timeframe: row.candleSource.slice(i + 1) };
}

interface StoredMetrics {
  status: number;
  totalReturn: number | null;
  maxDrawdown: number | null;
  winRate: number | null;
  tradeCount: number;
  sharpe: number | null;
}
interface StoredScore {
  hitRate: number | null;
  baseRate: number | null;
  predictions: number;
}
interface StoredPreset {
  tier: RecommendPreset['tier'];
  params: Record<string, unknown>;
  searched: Record<string, unknown>;
  inSample: StoredMetrics;
  outOfSample: StoredMetrics;
  validated: boolean;
  ai: { inSample: StoredScore; outOfSample: StoredScore } | null;
}
interface StoredRecommendResult {
  interval: string;
  inSample: { fromMs: number; toMs: number };
  outOfSample: { fromMs: number; toMs: number };
  presets: StoredPreset[];
  evaluated: number;
  accepted: number;
  seconds: number;
}

const metrics = (m: StoredMetrics) => ({
  status: m.status,
  totalReturn: ratio(m.totalReturn ?? NaN),
  maxDrawdown: ratio(m.maxDrawdown ?? NaN),
  winRate: ratio(m.winRate ?? NaN),
  tradeCount: m.tradeCount,
  sharpe: ratioOrNull(m.sharpe),
});
const score = (s: StoredScore) => ({ hitRate: ratioOrNull(s.hitRate), baseRate: ratioOrNull(s.baseRate), predictions: s.predictions });

export function toRecommendation(row: RecommendationRow, locale: Locale): Recommendation {
  const r = row.status === 'done' ? (row.result as StoredRecommendResult | null) : null;
  const reason = reasonText(locale, row.error);
  return {
    id: row.id,
    status: row.status as Recommendation['status'],
    progress: row.status === 'running' ? row.progress : 100,
    strategy: row.strategy,
    dataSource: row.dataSource,
    symbol: row.symbol,
    capital: money(row.capital),
    startTime: row.fromAt.getTime(),
    endTime: row.toAt.getTime(),
    budget: row.budget,
    seed: row.seed,
    error: reason.text,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    result: r
      ? {
          interval: r.interval,
          inSample: { from: r.inSample.fromMs, to: r.inSample.toMs },
          outOfSample: { from: r.outOfSample.fromMs, to: r.outOfSample.toMs },
          presets: r.presets.map((p) => ({
            tier: p.tier,
            params: Object.fromEntries(Object.entries(p.params).filter(([k]) => !BACKTEST_ONLY.includes(k))),
            searched: p.searched,
            inSample: metrics(p.inSample),
            outOfSample: metrics(p.outOfSample),
            validated: p.validated,
            ai: p.ai ? { inSample: score(p.ai.inSample), outOfSample: score(p.ai.outOfSample) } : null,
          })),
          evaluated: r.evaluated,
          accepted: r.accepted,
          seconds: Number(r.seconds.toFixed(2)),
        }
      : null,
  };
}

export async function getOwnRecommendation(db: Database, userId: number, id: number): Promise<RecommendationRow> {
  const [row] = await db
    .select()
    .from(recommendations)
    .where(and(eq(recommendations.id, id), eq(recommendations.userId, userId)));
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function cancelRecommendation(svc: BacktestService, row: RecommendationRow, locale: Locale): Promise<Recommendation> {
  if (row.status !== 'running') throw new AppError('BACKTEST_NOT_RUNNING');
  const [updated] = await svc.db
    .update(recommendations)
    .set({ status: 'cancelled', error: 'cancelled', finishedAt: new Date() })
    .where(and(eq(recommendations.id, row.id), eq(recommendations.status, 'running')))
    .returning();
  if (!updated) throw new AppError('BACKTEST_NOT_RUNNING');
  svc.abort('recommend', row.id);
  if (row.jobId && svc.boss) await svc.boss.cancel(QUEUES.recommend, row.jobId).catch(() => undefined);
  return toRecommendation(updated, locale);
}

/** The operator's switch: on, nobody starts a backtest (B0300); running ones carry on. */
export async function backtestMaintenanceOn(db: Database): Promise<boolean> {
  return (await getSetting<boolean>(db, SETTING_KEYS.backtestMaintenance)) === true;
}

export async function setBacktestMaintenance(db: Database, on: boolean): Promise<void> {
  await setSetting(db, SETTING_KEYS.backtestMaintenance, on);
}

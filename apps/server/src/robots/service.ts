// Robot orders (create-order type 1): the rules of a create (account, parameters, coin, seats), the
// user's actions (pause, continue, stop) and what the API reads back. The robot RUNNER
// (apps/server/src/runner) polls the `robots` table: it leases robots in running | paused |
// stopping, writes intents, fills, events, income and live figures, and turns `stopping` into
// `stopped`. This side only writes the status transitions a user asks for, each with a conditional
// UPDATE (… WHERE status = …) so a concurrent runner write is never overwritten.
import {
  AppError,
  DATA_SOURCES,
  ROBOT_REASON_USER,
  ROBOT_TAB_STATUSES,
  type Locale,
  type RobotDetail,
  type RobotEvent,
  type RobotFill,
  type RobotFills,
  type RobotItem,
  type RobotList,
  type RobotLive,
  type RobotOrder,
  type RobotPosition,
  type RobotStatus,
  type RobotTab,
  type SizeNotice,
} from '@lq/contracts';
import {
  and,
  count,
  desc,
  eq,
  inArray,
  ne,
  robotEvents,
  robotFills,
  robotIntents,
  robots,
  sql,
  tradingAccounts,
  type Database,
  type RobotFillRow,
  type RobotIntentRow,
  type RobotRow,
  type TradingAccountRow,
} from '@lq/db';
import type { VenueName } from '@lq/engine';
import type { AuthUser } from '../platform/auth';
import { invalid } from '../platform/http';
import { checkParamsMatch, checkStrategyParams, marketOf, parseStrategyParams, strategySetupOf, venueOf } from '../strategy-setup';
import { requireSeat, type Market } from './seats';

// ---------------------------------------------------------------- helpers

/** The data source of a market (mt5 for forex, binance for crypto): the first open one. */
export function dataSourceOfMarket(market: string): string {
  return DATA_SOURCES.find((s) => s.market === market && s.isOpen)?.type ?? market;
}

/** A numeric column as a short decimal string: '12.34000000' → '12.34', '-0.00000000' → '0'. */
export function decimalText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '0';
  let s = String(value);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  if (s === '-0' || s === '') s = '0';
  return s;
}

const iso = (d: Date | string | null | undefined): string | null =>
  d === null || d === undefined ? null : (d instanceof Date ? d : new Date(d)).toISOString();

const numOrNull = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

/** Net quantity of a position object: > 0 long, < 0 short. */
function signedQty(p: Record<string, unknown>): number | null {
  const qty = numOrNull(p.qty ?? p.lots ?? p.amount);
  if (qty === null) return null;
  return p.side === 'short' ? -Math.abs(qty) : p.side === 'long' ? Math.abs(qty) : qty;
}

function liveOf(value: unknown): RobotLive | null {
  if (value === null || value === undefined || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  return {
    equity: numOrNull(v.equity),
    floating: numOrNull(v.floating),
    position:
      v.position !== null && typeof v.position === 'object'
        ? signedQty(v.position as Record<string, unknown>)
        : numOrNull(v.position),
    price: numOrNull(v.price),
    at: numOrNull(v.at),
  };
}

/** Open positions from the runner's live figures: `positions` [{side, qty, price, floating}] or the net `position`. */
function positionsOf(value: unknown): RobotPosition[] {
  if (value === null || value === undefined || typeof value !== 'object') return [];
  const v = value as Record<string, unknown>;
  const at = numOrNull(v.at);
  if (Array.isArray(v.positions)) {
    const out: RobotPosition[] = [];
    for (const p of v.positions as unknown[]) {
      if (!p || typeof p !== 'object') continue;
      const q = p as Record<string, unknown>;
      const qty = numOrNull(q.qty ?? q.lots ?? q.amount);
      if (qty === null || qty === 0) continue;
      const side = q.side === 'short' || q.side === 'long' ? q.side : qty < 0 ? 'short' : 'long';
      out.push({
        side,
        qty: Math.abs(qty),
        price: numOrNull(q.price ?? q.entryPrice),
        floating: numOrNull(q.floating ?? q.pnl),
        at,
      });
    }
    return out;
  }
  if (v.position !== null && typeof v.position === 'object') {
    // {side, qty, price?, floating?} as one position object
    const q = v.position as Record<string, unknown>;
    const qty = numOrNull(q.qty ?? q.lots ?? q.amount);
    if (qty === null || qty === 0) return [];
    const side = q.side === 'short' || q.side === 'long' ? q.side : qty < 0 ? 'short' : 'long';
    return [{ side, qty: Math.abs(qty), price: numOrNull(q.price ?? q.entryPrice ?? v.price), floating: numOrNull(q.floating ?? v.floating), at }];
  }
  const position = numOrNull(v.position);
  if (position === null || position === 0) return [];
  return [{ side: position > 0 ? 'long' : 'short', qty: Math.abs(position), price: numOrNull(v.price), floating: numOrNull(v.floating), at }];
}

type AccountRef = Pick<TradingAccountRow, 'id' | 'accountName' | 'exchange' | 'unboundAt' | 'frozen'>;

export function toItem(row: RobotRow, account: AccountRef | undefined): RobotItem {
  return {
    id: row.id,
    strategy: row.strategy,
    dataSource: dataSourceOfMarket(row.market),
    market: row.market === 'forex' ? 'forex' : 'crypto',
    mode: row.mode === 'paper' ? 'paper' : 'live',
    symbol: row.symbol,
    tradingPair: row.tradingPair,
    interval: row.interval,
    account: {
      id: row.accountId,
      name: account?.accountName ?? '',
      exchange: account?.exchange ?? '',
      unbound: account ? account.unboundAt !== null : true,
      frozen: account?.frozen ?? false,
    },
    status: row.status as RobotStatus,
    pauseReason: row.pauseReason,
    stopReason: row.stopReason,
    capital: Number(row.capital),
    leverage: row.leverage,
    income: decimalText(row.income),
    live: liveOf(row.live),
    sourceBacktestId: row.sourceBacktestId,
    createdAt: iso(row.createdAt)!,
    stoppedAt: iso(row.stoppedAt),
  };
}

function toOrder(row: RobotIntentRow): RobotOrder {
  const req = (row.request && typeof row.request === 'object' ? row.request : {}) as Record<string, unknown>;
  return {
    id: row.id,
    clientOrderId: row.clientOrderId,
    tag: row.tag,
    action: row.action,
    positionSide: row.positionSide,
    side: typeof req.side === 'string' ? req.side : null,
    type: typeof req.type === 'string' ? req.type : null,
    amount: numOrNull(req.amount),
    price: numOrNull(req.price),
    reduceOnly: req.reduceOnly === true,
    state: row.state,
    filled: decimalText(row.filled),
    average: row.average === null ? null : decimalText(row.average),
    venueOrderId: row.venueOrderId,
    error: row.error,
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
  };
}

function toFill(row: RobotFillRow): RobotFill {
  return {
    id: row.id,
    clientOrderId: row.clientOrderId,
    fillKey: row.fillKey,
    action: row.action,
    positionSide: row.positionSide,
    qty: decimalText(row.qty),
    price: decimalText(row.price),
    fee: decimalText(row.fee),
    pnl: decimalText(row.pnl),
    reason: row.reason,
    filledAt: iso(row.filledAt)!,
  };
}

function toEvent(row: typeof robotEvents.$inferSelect): RobotEvent {
  return { id: row.id, kind: row.kind, message: row.message, detail: row.detail ?? null, createdAt: iso(row.createdAt)! };
}

/** Default trading pair as the venue names it: ccxt's unified swap symbol, or the MT5 symbol. */
export function defaultTradingPair(symbol: string, exchange: string, market: Market): string {
  if (market === 'forex' || exchange === 'mt5') return symbol;
  const base = symbol.endsWith('USDT') ? symbol.slice(0, -4) : symbol.replace(/USD$/, '');
  return `${base}/USDT:USDT`;
}

/** BTC/USDT:USDT, BTC-USDT-SWAP, btcusdt, EURUSD.m … name the symbol when their letters start with it. */
export function tradingPairMatches(pair: string, symbol: string): boolean {
  return pair.toUpperCase().replace(/[^A-Z0-9]/g, '').startsWith(symbol);
}

// ---------------------------------------------------------------- lookups (always scoped to the caller)

/** The caller's robot; NOT_FOUND for a missing id or another user's robot (no IDOR). */
export async function getOwnRobot(db: Database, userId: number, id: number): Promise<RobotRow> {
  const [row] = await db.select().from(robots).where(and(eq(robots.id, id), eq(robots.userId, userId)));
  if (!row) throw new AppError('NOT_FOUND', {}, 'id');
  return row;
}

async function accountRef(db: Database, accountId: number): Promise<AccountRef | undefined> {
  const [a] = await db
    .select({ id: tradingAccounts.id, accountName: tradingAccounts.accountName, exchange: tradingAccounts.exchange, unboundAt: tradingAccounts.unboundAt, frozen: tradingAccounts.frozen })
    .from(tradingAccounts)
    .where(eq(tradingAccounts.id, accountId));
  return a;
}

// ---------------------------------------------------------------- create

export interface RobotCreateInput {
  strategy: string;
  dataSource: string;
  symbol: string;
  tradingPair?: string;
  accountId?: number;
  params: Record<string, unknown>;
  mode: 'live' | 'paper';
  sourceBacktestId?: number;
}

/** Fields of the strategy form a robot does not use (a backtest's range). */
const BACKTEST_ONLY = ['start', 'end'];
/** Decision interval of a robot whose form leaves it empty: the live feed's 1m candles. */
const DEFAULT_ROBOT_INTERVAL = '1m';

/**
 * The strategy parameters, validated exactly as a backtest create does (spec §5), sizes snapped
 * with notices — to the sizes `venue` (the trading account's exchange) takes, and at `price` (the
 * latest) at least its minimum order value.
 */
export function validateRobotParams(
  input: Pick<RobotCreateInput, 'strategy' | 'dataSource' | 'symbol' | 'params'>,
  locale: Locale,
  venue?: VenueName,
  price?: number,
): { market: Market; strategy: string; symbol: string; params: Record<string, unknown>; notices: SizeNotice[] } {
  const { market, definition, instrument } = strategySetupOf(input, venue ?? venueOf(input.dataSource));
  const raw = { ...input.params };
  checkParamsMatch(raw, market, instrument);
  for (const name of BACKTEST_ONLY) delete raw[name];
  const params = parseStrategyParams(definition, raw, market, instrument);
  for (const name of BACKTEST_ONLY) delete params[name];

  const notices = checkStrategyParams(params, instrument, definition, locale, price);
  if (params.interval === undefined) params.interval = DEFAULT_ROBOT_INTERVAL;
  return { market, strategy: definition.type, symbol: instrument.symbol, params, notices };
}

/**
 * Validates everything and inserts the robot (status running, no lease: the runner picks it up)
 * with its `started` event. Account: the caller's, bound, not frozen, of the data source's market.
 * Crypto: one non-stopped robot per coin per trading account. Seats: see seats.ts.
 */
export async function createRobot(
  db: Database,
  user: AuthUser,
  input: RobotCreateInput,
  locale: Locale,
  /** The latest price of a symbol (null: none known; the minimum order value is then not checked). */
  latestPrice: (market: Market, symbol: string) => Promise<number | null> = () => Promise.resolve(null),
): Promise<{ robot: RobotDetail; notices: SizeNotice[] }> {
  const market = marketOf(input.dataSource);
  if (input.accountId === undefined) throw new AppError('ACCOUNT_REQUIRED', {}, 'accountId');
  const [account] = await db
    .select()
    .from(tradingAccounts)
    .where(and(eq(tradingAccounts.id, input.accountId), eq(tradingAccounts.userId, user.id)));
  if (!account || account.unboundAt !== null) throw new AppError('NOT_FOUND', {}, 'accountId');
  if (account.market !== market) throw new AppError('ACCOUNT_WRONG_MARKET', {}, 'accountId');
  if (account.frozen) throw new AppError('ACCOUNT_FROZEN', {}, 'accountId');

  const venue = venueOf(account.exchange);
  const price = await latestPrice(market, input.symbol.trim().toUpperCase());
  const v = validateRobotParams(input, locale, venue, price ?? undefined);
  if (input.tradingPair !== undefined && !tradingPairMatches(input.tradingPair, v.symbol)) {
    // The pair names the instrument the runner trades: it must be the robot's symbol (coin rule).
    throw invalid(['tradingPair'], 'validation.mismatch');
  }
  if (input.sourceBacktestId !== undefined) {
    // Only the caller's own backtest may be named as the source.
    const own = await db.execute(sql`select id from backtests where id = ${input.sourceBacktestId} and user_id = ${user.id}`);
    const rows = Array.isArray(own) ? own : (own as { rows: unknown[] }).rows;
    if (rows.length === 0) throw new AppError('NOT_FOUND', {}, 'sourceBacktestId');
  }

  // Inside the transaction only `tx` may be used: PGlite has one connection, held by it.
  const row = await db.transaction(async (tx) => {
    // Serialize the coin and seat checks per user.
    await tx.execute(sql`select id from users where id = ${user.id} for update`);
    if (market === 'crypto') {
      const [{ n }] = await tx
        .select({ n: count() })
        .from(robots)
        .where(and(eq(robots.accountId, account.id), eq(robots.symbol, v.symbol), ne(robots.status, 'stopped')));
      if (Number(n) > 0) throw new AppError('COIN_TAKEN', { symbol: v.symbol }, 'symbol');
    }
    await requireSeat(tx, user.id, market, account.id);
    const [inserted] = await tx
      .insert(robots)
      .values({
        userId: user.id,
        accountId: account.id,
        market,
        mode: input.mode,
        strategy: v.strategy,
        symbol: v.symbol,
        tradingPair: input.tradingPair ?? defaultTradingPair(v.symbol, account.exchange, market),
        interval: String(v.params.interval),
        params: v.params,
        capital: String(v.params.capital),
        leverage: Number(v.params.leverage),
        status: 'running',
        sourceBacktestId: input.sourceBacktestId ?? null,
      })
      .returning();
    await tx.insert(robotEvents).values({
      robotId: inserted.id,
      kind: 'started',
      message: 'robot.started',
      detail: { by: 'user', mode: input.mode, sourceBacktestId: input.sourceBacktestId ?? null },
    });
    return inserted;
  });
  notifyRunner(row.id);
  return { robot: await detailOf(db, row), notices: v.notices };
}

/**
 * The hook for waking the runner after a create or continue. The runner polls the `robots` table
 * (leases on status running | paused | stopping), so nothing needs to be sent: this is a no-op kept
 * as the one place to add a notification (pg-boss job, NOTIFY) should the runner want one.
 */
export function notifyRunner(robotId: number): void {
  void robotId;
}

// ---------------------------------------------------------------- actions

type Action = 'pause' | 'continue' | 'stop';

/** Applies a user action with a conditional UPDATE; the refusal depends on the status found. */
export async function robotAction(db: Database, userId: number, id: number, action: Action): Promise<RobotItem> {
  const row = await getOwnRobot(db, userId, id);
  if (action === 'continue') {
    const account = await accountRef(db, row.accountId);
    if (row.status === 'paused' && account?.frozen) throw new AppError('ACCOUNT_FROZEN', {}, 'id');
  }
  const updated = await db.transaction(async (tx) => {
    let changed: RobotRow | undefined;
    const where = (from: RobotStatus[]) => and(eq(robots.id, id), eq(robots.userId, userId), inArray(robots.status, from));
    if (action === 'pause') {
      [changed] = await tx
        .update(robots)
        .set({ status: 'paused', pauseReason: ROBOT_REASON_USER, updatedAt: sql`now()` })
        .where(where(['running']))
        .returning();
    } else if (action === 'continue') {
      [changed] = await tx
        .update(robots)
        .set({ status: 'running', pauseReason: null, updatedAt: sql`now()` })
        .where(where(['paused']))
        .returning();
    } else {
      [changed] = await tx
        .update(robots)
        .set({ status: 'stopping', stopReason: ROBOT_REASON_USER, updatedAt: sql`now()` })
        .where(where(['running', 'paused']))
        .returning();
    }
    if (changed) {
      const kind = action === 'pause' ? 'paused' : action === 'continue' ? 'continued' : 'stopping';
      await tx.insert(robotEvents).values({ robotId: id, kind, message: `robot.${kind}`, detail: { by: 'user' } });
    }
    return changed;
  });
  if (!updated) {
    // The status it has now (the runner may have moved it meanwhile).
    const now = await getOwnRobot(db, userId, id);
    if (action === 'pause') throw new AppError('ROBOT_NOT_RUNNING', {}, 'id');
    if (action === 'continue') throw new AppError('ROBOT_NOT_PAUSED', {}, 'id');
    if (now.status === 'stopped') throw new AppError('ROBOT_STOPPED', {}, 'id');
    // Already stopping: the stop is under way, answer with the robot as it is.
    return toItem(now, await accountRef(db, now.accountId));
  }
  if (action === 'continue') notifyRunner(id);
  return toItem(updated, await accountRef(db, updated.accountId));
}

// ---------------------------------------------------------------- reading

export async function listRobots(
  db: Database,
  userId: number,
  query: { dataSource?: string; status: RobotTab; page: number; pageSize: number },
): Promise<RobotList> {
  const conditions = [eq(robots.userId, userId), inArray(robots.status, [...ROBOT_TAB_STATUSES[query.status]])];
  if (query.dataSource !== undefined) conditions.push(eq(robots.market, marketOf(query.dataSource)));
  const where = and(...conditions);
  const [{ total }] = await db.select({ total: count() }).from(robots).where(where);
  const rows = await db
    .select({ robot: robots, account: { id: tradingAccounts.id, accountName: tradingAccounts.accountName, exchange: tradingAccounts.exchange, unboundAt: tradingAccounts.unboundAt, frozen: tradingAccounts.frozen } })
    .from(robots)
    .leftJoin(tradingAccounts, eq(tradingAccounts.id, robots.accountId))
    .where(where)
    .orderBy(query.status === 'history' ? desc(robots.stoppedAt) : desc(robots.createdAt), desc(robots.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return {
    list: rows.map((r) => toItem(r.robot, r.account ?? undefined)),
    total: Number(total),
    page: query.page,
    pageSize: query.pageSize,
    hasMore: query.page * query.pageSize < Number(total),
  };
}

const DETAIL_ORDERS = 100;
const DETAIL_FILLS = 50;
const DETAIL_EVENTS = 100;
/** The runner's own bookkeeping (the candle a pause / continue / stop took effect at, for its replay): not shown. */
const RUNNER_GATE_EVENT = 'runner';

export async function detailOf(db: Database, row: RobotRow): Promise<RobotDetail> {
  const [account, orders, fills, events, [lastError]] = await Promise.all([
    accountRef(db, row.accountId),
    db.select().from(robotIntents).where(eq(robotIntents.robotId, row.id)).orderBy(desc(robotIntents.id)).limit(DETAIL_ORDERS),
    db.select().from(robotFills).where(eq(robotFills.robotId, row.id)).orderBy(desc(robotFills.filledAt), desc(robotFills.id)).limit(DETAIL_FILLS),
    db
      .select()
      .from(robotEvents)
      .where(and(eq(robotEvents.robotId, row.id), ne(robotEvents.kind, RUNNER_GATE_EVENT)))
      .orderBy(desc(robotEvents.id))
      .limit(DETAIL_EVENTS),
    db
      .select()
      .from(robotEvents)
      .where(and(eq(robotEvents.robotId, row.id), eq(robotEvents.kind, 'error')))
      .orderBy(desc(robotEvents.id))
      .limit(1),
  ]);
  return {
    ...toItem(row, account),
    params: (row.params ?? {}) as Record<string, unknown>,
    orders: orders.map(toOrder),
    fills: fills.map(toFill),
    positions: positionsOf(row.live),
    events: events.map(toEvent),
    error: lastError ? toEvent(lastError) : null,
    stop:
      row.status === 'stopped' || row.status === 'stopping'
        ? { reason: row.stopReason, stoppedAt: iso(row.stoppedAt), income: decimalText(row.income) }
        : null,
    lastCandleAt: row.lastCandleAt,
    heartbeatAt: iso(row.heartbeatAt),
  };
}

export async function ordersOf(db: Database, row: RobotRow): Promise<RobotOrder[]> {
  const rows = await db.select().from(robotIntents).where(eq(robotIntents.robotId, row.id)).orderBy(desc(robotIntents.id));
  return rows.map(toOrder);
}

export async function fillsOf(db: Database, row: RobotRow, page: number, pageSize: number): Promise<RobotFills> {
  const [{ total }] = await db.select({ total: count() }).from(robotFills).where(eq(robotFills.robotId, row.id));
  const rows = await db
    .select()
    .from(robotFills)
    .where(eq(robotFills.robotId, row.id))
    .orderBy(desc(robotFills.filledAt), desc(robotFills.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { list: rows.map(toFill), total: Number(total), page, pageSize, hasMore: page * pageSize < Number(total) };
}

// Keeps each robot's shadow backtest up to the robot (issue 33, slice 1). A check reads the robot
// (its spec, its first candle from the runner's events, the last candle it stepped), takes the
// shadow this process holds for it — or builds one and replays the stored candles from the robot's
// first — steps the candles after the shadow's cursor up to the robot's, and stores the new fills
// and the cursor in one transaction. Fills are numbered in order (`seq`) and written once
// (on conflict nothing): a replay after a restart, or two processes checking the same robot,
// store each fill once.
import type { Candles, Fill } from '@lq/engine';
import { clientOrderId } from '@lq/venues';
import { rowsOf, sql, type DatabaseHandle } from '@lq/db';
import { liveSourceOf, loadRecordedRange, type SeriesKey } from '../market';
import { firstCandleSql, MINUTE, toBars, type Bar } from '../runner';
import { ShadowBacktest, specKey, type ShadowSpec } from './shadow';

/** Candles read per query while catching up (a week of 1m candles). */
const CHUNK_MS = 7 * 24 * 60 * MINUTE;

/** The 1m candles a robot on `exchange` saw, fromMs ≤ time < toMs, as its feed reads them (recorded, and the imported history before). */
export function robotCandles(database: DatabaseHandle, exchange: string, symbol: string, fromMs: number, toMs: number): Promise<Candles[]> {
  const live: SeriesKey = { source: liveSourceOf(exchange), symbol, timeframe: '1m' };
  return loadRecordedRange(database, live, { source: exchange, symbol, timeframe: '1m' }, fromMs, toMs);
}

/** The same candles as bars, for the shadow's steps. */
export async function robotBars(database: DatabaseHandle, exchange: string, symbol: string, fromMs: number, toMs: number): Promise<Bar[]> {
  return (await robotCandles(database, exchange, symbol, fromMs, toMs)).flatMap(toBars);
}

export interface ShadowCheck {
  robotId: number;
  /** Open time of the last candle the shadow stepped (the robot's last). */
  cursor: number;
  /** Candles stepped by this check. */
  stepped: number;
  /** Fills this check booked, and all so far. */
  newFills: number;
  fills: number;
  balance: number;
  equity: number;
  /** The shadow was (re)built by this check (a new robot, a new process, a changed spec). */
  rebuilt: boolean;
}

interface RobotRow {
  strategy: string;
  params: unknown;
  symbol: string;
  capital: string;
  leverage: number;
  last_candle_at: string | null;
  exchange: string;
  from_ms: string | null;
}

export class ShadowMonitor {
  private readonly shadows = new Map<number, ShadowBacktest>();
  private readonly busy = new Map<number, Promise<ShadowCheck | null>>();

  constructor(private readonly database: DatabaseHandle) {}

  /** Brings a robot's shadow up to the robot; null while the robot has stepped no candle. One check per robot at a time. */
  check(robotId: number): Promise<ShadowCheck | null> {
    const running = this.busy.get(robotId);
    if (running) return running.then(() => this.check(robotId));
    const p = this.checkOnce(robotId).finally(() => this.busy.delete(robotId));
    this.busy.set(robotId, p);
    return p;
  }

  /** Forgets the shadows held in memory (a test's "new process"). */
  forget(): void {
    this.shadows.clear();
  }

  private async checkOnce(robotId: number): Promise<ShadowCheck | null> {
    const db = this.database;
    const [row] = rowsOf<RobotRow>(
      await db.db.execute(sql`select r.strategy, r.params, r.symbol, r.capital::text as capital, r.leverage, r.last_candle_at::text as last_candle_at, a.exchange,
          ${firstCandleSql('r')} as from_ms
        from robots r join trading_accounts a on a.id = r.account_id where r.id = ${robotId}`),
    );
    if (!row || row.from_ms === null || row.last_candle_at === null) return null;
    const spec: ShadowSpec = {
      strategy: row.strategy,
      params: row.params,
      symbol: row.symbol,
      exchange: row.exchange,
      capital: Number(row.capital),
      leverage: row.leverage,
      fromMs: Number(row.from_ms),
    };
    const key = specKey(spec);
    const until = Number(row.last_candle_at);
    let shadow = this.shadows.get(robotId);
    let rebuilt = false;
    if (!shadow || shadow.key !== key) {
      // Another spec than the stored shadow's: its fills belong to another robot setup.
      await db.db.execute(sql`delete from robot_shadow_fills where robot_id = ${robotId} and exists (select 1 from robot_shadows s where s.robot_id = ${robotId} and s.spec <> ${key})`);
      await db.db.execute(sql`delete from robot_shadows where robot_id = ${robotId} and spec <> ${key}`);
      shadow = await ShadowBacktest.create(spec, (from, to) => robotBars(db, spec.exchange, spec.symbol, from, to));
      this.shadows.set(robotId, shadow);
      rebuilt = true;
    }
    let stepped = 0;
    let newFills = 0;
    try {
      while (shadow.cursor < until) {
        const from = shadow.cursor + MINUTE;
        const to = Math.min(until + MINUTE, from + CHUNK_MS);
        const first = shadow.fillCount;
        const fills = shadow.advance(await robotBars(db, spec.exchange, spec.symbol, from, to));
        stepped += shadow.lastStepped;
        newFills += fills.length;
        // A gap in the stored candles: the chunk moves the cursor on (the robot saw no candle there either).
        if (shadow.cursor < to - MINUTE) shadow.cursor = to - MINUTE;
        await this.store(robotId, key, spec.fromMs, shadow, first, fills);
      }
    } catch (e) {
      // A shadow half stepped is not to be trusted: the next check builds it again from what is stored.
      this.shadows.delete(robotId);
      throw e;
    }
    const { balance, equity } = shadow.figures();
    return { robotId, cursor: shadow.cursor, stepped, newFills, fills: shadow.fillCount, balance, equity, rebuilt };
  }

  private async store(robotId: number, key: string, fromMs: number, shadow: ShadowBacktest, first: number, fills: Fill[]): Promise<void> {
    const { balance, equity } = shadow.figures();
    await this.database.db.transaction(async (tx) => {
      for (let i = 0; i < fills.length; i++) {
        const f = fills[i];
        await tx.execute(sql`insert into robot_shadow_fills (robot_id, seq, client_order_id, tag, ticket, action, side, qty, price, fee, pnl, maker, reason, filled_at)
          values (${robotId}, ${first + i}, ${clientOrderId(String(robotId), f.tag, f.action)}, ${f.tag}, ${f.ticket}, ${f.action}, ${f.side}, ${f.qty}, ${f.price}, ${f.fee}, ${f.pnl}, ${f.maker}, ${f.reason}, ${f.time})
          on conflict do nothing`);
      }
      await tx.execute(sql`insert into robot_shadows (robot_id, spec, from_ms, cursor, fills, balance, equity, updated_at)
          values (${robotId}, ${key}, ${fromMs}, ${shadow.cursor}, ${shadow.fillCount}, ${balance}, ${equity}, now())
        on conflict (robot_id) do update set cursor = greatest(robot_shadows.cursor, excluded.cursor), fills = greatest(robot_shadows.fills, excluded.fills),
          balance = case when excluded.cursor >= robot_shadows.cursor then excluded.balance else robot_shadows.balance end,
          equity = case when excluded.cursor >= robot_shadows.cursor then excluded.equity else robot_shadows.equity end, updated_at = now()`);
    });
  }
}

// The robot runner against the fake Binance on 127.0.0.1 (real ccxt, real database): a live grid
// robot trades, pause / continue / stop, a refused order pauses it with the reason, and a paper
// robot books the backtest's fills. Candles are the fake's replayed market clock, stepped by hand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getInstrument, runBacktest, sliceByTime } from '@lq/engine';
import { getStrategy, runSettings } from '@lq/strategies';
import { FakeBinance, FakeOkx } from '@lq/venues/fake';
import { Runner } from '.';
import { listSeries, liveSourceOf, writeCandles } from '../market';
import { CandleFeed } from './feed';
import { registerUser, startTestApp, type TestApp } from '../../test/helpers';
import { T0, gridParams, settled, robotRow, seedAccount, seedRobot, waveCandles } from './test-helpers';

const silent = process.env.RUNNER_TEST_LOG ? { info: console.log, warn: console.log, error: console.log } : { info() {}, warn() {}, error() {} };
const candles = waveCandles(4000);
let fake: FakeBinance;
let okx: FakeOkx;
let t: TestApp;

beforeAll(async () => {
  fake = new FakeBinance({ candles: { BTCUSDT: candles } });
  okx = new FakeOkx({ candles: { BTCUSDT: candles } });
  const origin = await fake.listen();
  const okxOrigin = await okx.listen();
  t = await startTestApp({
    env: { EXCHANGE_BINANCE_URL: origin, EXCHANGE_OKX_URL: okxOrigin, RUNNER_RESOLVE_WINDOW_MS: '300', RUNNER_VENUE_TIMEOUT_MS: '600', RUNNER_LEASE_MS: '60000', RUNNER_CCXT_THROTTLE: 'false' },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
  await okx?.close();
});

/** A fresh fake account whose market clock goes on from where it was (the candle store keeps the series). */
/** Robots of earlier tests are left alone (they share the fake account). */
async function stopOthers(): Promise<void> {
  await t.database.exec(`update robots set status = 'stopped', lease_owner = null`);
}

function freshFake(balance = 10_000): void {
  const at = fake.timeMs;
  fake.reset();
  // On from where the clock was, a little before a crest of the wave: a long grid then trades.
  const k = Math.ceil((Math.max(at, fake.timeMs) + 10 * 60_000 - T0) / (90 * 60_000));
  fake.seed({ balance, timeMs: T0 + (k * 90 + 18) * 60_000 });
}

async function minutes(runner: Runner, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    fake.advance(60_000);
    await runner.tick();
  }
}

const events = async (id: number) =>
  t.database.exec<{ kind: string; message: string | null; detail: Record<string, unknown> | null }>(`select kind, message, detail from robot_events where robot_id = $1 order by id`, [id]);
const count = async (table: string, id: number) => Number((await t.database.exec<{ n: string }>(`select count(*) as n from ${table} where robot_id = $1`, [id]))[0].n);

describe('robot runner on the fake exchange', () => {
  it('a live grid robot trades; pause, continue and stop; the venue and the ledger agree', async () => {
    await stopOthers();
    freshFake();
    const owner = await seedAccount(t.database, t.config);
    const id = await seedRobot(t.database, owner);
    const runner = new Runner({ database: t.database, config: t.config, log: silent });
    await runner.tick();
    expect(runner.robotIds).toEqual([id]);
    await minutes(runner, Number(process.env.RT_MIN ?? 180));

    let row = await robotRow(t.database, id);
    expect(row.status).toBe('running');
    expect(row.lease_owner).toBe(runner.owner);
    const s1 = await settled(t.database, fake, id, () => minutes(runner, 1));
    row = await robotRow(t.database, id);
    expect(s1.fills).toBeGreaterThan(6);
    expect(s1.duplicates).toEqual([]);
    expect(s1.unjournalled).toEqual([]);
    expect(s1.mismatched).toEqual([]);
    expect(s1.ledgerCoins).toBeCloseTo(s1.venueCoins, 9);
    const closes = await t.database.exec<{ pnl: string; fee: string }>(`select pnl, fee from robot_fills where robot_id = $1 and action = 'close'`, [id]);
    expect(closes.length).toBeGreaterThan(2);
    expect(closes.every((c) => Number(c.pnl) > 0 && Number(c.fee) > 0)).toBe(true); // grid take profits, fees from the venue's trades
    const fills = await t.database.exec<{ pnl: string; fee: string }>(`select pnl, fee from robot_fills where robot_id = $1`, [id]);
    const income = fills.reduce((s, f) => s + Number(f.pnl) - Number(f.fee), 0);
    expect(Number(row.income)).toBeCloseTo(income, 4);
    expect(row.live).toMatchObject({ at: expect.any(Number), price: expect.any(Number) });

    // Pause: no new decisions (fills of resting orders are still booked, take profits still close).
    await t.database.exec(`update robots set status = 'paused', pause_reason = 'user' where id = $1`, [id]);
    await runner.heartbeat();
    const opens = async () => Number((await t.database.exec<{ n: string }>(`select count(*) as n from robot_intents where robot_id = $1 and action = 'open'`, [id]))[0].n);
    const intentsBefore = await count('robot_intents', id);
    const opensBefore = await opens();
    await minutes(runner, 60);
    expect(await opens()).toBe(opensBefore);
    expect((await events(id)).some((e) => e.kind === 'runner' && e.detail?.mode === 'paused')).toBe(true);

    // Continue: trading resumes.
    await t.database.exec(`update robots set status = 'running', pause_reason = null where id = $1`, [id]);
    await runner.heartbeat();
    await minutes(runner, 150);
    expect(await count('robot_intents', id)).toBeGreaterThan(intentsBefore);

    // Stop: orders cancelled, position closed at market, then stopped.
    await t.database.exec(`update robots set status = 'stopping' where id = $1`, [id]);
    await runner.heartbeat();
    await minutes(runner, 3);
    row = await robotRow(t.database, id);
    if (row.status !== 'stopped' && process.env.RUNNER_TEST_LOG) {
      const d = runner.driver(id) as unknown as { broker: { intents: Map<string, unknown>; tickets: unknown[]; pending: unknown[] } };
      console.log([...d.broker.intents.values()].filter((r) => !['filled', 'canceled', 'rejected'].includes((r as { state: string }).state)), d.broker.tickets, d.broker.pending);
    }
    expect(row.status).toBe('stopped');
    expect(row.lease_owner).toBeNull();
    expect(runner.robotIds).toEqual([]);
    // The stop is on the timeline, and the final figures include the closing fills (no position).
    expect((await events(id)).some((e) => e.kind === 'stopped')).toBe(true);
    const allFills = await t.database.exec<{ pnl: string; fee: string }>(`select pnl, fee from robot_fills where robot_id = $1`, [id]);
    expect(Number(row.income)).toBeCloseTo(allFills.reduce((s, f) => s + Number(f.pnl) - Number(f.fee), 0), 4);
    expect(row.live).toMatchObject({ position: 0, positions: [] });
    const s2 = await settled(t.database, fake, id, () => minutes(runner, 1));
    expect(s2.openOrders).toBe(0);
    expect(s2.venueCoins).toBe(0);
    expect(s2.ledgerCoins).toBe(0);
    expect(s2.duplicates).toEqual([]);
    expect(s2.mismatched).toEqual([]);
  });

  it('an order the venue refuses (insufficient margin) pauses the robot with the reason', async () => {
    await stopOthers();
    freshFake(50);
    const owner = await seedAccount(t.database, t.config);
    const id = await seedRobot(t.database, owner, { params: gridParams({ lotsPerGrid: 5, addImmediately: true }) });
    const runner = new Runner({ database: t.database, config: t.config, log: silent });
    await runner.tick();
    await minutes(runner, 3);
    const row = await robotRow(t.database, id);
    expect(row.status).toBe('paused');
    expect(row.pause_reason).toMatch(/^insufficientFunds: .*Margin is insufficient/);
    const ev = await events(id);
    expect(ev.find((e) => e.kind === 'error')).toMatchObject({ message: 'robot.error.insufficientFunds', detail: expect.objectContaining({ venueCode: '-2019' }) });
    const intents = await t.database.exec<{ state: string }>(`select state from robot_intents where robot_id = $1`, [id]);
    expect(intents.some((i) => i.state === 'rejected')).toBe(true);
    await runner.stop();
  });

  it('a key the venue refuses (authentication) pauses the robot with the reason', async () => {
    await stopOthers();
    freshFake();
    const owner = await seedAccount(t.database, t.config, 'binance', { apiKey: 'fake-key', secret: 'not-the-secret' });
    const id = await seedRobot(t.database, owner);
    const runner = new Runner({ database: t.database, config: t.config, log: silent });
    await runner.tick();
    await minutes(runner, 2);
    const row = await robotRow(t.database, id);
    expect(row.status).toBe('paused');
    expect(row.pause_reason).toMatch(/^authentication: /);
    expect(row.pause_reason).not.toContain('not-the-secret');
    const ev = await events(id);
    expect(ev.find((e) => e.kind === 'error')).toMatchObject({ message: 'robot.error.authentication', detail: expect.objectContaining({ venueCode: '-1022' }) });
    await runner.stop();
  });

  it('a paper robot on the venue candles books exactly the backtest fills', async () => {
    await stopOthers();
    freshFake();
    const owner = await seedAccount(t.database, t.config);
    const params = gridParams();
    const id = await seedRobot(t.database, owner, { mode: 'paper', params });
    const runner = new Runner({ database: t.database, config: t.config, log: silent });
    await runner.tick();
    await minutes(runner, 300);
    const ev = await events(id);
    const fromMs = Number(ev.find((e) => e.kind === 'runner' && e.detail?.fromMs)!.detail!.fromMs);
    const row = await robotRow(t.database, id);
    const last = Number(row.last_candle_at);
    // The same strategy over the same candles in a backtest.
    const inst = getInstrument('BTCUSDT');
    const def = getStrategy('grid');
    const parsed = def.schema.parse(params);
    const s = runSettings(parsed, inst);
    const report = runBacktest(def.create(parsed, inst), {
      instrument: inst,
      candles: sliceByTime(candles, fromMs, last + 60_000),
      intervalMs: 60_000,
      capital: s.capital,
      leverage: s.leverage,
      makerFee: s.makerFee,
      takerFee: s.takerFee,
    });
    const fills = await t.database.exec<{ price: string; qty: string; action: string; filled_at: Date | string }>(
      `select price, qty, action, filled_at from robot_fills where robot_id = $1 order by id`,
      [id],
    );
    expect(report.fills.length).toBeGreaterThan(6);
    expect(fills.map((f) => [f.action, Number(f.price), Number(f.qty), new Date(f.filled_at).getTime()])).toEqual(
      report.fills.map((f) => [f.action, f.price, f.qty, f.time]),
    );
    expect(Number(row.income)).toBeCloseTo(report.realisedPnl - report.totalFees, 4);
    // Stop: the paper position is closed at the next candle's open, then stopped.
    await t.database.exec(`update robots set status = 'stopping' where id = $1`, [id]);
    await runner.heartbeat();
    await minutes(runner, 2);
    expect((await robotRow(t.database, id)).status).toBe('stopped');
    const net = await t.database.exec<{ n: string }>(
      `select coalesce(sum(case when (action = 'open') = (position_side = 'long') then qty else -qty end), 0) as n from robot_fills where robot_id = $1`,
      [id],
    );
    expect(Number(net[0].n)).toBe(0);
    await runner.stop();
  });

  it('a live grid robot on OKX (contract amounts, ids-only create answers) trades; ledger = venue', async () => {
    await stopOthers();
    okx.seed({ balance: 10_000, timeMs: T0 + (Math.ceil((okx.timeMs - T0) / (90 * 60_000) + 1) * 90 + 18) * 60_000 });
    const owner = await seedAccount(t.database, t.config, 'okx');
    const id = await seedRobot(t.database, owner);
    const runner = new Runner({ database: t.database, config: t.config, log: silent });
    const step = async () => {
      okx.advance(60_000);
      await runner.tick();
    };
    for (let i = 0; i < 150; i++) await step();
    const s = await settled(t.database, okx, id, step);
    expect(s.fills).toBeGreaterThan(4);
    expect(s.duplicates).toEqual([]);
    expect(s.unjournalled).toEqual([]);
    expect(s.mismatched).toEqual([]);
    expect(s.ledgerCoins).toBeCloseTo(s.venueCoins, 9);
    expect(okx.journal.some((j) => j.path === '/api/v5/market/history-candles' || j.path === '/api/v5/market/candles')).toBe(true);
    await runner.stop();
  });

  it('a paper robot without candles (MT5, no terminal online) neither fails the others nor blocks its stop', async () => {
    await stopOthers();
    freshFake();
    const owner = await seedAccount(t.database, t.config);
    const crypto = await seedRobot(t.database, owner, { mode: 'paper' });
    const [mt5] = await t.database.exec<{ id: number }>(
      `insert into trading_accounts (user_id, market, exchange, account_name) values ($1, 'forex', 'mt5', 'MT5 demo') returning id::int as id`,
      [owner.userId],
    );
    const grid = getStrategy('grid');
    const params = grid.schema.parse({ ...grid.defaults(getInstrument('EURUSD', 'mt5'), { capital: 10_000, price: 1.1 }), interval: '1m' });
    const [forex] = await t.database.exec<{ id: number }>(
      `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status)
       values ($1, $2, 'forex', 'paper', 'grid', 'EURUSD', '1m', $3::jsonb, 10000, 100, 'running') returning id::int as id`,
      [owner.userId, mt5.id, JSON.stringify(params)],
    );
    const runner = new Runner({ database: t.database, config: t.config, log: silent });
    await runner.tick();
    // The forex robot has no candles (no candle source for mt5 here): every tick still completes
    // and the crypto robot keeps stepping.
    await minutes(runner, 30);
    const stepped = await robotRow(t.database, crypto);
    expect(Number(stepped.last_candle_at)).toBeGreaterThan(0);
    expect(runner.robotIds).toEqual(expect.arrayContaining([crypto, forex.id]));
    expect((await robotRow(t.database, forex.id)).status).toBe('running');

    // Stopping it ends at the next tick: nothing to close anywhere.
    await t.database.exec(`update robots set status = 'stopping' where id = $1`, [forex.id]);
    await runner.heartbeat();
    await runner.tick();
    const row = await robotRow(t.database, forex.id);
    expect(row.status).toBe('stopped');
    expect(row.lease_owner).toBeNull();
    expect((await events(forex.id)).map((e) => e.kind)).toContain('stopped');
    expect(runner.robotIds).toEqual([crypto]);
    await runner.stop();
  });
});

describe('candles the runner records', () => {
  it('go under the live source: imported history is read for warm-up, never extended, and data ranges stay', async () => {
    await stopOthers();
    freshFake();
    const history = { source: 'binance', symbol: 'BTCUSDT', timeframe: '1m' };
    const live = { ...history, source: liveSourceOf('binance') };
    // Imported history: the hour ending half an hour before the fake's market clock.
    const histEnd = fake.timeMs - 30 * 60_000;
    await writeCandles(t.database, history, sliceByTime(candles, histEnd - 60 * 60_000, histEnd));
    const seriesOfKey = async (key: typeof history) => (await listSeries(t.database)).find((s) => s.source === key.source && s.symbol === key.symbol && s.timeframe === key.timeframe);
    const imported = await seriesOfKey(history);
    const ranges = async () => (await t.call('GET', '/order/api/currency-list?dataSource=binance')).json<{ data: { symbol: string; ranges: unknown[] }[] }>().data.find((c) => c.symbol === 'BTCUSDT')?.ranges;
    const rangesBefore = await ranges();

    const owner = await seedAccount(t.database, t.config);
    await seedRobot(t.database, owner);
    const runner = new Runner({ database: t.database, config: t.config, log: silent });
    await runner.tick();
    await minutes(runner, 40);
    await runner.stop();

    // The imported series is exactly as imported; the robot's candles are under binance:live.
    expect(await seriesOfKey(history)).toEqual(imported);
    const recorded = await seriesOfKey(live);
    expect(recorded?.count).toBeGreaterThan(30);
    expect(recorded!.lastTime).toBeGreaterThan(imported!.lastTime);
    expect(imported!.lastTime).toBe(histEnd - 60_000);
    expect(await ranges()).toEqual(rangesBefore);
    // The market page follows the live price.
    const tickers = (await t.call('GET', '/order/api/market/tickers?dataSource=binance', { token: (await registerUser(t)).token })).json<{ data: { list: { symbol: string; at: number | null }[] } }>().data;
    expect(tickers.list.find((x) => x.symbol === 'BTCUSDT')?.at).toBe(recorded!.lastTime);

    // A feed reads the imported history before its first recorded candle, then its own.
    const feed = new CandleFeed(t.database, live, { fetchClosed: () => Promise.resolve([]) }, 100, history);
    const from = histEnd - 45 * 60_000;
    const bars = await feed.range(from, recorded!.lastTime + 60_000);
    expect(bars[0].time).toBe(from);
    expect(bars.at(-1)!.time).toBe(recorded!.lastTime);
    for (let i = 1; i < bars.length; i++) expect(bars[i].time).toBeGreaterThan(bars[i - 1].time);
  });
});

// The shadow backtest on a real runner, fake exchange (127.0.0.1) and database (both): a paper
// robot's shadow books exactly the robot's own fills (paper fills are the backtest's: zero drift by
// construction); checks go on from the stored cursor (only new candles stepped); a new process
// rebuilds the shadow from the stored candles and stores nothing twice; a live robot gets a shadow
// of what the backtest would have traded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getInstrument } from '@lq/engine';
import { getStrategy } from '@lq/strategies';
import { FakeBinance } from '@lq/venues/fake';
import { rowsOf, sql } from '@lq/db';
import { firstCandleSql, Runner } from '../runner';
import type { DriftPair, RobotDrift } from '@lq/contracts';
import { registeredUserWithId, registerUser, startTestApp, type Envelope, type TestApp } from '../../test/helpers';
import { T0, gridParams, seedAccount, seedRobot, waveCandles } from '../../test/robots';
import { opsRunner } from '../../test/ops-runner';
import { FundingRecorder } from './funding';
import { checkAllDrift, checkDrift } from './jobs';
import { driftReportOf, matchingOf } from './report';
import { ShadowMonitor } from './service';

const silent = { info() {}, warn() {}, error() {} };
const candles = waveCandles(4000);
let fake: FakeBinance;
let t: TestApp;

beforeAll(async () => {
  fake = new FakeBinance({ candles: { BTCUSDT: candles } });
  const origin = await fake.listen();
  t = await startTestApp({
    shareSocket: true,
    env: { EXCHANGE_BINANCE_URL: origin, RUNNER_RESOLVE_WINDOW_MS: '300', RUNNER_VENUE_TIMEOUT_MS: '600', RUNNER_LEASE_MS: '60000', RUNNER_CCXT_THROTTLE: 'false' },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function minutes(runner: Runner, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    fake.advance(60_000);
    await runner.tick();
  }
}

const robotFills = (id: number) =>
  t.database.exec<{ client_order_id: string; action: string; price: string; qty: string; at: string }>(
    `select client_order_id, action, price::text as price, qty::text as qty, (extract(epoch from filled_at) * 1000)::bigint::text as at from robot_fills where robot_id = $1 order by id`,
    [id],
  );
const shadowFills = (id: number) =>
  t.database.exec<{ seq: number; client_order_id: string; action: string; price: number; qty: number; filled_at: string }>(
    `select seq, client_order_id, action, price, qty, filled_at::text as filled_at from robot_shadow_fills where robot_id = $1 order by seq`,
    [id],
  );
/** A grid robot on the fake exchange (on a new account of `userId`, or of a new user) and a runner to drive it. */
async function gridRobot(mode: 'paper' | 'live', { params = gridParams(), userId }: { params?: ReturnType<typeof gridParams>; userId?: number } = {}) {
  const owner = await seedAccount(t.database, t.config, 'binance', undefined, userId);
  const id = await seedRobot(t.database, owner, { mode, params });
  return { id, runner: new Runner({ database: t.database, config: t.config, log: silent }) };
}

const lastCandle = async (id: number) => Number((await t.database.exec<{ t: string }>(`select last_candle_at::text as t from robots where id = $1`, [id]))[0].t);

describe('the shadow backtest', () => {
  it('of a paper robot books exactly its fills, goes on incrementally, and rebuilds after a restart without storing twice', async () => {
    fake.reset();
    fake.seed({ balance: 10_000, timeMs: T0 + 18 * 60_000 });
    const { id, runner } = await gridRobot('paper');
    await runner.tick();
    await minutes(runner, 240);
    const monitor = new ShadowMonitor(t.database);
    const first = (await monitor.check(id))!;
    expect(first.rebuilt).toBe(true);
    expect(first.cursor).toBe(await lastCandle(id));
    const robot = await robotFills(id);
    expect(robot.length).toBeGreaterThan(6);
    const shadow = await shadowFills(id);
    // Zero drift by construction: the same fills, at the same times and prices.
    expect(shadow.map((f) => [f.client_order_id, f.action, f.price, f.qty, Number(f.filled_at)])).toEqual(
      robot.map((f) => [f.client_order_id, f.action, Number(f.price), Number(f.qty), Number(f.at)]),
    );
    expect(shadow.map((f) => f.seq)).toEqual(shadow.map((_, i) => i));
    const matched = (await matchingOf(t.database, id))!;
    expect(matched.unpaired).toEqual([]);
    expect(matched.pairs.length).toBe(new Set(robot.map((f) => f.client_order_id)).size);
    expect(matched.pairs.every((p) => p.by === 'leg' && p.offsetMs === 0 && p.slippagePoints === 0 && p.feeDiff === 0)).toBe(true);

    // 60 more minutes: the next check steps those 60 candles only.
    await minutes(runner, 60);
    const second = (await monitor.check(id))!;
    expect(second).toMatchObject({ rebuilt: false, stepped: 60, cursor: await lastCandle(id) });
    expect((await monitor.check(id))!.stepped).toBe(0);
    const robotNow = await robotFills(id);
    expect((await shadowFills(id)).length).toBe(robotNow.length);

    // A new process: rebuilt from the stored candles, the same fills, none stored twice.
    monitor.forget();
    const again = (await monitor.check(id))!;
    expect(again).toMatchObject({ rebuilt: true, fills: robotNow.length, newFills: robotNow.length, cursor: second.cursor });
    expect((await shadowFills(id)).length).toBe(robotNow.length);
    const [row] = await t.database.exec<{ cursor: string; fills: number; equity: number }>(`select cursor::text as cursor, fills, equity from robot_shadows where robot_id = $1`, [id]);
    expect([Number(row.cursor), row.fills]).toEqual([second.cursor, robotNow.length]);
    expect(row.equity).toBeCloseTo(again.equity, 6);

    // The shell checks the same way.
    await minutes(runner, 5);
    const ops = opsRunner(() => t);
    const r = await ops('drift:check', String(id));
    expect(r.code).toBe(0);
    // A new process: it rebuilds the shadow from the robot's first candle, and stores nothing twice.
    const all = (await robotFills(id)).length;
    expect(r.out).toMatch(new RegExp(`robot ${id}: shadow at .*; \\d+ candle\\(s\\) stepped, \\d+ new fill\\(s\\), ${all} in all`));
    expect((await shadowFills(id)).length).toBe(all);
    expect((await ops('drift:check', 'x')).code).toBe(2);
    await t.database.exec(`update robots set status = 'stopped', lease_owner = null where id = $1`, [id]);
    await runner.stop();
  });

  it('of a paper MT5 robot reads the candles the bridge gave the robot and books exactly its fills', async () => {
    // EURUSD from the MT5 bridge: the runner records what the bridge's candle source hands it under
    // `mt5:live`, as for an exchange; the shadow reads them there.
    const eurusd = waveCandles(400, 1.1, 0.004, 60, T0, 5);
    const bars = Array.from({ length: eurusd.length }, (_, i) => ({ time: eurusd.time[i], open: eurusd.open[i], high: eurusd.high[i], low: eurusd.low[i], close: eurusd.close[i], volume: eurusd.volume[i] }));
    let released = 5;
    const bridge = { fetchClosed: (since: number | undefined) => Promise.resolve(bars.slice(0, released).filter((b) => since === undefined || b.time >= since).slice(since === undefined ? -5 : 0)) };
    const owner = await seedAccount(t.database, t.config);
    const [mt5] = await t.database.exec<{ id: number }>(`insert into trading_accounts (user_id, market, exchange, account_name) values ($1, 'forex', 'mt5', 'MT5 demo') returning id::int as id`, [owner.userId]);
    const grid = getStrategy('grid');
    const params = grid.schema.parse({ ...grid.defaults(getInstrument('EURUSD', 'mt5'), { capital: 10_000, price: 1.1 }), interval: '1m', gridNumber: 6 });
    const [robot] = await t.database.exec<{ id: number }>(
      `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status)
       values ($1, $2, 'forex', 'paper', 'grid', 'EURUSD', '1m', $3::jsonb, 10000, 100, 'running') returning id::int as id`,
      [owner.userId, mt5.id, JSON.stringify(params)],
    );
    const runner = new Runner({ database: t.database, config: t.config, log: silent, candleSource: (source) => (source === 'mt5' ? bridge : undefined) });
    await runner.tick();
    for (; released < 300; released++) await runner.tick();
    const check = (await new ShadowMonitor(t.database).check(robot.id))!;
    expect(check.cursor).toBe(await lastCandle(robot.id));
    const fills = await robotFills(robot.id);
    expect(fills.length).toBeGreaterThan(3);
    expect((await shadowFills(robot.id)).map((f) => [f.client_order_id, f.action, f.price, f.qty, Number(f.filled_at)])).toEqual(
      fills.map((f) => [f.client_order_id, f.action, Number(f.price), Number(f.qty), Number(f.at)]),
    );
    const d = (await driftReportOf(t.database, robot.id))!;
    expect([d.unpaired, d.gap.total]).toEqual([[], 0]);
    await t.database.exec(`update robots set status = 'stopped', lease_owner = null where id = $1`, [robot.id]);
    await runner.stop();
  });

  it('of a live robot holds what the backtest would have traded over its candles', async () => {
    fake.reset();
    fake.seed({ balance: 10_000, timeMs: T0 + 1000 * 60_000 });
    const { id, runner } = await gridRobot('live');
    await runner.tick();
    await minutes(runner, 180);
    const check = (await new ShadowMonitor(t.database).check(id))!;
    expect(check.cursor).toBe(await lastCandle(id));
    expect(check.stepped).toBe(check.cursor === null ? 0 : (check.cursor - (await firstCandle(id))) / 60_000 + 1);
    expect(check.fills).toBeGreaterThan(0);
    expect((await robotFills(id)).length).toBeGreaterThan(0);
    expect(await new ShadowMonitor(t.database).check(99_999_999)).toBeNull();
    await t.database.exec(`update robots set status = 'stopping' where id = $1`, [id]);
    await runner.heartbeat();
    await minutes(runner, 3);
    await runner.stop();
  });
});

describe('matching a live robot with its shadow', () => {
  it('names the venue’s refusal and the pause that followed for the trades the robot missed', async () => {
    fake.reset();
    // Too little margin at the venue for the grid's first orders: refused, the robot pauses.
    fake.seed({ balance: 50, timeMs: T0 + 2000 * 60_000 });
    const { id, runner } = await gridRobot('live', { params: gridParams({ lotsPerGrid: 5, addImmediately: true }) });
    await runner.tick();
    await minutes(runner, 120);
    const [row] = await t.database.exec<{ status: string }>(`select status from robots where id = $1`, [id]);
    expect(row.status).toBe('paused');
    await new ShadowMonitor(t.database).check(id);
    const m = (await matchingOf(t.database, id))!;
    const missed = m.unpaired.filter((u) => u.on === 'shadow');
    expect(missed.length).toBeGreaterThan(1);
    expect(missed[0]).toMatchObject({ cause: 'refused', detail: expect.stringMatching(/insufficient/i) as string });
    expect(missed.slice(1).some((u) => u.cause === 'paused')).toBe(true);
    expect(missed.every((u) => u.cause !== 'unknown')).toBe(true);
    expect(m.unpaired.filter((u) => u.on === 'live')).toEqual([]);
    // The gap is live − shadow, and its parts add up to it.
    const d = (await driftReportOf(t.database, id))!;
    expect(d.gap.total).toBeCloseTo(d.live.pnl - d.shadow.pnl, 6);
    expect(d.gap.slippage + d.gap.fees + d.gap.funding + d.gap.missed + d.gap.extra + d.gap.timing).toBeCloseTo(d.gap.total, 6);
    expect(d.shadow.trades).toBeGreaterThan(d.live.trades);

    // Alerts: a missed trade tells the owner once; the gap past the threshold once per crossing.
    const monitor = new ShadowMonitor(t.database);
    const drifts = async () => t.database.exec<{ event_key: string; params: { missed: number; gap: string } }>(`select event_key, params from notifications where kind = 'robot.drift' and params->>'robotId' = $1 order by id`, [String(id)]);
    await t.database.exec(`update robots set drift_alert_pct = 100 where id = $1`, [id]);
    expect((await checkDrift(t.database, monitor, id))?.told).toEqual(['missed']);
    expect((await checkDrift(t.database, monitor, id))?.told).toEqual([]);
    await t.database.exec(`update robots set drift_alert_pct = 0.01 where id = $1`, [id]);
    expect((await checkDrift(t.database, monitor, id))?.told).toEqual(['gap']);
    expect((await checkDrift(t.database, monitor, id))?.told).toEqual([]);
    const told = await drifts();
    expect(told.map((n) => n.event_key)).toEqual([`drift:${id}:missed:${missed.length}`, `drift:${id}:gap:1`]);
    expect(told[1].params).toMatchObject({ missed: missed.length, gap: d.gap.pct.toFixed(2) });
    // Back under the threshold, then over again: a second crossing, told once more.
    await t.database.exec(`update robots set drift_alert_pct = 100 where id = $1`, [id]);
    expect((await checkDrift(t.database, monitor, id))?.told).toEqual([]);
    await t.database.exec(`update robots set drift_alert_pct = 0.01 where id = $1`, [id]);
    expect((await checkDrift(t.database, monitor, id))?.told).toEqual(['gap']);
    expect((await drifts()).at(-1)?.event_key).toBe(`drift:${id}:gap:2`);
    await t.database.exec(`update robots set status = 'stopped', lease_owner = null where id = $1`, [id]);
    await runner.stop();
  });
});

describe('a live robot on the fake exchange with injected faults', () => {
  // The same robot, from the same candle, twice: clean, then with a slippage of 20 basis points on
  // every market order, 3 minutes of latency (market time) on the first take-profit and a refusal
  // (too little margin) of a re-armed level, which pauses the robot. The shadow is the same both
  // times; the report must find each fault and size it.
  const SLIPPAGE_BPS = 20;
  const faults = [
    { method: 'POST', path: '/fapi/v1/order', skip: 7, times: 1, action: { type: 'http' as const, status: 400, venueCode: -2019, msg: 'Margin is insufficient.' } },
    { method: 'POST', path: '/fapi/v1/order', skip: 6, times: 1, action: { type: 'latency' as const, ms: 0, marketMs: 3 * 60_000 } },
    { method: 'POST', path: '/fapi/v1/order', times: 0, action: { type: 'slippage' as const, bps: SLIPPAGE_BPS } },
  ];
  // Each run starts later than the last (the runner's recorded candles only go forward), at the
  // same phase of the 90-minute wave, so both see the same prices.
  async function run(withFaults: boolean, startMs: number): Promise<RobotDrift> {
    fake.reset();
    fake.seed({ balance: 10_000, timeMs: startMs });
    if (withFaults) for (const f of faults) fake.addFault(f);
    const { id, runner } = await gridRobot('live');
    await runner.tick();
    await minutes(runner, 240);
    await new ShadowMonitor(t.database).check(id);
    const d = (await driftReportOf(t.database, id))!;
    await t.database.exec(`update robots set status = 'stopped', lease_owner = null where id = $1`, [id]);
    await runner.stop();
    return d;
  }

  it('names and sizes each: slippage, latency, the refusal and the pause after it', async () => {
    const cleanStart = T0 + (24 * 90 + 18) * 60_000;
    const faultyStart = T0 + (27 * 90 + 18) * 60_000;
    const clean = await run(false, cleanStart);
    const faulty = await run(true, faultyStart);
    expect(fake.journal.filter((j) => j.fault).map((j) => j.fault)).toEqual(expect.arrayContaining(['slippage', 'latency', 'http']));
    // Same candles, same start: the same shadow.
    const shadowOf = (d: RobotDrift, start: number) =>
      [...d.pairs.map((p) => p.shadow), ...d.unpaired.filter((u) => u.on === 'shadow').map((u) => u.trade)].map((x) => [x.time - start, x.action, x.price]).sort();
    expect(shadowOf(faulty, faultyStart)).toEqual(shadowOf(clean, cleanStart));
    const shift = faultyStart - cleanStart;
    const cleanPair = new Map(clean.pairs.map((p) => [`${p.shadow.time + shift}:${p.shadow.action}`, p]));
    const against = (p: DriftPair) => p.moveMoney + p.slippageMoney;

    // Latency: the first take-profit reached the book 3 minutes late; the report puts the price the
    // market made meanwhile in timing, none in slippage.
    const late = faulty.pairs.find((p) => p.live.action === 'close')!;
    const lateClean = cleanPair.get(`${late.shadow.time}:close`)!;
    expect(late.offsetMs - lateClean.offsetMs).toBeGreaterThanOrEqual(3 * 60_000);
    expect(late.movePoints).not.toBe(0);
    expect(late.slippagePoints).toBe(0);

    // Slippage: each market close the faulty run made when the clean run made it (the late one
    // moved the next ones' timing) filled 20 bps worse, and the report's price effect grew by exactly that.
    const slipped = faulty.pairs.filter((p) => p.live.action === 'close' && p !== late && cleanPair.get(`${p.shadow.time}:close`)?.live.time === p.live.time - shift);
    expect(slipped.length).toBeGreaterThanOrEqual(2);
    for (const p of slipped) {
      const c = cleanPair.get(`${p.shadow.time}:close`)!;
      const injected = (c.live.price * SLIPPAGE_BPS) / 10_000;
      expect(Math.abs(c.live.price - p.live.price - injected)).toBeLessThanOrEqual(0.1); // to the tick
      expect(against(p) - against(c)).toBeCloseTo(injected * p.live.qty * getInstrument('BTCUSDT', 'binance').contractSize, 3);
    }

    // The refusal and the pause it caused: each missed trade has its cause, none unknown; the closes
    // of positions never opened say so.
    const missed = faulty.unpaired.filter((u) => u.on === 'shadow');
    expect(missed.find((u) => u.cause === 'refused')?.detail).toMatch(/Margin is insufficient/);
    expect(missed.filter((u) => u.cause === 'paused').length).toBeGreaterThan(3);
    expect(missed.some((u) => u.cause === 'openMissed')).toBe(true);
    expect(missed.filter((u) => u.cause === 'unknown')).toEqual([]);
    expect(faulty.gap.missed).toBeCloseTo(-missed.reduce((sum, u) => sum + u.trade.pnl - u.trade.fee, 0), 6);
    // The parts add up to the gap.
    const parts = faulty.gap.slippage + faulty.gap.fees + faulty.gap.funding + faulty.gap.missed + faulty.gap.extra + faulty.gap.timing;
    expect(parts).toBeCloseTo(faulty.gap.total, 6);
    // Without faults nothing is missed.
    expect(clean.unpaired).toEqual([]);
  }, 240_000);
});

describe('the drift report API', () => {
  it('answers a robot’s owner both sides, a zero gap for a paper robot, both curves and the pairs as CSV; nobody else', async () => {
    fake.reset();
    fake.seed({ balance: 10_000, timeMs: T0 + (33 * 90 + 18) * 60_000 }); // a little before a crest: a long grid trades
    const user = await registeredUserWithId(t);
    const { id, runner } = await gridRobot('paper', { userId: user.id });
    await runner.tick();
    await minutes(runner, 200);
    const res = await t.call('GET', `/order/api/robot/drift/${id}`, { token: user.token });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json<Envelope<RobotDrift>>().data;
    expect(d.cursor).toBe(await lastCandle(id));
    expect(d.pairs.length).toBeGreaterThan(3);
    expect(d.unpaired).toEqual([]);
    expect(d.live).toEqual(d.shadow);
    expect(d.gap).toEqual({ total: 0, pct: 0, slippage: 0, fees: 0, funding: 0, missed: 0, extra: 0, timing: 0 });
    expect(d.curves.live).toEqual(d.curves.shadow);
    expect(d.curves.live[0]).toEqual({ time: d.fromMs, value: d.capital });
    expect(d.curves.live.at(-1)!.time).toBe(d.cursor);

    const csv = await t.call('GET', `/order/api/robot/drift/${id}/pairs.csv`, { token: user.token });
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('kind,cause,action,side,shadow_time,shadow_price,shadow_qty,shadow_fee,live_time,live_price,live_qty,live_fee,offset_s,move_points,move_money,slippage_points,slippage_money,fee_diff,qty_short,funding,order_id');
    expect(lines.length).toBe(d.pairs.length + 1);
    expect(lines[1]).toMatch(/^pair-leg,,(open|close),(long|short),/);

    expect(d.alert).toEqual({ gapPct: 2, onMissed: true });
    const alert = await t.call('POST', '/order/api/robot/drift/alert', { token: user.token, body: { id, gapPct: 3.5, onMissed: false } });
    expect(alert.statusCode, alert.body).toBe(200);
    expect((await t.call('GET', `/order/api/robot/drift/${id}`, { token: user.token })).json<Envelope<RobotDrift>>().data.alert).toEqual({ gapPct: 3.5, onMissed: false });
    const badAlert = await t.call('POST', '/order/api/robot/drift/alert', { token: user.token, body: { id, gapPct: 0, onMissed: true } });
    expect([badAlert.statusCode, badAlert.json<Envelope<{ field: string }>>().data.field]).toEqual([422, 'gapPct']);

    const stranger = await registerUser(t);
    expect((await t.call('POST', '/order/api/robot/drift/alert', { token: stranger.token, body: { id, gapPct: 5, onMissed: true } })).statusCode).toBe(404);
    expect((await t.call('GET', `/order/api/robot/drift/${id}`, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/order/api/robot/drift/${id}`)).statusCode).toBe(401);
    expect((await t.call('GET', '/order/api/robot/drift/abc', { token: user.token })).statusCode).toBe(422);
    await t.database.exec(`update robots set status = 'stopped', lease_owner = null where id = $1`, [id]);
    await runner.stop();
  });
});

describe('funding', () => {
  it('a live robot’s funding payments are read from the venue once each and are the funding part of the gap', async () => {
    fake.reset();
    // 0.1 % per settlement (every 8 hours): the long grid holds at 16:00 UTC (T0 + 64 h) and pays it.
    fake.seed({ balance: 10_000, timeMs: T0 + (41 * 90 + 18) * 60_000, fundingRate: 0.001 });
    const user = await registeredUserWithId(t);
    const { id, runner } = await gridRobot('live', { userId: user.id });
    await runner.tick();
    await minutes(runner, 240);
    const paid = fake.book.funding.filter((f) => f.symbol === 'BTCUSDT');
    expect(paid.length).toBeGreaterThan(0);
    expect(paid.every((f) => f.amount < 0)).toBe(true); // a long pays a positive rate

    const recorder = new FundingRecorder(t.database, t.config);
    expect(await recorder.record(id)).toBe(paid.length);
    expect(await recorder.record(id)).toBe(0); // nothing settled since: the venue is not asked
    expect(await new FundingRecorder(t.database, t.config).record(id)).toBe(0); // a new process: asked, nothing new
    const monitor = new ShadowMonitor(t.database);
    await monitor.check(id);
    const d = (await driftReportOf(t.database, id))!;
    const total = paid.reduce((sum, f) => sum + f.amount, 0);
    expect(d.live.funding).toBeCloseTo(total, 6);
    expect(d.shadow.funding).toBe(0);
    expect(d.gap.funding).toBeCloseTo(total, 6);
    expect(d.gap.slippage + d.gap.fees + d.gap.funding + d.gap.missed + d.gap.extra + d.gap.timing).toBeCloseTo(d.gap.total, 6);
    // The live curve steps at the settlement too.
    expect(d.curves.live.some((p) => p.time === paid[0].time)).toBe(true);
    // Per position: each settlement shared among the grid's tickets open then, on the trades that opened them.
    const onTrades = [...d.pairs.map((p) => p.funding), ...d.unpaired.map((u) => u.funding)];
    expect(onTrades.reduce((sum, f) => sum + f, 0)).toBeCloseTo(total, 6);
    const funded = d.pairs.filter((p) => p.funding !== 0);
    expect(funded.length).toBeGreaterThan(0);
    for (const p of funded) {
      expect(p.live.action).toBe('open');
      expect(p.live.time).toBeLessThan(paid.at(-1)!.time);
    }
    const csv = await t.call('GET', `/order/api/robot/drift/${id}/pairs.csv`, { token: user.token });
    const rows = csv.body.trim().split('\r\n').map((line) => line.split(','));
    const col = rows[0].indexOf('funding');
    expect(rows.slice(1).reduce((sum, r) => sum + Number(r[col] || 0), 0)).toBeCloseTo(total, 6);

    // The job: a venue that cannot tell the funding is logged and the check goes on.
    const warned: unknown[] = [];
    const broken = new FundingRecorder(t.database, t.config, () => Promise.reject(new Error('venue down')));
    await t.database.exec(`delete from robot_funding where robot_id = $1`, [id]);
    const pass = await checkAllDrift(t.database, monitor, { warn: (o: unknown) => void warned.push(o) }, broken);
    expect(pass.failed).toBe(0);
    expect(warned.length).toBeGreaterThan(0);
    await t.database.exec(`update robots set status = 'stopped', lease_owner = null where id = $1`, [id]);
    await runner.stop();
  });
});

async function firstCandle(id: number): Promise<number> {
  const [r] = rowsOf<{ from_ms: string }>(await t.database.db.execute(sql`select ${firstCandleSql('r')} as from_ms from robots r where r.id = ${id}`));
  return Number(r.from_ms);
}

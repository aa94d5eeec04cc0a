// Volume from made-up fills (issue 53 item 12) on a real app and database: live MT5 fills written
// as the runner writes them wait for the check (crypto fills do not); the check against the
// recorded 1m candles marks a made-up price, fills beyond their order and a size the account could
// not margin as suspect, lets an honest fill, a close and a fill near the candle's edge through,
// leaves a fill whose minute has no candle yet waiting and marks it after a day; run again, it
// changes nothing. VIP,
// rankings and team volume leave the suspect fills out (the two cheaters reach VIP1 on the old
// code); `npm run ops fills:suspect` lists them (the console's dashboard and user panel:
// console/console.int.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountNotionalOf, candlesFromRows, getInstrument, type Fill, type Instrument } from '@lq/engine';
import type { TeamList } from '@lq/contracts';
import { registeredUserWithId, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { opsRunner } from '../../test/ops-runner';
import { liveSourceOf, writeCandles } from '../market';
import { computeRankings, computeVip } from '../referrals';
import { insertFills } from '../runner';
import { checkMt5Fills, FILL_CHECK_GIVE_UP_MS } from './fill-check';

const TZ = 'Asia/Shanghai';
const MIN = 60_000;
// The candles: EURUSD 1.1000–1.1010 each minute of 04:00–04:09 and 04:55–05:04 UTC on 2026-11-10.
const T0 = Date.parse('2026-11-10T04:00:00Z');
const NOW = T0 + 60 * MIN;
const OWNER = 'fill-check-test';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true, env: { PLATFORM_TIMEZONE: TZ } });
  const rows = [...Array.from({ length: 10 }, (_, i) => i), ...Array.from({ length: 10 }, (_, i) => 55 + i)].map((i) => ({ time: T0 + i * MIN, open: 1.1005, high: 1.101, low: 1.1, close: 1.1005, volume: 10 }));
  await writeCandles(t.database, { source: liveSourceOf('mt5'), symbol: 'EURUSD', timeframe: '1m' }, candlesFromRows(rows, MIN));
});
afterAll(() => t?.close());

type User = RegisteredUser & { id: number };

/** A live robot on a new account of `u` (MT5: equity 1,000 USD at 1:100, or as given), leased to this test so the runner's inserts take its orders and fills. */
async function robotOf(u: User, exchange: 'mt5' | 'binance', state: Record<string, unknown> = { balance: 1000, equity: 1000, currency: 'USD', demo: false }): Promise<number> {
  const [acc] = await t.database.exec<{ id: string }>(
    `insert into trading_accounts (user_id, market, exchange, account_name, key_last4, leverage, bridge_state)
     values ($1, $2, $3, 'a', 'abcd', 100, $4::jsonb) returning id::text as id`,
    [u.id, exchange === 'mt5' ? 'forex' : 'crypto', exchange, exchange === 'mt5' ? JSON.stringify(state) : null],
  );
  const [r] = await t.database.exec<{ id: string }>(
    `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status, created_at, lease_owner, lease_until)
     values ($1, $2, $3, 'live', 'grid', $4, '1m', '{}', 1000, 10, 'running', '2026-11-09T00:00:00Z', $5, now() + interval '1 hour') returning id::text as id`,
    [u.id, Number(acc.id), exchange === 'mt5' ? 'forex' : 'crypto', exchange === 'mt5' ? 'EURUSD' : 'BTCUSDT', OWNER],
  );
  instrumentOf.set(Number(r.id), exchange === 'mt5' ? getInstrument('EURUSD', 'mt5') : getInstrument('BTCUSDT', 'binance'));
  return Number(r.id);
}

const instrumentOf = new Map<number, Instrument>();
let seq = 0;

/** An order as the runner journals it: an open of `qty`, or a close of the ticket opened by `ticket`; its client order id. */
async function order(robotId: number, o: { qty: number } | { closes: string }): Promise<string> {
  const tag = `t${++seq}`;
  const open = 'qty' in o;
  const intent = open ? { kind: 'open', tag, side: 'long', qty: o.qty, type: 'market' } : { kind: 'close', tag, ticket: o.closes, type: 'market', reason: 'signal' };
  await t.database.exec(
    `insert into robot_intents (robot_id, client_order_id, tag, ticket, action, position_side, request, intent, state)
     values ($1, $2, $3, $4, $5, 'long', '{}', $6::jsonb, 'filled')`,
    [robotId, `c-${tag}`, tag, open ? tag : o.closes, open ? 'open' : 'close', JSON.stringify(intent)],
  );
  return `c-${tag}`;
}

/** A fill as the runner books it from the venue's report, of its own open order unless one is given. */
async function fill(robotId: number, f: { qty: number; price: number; at: number; action?: 'open' | 'close'; order?: string | null }): Promise<string> {
  const clientOrderId = f.order === undefined ? await order(robotId, { qty: f.qty }) : (f.order ?? `not-ours-${seq}`);
  const key = `k${++seq}`;
  const booked: Fill = { tag: key, ticket: key, action: f.action ?? 'open', side: 'long', qty: f.qty, price: f.price, fee: 0, pnl: 0, reason: null, time: f.at, maker: false };
  const notional = accountNotionalOf(f.qty, f.price, instrumentOf.get(robotId)!);
  await insertFills(t.database, robotId, [{ clientOrderId, key, fill: booked, notional }], OWNER);
  return key;
}

const fillState = async (key: string) =>
  (await t.database.exec<{ suspect: string | null; checked: boolean }>(`select suspect, checked_at is not null as checked from robot_fills where fill_key = $1`, [key]))[0];

describe('suspect MT5 fills', () => {
  let honest: User, fakePrice: User, fakeSize: User, overfill: User, demo: User, referrer: User;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    referrer = await registeredUserWithId(t);
    honest = await registeredUserWithId(t, referrer.userCode);
    fakePrice = await registeredUserWithId(t, referrer.userCode);
    fakeSize = await registeredUserWithId(t, referrer.userCode);
    overfill = await registeredUserWithId(t, referrer.userCode);
    demo = await registeredUserWithId(t);
  });

  it('waits for the check (MT5 only), then marks made-up fills suspect and lets the rest through', async () => {
    const h = await robotOf(honest, 'mt5');
    // 0.1 lot at the market: 11,005 notional, 110 margin at 1:100; its close (which waits for the open to be judged); a buy at the ask just above the high.
    const opened = await order(h, { qty: 0.1 });
    keys.honest = await fill(h, { qty: 0.1, price: 1.1005, at: T0 + 2 * MIN + 5_000, order: opened });
    keys.close = await fill(h, { qty: 0.1, price: 1.1008, at: T0 + 3 * MIN, action: 'close', order: await order(h, { closes: opened.slice(2) }) });
    keys.edge = await fill(h, { qty: 0.01, price: 1.1025, at: T0 + 4 * MIN });
    // A minute with no candle: within the day it waits, after a day it is suspect.
    keys.noCandle = await fill(h, { qty: 0.01, price: 1.2, at: T0 + 30 * MIN });
    keys.old = await fill(h, { qty: 0.01, price: 1.2, at: T0 - FILL_CHECK_GIVE_UP_MS - 60 * MIN });
    // Younger than two minutes: not looked at yet.
    keys.fresh = await fill(h, { qty: 0.01, price: 1.1005, at: NOW - 30_000 });
    // A modified EA: 0.01 lot "at" 5,000,000; 1 lot at the market (110,050 notional needing 1,100 of margin, equity 1,000); a fill of no order of ours.
    const p = await robotOf(fakePrice, 'mt5');
    keys.fakePrice = await fill(p, { qty: 0.01, price: 5_000_000, at: T0 + 5 * MIN });
    keys.notOurs = await fill(p, { qty: 0.01, price: 1.1005, at: T0 + 5 * MIN, order: null });
    keys.fakeSize = await fill(await robotOf(fakeSize, 'mt5'), { qty: 1, price: 1.1005, at: T0 + 6 * MIN });
    // An order of 0.01 lot the EA reports filled, then 0.3 more (within the margin): the second passes the order, and
    // the close of that ticket (0.31) passes what was opened honestly.
    const o = await robotOf(overfill, 'mt5');
    const small = await order(o, { qty: 0.01 });
    keys.withinOrder = await fill(o, { qty: 0.01, price: 1.1005, at: T0 + 7 * MIN, order: small });
    keys.overOrder = await fill(o, { qty: 0.3, price: 1.1005, at: T0 + 7 * MIN + 1_000, order: small });
    keys.overClose = await fill(o, { qty: 0.31, price: 1.1005, at: T0 + 8 * MIN, action: 'close', order: await order(o, { closes: small.slice(2) }) });
    // A demo account's fill (play money) and one of an EA that reports no equity.
    keys.demo = await fill(await robotOf(demo, 'mt5', { balance: 1000, equity: 1000, demo: true }), { qty: 0.01, price: 1.1005, at: T0 + 6 * MIN });
    keys.noEquity = await fill(await robotOf(demo, 'mt5', { balance: 1000 }), { qty: 0.01, price: 1.1005, at: T0 + 6 * MIN });
    // A crypto fill is the exchange's own report: checked as written.
    keys.crypto = await fill(await robotOf(honest, 'binance'), { qty: 0.01, price: 60_000, at: T0 + 5 * MIN });

    for (const k of ['honest', 'fakePrice', 'fakeSize', 'overOrder', 'noCandle']) expect(await fillState(keys[k])).toEqual({ suspect: null, checked: false });
    expect(await fillState(keys.crypto)).toEqual({ suspect: null, checked: true });

    const run = await checkMt5Fills(t.database, NOW);
    // Waiting: the two closes (their opens unchecked when read), the minute without a candle, the one without equity.
    expect(run).toEqual({ checked: 9, suspect: 6, waiting: 4 });
    expect(await fillState(keys.fakePrice)).toEqual({ suspect: 'outsideCandle', checked: true });
    expect(await fillState(keys.notOurs)).toEqual({ suspect: 'overOrder', checked: true });
    expect(await fillState(keys.fakeSize)).toEqual({ suspect: 'overMargin', checked: true });
    expect(await fillState(keys.overOrder)).toEqual({ suspect: 'overOrder', checked: true });
    expect(await fillState(keys.demo)).toEqual({ suspect: 'demoAccount', checked: true });
    expect(await fillState(keys.old)).toEqual({ suspect: 'noCandle', checked: true });
    for (const k of ['honest', 'edge', 'withinOrder']) expect(await fillState(keys[k]), k).toEqual({ suspect: null, checked: true });
    for (const k of ['close', 'overClose', 'noCandle', 'noEquity', 'fresh']) expect(await fillState(keys[k]), k).toEqual({ suspect: null, checked: false });

    // Again: the closes are judged (one's open honest, the other's suspect); three minutes on, the fresh one (its
    // candle is there); a day on, those without a candle or an equity are suspect.
    expect(await checkMt5Fills(t.database, NOW)).toEqual({ checked: 2, suspect: 1, waiting: 2 });
    expect(await fillState(keys.close)).toEqual({ suspect: null, checked: true });
    expect(await fillState(keys.overClose)).toEqual({ suspect: 'overOrder', checked: true });
    expect(await checkMt5Fills(t.database, NOW + 3 * MIN)).toEqual({ checked: 1, suspect: 0, waiting: 2 });
    expect(await fillState(keys.fresh)).toEqual({ suspect: null, checked: true });
    expect(await checkMt5Fills(t.database, NOW + FILL_CHECK_GIVE_UP_MS + MIN)).toEqual({ checked: 2, suspect: 2, waiting: 0 });
    expect(await fillState(keys.noCandle)).toEqual({ suspect: 'noCandle', checked: true });
    expect(await fillState(keys.noEquity)).toEqual({ suspect: 'overMargin', checked: true });

    // Two passes at once (two workers, or a pass still running at the next minute): each fill judged once.
    keys.twice = await fill(await robotOf(fakePrice, 'mt5'), { qty: 0.01, price: 7, at: T0 + 9 * MIN });
    const both = await Promise.all([checkMt5Fills(t.database, NOW), checkMt5Fills(t.database, NOW)]);
    expect(await fillState(keys.twice)).toEqual({ suspect: 'outsideCandle', checked: true });
    expect(both[0].checked + both[1].checked).toBe(1);
    expect(both[0].suspect + both[1].suspect).toBe(1);
  });

  it('counts each fill at its value in USD (lots of 100,000 EUR, contracts of 0.01 BTC) and leaves suspect fills out of VIP volume, the rankings and the team', async () => {
    await computeVip(t.database.db, TZ, '2026-11-20');
    const vip = async (u: User) =>
      (await t.database.exec<{ own: string; reached: string }>('select own_volume::text as own, reached from vip_progress where user_id = $1', [u.id]))[0];
    // The cheaters' 5,000,000,000 and 110,050 would each reach VIP1 (own volume ≥ 10,000).
    expect(await vip(fakePrice)).toMatchObject({ own: '0.00', reached: 'none' });
    expect(await vip(fakeSize)).toMatchObject({ own: '0.00', reached: 'none' });
    expect((await vip(overfill)).own).toBe('1100.50'); // the 0.01 lot within its order counts
    // 0.1 lot at 1.1005 is 11,005 USD (|qty × price| said 0.11); opened, closed, 0.01 near the high, 0.01 fresh; and
    // 0.01 BTC contract at 60,000 is 6 USDT (|qty × price| said 600). The two fills without a candle are out.
    expect(await vip(honest)).toMatchObject({ own: '24222.00', reached: 'VIP1' });

    await computeRankings(t.database.db, TZ, '2026-11-20');
    const ranked = await t.database.exec<{ user_id: string }>(`select user_id::text as user_id from ranking_entries where board = 'volume'`);
    expect(ranked.map((r) => Number(r.user_id))).toContain(honest.id);
    expect(ranked.map((r) => Number(r.user_id))).not.toContain(fakePrice.id);
    expect(ranked.map((r) => Number(r.user_id))).not.toContain(fakeSize.id);
    expect(ranked.map((r) => Number(r.user_id))).toContain(overfill.id);

    const team = (await t.call('GET', '/user/api/team/list', { token: referrer.token })).json<Envelope<TeamList>>().data;
    const volumeOf = (u: User) => team.list.find((m) => m.id === u.id)?.volume;
    expect(volumeOf(fakePrice)).toBe('0.00');
    expect(volumeOf(fakeSize)).toBe('0.00');
    expect(volumeOf(honest)).toBe('24222.00');
  });

  it('lists them for operators: npm run ops fills:suspect', async () => {
    const ops = opsRunner(() => t);
    const listed = await ops('fills:suspect', '--check');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('fill check: 0 checked');
    expect(listed.out).toContain(fakePrice.mail);
    expect(listed.out).toMatch(/overMargin/);
    expect((await ops('fills:suspect', 'x')).code).toBe(2);
  });
});

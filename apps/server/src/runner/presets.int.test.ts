// Every preset the recommendation offers starts a robot that places its first order: recommended
// on real candles (../shared/data), created through the robot API on an account of the fake
// Binance and of the fake OKX (127.0.0.1, real ccxt), and for forex on an MT5 account whose fake
// terminal dials the bridge, then driven by the runner until the venue has taken its first order. Sizes the venue cannot take are corrected or refused at create, so
// none of these robots may pause on an order the venue refuses.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRIDGE_PATH } from '@lq/contracts';
import { getInstrument, sliceByTime, type Candles } from '@lq/engine';
import { loadCandlesFile } from '@lq/workers';
import { FakeEa, FakeMt5Broker } from '@lq/venues';
import { FakeBinance, FakeOkx, type FakeVenueServer } from '@lq/venues/fake';
import { Runner } from '.';
import { tokenHash } from '../bridge';
import { writeCandles } from '../market';
import { registerUser, type Envelope, type TestApp, startTestApp } from '../../test/helpers';
import { seedAccount } from './test-helpers';

const DATA = `${process.env.SHARED_DIR ?? new URL('../../../../../shared', import.meta.url).pathname}/data`;
const ms = (iso: string) => Date.parse(iso);
/**
 * The crypto symbols with the days of their 1m files: the store holds `history` (recommended on),
 * the fakes replay `live` after it.
 */
const CRYPTO = [
  { symbol: 'BTCUSDT', history: ['2025-09-25', '2025-11-27'], recommend: ['2025-10-01', '2025-11-26'] },
  { symbol: 'ETHUSDT', history: ['2021-05-16', '2021-06-10'], recommend: ['2021-05-16', '2021-06-09'] },
] as const;
const STRATEGIES = ['single', 'grid'] as const;
const silent = process.env.RUNNER_TEST_LOG ? { info: console.log, warn: console.log, error: console.log } : { info() {}, warn() {}, error() {} };

let t: TestApp;
let binance: FakeBinance;
let okx: FakeOkx;
let token: string;
let userId: number;
let bridgeUrl: string;
const eas: FakeEa[] = [];
const accounts: Record<'binance' | 'okx', number> = { binance: 0, okx: 0 };

interface Preset {
  tier: string;
  params: Record<string, unknown>;
}

beforeAll(async () => {
  const live: Record<string, Candles> = {};
  const history = new Map<string, Candles>();
  for (const c of CRYPTO) {
    const all = loadCandlesFile(`${DATA}/binance_${c.symbol}_1m.csv.gz`);
    const liveFrom = ms(`${c.history[1]}T00:00:00Z`);
    history.set(c.symbol, sliceByTime(all, ms(`${c.history[0]}T00:00:00Z`), liveFrom));
    live[c.symbol] = sliceByTime(all, liveFrom, liveFrom + 4 * 86_400_000);
  }
  binance = new FakeBinance({ candles: live });
  okx = new FakeOkx({ candles: live });
  const env = {
    EXCHANGE_BINANCE_URL: await binance.listen(),
    EXCHANGE_OKX_URL: await okx.listen(),
    RUNNER_RESOLVE_WINDOW_MS: '300',
    RUNNER_VENUE_TIMEOUT_MS: '2000',
    RUNNER_LEASE_MS: '60000',
    RUNNER_CCXT_THROTTLE: 'false',
  };
  t = await startTestApp({ jobs: true, env: { ...env, AUTH_CACHE_MS: '0' } });
  for (const c of CRYPTO) await writeCandles(t.database, { source: 'binance', symbol: c.symbol, timeframe: '1m' }, history.get(c.symbol)!);
  await writeCandles(t.database, { source: 'dukascopy', symbol: 'EURUSD', timeframe: '1m' }, loadCandlesFile(`${DATA}/dukascopy_EURUSD_1m.csv.gz`));
  bridgeUrl = `${(await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws')}${BRIDGE_PATH}`;
  const u = await registerUser(t);
  token = u.token;
  const [row] = await t.database.exec<{ id: number }>(`update users set user_level = 'VIP1' where mail = $1 returning id::int as id`, [u.mail]);
  userId = row.id;
  accounts.binance = (await seedAccount(t.database, t.config, 'binance', undefined, userId)).accountId;
  accounts.okx = (await seedAccount(t.database, t.config, 'okx', undefined, userId)).accountId;
  // One seat per account and market is the basic right; the two crypto accounts need two.
  await t.database.exec(`insert into entitlement_grants (user_id, kind, market, quantity, origin, note) values ($1, 'seat', 'crypto', 1, 'operator', 'test')`, [userId]);
  // Forex: a fresh MT5 account (and terminal) per robot.
  await t.database.exec(`insert into entitlement_grants (user_id, kind, market, quantity, origin, note) values ($1, 'seat', 'forex', 20, 'operator', 'test')`, [userId]);
}, 300_000);
afterAll(async () => {
  for (const ea of eas) ea.close();
  await t?.close();
  await binance?.close();
  await okx?.close();
});

async function recommend(strategy: string, symbol: string): Promise<Preset[]> {
  const forex = symbol === 'EURUSD';
  const range = CRYPTO.find((c) => c.symbol === symbol)?.recommend ?? ['2010-09-01', '2010-09-30'];
  const res = await t.call('POST', '/order/api/backtest/recommend/create', {
    token,
    lang: 'en_US',
    body: forex
      ? { strategy, dataSource: 'mt5', symbol, capital: 10_000, start: range[0], end: range[1], params: { leverage: 100, interval: '15m', spread: 10 }, budget: 12, seed: 7 }
      : { strategy, dataSource: 'binance', symbol, capital: 10_000, start: range[0], end: range[1], params: { leverage: 10, interval: '15m' }, budget: 20, seed: 7 },
  });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json<Envelope<{ id: number }>>().data.id;
  for (;;) {
    const r = (await t.call('GET', `/order/api/backtest/recommend/detail?id=${id}`, { token })).json<
      Envelope<{ status: string; error: string | null; result: { presets: Preset[] } | null }>
    >().data;
    if (r.status !== 'running') {
      expect(r.status, r.error ?? '').toBe('done');
      return r.result!.presets;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs the robot on one fake until the venue holds its first order (the next call retires it). */
/** The venue of one robot: a fake exchange (reset), or a fresh MT5 account with its terminal online. */
interface Market {
  label: string;
  dataSource: string;
  accountId: number;
  /** One market minute passes. */
  advance(): void;
}

function exchangeMarket(fake: FakeVenueServer, exchange: 'binance' | 'okx', symbol: string): Market {
  // A fresh account; the market clock goes on from where it was (time never runs backwards: the
  // store already holds the candles the last robot saw).
  const at = Math.max(fake.timeMs, ms(`${CRYPTO.find((c) => c.symbol === symbol)!.history[1]}T00:00:00Z`) + 3_600_000);
  fake.reset();
  fake.seed({ balance: 100_000, timeMs: at });
  return { label: exchange, dataSource: 'binance', accountId: accounts[exchange], advance: () => fake.advance(60_000) };
}

async function mt5Market(): Promise<Market> {
  // The forex feed takes bars from any online terminal offering the symbol: only this one is online.
  for (const ea of eas.splice(0)) ea.close();
  const bridgeToken = randomBytes(32).toString('base64url');
  const [row] = await t.database.exec<{ id: number }>(
    `insert into trading_accounts (user_id, market, exchange, account_name, bridge_token_hash) values ($1, 'forex', 'mt5', 'MT5 demo', $2) returning id::int as id`,
    [userId, tokenHash(bridgeToken)],
  );
  const broker = new FakeMt5Broker({ marginMode: 'hedging', balance: 100_000, historyMs: 6 * 3_600_000 });
  const ea = new FakeEa({ url: bridgeUrl, token: bridgeToken, broker });
  eas.push(ea);
  await ea.connect();
  ea.heartbeat();
  while (t.app.bridge.session(row.id).status() !== 'online') await new Promise((r) => setTimeout(r, 10));
  return { label: 'mt5', dataSource: 'mt5', accountId: row.id, advance: () => broker.advance(60_000) };
}

async function firstOrder(market: Market, strategy: string, symbol: string, preset: Preset) {
  await t.database.exec(`update robots set status = 'stopped', lease_owner = null where status <> 'stopped'`);
  const what = `${market.label} ${strategy} ${symbol} ${preset.tier}`;
  const res = await t.call('POST', '/order/api/robot/create', {
    token,
    lang: 'en_US',
    // addImmediately: order 1 on the first decision candle, whatever the signal.
    body: { strategy, dataSource: market.dataSource, symbol, accountId: market.accountId, mode: 'live', params: { ...preset.params, addImmediately: true } },
  });
  expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
  const robot = res.json<Envelope<{ robot: { id: number; params: Record<string, unknown> } }>>().data.robot;
  const runner = new Runner({
    database: t.database,
    config: t.config,
    log: silent,
    candleSource: (source, sym) => (source === 'mt5' ? t.app.bridge.candleSource(sym) : undefined),
  });
  const taken = async () =>
    Number(
      (await t.database.exec<{ n: string }>(`select count(*) as n from robot_intents where robot_id = $1 and action = 'open' and state in ('open', 'filled')`, [robot.id]))[0].n,
    );
  try {
    await runner.tick();
    for (let minute = 0; minute < 150 && (await taken()) === 0; minute++) {
      market.advance();
      await runner.tick();
    }
    const [row] = await t.database.exec<{ status: string; pause_reason: string | null }>(`select status, pause_reason from robots where id = $1`, [robot.id]);
    const refused = await t.database.exec<{ error: string | null }>(`select error from robot_intents where robot_id = $1 and state = 'rejected'`, [robot.id]);
    expect({ status: row.status, pauseReason: row.pause_reason, refused }, what).toEqual({ status: 'running', pauseReason: null, refused: [] });
    const events = await t.database.exec<{ kind: string; message: string | null }>(`select kind, message from robot_events where robot_id = $1 order by id`, [robot.id]);
    expect(await taken(), `${what}: the venue holds its first order (events: ${JSON.stringify(events)}, intents: ${JSON.stringify(await t.database.exec(`select action, state, error, request from robot_intents where robot_id = $1`, [robot.id]))}, last: ${JSON.stringify(await t.database.exec(`select last_candle_at, live from robots where id = $1`, [robot.id]))}, params: ${JSON.stringify(robot.params)})`).toBeGreaterThan(0);
  } finally {
    await runner.stop();
  }
  return robot;
}

describe('every recommended preset starts a robot that places its first order', () => {
  for (const { symbol } of CRYPTO) {
    for (const strategy of STRATEGIES) {
      it(`${strategy} ${symbol} on the fake Binance and the fake OKX`, async () => {
        const presets = await recommend(strategy, symbol);
        expect(presets.map((p) => p.tier)).toEqual(['conservative', 'balanced', 'aggressive']);
        const binanceStep = getInstrument(symbol, 'binance').qtyStep;
        for (const preset of presets) {
          // The presets are sized for the data source's venue: whole Binance steps.
          for (const field of ['firstLots', 'secondLots', 'thirdLots', 'lotsPerGrid']) {
            const v = preset.params[field];
            if (typeof v === 'number') expect(Math.abs(v / binanceStep - Math.round(v / binanceStep)), `${preset.tier} ${field} ${v}`).toBeLessThan(1e-9);
          }
          await firstOrder(exchangeMarket(binance, 'binance', symbol), strategy, symbol, preset);
          await firstOrder(exchangeMarket(okx, 'okx', symbol), strategy, symbol, preset);
        }
      }, 300_000);
    }
  }
  for (const strategy of STRATEGIES) {
    it(`${strategy} EURUSD on an MT5 account`, async () => {
      const presets = await recommend(strategy, 'EURUSD');
      expect(presets.map((p) => p.tier)).toEqual(['conservative', 'balanced', 'aggressive']);
      for (const preset of presets) await firstOrder(await mt5Market(), strategy, 'EURUSD', preset);
    }, 300_000);
  }
});

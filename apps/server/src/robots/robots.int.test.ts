// Robot orders API against the real app and database: create (account, parameter, coin and seat
// rules), the user's actions, the reads, IDOR per endpoint, the ops `seats` command and tickers.
// Trading accounts are inserted directly (the accounts API is built elsewhere); what the runner
// writes (status stopped, intents, fills, events, live) is written directly too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RobotDetail, RobotFills, RobotItem, RobotList, RobotOrder, SeatSummary, TickerList } from '@lq/contracts';
import { writeCandles } from '../market';
import { grantUnlock, registerUser, type Envelope, type RegisteredUser, type TestApp, startTestApp } from '../../test/helpers';
import { opsRunner } from '../../test/ops-runner';

let t: TestApp;

// The server shares its database on the socket, as `npm start` does, so `npm run ops` can join.
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true, env: { AUTH_CACHE_MS: '0' } });
}, 120_000);
afterAll(() => t?.close());

interface Err {
  code: string;
  msg: string;
  data: { field?: string; market?: string; used?: number; total?: number } | null;
}

interface User extends RegisteredUser {
  id: number;
}

/** A registered user with the basic rights (an operator's grant) unless `unlocked` is false. */
async function user(o: { unlocked?: boolean } = {}): Promise<User> {
  const u = await registerUser(t);
  if (o.unlocked !== false) await grantUnlock(t, u.mail);
  const [row] = await t.database.exec<{ id: number }>('select id from users where mail = $1', [u.mail]);
  return { ...u, id: Number(row.id) };
}

async function account(
  u: User,
  o: { market?: 'crypto' | 'forex'; exchange?: string; name?: string; frozen?: boolean; unbound?: boolean } = {},
): Promise<number> {
  const market = o.market ?? 'crypto';
  const [row] = await t.database.exec<{ id: number }>(
    `insert into trading_accounts (user_id, market, exchange, account_name, key_last4, frozen, unbound_at)
     values ($1, $2, $3, $4, 'ab12', $5, ${o.unbound ? 'now()' : 'null'}) returning id`,
    [u.id, market, o.exchange ?? (market === 'crypto' ? 'binance' : 'mt5'), o.name ?? `${market} account`, o.frozen ?? false],
  );
  return Number(row.id);
}

const gridParams = (over: Record<string, unknown> = {}) => ({ capital: 10_000, leverage: 5, gridNumber: 10, gap: 0.5, lotsPerGrid: 1, ...over });

const crypto = (accountId: number | undefined, over: Record<string, unknown> = {}, symbol = 'BTCUSDT') => ({
  type: 1,
  strategy: 'grid',
  dataSource: 'binance',
  symbol,
  ...(accountId === undefined ? {} : { accountId }),
  params: gridParams(over),
});

const forex = (accountId: number, symbol = 'EURUSD') => ({
  strategy: 'grid',
  dataSource: 'mt5',
  symbol,
  accountId,
  params: { capital: 10_000, leverage: 100, gridNumber: 10, gap: 100, lotsPerGrid: 0.1, spread: 10 },
});

const create = (token: string, body: Record<string, unknown>, lang = 'en_US') =>
  t.call('POST', '/order/api/robot/create', { token, body, lang });

async function created(token: string, body: Record<string, unknown>): Promise<RobotDetail> {
  const res = await create(token, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Envelope<{ robot: RobotDetail }>>().data.robot;
}

const act = (token: string, action: 'pause' | 'continue' | 'stop', id: number) =>
  t.call('POST', `/order/api/robot/${action}`, { token, body: { id }, lang: 'en_US' });

const get = <T>(token: string, url: string) => t.call('GET', url, { token, lang: 'en_US' }).then((r) => ({ r, body: r.json<Envelope<T>>() }));

/** What the runner does once a stop is done. */
const runnerStopped = (id: number) =>
  t.database.exec(`update robots set status = 'stopped', stopped_at = now() where id = $1`, [id]);

const ops = opsRunner(() => t);

describe('the API description', () => {
  it('lists the robot routes in the OpenAPI document', async () => {
    const paths = Object.keys((await t.call('GET', '/docs/json')).json<{ paths: Record<string, unknown> }>().paths);
    for (const p of ['create', 'list', 'history', 'detail', 'orders', 'fills', 'pause', 'continue', 'stop', 'seats']) {
      expect(paths).toContain(`/order/api/robot/${p}`);
    }
    expect(paths).toContain('/order/api/market/tickers');
  });
});

describe('create', () => {
  let u: User;
  let acc: number;
  beforeAll(async () => {
    u = await user();
    acc = await account(u, { name: 'Main Binance' });
  });

  it('starts a robot: running, no lease, a started event, parameters validated by the strategy schema', async () => {
    const res = await create(u.token, { ...crypto(acc, { lotsPerGrid: 1.005, useAiIndicator: true, side: 'short', start: '2024-01-01', end: '2024-02-01' }), sourceBacktestId: undefined });
    expect(res.statusCode, res.body).toBe(200);
    const { robot, notices } = res.json<Envelope<{ robot: RobotDetail; notices: { field: string; qty: number }[] }>>().data;
    expect(robot).toMatchObject({
      strategy: 'grid',
      dataSource: 'binance',
      market: 'crypto',
      mode: 'live',
      symbol: 'BTCUSDT',
      tradingPair: 'BTC/USDT:USDT',
      interval: '1m',
      status: 'running',
      pauseReason: null,
      stopReason: null,
      capital: 10_000,
      leverage: 5,
      income: '0',
      live: null,
      stoppedAt: null,
      account: { id: acc, name: 'Main Binance', exchange: 'binance', unbound: false, frozen: false },
      orders: [],
      fills: [],
      positions: [],
      error: null,
      stop: null,
    });
    // the strategy's own fields, as the backtest create outputs them; the backtest-only range is dropped
    expect(robot.params).toMatchObject({ gridNumber: 10, gap: 0.5, lotsPerGrid: 1, side: 'short', useAiIndicator: true, addImmediately: false, market: 'crypto', symbol: 'BTCUSDT' });
    expect(robot.params).not.toHaveProperty('start');
    expect(robot.params).not.toHaveProperty('end');
    expect(notices).toEqual([expect.objectContaining({ field: 'params.lotsPerGrid', qty: 1 })]);
    expect(robot.events.map((e) => e.kind)).toEqual(['started']);
    const [row] = await t.database.exec<Record<string, unknown>>('select status, lease_owner, lease_until, user_id, account_id from robots where id = $1', [robot.id]);
    expect(row).toMatchObject({ status: 'running', lease_owner: null, lease_until: null });
    expect(Number(row.user_id)).toBe(u.id);
    await act(u.token, 'stop', robot.id);
    await runnerStopped(robot.id);
  });

  it('takes the interval, trading pair, paper mode and the source backtest when given', async () => {
    const [bt] = await t.database.exec<{ id: number }>(
      `insert into backtests (user_id, strategy, data_source, candle_source, symbol, interval, params, capital, leverage, from_at, to_at)
       values ($1, 'grid', 'binance', 'binance', 'ETHUSDT', '1m', '{}'::jsonb, 10000, 5, now(), now()) returning id`,
      [u.id],
    );
    const robot = await created(u.token, {
      ...crypto(acc, { interval: '15m', lotsPerGrid: 0.1 }, 'ETHUSDT'),
      tradingPair: 'ETH-USDT-SWAP',
      mode: 'paper',
      sourceBacktestId: Number(bt.id),
    });
    expect(robot).toMatchObject({ interval: '15m', tradingPair: 'ETH-USDT-SWAP', mode: 'paper', sourceBacktestId: Number(bt.id) });
    await act(u.token, 'stop', robot.id);
    await runnerStopped(robot.id);
  });

  it('starts from a finished backtest’s robot-prefill as it is', async () => {
    const { gridSchema } = await import('@lq/strategies');
    const params = gridSchema.parse({ ...gridParams({ interval: '5m', side: 'ai', useAiIndicator: true }), market: 'crypto', symbol: 'SOLUSDT', start: '2024-01-01', end: '2024-02-01' });
    const [bt] = await t.database.exec<{ id: number }>(
      `insert into backtests (user_id, status, strategy, data_source, candle_source, symbol, interval, params, capital, leverage, from_at, to_at)
       values ($1, 2, 'grid', 'binance', 'binance', 'SOLUSDT', '1m', $2::jsonb, 10000, 5, now(), now()) returning id`,
      [u.id, JSON.stringify(params)],
    );
    const prefill = (await get<{ type: number; strategy: string; dataSource: string; symbol: string; params: Record<string, unknown>; fromBacktest: number }>(u.token, `/order/api/backtest/robot-prefill?id=${bt.id}`)).body.data;
    const { fromBacktest, ...form } = prefill;
    const robot = await created(u.token, { ...form, accountId: acc, sourceBacktestId: fromBacktest });
    expect(robot).toMatchObject({ symbol: 'SOLUSDT', interval: '5m', sourceBacktestId: Number(bt.id) });
    expect(robot.params).toMatchObject({ side: 'ai', useAiIndicator: true, gridNumber: 10 });
    await act(u.token, 'stop', robot.id);
    await runnerStopped(robot.id);
  });

  it('needs a login', async () => {
    expect((await t.call('POST', '/order/api/robot/create', { body: crypto(acc) })).statusCode).toBe(401);
    for (const p of ['list', 'history', 'detail?id=1', 'orders?id=1', 'fills?id=1', 'seats?dataSource=binance']) {
      expect((await t.call('GET', `/order/api/robot/${p}`)).statusCode).toBe(401);
    }
    for (const a of ['pause', 'continue', 'stop']) {
      expect((await t.call('POST', `/order/api/robot/${a}`, { body: { id: 1 } })).statusCode).toBe(401);
    }
  });

  describe('bad parameters: a 4xx naming the field, never a 500', () => {
    const cases: [string, () => Record<string, unknown>, number, string, string, RegExp][] = [
      ['capital below 1000', () => crypto(acc, { capital: 500 }), 422, 'A0410', 'params.capital', /1000/],
      ['no leverage', () => crypto(acc, { leverage: undefined }), 422, 'A0410', 'params.leverage', /leverage/i],
      ['leverage above the crypto maximum', () => crypto(acc, { leverage: 200 }), 422, 'A0410', 'params.leverage', /125/],
      ['one grid', () => crypto(acc, { gridNumber: 1 }), 422, 'A0410', 'params.gridNumber', /2 grids/],
      ['gap of 0', () => crypto(acc, { gap: 0 }), 422, 'A0410', 'params.gap', /greater than 0/],
      ['side not offered', () => crypto(acc, { side: 'both' }), 422, 'A0410', 'params.side', /./],
      ['AI flag as text', () => crypto(acc, { useAiIndicator: 'yes' }), 422, 'A0410', 'params.useAiIndicator', /type/],
      ['interval not offered', () => crypto(acc, { interval: '2m' }), 422, 'A0410', 'params.interval', /./],
      ['size below the minimum', () => crypto(acc, { lotsPerGrid: 0.001 }), 422, 'A0324', 'params.lotsPerGrid', /minimum order size/],
      ['capital as text', () => crypto(acc, { capital: 'lots' }), 422, 'A0410', 'params.capital', /type/],
      ['market in params disagrees', () => crypto(acc, { market: 'forex' }), 422, 'A0410', 'params.market', /./],
      ['symbol format', () => ({ ...crypto(acc), symbol: 'BTC-USDT' }), 422, 'A0252', 'symbol', /^Invalid symbol format$/],
      ['unknown symbol', () => ({ ...crypto(acc), symbol: 'PEPEUSDT' }), 422, 'A0323', 'symbol', /PEPEUSDT/],
      ['unknown strategy', () => ({ ...crypto(acc), strategy: 'moon' }), 422, 'A0410', 'strategy', /strategy/],
      ['strategy of the other market', () => ({ ...crypto(acc), strategy: 'week-single' }), 422, 'A0322', 'strategy', /not available/],
      ['unknown market', () => ({ ...crypto(acc), dataSource: 'nasdaq' }), 422, 'A0251', 'dataSource', /market/i],
      ['market not open', () => ({ ...crypto(acc), dataSource: 'okx' }), 409, 'A0250', 'dataSource', /./],
      ['create type 0 (a backtest)', () => ({ ...crypto(acc), type: 0 }), 422, 'A0410', 'type', /./],
      ['unknown mode', () => ({ ...crypto(acc), mode: 'demo' }), 422, 'A0410', 'mode', /./],
      ['unknown field', () => ({ ...crypto(acc), extra: 1 }), 422, 'A0411', 'extra', /extra/],
      ['no params', () => ({ ...crypto(acc), params: undefined }), 422, 'A0410', 'params', /required/],
      ['no account chosen', () => crypto(undefined), 422, 'A0338', 'accountId', /trading account/],
      ['trading pair of another coin', () => ({ ...crypto(acc), tradingPair: 'ETH/USDT:USDT' }), 422, 'A0410', 'tradingPair', /does not match/],
      ['account id as text', () => ({ ...crypto(acc), accountId: 'x' }), 422, 'A0410', 'accountId', /./],
    ];
    for (const [name, body, status, code, field, msg] of cases) {
      it(name, async () => {
        const res = await create(u.token, body());
        expect(res.statusCode, res.body).toBe(status);
        const e = res.json<Err>();
        expect(e.code).toBe(code);
        expect(e.data?.field).toBe(field);
        expect(e.msg).toMatch(msg);
      });
    }
  });

  describe('the account', () => {
    it('must be of the data source’s market', async () => {
      const fx = await account(u, { market: 'forex' });
      const res = await create(u.token, crypto(fx));
      expect(res.statusCode).toBe(422);
      expect(res.json<Err>()).toMatchObject({ code: 'A0337', data: { field: 'accountId' } });
      const back = await create(u.token, { ...forex(acc) });
      expect(back.statusCode).toBe(422);
      expect(back.json<Err>().code).toBe('A0337');
    });

    it('must not be frozen', async () => {
      const frozen = await account(u, { frozen: true });
      const res = await create(u.token, crypto(frozen));
      expect(res.statusCode).toBe(409);
      expect(res.json<Err>()).toMatchObject({ code: 'A0334', data: { field: 'accountId' } });
      expect(res.json<Err>().msg).toMatch(/frozen/);
    });

    it('must be bound (an unbound account is not found)', async () => {
      const gone = await account(u, { unbound: true });
      const res = await create(u.token, crypto(gone));
      expect(res.statusCode).toBe(404);
      expect(res.json<Err>()).toMatchObject({ code: 'A0404', data: { field: 'accountId' } });
    });

    it('must exist', async () => {
      const res = await create(u.token, crypto(999_999_999));
      expect(res.statusCode).toBe(404);
    });

    it('names only the caller’s own backtest as the source', async () => {
      const res = await create(u.token, { ...crypto(acc), sourceBacktestId: 999_999_999 });
      expect(res.statusCode).toBe(404);
      expect(res.json<Err>().data?.field).toBe('sourceBacktestId');
    });
  });
});

describe('seats (spec §6): a seat per account running robots on a market', () => {
  it('owns none without the unlock, and says so with its price', async () => {
    const u = await user({ unlocked: false });
    const a = await account(u, { name: 'A' });
    expect((await get<SeatSummary>(u.token, '/order/api/robot/seats?dataSource=binance')).body.data).toEqual({ market: 'crypto', used: 0, total: 0, free: 0, accounts: [] });
    const refused = await create(u.token, crypto(a));
    expect(refused.statusCode).toBe(409);
    expect(refused.json<Err>()).toMatchObject({ code: 'A0381', msg: 'Unlock the basic rights first (100 Lightning): packs add seats and slots to them' });
    expect((await ops('benefit:unlock', u.mail, '--reason', 'test')).code).toBe(0);
    await created(u.token, crypto(a));
  });

  it('the unlock gives 1 seat per market; the same account needs no second one; another account is refused with the figures', async () => {
    const u = await user();
    const a = await account(u, { name: 'A' });
    const b = await account(u, { name: 'B' });
    const fx = await account(u, { market: 'forex', name: 'FX' });

    let seats = (await get<SeatSummary>(u.token, '/order/api/robot/seats?dataSource=binance')).body.data;
    expect(seats).toEqual({ market: 'crypto', used: 0, total: 1, free: 1, accounts: [] });

    const r1 = await created(u.token, crypto(a));
    await created(u.token, crypto(a, { lotsPerGrid: 0.1 }, 'ETHUSDT'));
    const refused = await create(u.token, crypto(b, {}, 'SOLUSDT'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json<Err>()).toMatchObject({ code: 'A0312', data: { market: 'crypto', used: 1, total: 1 } });
    expect(refused.json<Err>().msg).toMatch(/seat/);
    // the forex market has its own basic seat
    await created(u.token, forex(fx));

    seats = (await get<SeatSummary>(u.token, '/order/api/robot/seats?dataSource=binance')).body.data;
    expect(seats).toEqual({ market: 'crypto', used: 1, total: 1, free: 0, accounts: [{ id: a, name: 'A', exchange: 'binance', robots: 2 }] });
    const fxSeats = (await get<SeatSummary>(u.token, '/order/api/robot/seats?dataSource=mt5')).body.data;
    expect(fxSeats).toMatchObject({ market: 'forex', used: 1, total: 1, free: 0 });

    // paused and stopping robots still hold the seat; stopped robots free it
    expect((await act(u.token, 'pause', r1.id)).statusCode).toBe(200);
    expect((await create(u.token, crypto(b, {}, 'SOLUSDT'))).statusCode).toBe(409);
    const list = (await get<RobotList>(u.token, '/order/api/robot/list?dataSource=binance')).body.data.list;
    for (const r of list) expect((await act(u.token, 'stop', r.id)).statusCode).toBe(200);
    expect((await create(u.token, crypto(b, {}, 'SOLUSDT'))).statusCode).toBe(409);
    for (const r of list) await runnerStopped(r.id);
    await created(u.token, crypto(b, {}, 'SOLUSDT'));
    seats = (await get<SeatSummary>(u.token, '/order/api/robot/seats?dataSource=binance')).body.data;
    expect(seats.accounts.map((x) => x.id)).toEqual([b]);
  });

  it('grants more seats with `npm run ops -- seats` (per market or for both) and grant rows; expired grants do not count', async () => {
    const u = await user();
    const [a, b, c, d] = [await account(u, { name: 'A' }), await account(u, { name: 'B' }), await account(u, { name: 'C' }), await account(u, { name: 'D' })];
    await created(u.token, crypto(a));
    expect((await create(u.token, crypto(b))).statusCode).toBe(409);

    const granted = await ops('seats', u.mail, 'crypto', '1');
    expect(granted.code, granted.err).toBe(0);
    expect(granted.out).toContain('crypto 2');
    expect(granted.out).toContain('forex 1');
    await created(u.token, crypto(b));
    const full = await create(u.token, crypto(c));
    expect(full.json<Err>()).toMatchObject({ code: 'A0312', data: { market: 'crypto', used: 2, total: 2 } });

    // a forex grant does not help crypto; an "all" grant counts for both
    expect((await ops('seats', u.mail, 'forex', '3')).code).toBe(0);
    expect((await create(u.token, crypto(c))).statusCode).toBe(409);
    expect((await ops('seats', u.mail, 'all', '1')).code).toBe(0);
    await created(u.token, crypto(c));
    expect((await get<SeatSummary>(u.token, '/order/api/robot/seats?dataSource=binance')).body.data).toMatchObject({ used: 3, total: 3 });
    expect((await get<SeatSummary>(u.token, '/order/api/robot/seats?dataSource=mt5')).body.data).toMatchObject({ used: 0, total: 5 });

    // setting the operator grant again replaces it
    expect((await ops('seats', u.mail, 'crypto', '0')).code).toBe(0);
    expect((await get<SeatSummary>(u.token, '/order/api/robot/seats?dataSource=binance')).body.data).toMatchObject({ used: 3, total: 2, free: 0 });

    // a purchased pack that expired counts for nothing; one still valid does
    await t.database.exec(
      `insert into entitlement_grants (user_id, kind, market, quantity, origin, expires_at) values ($1, 'seat', 'crypto', 5, 'purchase', now() - interval '1 day')`,
      [u.id],
    );
    expect((await create(u.token, crypto(d))).statusCode).toBe(409);
    await t.database.exec(
      `insert into entitlement_grants (user_id, kind, market, quantity, origin, expires_at) values ($1, 'seat', 'crypto', 2, 'purchase', now() + interval '30 days')`,
      [u.id],
    );
    await created(u.token, crypto(d));
  });

  it('gives the last seat to one of two simultaneous creates only', async () => {
    const u = await user();
    const [a, b] = [await account(u, { name: 'A' }), await account(u, { name: 'B' })];
    const results = await Promise.all([create(u.token, crypto(a)), create(u.token, crypto(b))]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json<Err>().code).toBe('A0312');
    // the same coin on one account twice at once: one robot
    const c = await user();
    const acc = await account(c);
    const same = await Promise.all([create(c.token, crypto(acc)), create(c.token, crypto(acc))]);
    expect(same.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(same.find((r) => r.statusCode === 409)!.json<Err>().code).toBe('A0340');
  });

  it('refuses bad ops arguments', async () => {
    expect((await ops('seats', 'nobody@example.com', 'crypto', '1')).code).toBe(1);
    expect((await ops('seats', 'x@example.com', 'stocks', '1')).code).toBe(2);
    expect((await ops('seats', 'x@example.com', 'crypto', '-1')).code).toBe(2);
    expect((await ops('seats', 'x@example.com', 'crypto')).code).toBe(2);
    expect((await ops('help')).out).toContain('seats <email>');
  });
});

describe('one strategy per coin per account (crypto); forex unlimited', () => {
  it('refuses a second robot on the same coin and account until the first stopped', async () => {
    const u = await user();
    const a = await account(u);
    const first = await created(u.token, crypto(a));
    const again = await create(u.token, { ...crypto(a), strategy: 'single', params: { capital: 5000, leverage: 3, firstLots: 1 } });
    expect(again.statusCode).toBe(409);
    expect(again.json<Err>()).toMatchObject({ code: 'A0340', data: { field: 'symbol' } });
    expect(again.json<Err>().msg).toContain('BTCUSDT');
    // another coin on the same account is fine
    await created(u.token, crypto(a, { lotsPerGrid: 0.1 }, 'ETHUSDT'));
    await act(u.token, 'stop', first.id);
    expect((await create(u.token, crypto(a))).statusCode).toBe(409); // still stopping
    await runnerStopped(first.id);
    await created(u.token, crypto(a));
  });

  it('lets forex run any number of robots on one symbol and account', async () => {
    const u = await user();
    const fx = await account(u, { market: 'forex' });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await created(u.token, forex(fx))).id);
    expect(new Set(ids).size).toBe(3);
    const list = (await get<RobotList>(u.token, '/order/api/robot/list?dataSource=mt5')).body.data;
    expect(list.total).toBe(3);
    expect(list.list.every((r) => r.symbol === 'EURUSD' && r.tradingPair === 'EURUSD' && r.market === 'forex' && r.dataSource === 'mt5')).toBe(true);
  });
});

describe('pause, continue, stop', () => {
  let u: User;
  let acc: number;
  beforeAll(async () => {
    u = await user();
    acc = await account(u);
  });

  it('moves through the transitions and refuses the others, each action with an event', async () => {
    const r = await created(u.token, crypto(acc));
    let res = await act(u.token, 'pause', r.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Envelope<RobotItem>>().data).toMatchObject({ id: r.id, status: 'paused', pauseReason: 'user' });
    res = await act(u.token, 'pause', r.id);
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().code).toBe('A0341');

    res = await act(u.token, 'continue', r.id);
    expect(res.json<Envelope<RobotItem>>().data).toMatchObject({ status: 'running', pauseReason: null });
    res = await act(u.token, 'continue', r.id);
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().code).toBe('A0342');

    // continue is refused while the account is frozen
    await act(u.token, 'pause', r.id);
    await t.database.exec('update trading_accounts set frozen = true where id = $1', [acc]);
    res = await act(u.token, 'continue', r.id);
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>().code).toBe('A0334');
    await t.database.exec('update trading_accounts set frozen = false where id = $1', [acc]);

    res = await act(u.token, 'stop', r.id);
    expect(res.json<Envelope<RobotItem>>().data).toMatchObject({ status: 'stopping', stopReason: 'user' });
    // a second stop while stopping answers with the robot as it is
    res = await act(u.token, 'stop', r.id);
    expect(res.statusCode).toBe(200);
    expect(res.json<Envelope<RobotItem>>().data.status).toBe('stopping');
    expect((await act(u.token, 'pause', r.id)).json<Err>().code).toBe('A0341');
    expect((await act(u.token, 'continue', r.id)).json<Err>().code).toBe('A0342');

    await runnerStopped(r.id);
    res = await act(u.token, 'stop', r.id);
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>()).toMatchObject({ code: 'A0343' });
    expect((await act(u.token, 'pause', r.id)).json<Err>().code).toBe('A0341');
    expect((await act(u.token, 'continue', r.id)).json<Err>().code).toBe('A0342');

    const kinds = await t.database.exec<{ kind: string }>('select kind from robot_events where robot_id = $1 order by id', [r.id]);
    expect(kinds.map((k) => k.kind)).toEqual(['started', 'paused', 'continued', 'paused', 'stopping']);
  });

  it('stops a running robot directly and never overwrites what the runner wrote', async () => {
    const r = await created(u.token, crypto(acc, { lotsPerGrid: 0.1 }, 'ETHUSDT'));
    // the runner paused it on an error it cannot retry
    await t.database.exec(`update robots set status = 'paused', pause_reason = 'insufficientFunds: margin is insufficient' where id = $1`, [r.id]);
    expect((await act(u.token, 'pause', r.id)).json<Err>().code).toBe('A0341');
    const [row] = await t.database.exec<{ pause_reason: string }>('select pause_reason from robots where id = $1', [r.id]);
    expect(row.pause_reason).toBe('insufficientFunds: margin is insufficient');
    const stopped = await act(u.token, 'stop', r.id);
    expect(stopped.json<Envelope<RobotItem>>().data).toMatchObject({ status: 'stopping', stopReason: 'user', pauseReason: 'insufficientFunds: margin is insufficient' });

    const s = await created(u.token, crypto(acc, { lotsPerGrid: 1 }, 'SOLUSDT'));
    expect((await act(u.token, 'stop', s.id)).json<Envelope<RobotItem>>().data.status).toBe('stopping');
  });

  it('validates the action body', async () => {
    for (const body of [{}, { id: 'x' }, { id: -1 }, { id: 1, extra: true }]) {
      const res = await t.call('POST', '/order/api/robot/pause', { token: u.token, body, lang: 'en_US' });
      expect(res.statusCode).toBe(422);
    }
    expect((await act(u.token, 'pause', 999_999_999)).statusCode).toBe(404);
  });
});

describe('list, history, detail, orders, fills', () => {
  let u: User;
  let robotId: number;
  let stoppedId: number;
  beforeAll(async () => {
    u = await user();
    const acc = await account(u, { name: 'Reads' });
    const fx = await account(u, { market: 'forex', name: 'FX reads' });
    robotId = (await created(u.token, crypto(acc))).id;
    stoppedId = (await created(u.token, crypto(acc, { lotsPerGrid: 0.1 }, 'ETHUSDT'))).id;
    await created(u.token, forex(fx));
    await act(u.token, 'stop', stoppedId);
    await t.database.exec(`update robots set status = 'stopped', stopped_at = now(), income = '-3.25000000' where id = $1`, [stoppedId]);
    // what the runner writes
    await t.database.exec(
      `update robots set income = '12.34000000', live = $2::jsonb, last_candle_at = 1735689600000, heartbeat_at = now() where id = $1`,
      [robotId, JSON.stringify({ equity: 10012.5, floating: 0.16, position: -0.02, price: 96000.1, at: 1735689660000 })],
    );
    for (let i = 1; i <= 3; i++) {
      await t.database.exec(
        `insert into robot_intents (robot_id, client_order_id, tag, ticket, action, position_side, request, intent, state, filled, average, venue_order_id)
         values ($1, $2, $3, $4, 'open', 'short', $5::jsonb, '{}'::jsonb, $6, $7, $8, $9)`,
        [robotId, `lq${robotId}-g${i}`, `grid:${i}`, `t${i}`, JSON.stringify({ symbol: 'BTC/USDT:USDT', side: 'sell', type: 'limit', amount: 0.01, price: 96000 + i, reduceOnly: false }), i === 3 ? 'open' : 'filled', i === 3 ? '0' : '0.01', i === 3 ? null : String(96000 + i), `v${i}`],
      );
    }
    for (let i = 1; i <= 2; i++) {
      await t.database.exec(
        `insert into robot_fills (robot_id, client_order_id, fill_key, action, position_side, qty, price, notional, fee, pnl, filled_at)
         values ($1, $2, $3, 'open', 'short', '0.01', $4, $4::numeric * 0.0001, '0.19200000', '0', to_timestamp($5))`,
        [robotId, `lq${robotId}-g${i}`, `trade-${i}`, String(96000 + i), 1735689600 + i * 60],
      );
    }
    await t.database.exec(
      `insert into robot_events (robot_id, kind, message, detail) values ($1, 'runner', null, '{"gate": "running", "at": 1}'::jsonb), ($1, 'error', 'venue.rateLimited', '{"retryAfter": 2}'::jsonb)`,
      [robotId],
    );
  });

  it('lists the active robots of a market with their account and live figures', async () => {
    const { r, body } = await get<RobotList>(u.token, '/order/api/robot/list?dataSource=binance');
    expect(r.statusCode, r.body).toBe(200);
    expect(body.data).toMatchObject({ total: 1, page: 1, pageSize: 20, hasMore: false });
    expect(body.data.list[0]).toMatchObject({
      id: robotId,
      status: 'running',
      income: '12.34',
      live: { equity: 10012.5, floating: 0.16, position: -0.02, price: 96000.1, at: 1735689660000 },
      account: { name: 'Reads', exchange: 'binance' },
    });
    // all markets without a data source; paging
    const all = (await get<RobotList>(u.token, '/order/api/robot/list?pageSize=1')).body.data;
    expect(all).toMatchObject({ total: 2, pageSize: 1, hasMore: true });
    expect((await get<RobotList>(u.token, '/order/api/robot/list?pageSize=1&page=2')).body.data).toMatchObject({ hasMore: false, list: [expect.anything()] });
    const fx = (await get<RobotList>(u.token, '/order/api/robot/list?dataSource=mt5')).body.data;
    expect(fx.list.map((x) => x.market)).toEqual(['forex']);
    expect((await get<RobotList>(u.token, '/order/api/robot/list?status=nope')).r.statusCode).toBe(422);
    expect((await get<RobotList>(u.token, '/order/api/robot/list?dataSource=nasdaq')).r.statusCode).toBe(422);
  });

  it('shows stopped robots in the history (list?status=history and history)', async () => {
    for (const url of ['/order/api/robot/list?status=history&dataSource=binance', '/order/api/robot/history?dataSource=binance', '/order/api/robot/history']) {
      const data = (await get<RobotList>(u.token, url)).body.data;
      expect(data.total, url).toBe(1);
      expect(data.list[0]).toMatchObject({ id: stoppedId, status: 'stopped', stopReason: 'user', income: '-3.25' });
      expect(data.list[0].stoppedAt).toEqual(expect.any(String));
    }
  });

  it('details a robot: parameters, orders, fills, positions, events and the latest error', async () => {
    const { r, body } = await get<RobotDetail>(u.token, `/order/api/robot/detail?id=${robotId}`);
    expect(r.statusCode, r.body).toBe(200);
    const d = body.data;
    expect(d.params).toMatchObject({ capital: 10_000, leverage: 5, gridNumber: 10 });
    expect(d.orders).toHaveLength(3);
    expect(d.orders[0]).toMatchObject({ clientOrderId: `lq${robotId}-g3`, state: 'open', side: 'sell', type: 'limit', amount: 0.01, price: 96003, reduceOnly: false, filled: '0', average: null, venueOrderId: 'v3' });
    expect(d.orders[2]).toMatchObject({ state: 'filled', filled: '0.01', average: '96001' });
    expect(d.fills.map((f) => f.fillKey)).toEqual(['trade-2', 'trade-1']);
    expect(d.fills[0]).toMatchObject({ qty: '0.01', price: '96002', fee: '0.192', pnl: '0' });
    expect(d.positions).toEqual([{ side: 'short', qty: 0.02, price: 96000.1, floating: 0.16, at: 1735689660000 }]);
    expect(d.events.map((e) => e.kind)).toEqual(['error', 'started']);
    expect(d.error).toMatchObject({ kind: 'error', message: 'venue.rateLimited', detail: { retryAfter: 2 } });
    expect(d).toMatchObject({ stop: null, lastCandleAt: 1735689600000, income: '12.34' });
    expect(d.heartbeatAt).toEqual(expect.any(String));

    const stopped = (await get<RobotDetail>(u.token, `/order/api/robot/detail?id=${stoppedId}`)).body.data;
    expect(stopped.stop).toMatchObject({ reason: 'user', income: '-3.25' });
    expect(stopped.stop?.stoppedAt).toEqual(expect.any(String));
    expect(stopped.events.map((e) => e.kind)).toEqual(['stopping', 'started']);
  });

  it('gives an operator the whole timeline, the runner gate changes the API leaves out', async () => {
    const json = await ops('robot-events', String(robotId), '--json');
    expect(json.code, json.err).toBe(0);
    const events = JSON.parse(json.out) as { kind: string; message: string | null; detail: Record<string, unknown> | null }[];
    expect(events.map((e) => e.kind)).toEqual(['started', 'runner', 'error']);
    expect(events[1].detail).toMatchObject({ gate: 'running' });
    const table = await ops('robot-events', String(robotId));
    expect(table.out).toMatch(/runner/);
    expect((await ops('robot-events', 'x')).code).toBe(2);
    expect((await ops('robot-events', '999999')).code).toBe(1);
  });

  it('reads positions given as an object or a list by the runner', async () => {
    await t.database.exec(`update robots set live = $2::jsonb where id = $1`, [
      stoppedId,
      JSON.stringify({ equity: 1, floating: -2, position: { side: 'long', qty: 0.3, price: 3000 }, price: 3001, at: 5 }),
    ]);
    let d = (await get<RobotDetail>(u.token, `/order/api/robot/detail?id=${stoppedId}`)).body.data;
    expect(d.live).toEqual({ equity: 1, floating: -2, position: 0.3, price: 3001, at: 5 });
    expect(d.positions).toEqual([{ side: 'long', qty: 0.3, price: 3000, floating: -2, at: 5 }]);
    await t.database.exec(`update robots set live = $2::jsonb where id = $1`, [
      stoppedId,
      JSON.stringify({ equity: 'x', position: 0, positions: [{ side: 'short', qty: 2, entryPrice: 10, pnl: 1 }, { qty: 0 }], at: 6 }),
    ]);
    d = (await get<RobotDetail>(u.token, `/order/api/robot/detail?id=${stoppedId}`)).body.data;
    expect(d.live).toEqual({ equity: null, floating: null, position: 0, price: null, at: 6 });
    expect(d.positions).toEqual([{ side: 'short', qty: 2, price: 10, floating: 1, at: 6 }]);
  });

  it('pages the orders and fills', async () => {
    const orders = (await get<RobotOrder[]>(u.token, `/order/api/robot/orders?id=${robotId}`)).body.data;
    expect(orders.map((o) => o.tag)).toEqual(['grid:3', 'grid:2', 'grid:1']);
    const fills = (await get<RobotFills>(u.token, `/order/api/robot/fills?id=${robotId}&pageSize=1`)).body.data;
    expect(fills).toMatchObject({ total: 2, page: 1, pageSize: 1, hasMore: true });
    expect(fills.list[0].fillKey).toBe('trade-2');
    const page2 = (await get<RobotFills>(u.token, `/order/api/robot/fills?id=${robotId}&pageSize=1&page=2`)).body.data;
    expect(page2).toMatchObject({ hasMore: false, list: [expect.objectContaining({ fillKey: 'trade-1' })] });
    expect((await get(u.token, `/order/api/robot/detail?id=abc`)).r.statusCode).toBe(422);
  });
});

describe('IDOR: another user sees, changes and trades nothing of the first one’s', () => {
  let owner: User;
  let intruder: User;
  let robotId: number;
  let accountId: number;
  beforeAll(async () => {
    owner = await user();
    intruder = await user();
    accountId = await account(owner);
    robotId = (await created(owner.token, crypto(accountId))).id;
    await account(intruder);
  });

  for (const p of ['detail', 'orders', 'fills']) {
    it(`GET ${p} of another user's robot is 404`, async () => {
      const { r, body } = await get(intruder.token, `/order/api/robot/${p}?id=${robotId}`);
      expect(r.statusCode).toBe(404);
      expect(body.data).toEqual({ field: 'id' });
      expect(r.body).not.toContain('BTCUSDT');
    });
  }

  for (const a of ['pause', 'continue', 'stop'] as const) {
    it(`POST ${a} of another user's robot is 404 and changes nothing`, async () => {
      const res = await act(intruder.token, a, robotId);
      expect(res.statusCode).toBe(404);
      const [row] = await t.database.exec<{ status: string }>('select status from robots where id = $1', [robotId]);
      expect(row.status).toBe('running');
    });
  }

  it('create on another user’s account is 404', async () => {
    const res = await create(intruder.token, crypto(accountId, {}, 'ETHUSDT'));
    expect(res.statusCode).toBe(404);
    expect(res.json<Err>().data?.field).toBe('accountId');
    const [{ n }] = await t.database.exec<{ n: number }>('select count(*)::int as n from robots where account_id = $1', [accountId]);
    expect(n).toBe(1);
  });

  it('create naming another user’s backtest as the source is 404', async () => {
    const [bt] = await t.database.exec<{ id: number }>(
      `insert into backtests (user_id, strategy, data_source, candle_source, symbol, interval, params, capital, leverage, from_at, to_at)
       values ($1, 'grid', 'binance', 'binance', 'BTCUSDT', '1m', '{}'::jsonb, 10000, 5, now(), now()) returning id`,
      [owner.id],
    );
    const own = await account(intruder, { name: 'mine' });
    const res = await create(intruder.token, { ...crypto(own), sourceBacktestId: Number(bt.id) });
    expect(res.statusCode).toBe(404);
    expect(res.json<Err>().data?.field).toBe('sourceBacktestId');
  });

  it('list, history and seats show only the caller’s own', async () => {
    for (const url of ['/order/api/robot/list', '/order/api/robot/history', '/order/api/robot/list?status=history']) {
      expect((await get<RobotList>(intruder.token, url)).body.data.total).toBe(0);
    }
    expect((await get<SeatSummary>(intruder.token, '/order/api/robot/seats?dataSource=binance')).body.data).toMatchObject({ used: 0, accounts: [] });
    expect((await get<SeatSummary>(owner.token, '/order/api/robot/seats?dataSource=binance')).body.data).toMatchObject({ used: 1, accounts: [{ id: accountId }] });
  });
});

describe('tickers', () => {
  const MIN = 60_000;
  // 2 days of BTCUSDT 1m candles across a month boundary, close rising 0.01 per minute.
  const start = Date.UTC(2030, 0, 31);
  const n = 2 * 1440;
  beforeAll(async () => {
    const time = new Float64Array(n);
    const close = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      time[i] = start + i * MIN;
      close[i] = 100 + i * 0.01;
    }
    await writeCandles(t.database, { source: 'binance', symbol: 'BTCUSDT', timeframe: '1m' }, {
      length: n,
      intervalMs: MIN,
      time,
      open: close,
      high: close,
      low: close,
      close,
      volume: new Float64Array(n).fill(1),
    });
  });

  it('gives the last price and the 24 h change of each symbol of the market, nulls without data', async () => {
    const res = await t.call('GET', '/order/api/market/tickers?dataSource=binance');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<Envelope<TickerList>>().data;
    expect(data.market).toBe('crypto');
    const btc = data.list.find((x) => x.symbol === 'BTCUSDT')!;
    const last = 100 + (n - 1) * 0.01;
    const before = 100 + (n - 1 - 1440) * 0.01;
    expect(btc.price).toBeCloseTo(last, 8);
    expect(btc.open24h).toBeCloseTo(before, 8);
    expect(btc.change24h).toBeCloseTo((last - before) / before, 6);
    expect(btc.at).toBe(start + (n - 1) * MIN);
    expect(btc.source).toBe('binance');
    const eth = data.list.find((x) => x.symbol === 'ETHUSDT')!;
    expect(eth).toEqual({ symbol: 'ETHUSDT', price: null, open24h: null, change24h: null, at: null, source: null });
    expect(data.list.every((x) => x.symbol.endsWith('USDT'))).toBe(true);

    // a new live candle moves the figures
    const t2 = start + n * MIN;
    await writeCandles(t.database, { source: 'binance', symbol: 'BTCUSDT', timeframe: '1m' }, {
      length: 1, intervalMs: MIN, time: new Float64Array([t2]), open: new Float64Array([200]), high: new Float64Array([200]), low: new Float64Array([200]), close: new Float64Array([200]), volume: new Float64Array([1]),
    });
    const again = (await t.call('GET', '/order/api/market/tickers?dataSource=binance')).json<Envelope<TickerList>>().data;
    const btc2 = again.list.find((x) => x.symbol === 'BTCUSDT')!;
    expect(btc2).toMatchObject({ price: 200, at: t2 });
    expect(btc2.open24h).toBeCloseTo(100 + (n - 1440) * 0.01, 8);
  });

  it('lists the forex symbols for mt5 and refuses unknown or closed markets', async () => {
    const fx = (await t.call('GET', '/order/api/market/tickers?dataSource=mt5')).json<Envelope<TickerList>>().data;
    expect(fx.market).toBe('forex');
    expect(fx.list.map((x) => x.symbol)).toEqual(expect.arrayContaining(['EURUSD', 'USDJPY', 'XAUUSD']));
    expect(fx.list.find((x) => x.symbol === 'BTCUSDT')).toBeUndefined();
    expect((await t.call('GET', '/order/api/market/tickers?dataSource=nasdaq')).statusCode).toBe(422);
    expect((await t.call('GET', '/order/api/market/tickers?dataSource=okx')).statusCode).toBe(409);
    expect((await t.call('GET', '/order/api/market/tickers')).statusCode).toBe(422);
  });
});

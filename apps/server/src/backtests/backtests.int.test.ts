import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldLabel, toLangHeader, KLINE_EXACT_MARKERS, LOCALES } from '@lq/contracts';
import { registerUser, type Envelope, type RegisteredUser, type TestApp, startTestApp } from '../../test/helpers';
import { gridParams, seedCandles, until, vipUser, waitFinished, type Detail } from './test-helpers';

let t: TestApp;
let vip: RegisteredUser;
let other: RegisteredUser;

beforeAll(async () => {
  t = await startTestApp({ jobs: true, env: { AUTH_CACHE_MS: '0' } });
  await seedCandles(t.database, { from: '2024-01-01', to: '2025-01-01' });
  vip = await vipUser(t);
  other = await vipUser(t, 'VIP2');
}, 120_000);
afterAll(() => t?.close());

interface Err {
  code: string;
  msg: string;
  data: { field?: string } | null;
}

const create = (token: string, body: Record<string, unknown>, lang = 'en_US') =>
  t.call('POST', '/order/api/backtest/create', { token, body, lang });

const btc = (params: Record<string, unknown> = {}) => ({
  strategy: 'grid',
  dataSource: 'binance',
  symbol: 'BTCUSDT',
  params: gridParams(params),
});

async function finishedBacktest(token: string, body: Record<string, unknown> = btc()): Promise<Detail> {
  const res = await create(token, body);
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json<Envelope<{ backtest: Detail }>>().data.backtest.id;
  return waitFinished(t, token, id);
}

describe('who may create backtests', () => {
  it('refuses a non-VIP user with the upgrade message', async () => {
    const plain = await registerUser(t);
    const res = await create(plain.token, btc());
    expect(res.statusCode).toBe(403);
    const body = res.json<Err>();
    expect(body.code).toBe('A0300');
    expect(body.msg).toMatch(/VIP.*upgrade/i);
    // recommendations are VIP-only too
    const rec = await t.call('POST', '/order/api/backtest/recommend/create', {
      token: plain.token,
      lang: 'en_US',
      body: { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', capital: 10_000, start: '2024-01-01', end: '2024-01-31' },
    });
    expect(rec.statusCode).toBe(403);
  });

  it('needs a login', async () => {
    expect((await t.call('POST', '/order/api/backtest/create', { body: btc() })).statusCode).toBe(401);
    expect((await t.call('GET', '/order/api/backtest/list')).statusCode).toBe(401);
  });

  it('is closed while the operator switch says maintenance', async () => {
    await t.database.exec(
      `insert into app_settings (key, value) values ('backtest.maintenance', 'true'::jsonb)
         on conflict (key) do update set value = excluded.value`,
    );
    try {
      const res = await create(vip.token, btc());
      expect(res.statusCode).toBe(503);
      expect(res.json<Err>().code).toBe('B0300');
      expect(res.json<Err>().msg).toMatch(/maintenance/i);
      const zh = await create(vip.token, btc(), 'zh_CN');
      expect(zh.json<Err>().msg).not.toMatch(/maintenance/i);
    } finally {
      await t.database.exec(`update app_settings set value = 'false'::jsonb where key = 'backtest.maintenance'`);
    }
  });
});

describe('the API description', () => {
  it('lists the backtest routes in the OpenAPI document', async () => {
    const res = await t.call('GET', '/docs/json');
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    for (const p of ['create', 'list', 'detail', 'report', 'trades', 'equity', 'kline', 'cancel', 'delete', 'robot-prefill', 'recommend/create', 'recommend/detail', 'recommend/cancel']) {
      expect(paths).toContain(`/order/api/backtest/${p}`);
    }
  });
});

describe('bad parameters: a 4xx naming the field, never a 500', () => {
  const cases: [string, Record<string, unknown>, number, string, RegExp][] = [
    ['capital below 1000', btc({ capital: 500 }), 422, 'params.capital', /1000/],
    ['range under 7 days', btc({ start: '2024-01-01', end: '2024-01-03' }), 422, 'params.end', /7 days/],
    ['start after end', btc({ start: '2024-02-01', end: '2024-01-01' }), 422, 'params.end', /start time/],
    ['no leverage', btc({ leverage: undefined }), 422, 'params.leverage', /leverage/],
    ['leverage above the crypto maximum', btc({ leverage: 200 }), 422, 'params.leverage', /125/],
    ['taker fee of 100 %', btc({ takerFee: 1 }), 422, 'params.takerFee', /100%/],
    ['one grid', btc({ gridNumber: 1 }), 422, 'params.gridNumber', /2 grids/],
    ['gap of 0', btc({ gap: 0 }), 422, 'params.gap', /greater than 0/],
    ['size below the minimum', btc({ lotsPerGrid: 0.001 }), 422, 'params.lotsPerGrid', /minimum order size/],
    ['missing end', btc({ end: undefined }), 422, 'params.end', /required/],
    ['capital as text', btc({ capital: 'lots' }), 422, 'params.capital', /type/],
    ['symbol format', { ...btc(), symbol: 'BTC-USDT' }, 422, 'symbol', /^Invalid symbol format$/],
    ['unknown strategy', { ...btc(), strategy: 'moon' }, 422, 'strategy', /strategy/],
    ['strategy of the other market', { ...btc(), strategy: 'week-single' }, 422, 'strategy', /not available/],
    ['unknown market', { ...btc(), dataSource: 'nasdaq' }, 422, 'dataSource', /market/i],
    ['symbol without data', { ...btc(), symbol: 'ETHUSDT' }, 422, 'params.start', /No ETHUSDT candles/],
    ['range outside the data', btc({ start: '2019-01-01', end: '2019-02-01' }), 422, 'params.start', /Available: 1m 2024-01-01/],
    ['unknown field', { ...btc(), extra: 1 }, 422, 'extra', /extra/],
  ];
  for (const [name, body, status, field, msg] of cases) {
    it(name, async () => {
      const res = await create(vip.token, body);
      expect(res.statusCode, res.body).toBe(status);
      const e = res.json<Err>();
      expect(e.data?.field).toBe(field);
      expect(e.msg).toMatch(msg);
      // In every language the message names the field as its form labels it, never by its path.
      if (name === 'unknown field') return;
      for (const locale of LOCALES) {
        const m = (await create(vip.token, body, toLangHeader(locale))).json<Err>().msg;
        expect(m, `${locale}: ${m}`).not.toMatch(/params\./);
        expect(m, `${locale}: ${m}`).not.toMatch(/\b[a-z]+[A-Z]\w*\b/); // lotsPerGrid, takerFee, dataSource …
        const name = field.split('.').pop()!;
        if (!/^[a-z]+$/.test(name) || !['en-US', 'in_ID', 'vi-VN'].includes(locale)) expect(m, `${locale}: ${m}`).not.toContain(name);
        // A form field's message says which one (other messages describe the request as a whole).
        if (field.startsWith('params.') && !/candles/.test(e.msg)) expect(m, `${locale}: ${m}`).toContain(fieldLabel(locale, field));
      }
    });
  }

  it('the size below the minimum of the report: the label of the grid form, in English and Thai', async () => {
    const en = (await create(vip.token, btc({ lotsPerGrid: 0.05 }))).json<Err>().msg;
    expect(en).toMatch(/^Size per grid 0\.05 is below the minimum order size/);
    const th = (await create(vip.token, btc({ lotsPerGrid: 0.05 }), 'th_TH')).json<Err>().msg;
    expect(th).toContain('ขนาดต่อกริด');
    expect(th).not.toContain('lotsPerGrid');
  });

  it('localizes the message', async () => {
    const res = await create(vip.token, btc({ capital: 500 }), 'zh_TW');
    expect(res.json<Err>().msg).toContain('本金');
    const th = await create(vip.token, btc({ capital: 500 }), 'th_TH');
    expect(th.json<Err>().msg).toContain('เงินทุน');
  });

  it('snaps an off-step size to the lot step with a notice', async () => {
    const res = await create(vip.token, btc({ lotsPerGrid: 1.005 }));
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<Envelope<{ backtest: Detail & { params: { lotsPerGrid: number } }; notices: { field: string; qty: number; message: string }[] }>>().data;
    expect(data.backtest.params.lotsPerGrid).toBe(1);
    expect(data.notices).toEqual([expect.objectContaining({ field: 'params.lotsPerGrid', qty: 1 })]);
    expect(data.notices[0].message).toMatch(/corrected to 1/);
    await waitFinished(t, vip.token, data.backtest.id);
  });
});

describe('a backtest on real candles', () => {
  let done: Detail;
  beforeAll(async () => {
    done = await finishedBacktest(vip.token);
  }, 60_000);

  it('finishes with a sensible report', async () => {
    expect(done.status).toBe(2);
    expect(done.progress).toBe(100);
    const report = (await t.call('GET', `/order/api/backtest/report?id=${done.id}`, { token: vip.token })).json<Envelope<Record<string, number | null>>>().data;
    expect(report.tradeCount).toBeGreaterThan(5);
    expect(report.winRate).toBeGreaterThan(0);
    expect(report.winRate).toBeLessThanOrEqual(1);
    expect(report.maxDrawdown).toBeGreaterThan(0);
    expect(report.maxDrawdown).toBeLessThan(1);
    expect(report.drawdownAmount).toBeGreaterThan(0);
    expect(report.totalFees).toBeGreaterThan(0);
    expect(report.capital).toBe(10_000);
    expect(report.profit).toBeCloseTo((report.finalEquity as number) - 10_000, 1);
    expect(report.maxFloatingLoss).toBeLessThanOrEqual(0);
    expect(report.candleCount).toBeGreaterThan(40_000);
    expect(report.ai).toBeNull();
    for (const k of ['totalReturn', 'annualisedReturn', 'sharpe', 'sortino', 'calmar', 'profitFactor', 'expectancy', 'exposureTime', 'riskReward', 'maxFloatingProfit', 'longestDrawdownMs']) {
      expect(report, k).toHaveProperty(k);
    }
  });

  it('reports the AI indicator’s hit rate and base rate when the AI decides', async () => {
    const ai = await finishedBacktest(vip.token, btc({ side: 'ai' }));
    expect(ai.status).toBeGreaterThanOrEqual(2);
    const report = (await t.call('GET', `/order/api/backtest/report?id=${ai.id}`, { token: vip.token })).json<Envelope<{ ai: { hitRate: number; baseRate: number; predictions: number } }>>().data;
    expect(report.ai.predictions).toBeGreaterThan(1000);
    expect(report.ai.hitRate).toBeGreaterThan(0.3);
    expect(report.ai.hitRate).toBeLessThan(0.7);
    expect(report.ai.baseRate).toBeGreaterThanOrEqual(0.5);
  }, 60_000);

  it('pages the order log', async () => {
    const p1 = (await t.call('GET', `/order/api/backtest/trades?id=${done.id}&page=1&pageSize=5`, { token: vip.token })).json<Envelope<{ list: { no: number; side: string; lots: number; entryTime: number; exitTime: number; entryPrice: number; exitPrice: number; pnl: number; fee: number; reason: string }[]; total: number; hasMore: boolean }>>().data;
    expect(p1.list).toHaveLength(5);
    expect(p1.list.map((x) => x.no)).toEqual([1, 2, 3, 4, 5]);
    expect(p1.hasMore).toBe(true);
    const first = p1.list[0];
    expect(['long', 'short']).toContain(first.side);
    expect(first.exitTime).toBeGreaterThanOrEqual(first.entryTime);
    expect(first.lots).toBe(1);
    expect(first.fee).toBeGreaterThan(0);
    expect(typeof first.reason).toBe('string');
    const p2 = (await t.call('GET', `/order/api/backtest/trades?id=${done.id}&page=2&pageSize=5`, { token: vip.token })).json<Envelope<{ list: { no: number }[] }>>().data;
    expect(p2.list.map((x) => x.no)).toEqual([6, 7, 8, 9, 10]);
    const last = (await t.call('GET', `/order/api/backtest/trades?id=${done.id}&page=1&pageSize=3&order=desc`, { token: vip.token })).json<Envelope<{ list: { no: number }[]; total: number }>>().data;
    expect(last.list.map((x) => x.no)).toEqual([last.total, last.total - 1, last.total - 2]);
    const beyond = (await t.call('GET', `/order/api/backtest/trades?id=${done.id}&page=1000&pageSize=50`, { token: vip.token })).json<Envelope<{ list: unknown[]; hasMore: boolean }>>().data;
    expect(beyond.list).toEqual([]);
    expect(beyond.hasMore).toBe(false);
    const bad = await t.call('GET', `/order/api/backtest/trades?id=${done.id}&pageSize=5000`, { token: vip.token, lang: 'en_US' });
    expect(bad.statusCode).toBe(422);
  });

  it('returns the equity curve downsampled', async () => {
    const eq = (await t.call('GET', `/order/api/backtest/equity?id=${done.id}&maxPoints=100`, { token: vip.token })).json<Envelope<{ capital: number; points: [number, number][] }>>().data;
    expect(eq.points.length).toBeLessThanOrEqual(100);
    expect(eq.points.length).toBeGreaterThan(50);
    expect(eq.points[0][1]).toBeCloseTo(10_000, -2);
    for (let i = 1; i < eq.points.length; i++) expect(eq.points[i][0]).toBeGreaterThan(eq.points[i - 1][0]);
  });

  it('returns candles around the trades, resampled, with markers', async () => {
    const whole = (await t.call('GET', `/order/api/backtest/kline?id=${done.id}&maxCandles=500`, { token: vip.token })).json<Envelope<{ interval: string; candles: number[][]; markers: { time: number; kind: string; trade: number }[] }>>().data;
    expect(whole.candles.length).toBeLessThanOrEqual(500);
    expect(whole.candles.length).toBeGreaterThan(100);
    // 31 days: 1h would give 744 candles > 500, so 4h
    expect(whole.interval).toBe('4h');
    expect(whole.markers.length).toBeGreaterThan(10);
  }, 30_000);

  it('never cuts markers: dense windows are grouped per bar, every event counted, exact when zoomed in', async () => {
    type Kline = { interval: string; from: number; to: number; rangeFrom: number; rangeTo: number; candles: number[][]; markers: { time: number; at: number; kind: string; trade: number }[]; groups: { time: number; count: number; buys: number; sells: number; lastTrade: number }[]; eventCount: number };
    const dense = await finishedBacktest(vip.token, btc({ gap: 0.05, gridNumber: 20 }));
    const kline = async (q: string) => (await t.call('GET', `/order/api/backtest/kline?id=${dense.id}${q}`, { token: vip.token })).json<Envelope<Kline>>().data;
    const trades: { entryTime: number; exitTime: number }[] = [];
    for (let page = 1; ; page++) {
      const p = (await t.call('GET', `/order/api/backtest/trades?id=${dense.id}&page=${page}&pageSize=100`, { token: vip.token })).json<Envelope<{ list: { entryTime: number; exitTime: number }[]; hasMore: boolean }>>().data;
      trades.push(...p.list);
      if (!p.hasMore) break;
    }
    const eventsIn = (from: number, to: number) => trades.reduce((n, x) => n + (x.entryTime >= from && x.entryTime < to ? 1 : 0) + (x.exitTime >= from && x.exitTime < to ? 1 : 0), 0);
    const counted = (k: Kline) => k.markers.length + k.groups.reduce((n, g) => n + g.count, 0);

    const whole = await kline('&maxCandles=200');
    expect(whole.eventCount).toBe(eventsIn(whole.from, whole.to));
    expect(whole.eventCount).toBeGreaterThan(KLINE_EXACT_MARKERS);
    expect(counted(whole)).toBe(whole.eventCount);
    expect(whole.groups.length).toBeGreaterThan(0);
    const bars = new Set(whole.candles.map((c) => c[0]));
    for (const g of whole.groups) {
      expect(bars.has(g.time)).toBe(true);
      expect(g.buys + g.sells).toBe(g.count);
    }
    // The last trade is there (the old answer stopped at trade 5,000 of 45,909).
    const lastTrade = Math.max(...whole.markers.map((m) => m.trade), ...whole.groups.map((g) => g.lastTrade));
    expect(lastTrade).toBe(trades.length);

    // Zoomed in on a few hours: exact markers, on 1m bars.
    const from = trades[Math.floor(trades.length / 2)].entryTime - 2 * 3_600_000;
    const near = await kline(`&from=${from}&to=${from + 4 * 3_600_000}&maxCandles=600`);
    expect(near.interval).toBe('1m');
    expect(near.groups).toEqual([]);
    expect(near.markers.length).toBe(eventsIn(from, from + 4 * 3_600_000));
    expect(near.markers.length).toBeGreaterThan(0);

    // A phone's few bars: daily candles, all of them (never the last few only).
    const daily = await kline('&maxCandles=10');
    expect(daily.interval).toBe('1d');
    expect(daily.from).toBe(daily.rangeFrom);
    expect(daily.candles.length).toBeGreaterThanOrEqual(Math.floor((daily.rangeTo - daily.rangeFrom) / 86_400_000));
    expect(daily.eventCount).toBe(whole.eventCount);

    // A window reaching past the backtest is clipped to it; a reversed one is refused.
    const past = await kline(`&from=${whole.rangeTo - 3_600_000}&to=${whole.rangeTo + 30 * 86_400_000}`);
    expect(past.to).toBe(whole.rangeTo);
    expect(past.from).toBe(whole.rangeTo - 3_600_000);
    const reversed = await t.call('GET', `/order/api/backtest/kline?id=${dense.id}&from=${from}&to=${from - 1}`, { token: vip.token, lang: 'en_US' });
    expect(reversed.statusCode).toBe(422);
  }, 60_000);

  it('zooms into a window with 1m candles and the trades of that window', async () => {
    const trades = (await t.call('GET', `/order/api/backtest/trades?id=${done.id}&page=1&pageSize=1`, { token: vip.token })).json<Envelope<{ list: { entryTime: number; exitTime: number }[] }>>().data.list;
    const from = trades[0].entryTime - 30 * 60_000;
    const to = trades[0].entryTime + 30 * 60_000;
    const k = (await t.call('GET', `/order/api/backtest/kline?id=${done.id}&from=${from}&to=${to}`, { token: vip.token })).json<Envelope<{ interval: string; candles: number[][]; markers: { time: number; kind: string; trade: number }[] }>>().data;
    expect(k.interval).toBe('1m');
    expect(k.candles.length).toBeGreaterThan(50);
    expect(k.candles.length).toBeLessThanOrEqual(60);
    const [, o, h, l, c] = k.candles[0];
    expect(h).toBeGreaterThanOrEqual(Math.max(o, c));
    expect(l).toBeLessThanOrEqual(Math.min(o, c));
    expect(k.markers.some((m) => m.kind === 'entry' && m.trade === 1)).toBe(true);
    const times = new Set(k.candles.map((x) => x[0]));
    for (const m of k.markers) expect(times.has(m.time)).toBe(true);
  });

  it('prefills the robot form', async () => {
    const p = (await t.call('GET', `/order/api/backtest/robot-prefill?id=${done.id}`, { token: vip.token })).json<Envelope<{ type: number; strategy: string; params: Record<string, unknown> }>>().data;
    expect(p.type).toBe(1);
    expect(p.strategy).toBe('grid');
    expect(p.params).toMatchObject({ gridNumber: 10, gap: 0.5, lotsPerGrid: 1, leverage: 5, capital: 10_000 });
    expect(p.params).not.toHaveProperty('start');
  });

  it('lists it in the completed tab, not in the others', async () => {
    const tab = async (name: string) =>
      (await t.call('GET', `/order/api/backtest/list?tab=${name}&pageSize=100`, { token: vip.token })).json<Envelope<{ list: Detail[]; total: number }>>().data;
    const completed = await tab('completed');
    expect(completed.list.map((x) => x.id)).toContain(done.id);
    expect(completed.list.find((x) => x.id === done.id)).toMatchObject({ status: 2, symbol: 'BTCUSDT', strategy: 'grid', capital: 10_000, leverage: 5 });
    expect((await tab('running')).list.map((x) => x.id)).not.toContain(done.id);
    expect((await tab('failed')).list.map((x) => x.id)).not.toContain(done.id);
  });

  it('is invisible to another user (404)', async () => {
    for (const path of ['detail', 'report', 'trades', 'equity', 'kline', 'robot-prefill']) {
      const res = await t.call('GET', `/order/api/backtest/${path}?id=${done.id}`, { token: other.token });
      expect(res.statusCode, path).toBe(404);
    }
    for (const path of ['cancel', 'delete']) {
      const res = await t.call('POST', `/order/api/backtest/${path}`, { token: other.token, body: { id: done.id } });
      expect(res.statusCode, path).toBe(404);
    }
    const list = (await t.call('GET', '/order/api/backtest/list?tab=completed', { token: other.token })).json<Envelope<{ list: Detail[] }>>().data;
    expect(list.list.map((x) => x.id)).not.toContain(done.id);
  });

  it('runs a forex backtest on EURUSD', async () => {
    const d = await finishedBacktest(vip.token, {
      strategy: 'grid',
      dataSource: 'mt5',
      symbol: 'EURUSD',
      params: { capital: 10_000, leverage: 100, gridNumber: 10, gap: 100, lotsPerGrid: 0.1, spread: 10, start: '2010-09-01', end: '2010-09-30' },
    });
    expect(d.status).toBe(2);
    const report = (await t.call('GET', `/order/api/backtest/report?id=${d.id}`, { token: vip.token })).json<Envelope<{ tradeCount: number; market: string }>>().data;
    expect(report.market).toBe('forex');
    expect(report.tradeCount).toBeGreaterThan(0);
  });

  it('deletes a backtest', async () => {
    const d = await finishedBacktest(vip.token);
    const res = await t.call('POST', '/order/api/backtest/delete', { token: vip.token, body: { id: d.id } });
    expect(res.statusCode).toBe(200);
    expect((await t.call('GET', `/order/api/backtest/detail?id=${d.id}`, { token: vip.token })).statusCode).toBe(404);
    const list = (await t.call('GET', '/order/api/backtest/list?tab=completed&pageSize=100', { token: vip.token })).json<Envelope<{ list: Detail[] }>>().data;
    expect(list.list.map((x) => x.id)).not.toContain(d.id);
  });
});

describe('slots and cancel', () => {
  it('needs the basic rights: a VIP without them is told to unlock', async () => {
    const u = await registerUser(t);
    await t.database.exec(`update users set user_level = 'VIP1' where mail = $1`, [u.mail]);
    const res = await create(u.token, btc());
    expect(res.statusCode).toBe(409);
    expect(res.json<Err>()).toMatchObject({ code: 'A0381' });
  });

  it('allows one running backtest per market, more with granted slots, and cancels', async () => {
    const u = await vipUser(t);
    // A slow one: the AI indicator over a year of 1m candles.
    const slow = btc({ side: 'ai', start: '2024-01-01', end: '2024-12-31' });
    const first = await create(u.token, slow);
    expect(first.statusCode, first.body).toBe(200);
    const firstId = first.json<Envelope<{ backtest: Detail }>>().data.backtest.id;
    const second = await create(u.token, slow);
    expect(second.statusCode).toBe(409);
    expect(second.json<Err>().code).toBe('A0320');
    expect(second.json<Err>().msg).toMatch(/All 1 of your backtest slots are in use/);

    await t.database.exec(
      `insert into entitlement_grants (user_id, kind, quantity) select id, 'backtest_slot', 1 from users where mail = $1`,
      [u.mail],
    );
    // an expired grant does not count
    await t.database.exec(
      `insert into entitlement_grants (user_id, kind, quantity, expires_at) select id, 'backtest_slot', 5, now() - interval '1 day' from users where mail = $1`,
      [u.mail],
    );
    const third = await create(u.token, slow);
    expect(third.statusCode, third.body).toBe(200);
    const thirdId = third.json<Envelope<{ backtest: Detail }>>().data.backtest.id;
    const fourth = await create(u.token, slow);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json<Err>().msg).toMatch(/All 2 of/);
    // Slots are per market: the forex slot of the unlock is still free.
    const eurusd = { strategy: 'grid', dataSource: 'mt5', symbol: 'EURUSD', params: { capital: 10_000, leverage: 100, gridNumber: 10, gap: 100, lotsPerGrid: 0.1, spread: 10, start: '2010-09-01', end: '2010-09-30' } };
    const forex = await create(u.token, eurusd);
    expect(forex.statusCode, forex.body).toBe(200);
    const forexId = forex.json<Envelope<{ backtest: Detail }>>().data.backtest.id;

    // progress shows while it runs
    const live = await until('live progress', async () => {
      const d = (await t.call('GET', `/order/api/backtest/detail?id=${thirdId}`, { token: u.token })).json<Envelope<Detail>>().data;
      return d.status === 1 && d.progress > 0 && d.progress < 100 ? d : undefined;
    }, 30_000, 20);
    expect(live.progress).toBeGreaterThan(0);
    // the engine runs on a worker thread: the API answers meanwhile
    const asked = performance.now();
    expect((await t.call('GET', '/healthz')).statusCode).toBe(200);
    expect(performance.now() - asked).toBeLessThan(500);
    const running = (await t.call('GET', '/order/api/backtest/list?tab=running', { token: u.token })).json<Envelope<{ list: Detail[] }>>().data;
    expect(running.list.map((x) => x.id).filter((id) => id !== forexId).sort()).toEqual([firstId, thirdId].sort());

    const cancelled = await t.call('POST', '/order/api/backtest/cancel', { token: u.token, body: { id: firstId }, lang: 'en_US' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<Envelope<Detail>>().data).toMatchObject({ status: 3, statusReasonKey: 'cancelled', statusReason: 'Cancelled' });
    // the slot is free again
    const again = await create(u.token, btc());
    expect(again.statusCode, again.body).toBe(200);
    // a cancelled backtest stays cancelled, without a report
    await new Promise((r) => setTimeout(r, 1500));
    const after = (await t.call('GET', `/order/api/backtest/detail?id=${firstId}`, { token: u.token })).json<Envelope<Detail>>().data;
    expect(after.status).toBe(3);
    expect((await t.call('GET', `/order/api/backtest/report?id=${firstId}`, { token: u.token })).statusCode).toBe(409);
    const failedTab = (await t.call('GET', '/order/api/backtest/list?tab=failed', { token: u.token })).json<Envelope<{ list: Detail[] }>>().data;
    expect(failedTab.list.map((x) => x.id)).toContain(firstId);
    // cancelling twice is a clear 409
    const twice = await t.call('POST', '/order/api/backtest/cancel', { token: u.token, body: { id: firstId }, lang: 'en_US' });
    expect(twice.statusCode).toBe(409);
    // the other one finishes, with progress seen on the way or at 100
    const fin = await waitFinished(t, u.token, thirdId);
    expect(fin.status).toBeGreaterThanOrEqual(2);
    expect(fin.progress).toBe(100);
  }, 120_000);
});

describe('recommended parameters', () => {
  it('returns three presets with in- and out-of-sample figures', async () => {
    const res = await t.call('POST', '/order/api/backtest/recommend/create', {
      token: vip.token,
      lang: 'en_US',
      body: {
        strategy: 'grid',
        dataSource: 'binance',
        symbol: 'BTCUSDT',
        capital: 10_000,
        start: '2024-01-01',
        end: '2024-02-29',
        params: { leverage: 5, interval: '15m' },
        budget: 12,
        seed: 3,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<Envelope<{ id: number; status: string }>>().data.id;
    const busy = await t.call('POST', '/order/api/backtest/recommend/create', {
      token: vip.token,
      lang: 'en_US',
      body: { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', capital: 10_000, start: '2024-01-01', end: '2024-02-29' },
    });
    expect(busy.statusCode).toBe(409);
    const done = await until('recommendation', async () => {
      const r = (await t.call('GET', `/order/api/backtest/recommend/detail?id=${id}`, { token: vip.token })).json<Envelope<{ status: string; progress: number; error: string | null; result: { outOfSample: { from: number; to: number }; presets: { tier: string; params: Record<string, unknown>; inSample: { tradeCount: number; totalReturn: number }; outOfSample: { tradeCount: number; totalReturn: number; maxDrawdown: number } }[] } | null }>>().data;
      return r.status !== 'running' ? r : undefined;
    }, 90_000, 250);
    expect(done.status, done.error ?? '').toBe('done');
    expect(done.progress).toBe(100);
    const presets = done.result!.presets;
    expect(presets.map((p) => p.tier)).toEqual(['conservative', 'balanced', 'aggressive']);
    for (const p of presets) {
      expect(p.params).toMatchObject({ capital: 10_000, leverage: 5, interval: '15m', symbol: 'BTCUSDT' });
      expect(typeof p.inSample.totalReturn).toBe('number');
      expect(p.outOfSample).toHaveProperty('tradeCount');
    }
    // a preset starts a backtest as it is
    const bt = await create(vip.token, { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', params: { ...presets[1].params, start: '2024-03-01', end: '2024-03-31' } });
    expect(bt.statusCode, bt.body).toBe(200);
    await waitFinished(t, vip.token, bt.json<Envelope<{ backtest: Detail }>>().data.backtest.id);
    // A preset's out-of-sample figures are those of a backtest of it over that window (whole days).
    const oos = done.result!.outOfSample;
    expect(oos.from % 86_400_000).toBe(0);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const window = { start: day(oos.from), end: day(oos.to - 1) };
    const check = await create(vip.token, { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', params: { ...presets[1].params, ...window } });
    expect(check.statusCode, check.body).toBe(200);
    const checked = await waitFinished(t, vip.token, check.json<Envelope<{ backtest: Detail }>>().data.backtest.id);
    const summary = checked.summary as { tradeCount: number; totalReturn: number; maxDrawdown: number };
    expect(summary.tradeCount).toBe(presets[1].outOfSample.tradeCount);
    expect(summary.totalReturn).toBeCloseTo(presets[1].outOfSample.totalReturn, 4);
    expect(summary.maxDrawdown).toBeCloseTo(presets[1].outOfSample.maxDrawdown, 4);
    // The same with the AI indicator: the out-of-sample window's signal is the one its backtest computes.
    const aiRec = await t.call('POST', '/order/api/backtest/recommend/create', {
      token: vip.token,
      lang: 'en_US',
      body: { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', capital: 10_000, start: '2024-01-01', end: '2024-02-29', params: { leverage: 5, interval: '15m', side: 'ai' }, budget: 8, seed: 5 },
    });
    expect(aiRec.statusCode, aiRec.body).toBe(200);
    const aiId = aiRec.json<Envelope<{ id: number }>>().data.id;
    const aiDone = await until('AI recommendation', async () => {
      const r = (await t.call('GET', `/order/api/backtest/recommend/detail?id=${aiId}`, { token: vip.token })).json<Envelope<typeof done>>().data;
      return r.status !== 'running' ? r : undefined;
    }, 90_000, 250);
    expect(aiDone.status, aiDone.error ?? '').toBe('done');
    const aiPreset = aiDone.result!.presets[0];
    expect(aiPreset.params.side).toBe('ai');
    const aiCheck = await create(vip.token, { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', params: { ...aiPreset.params, start: day(aiDone.result!.outOfSample.from), end: day(aiDone.result!.outOfSample.to - 1) } });
    expect(aiCheck.statusCode, aiCheck.body).toBe(200);
    const aiChecked = (await waitFinished(t, vip.token, aiCheck.json<Envelope<{ backtest: Detail }>>().data.backtest.id)).summary as { tradeCount: number; totalReturn: number };
    expect(aiChecked.tradeCount).toBe(aiPreset.outOfSample.tradeCount);
    expect(aiChecked.totalReturn).toBeCloseTo(aiPreset.outOfSample.totalReturn, 4);
    // another user cannot read it
    expect((await t.call('GET', `/order/api/backtest/recommend/detail?id=${id}`, { token: other.token })).statusCode).toBe(404);
  }, 180_000);

  it('rejects bad recommendation requests clearly', async () => {
    const base = { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', capital: 10_000, start: '2024-01-01', end: '2024-02-29' };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...base, capital: 10 }, 'capital', /1000/],
      [{ ...base, end: '2024-01-03' }, 'end', /7 days/],
      [{ ...base, start: 'soon' }, 'start', /date/],
      [{ ...base, params: { gridNumber: 1 } }, 'params.gridNumber', /2 grids/],
      [{ ...base, params: { capital: 5000 } }, 'params.capital', /cannot be fixed/],
      [{ ...base, symbol: 'XAUUSD' }, 'symbol', /not available/],
    ];
    for (const [body, field, msg] of cases) {
      const res = await t.call('POST', '/order/api/backtest/recommend/create', { token: vip.token, lang: 'en_US', body });
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json<Err>().data?.field).toBe(field);
      expect(res.json<Err>().msg).toMatch(msg);
    }
  });

  it('cancels a running recommendation', async () => {
    const u = await vipUser(t);
    const res = await t.call('POST', '/order/api/backtest/recommend/create', {
      token: u.token,
      body: { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', capital: 10_000, start: '2024-01-01', end: '2024-04-30', params: { side: 'ai' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<Envelope<{ id: number }>>().data.id;
    const c = await t.call('POST', '/order/api/backtest/recommend/cancel', { token: u.token, body: { id }, lang: 'en_US' });
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json<Envelope<{ status: string; error: string }>>().data).toMatchObject({ status: 'cancelled', error: 'Cancelled' });
    await new Promise((r) => setTimeout(r, 1000));
    const r = (await t.call('GET', `/order/api/backtest/recommend/detail?id=${id}`, { token: u.token })).json<Envelope<{ status: string }>>().data;
    expect(r.status).toBe('cancelled');
  }, 60_000);
});

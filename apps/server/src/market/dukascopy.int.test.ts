// The dukascopy-node importer against a stand-in of the Dukascopy data API on 127.0.0.1: minute
// candles per UTC day at /v1/candles/minute/<EUR-USD>/BID/<y>/<m>/<d>, delta-encoded as the feed
// answers them (decoded by dukascopy-node's own processData).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candlesFromRows } from '@lq/engine';
import { createDukascopyRun, runDukascopyImport } from './dukascopy';
import { getImportRun, type ImportRun } from './imports';
import { MARKET_QUEUES } from './jobs';
import { loadCandleRange, writeCandles } from './store';
import { startTestApp, type TestApp } from '../../test/helpers';

const MIN = 60_000;
const DAY = 86_400_000;
const STEP = 0.00001;
/** Bid prices in points (integers), so the expected floats are exact. */
const units = (t: number) => 108_000 + ((t / MIN) % 97) * 3;
/** The stand-in's market: weekdays only, and no candle in the minute 12:00 of any day. */
const trades = (t: number) => {
  const wd = new Date(t).getUTCDay();
  return wd !== 0 && wd !== 6 && t % DAY !== 12 * 60 * MIN;
};
const price = (u: number) => Number((u * STEP).toFixed(5));

class FeedStandIn {
  readonly paths: string[] = [];
  failAfter = 0;
  private served = 0;
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<FeedStandIn> {
    const box: { s?: FeedStandIn } = {};
    const server = createServer((req, res) => box.s!.handle(req.url ?? '/', res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    box.s = new FeedStandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return box.s;
  }

  private handle(url: string, res: ServerResponse) {
    this.paths.push(url);
    if (this.failAfter > 0 && this.served++ >= this.failAfter) {
      res.writeHead(503);
      return res.end('busy');
    }
    const m = /^\/v1\/candles\/minute\/EUR-USD\/BID\/(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(url);
    if (!m) {
      res.writeHead(404);
      return res.end();
    }
    const day = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    const times: number[] = [];
    const cols = { opens: [] as number[], highs: [] as number[], lows: [] as number[], closes: [] as number[], volumes: [] as number[] };
    let prevT = day;
    let prev: number[] | undefined;
    let base: number[] | undefined;
    for (let t = day; t < day + DAY; t += MIN) {
      if (!trades(t)) continue;
      const u = units(t);
      const ohlc = [u, u + 4, u - 2, u + 1];
      base ??= ohlc;
      times.push((t - prevT) / MIN);
      const ref = prev ?? base;
      cols.opens.push(ohlc[0] - ref[0]);
      cols.highs.push(ohlc[1] - ref[1]);
      cols.lows.push(ohlc[2] - ref[2]);
      cols.closes.push(ohlc[3] - ref[3]);
      cols.volumes.push(1.25);
      prev = ohlc;
      prevT = t;
    }
    const [open, high, low, close] = (base ?? [0, 0, 0, 0]).map(price);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ timestamp: day, multiplier: STEP, open, high, low, close, shift: MIN, times, ...cols }));
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const silent = { info: () => undefined, warn: () => undefined };
let t: TestApp;
let feed: FeedStandIn;
beforeAll(async () => {
  feed = await FeedStandIn.start();
  t = await startTestApp({ jobs: true });
});
afterAll(async () => {
  await t?.close();
  await feed?.close();
});

const key = { source: 'dukascopy', symbol: 'EURUSD', timeframe: '1m' };
/** Expected candle times of [from, to). */
const expectedTimes = (from: number, to: number) => {
  const out: number[] = [];
  for (let x = from; x < to; x += MIN) if (trades(x)) out.push(x);
  return out;
};

describe('dukascopy importer against the stand-in', () => {
  it('imports bid candles of the missing days only, decoded exactly', async () => {
    const from = Date.UTC(2024, 2, 1); // Friday; Sat and Sun have no candles
    const to = Date.UTC(2024, 2, 6); // up to Tuesday
    // Monday is already stored: its candles are not fetched again.
    const monday = expectedTimes(Date.UTC(2024, 2, 4), Date.UTC(2024, 2, 5));
    await writeCandles(t.database, key, candlesFromRows(monday.map((x) => ({ time: x, open: price(units(x)), high: 9, low: 0.5, close: 1 })), MIN));
    const runId = await createDukascopyRun(t.database, { symbol: 'eurusd', timeframe: '1m', fromMs: from, toMs: to, apiOrigin: feed.origin });
    const r = await runDukascopyImport(t.database, runId, silent);
    const want = expectedTimes(from, to);
    expect(r).toEqual({ status: 'done', rows: want.length - monday.length });
    // Monday is asked for only because of its hole at 12:00 (a store gap), and nothing of it is rewritten.
    expect(feed.paths.filter((p) => p.endsWith('/2024/3/4'))).toHaveLength(1);
    expect(feed.paths).toContain('/v1/candles/minute/EUR-USD/BID/2024/3/1');
    const c = await loadCandleRange(t.database, { ...key, fromMs: from, toMs: to });
    expect(Array.from(c.time)).toEqual(want);
    const i = want.indexOf(Date.UTC(2024, 2, 5, 9, 30));
    const u = units(want[i]);
    expect([c.open[i], c.high[i], c.low[i], c.close[i], c.volume[i]]).toEqual([price(u), price(u + 4), price(u - 2), price(u + 1), 1.25]);
    expect(c.high[want.indexOf(monday[0])]).toBe(9);
    expect(await getImportRun(t.database, runId)).toMatchObject({ kind: 'dukascopy', status: 'done', progress: 100 });
  });

  it('fails plainly when the feed is unreachable and resumes from its cursor', async () => {
    const k = { ...key, timeframe: '5m' };
    const from = Date.UTC(2024, 1, 28); // Feb 28, 29 (one month window), Mar 1 (the next)
    const to = Date.UTC(2024, 2, 2);
    feed.failAfter = 2;
    feed.paths.length = 0;
    const runId = await createDukascopyRun(t.database, { symbol: 'EURUSD', timeframe: '5m', fromMs: from, toMs: to, apiOrigin: feed.origin });
    const failed = await runDukascopyImport(t.database, runId, silent);
    expect(failed.status).toBe('failed');
    expect(failed.message).toBe('dukascopy is unreachable: HTTP 503 for /v1/candles/minute/EUR-USD/BID/2024/3/1');
    expect(await getImportRun(t.database, runId)).toMatchObject({ status: 'failed', rows: 2 * 288, cursorMs: Date.UTC(2024, 2, 1) - 5 * MIN });
    feed.failAfter = 0;
    feed.paths.length = 0;
    const resumed = await runDukascopyImport(t.database, runId, silent);
    expect(resumed).toEqual({ status: 'done', rows: 3 * 288 });
    expect(feed.paths).toEqual(['/v1/candles/minute/EUR-USD/BID/2024/3/1']);
    const c = await loadCandleRange(t.database, { ...k, fromMs: from, toMs: to });
    expect(c.length).toBe(3 * 288);
    // 5m from the day's minutes: open of the first minute, close of the fifth (12:00 has no minute).
    const at = c.time.indexOf(Date.UTC(2024, 2, 1, 10, 0));
    expect(c.open[at]).toBe(price(units(Date.UTC(2024, 2, 1, 10, 0))));
    expect(c.close[at]).toBe(price(units(Date.UTC(2024, 2, 1, 10, 4)) + 1));

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const gone = await createDukascopyRun(t.database, { symbol: 'GBPUSD', timeframe: '1h', fromMs: from, toMs: to, apiOrigin: `http://127.0.0.1:${port}` });
    const r = await runDukascopyImport(t.database, gone, silent, { timeoutMs: 3000 });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^dukascopy is unreachable: fetch failed \(ECONNREFUSED\)/);
  });

  it('refuses what it cannot import, and runs as a pg-boss job', async () => {
    await expect(createDukascopyRun(t.database, { symbol: 'BTCUSDT', timeframe: '1m', fromMs: 0, toMs: 1 })).rejects.toThrow(/forex symbols only/);
    await expect(createDukascopyRun(t.database, { symbol: 'EURUSD', timeframe: '1m', fromMs: 5, toMs: 5 })).rejects.toThrow(/range is empty/);
    const runId = await createDukascopyRun(t.database, {
      symbol: 'EURUSD',
      timeframe: '15m',
      fromMs: Date.UTC(2024, 3, 1),
      toMs: Date.UTC(2024, 3, 2),
      apiOrigin: feed.origin,
    });
    await t.app.boss!.send(MARKET_QUEUES.exchangeImport, { runId });
    const deadline = Date.now() + 30_000;
    let run: ImportRun | undefined;
    while (Date.now() < deadline) {
      run = await getImportRun(t.database, runId);
      if (run?.status === 'done' || run?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(run).toMatchObject({ status: 'done', rows: 96, progress: 100 });
  });
});

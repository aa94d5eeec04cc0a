// The ccxt importer against a tiny stand-in of Binance USDⓈ-M and OKX on 127.0.0.1 (ccxt's
// `urls.api` moved to it), and the pg-boss jobs of the market data service.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candlesFromRows } from '@lq/engine';
import { createExchangeRun, queueExchangeImport, runExchangeImport } from './exchange';
import { getImportRun, scanMarketDataDir, type ImportRun } from './imports';
import { importMarketDataDir, MARKET_QUEUES } from './jobs';
import { listSeries, loadCandleRange, missingRanges, writeCandles } from './store';
import { startTestApp, type TestApp } from '../../test/helpers';

const MIN = 60_000;
const T0 = Date.UTC(2024, 2, 31, 12, 0); // spans the April boundary
const N = 3 * 24 * 60; // three days of 1m candles
const priceAt = (t: number) => 60_000 + ((t / MIN) % 500);

interface Seen {
  path: string;
  query: URLSearchParams;
}

/** Binance USDⓈ-M and OKX, as much as ccxt's loadMarkets and fetchOHLCV need. */
class StandIn {
  readonly seen: Seen[] = [];
  /** When > 0, that many candle requests succeed, then every one answers 503. */
  failAfter = 0;
  private served = 0;
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<StandIn> {
    const box: { s?: StandIn } = {};
    const server = createServer((req, res) => box.s!.handle(req.url ?? '/', res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    box.s = new StandIn(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return box.s;
  }

  candleRequests(kind: 'binance' | 'okx') {
    return this.seen.filter((s) => (kind === 'binance' ? s.path === '/fapi/v1/klines' : s.path.startsWith('/api/v5/market/')));
  }

  private handle(url: string, res: ServerResponse) {
    const u = new URL(url, 'http://x');
    this.seen.push({ path: u.pathname, query: u.searchParams });
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const isCandles = u.pathname === '/fapi/v1/klines' || u.pathname.startsWith('/api/v5/market/');
    if (isCandles && this.failAfter > 0 && this.served++ >= this.failAfter) {
      res.writeHead(503, { 'content-type': 'text/html' });
      return res.end('<html>Service Unavailable</html>');
    }
    const q = u.searchParams;
    switch (u.pathname) {
      case '/fapi/v1/exchangeInfo':
        return json(200, {
          timezone: 'UTC',
          serverTime: Date.now(),
          rateLimits: [],
          assets: [],
          symbols: [
            {
              symbol: 'BTCUSDT',
              pair: 'BTCUSDT',
              contractType: 'PERPETUAL',
              deliveryDate: 4133404800000,
              onboardDate: 1569398400000,
              status: 'TRADING',
              baseAsset: 'BTC',
              quoteAsset: 'USDT',
              marginAsset: 'USDT',
              pricePrecision: 2,
              quantityPrecision: 3,
              baseAssetPrecision: 8,
              quotePrecision: 8,
              underlyingType: 'COIN',
              settlePlan: 0,
              triggerProtect: '0.0500',
              filters: [
                { filterType: 'PRICE_FILTER', tickSize: '0.10', minPrice: '556.80', maxPrice: '4529764' },
                { filterType: 'LOT_SIZE', stepSize: '0.001', minQty: '0.001', maxQty: '1000' },
                { filterType: 'MARKET_LOT_SIZE', stepSize: '0.001', minQty: '0.001', maxQty: '120' },
                { filterType: 'MIN_NOTIONAL', notional: '100' },
              ],
              orderTypes: ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET'],
              timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
            },
          ],
        });
      case '/fapi/v1/klines': {
        if (q.get('symbol') !== 'BTCUSDT' || q.get('interval') !== '1m') return json(400, { code: -1121, msg: 'Invalid symbol.' });
        const limit = Number(q.get('limit') ?? 500);
        const start = Number(q.get('startTime') ?? 0);
        const end = Number(q.get('endTime') ?? Number.MAX_SAFE_INTEGER);
        const rows = [];
        for (let i = 0; i < N && rows.length < limit; i++) {
          const t = T0 + i * MIN;
          if (t < start || t > end) continue;
          const p = priceAt(t);
          rows.push([t, `${p}`, `${p + 5}`, `${p - 5}`, `${p + 1}`, '12.5', t + MIN - 1, '1000', 10, '6', '500', '0']);
        }
        return json(200, rows);
      }
      case '/api/v5/public/instruments':
        return json(200, {
          code: '0',
          msg: '',
          data:
            q.get('instType') === 'SWAP'
              ? [
                  {
                    instType: 'SWAP',
                    instId: 'BTC-USDT-SWAP',
                    uly: 'BTC-USDT',
                    instFamily: 'BTC-USDT',
                    baseCcy: '',
                    quoteCcy: '',
                    settleCcy: 'USDT',
                    ctVal: '0.01',
                    ctMult: '1',
                    ctValCcy: 'BTC',
                    ctType: 'linear',
                    lotSz: '0.01',
                    minSz: '0.01',
                    tickSz: '0.1',
                    lever: '100',
                    state: 'live',
                    listTime: '1573557408000',
                    expTime: '',
                    optType: '',
                    stk: '',
                    alias: '',
                    category: '1',
                    maxLmtSz: '100000000',
                    maxMktSz: '12000',
                  },
                ]
              : [],
        });
      case '/api/v5/market/candles':
      case '/api/v5/market/history-candles': {
        if (q.get('instId') !== 'BTC-USDT-SWAP' || q.get('bar') !== '1m') return json(200, { code: '51001', msg: 'Instrument ID does not exist', data: [] });
        const limit = Number(q.get('limit') ?? 100);
        const after = Number(q.get('after') ?? Number.MAX_SAFE_INTEGER); // older than
        const before = Number(q.get('before') ?? 0); // newer than
        const rows = [];
        for (let i = N - 1; i >= 0 && rows.length < limit; i--) {
          const t = T0 + i * MIN;
          if (!(t < after && t > before)) continue;
          const p = priceAt(t);
          rows.push([`${t}`, `${p}`, `${p + 5}`, `${p - 5}`, `${p + 1}`, '1250', '12.5', '750000', '1']);
        }
        return json(200, { code: '0', msg: '', data: rows });
      }
      default:
        return json(404, { code: -1, msg: `stand-in: no ${u.pathname}` });
    }
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const silent = { info: () => undefined, warn: () => undefined };
let t: TestApp;
let ex: StandIn;
let dir: string;

beforeAll(async () => {
  ex = await StandIn.start();
  dir = mkdtempSync(path.join(tmpdir(), 'lq-market-dir-'));
  // Links to real files (never copies), a file that is not a candle file, and one with no symbol.
  symlinkSync('/work/shared/data/dukascopy_EURUSD_1m.csv.gz', path.join(dir, 'dukascopy_EURUSD_1m.csv.gz'));
  writeFileSync(path.join(dir, 'broken_GBPUSD_1m.csv'), 'time,open,high,low,close,volume\n1,2,3\n');
  writeFileSync(path.join(dir, 'notes.csv'), 'hello\n');
  t = await startTestApp({ jobs: true, env: { MARKET_DATA_DIR: dir } });
});
afterAll(async () => {
  await t?.close();
  await ex?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function waitForRun(id: number, timeoutMs = 60_000): Promise<ImportRun> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await getImportRun(t.database, id);
    if (run && (run.status === 'done' || run.status === 'failed')) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${run?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const range = { fromMs: T0, toMs: T0 + N * MIN };

describe('ccxt importer (binanceusdm) against the stand-in', () => {
  const key = { source: 'binance', symbol: 'BTCUSDT', timeframe: '1m' };

  it('fetches only the missing ranges, writes them and reports progress', async () => {
    // Two hours in the middle are already stored: they must not be asked for again.
    const held = Array.from({ length: 120 }, (_, i) => {
      const time = T0 + (1000 + i) * MIN;
      return { time, open: 1, high: 2, low: 0.5, close: 1.5, volume: 0 };
    });
    await writeCandles(t.database, key, candlesFromRows(held, MIN));
    const runId = await createExchangeRun(t.database, { exchange: 'binance', symbol: 'btcusdt', timeframe: '1m', ...range, apiOrigin: ex.origin });
    const progress: number[] = [];
    const r = await runExchangeImport(t.database, { runId }, silent, { onProgress: (p) => progress.push(p) });
    expect(r).toEqual({ status: 'done', rows: N - 120 });
    expect(progress.at(-1)).toBe(100);
    expect(ex.seen.some((s) => s.path === '/fapi/v1/exchangeInfo')).toBe(true);
    const starts = ex.candleRequests('binance').map((s) => Number(s.query.get('startTime')));
    expect(starts.every((s) => s < T0 + 1000 * MIN || s >= T0 + 1120 * MIN)).toBe(true);
    const c = await loadCandleRange(t.database, { ...key, ...range });
    expect(c.length).toBe(N);
    expect(c.open[0]).toBe(priceAt(T0));
    expect(c.open[1000]).toBe(1); // the stored candle was kept
    expect(c.close[N - 1]).toBe(priceAt(T0 + (N - 1) * MIN) + 1);
    expect(await missingRanges(t.database, key, range.fromMs, range.toMs)).toEqual([]);
    const run = await getImportRun(t.database, runId);
    expect(run).toMatchObject({ kind: 'ccxt', status: 'done', progress: 100, rows: N - 120 });

    // A second run has nothing to fetch: no candle request at all.
    const before = ex.candleRequests('binance').length;
    const again = await createExchangeRun(t.database, { exchange: 'binance', symbol: 'BTCUSDT', timeframe: '1m', ...range, apiOrigin: ex.origin });
    expect(await runExchangeImport(t.database, { runId: again }, silent)).toEqual({ status: 'done', rows: 0 });
    expect(ex.candleRequests('binance').length).toBe(before);
  });

  it('marks the run failed plainly when the exchange is unreachable, then resumes from its cursor', async () => {
    const k = { ...key, source: 'okx' };
    ex.seen.length = 0;
    ex.failAfter = 3;
    const runId = await createExchangeRun(t.database, { exchange: 'okx', symbol: 'BTCUSDT', timeframe: '1m', ...range, apiOrigin: ex.origin });
    const failed = await runExchangeImport(t.database, { runId }, silent);
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/^okx is unreachable: /);
    const run = await getImportRun(t.database, runId);
    expect(run).toMatchObject({ status: 'failed', rows: 900 });
    expect(run?.message).toMatch(/^okx is unreachable/);
    expect(run?.cursorMs).toBe(T0 + 899 * MIN);
    expect((await listSeries(t.database)).find((s) => s.source === 'okx')?.count).toBe(900);

    // The exchange is back: the same run resumes after its cursor.
    ex.failAfter = 0;
    ex.seen.length = 0;
    const resumed = await runExchangeImport(t.database, { runId }, silent);
    expect(resumed).toEqual({ status: 'done', rows: N });
    const first = ex.candleRequests('okx')[0];
    expect(Number(first.query.get('before'))).toBe(T0 + 900 * MIN - 1);
    expect(first.path).toBe('/api/v5/market/history-candles');
    const c = await loadCandleRange(t.database, { ...k, ...range });
    expect(c.length).toBe(N);
    expect(c.volume[0]).toBeGreaterThan(0);
  });

  it('reports a closed port as unreachable, and an unknown market plainly', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const runId = await createExchangeRun(t.database, {
      exchange: 'binance',
      symbol: 'BTCUSDT',
      timeframe: '1h',
      ...range,
      apiOrigin: `http://127.0.0.1:${port}`,
    });
    const r = await runExchangeImport(t.database, { runId }, silent, { timeoutMs: 3000 });
    expect(r.status).toBe('failed');
    expect(r.message).toMatch(/^binance is unreachable: /);
    const unknown = await createExchangeRun(t.database, { exchange: 'binance', symbol: 'ETHUSDT', timeframe: '1m', ...range, apiOrigin: ex.origin });
    const u = await runExchangeImport(t.database, { runId: unknown }, silent);
    expect(u.status).toBe('failed');
    expect(u.message).toMatch(/^binance import failed: .*ETH\/USDT:USDT/);
    await expect(
      createExchangeRun(t.database, { exchange: 'binance', symbol: 'EURUSD', timeframe: '1m', ...range }),
    ).rejects.toThrow(/only USDT perpetuals/);
    await expect(
      createExchangeRun(t.database, { exchange: 'kraken' as 'okx', symbol: 'BTCUSDT', timeframe: '1m', ...range }),
    ).rejects.toThrow(/exchange must be one of/);
  });

  it('runs as a pg-boss job on the worker', async () => {
    const runId = await queueExchangeImport(
      t.app.boss!,
      t.database,
      { exchange: 'binance', symbol: 'BTCUSDT', timeframe: '1m', fromMs: T0 - 60 * MIN, toMs: T0 + 60 * MIN, apiOrigin: ex.origin },
      MARKET_QUEUES.exchangeImport,
    );
    const run = await waitForRun(runId);
    // The stand-in has nothing before T0: the hour before is asked for, found empty, and passed.
    expect(run).toMatchObject({ status: 'done', progress: 100 });
  });
});

describe('MARKET_DATA_DIR at start', () => {
  it('imports new files as jobs, records bad ones as failed and skips names without a symbol', async () => {
    const deadline = Date.now() + 60_000;
    let runs: ImportRun[] = [];
    for (;;) {
      runs = (await t.database.db.query.marketImports.findMany()).filter((r) => r.kind === 'file');
      if (runs.length >= 2 && runs.every((r) => r.status === 'done' || r.status === 'failed')) break;
      if (Date.now() > deadline) throw new Error(`imports not finished: ${JSON.stringify(runs)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const eur = runs.find((r) => r.symbol === 'EURUSD');
    expect(eur).toMatchObject({ source: 'dukascopy', timeframe: '1m', status: 'done', rows: 31680, progress: 100 });
    expect(JSON.parse(eur!.origin!)).toMatchObject({ path: path.join(dir, 'dukascopy_EURUSD_1m.csv.gz') });
    const bad = runs.find((r) => r.symbol === 'GBPUSD');
    expect(bad).toMatchObject({ source: 'broken', status: 'failed' });
    expect(bad?.message).toContain('expected 6 columns');
    expect(runs).toHaveLength(2);

    // A second start imports nothing again.
    const sent: unknown[] = [];
    const scan = await scanMarketDataDir(t.database, dir, (job) => {
      sent.push(job);
      return Promise.resolve();
    });
    expect(sent).toEqual([]);
    expect(scan.known).toHaveLength(2);
    expect(scan.skipped.map((s) => path.basename(s.file))).toEqual(['notes.csv']);
  });

  it('never throws on a missing directory', async () => {
    const warned: string[] = [];
    const log = { info: () => undefined, warn: (m: string) => warned.push(m) } as unknown as Parameters<typeof importMarketDataDir>[2];
    await importMarketDataDir(t.app.boss!, t.database, log, path.join(dir, 'nope'));
    expect(warned[0]).toMatch(/MARKET_DATA_DIR .*nope: ENOENT/);
  });
});

// The fake exchanges' market data: klines / candles and tickers served from the replayed candles at
// the market clock, read by real ccxt (binanceusdm, okx); the wall-clock (accelerated) mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candles } from '@lq/engine';
import { CcxtVenue } from '../src/index';
import { FakeBinance, FakeOkx } from '../src/fake/index';

const T0 = Date.UTC(2024, 0, 2);
/** 600 synthetic 1m candles: open = 100 + i, close = open + 0.5. */
function synthetic(n = 600): Candles {
  const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
  return {
    length: n,
    intervalMs: 60_000,
    time: col((i) => T0 + i * 60_000),
    open: col((i) => 100 + i),
    high: col((i) => 101 + i),
    low: col((i) => 99 + i),
    close: col((i) => 100.5 + i),
    volume: col(() => 2),
  };
}

let binance: FakeBinance;
let okx: FakeOkx;
let bOrigin: string;
let oOrigin: string;

beforeAll(async () => {
  binance = new FakeBinance({ candles: { BTCUSDT: synthetic() } });
  okx = new FakeOkx({ candles: { BTCUSDT: synthetic() } });
  bOrigin = await binance.listen();
  oOrigin = await okx.listen();
});
afterAll(async () => {
  await binance.close();
  await okx.close();
});

const opened = async (v: CcxtVenue) => (await v.open(), v);
const bVenue = () => opened(new CcxtVenue({ venue: 'binanceusdm', apiKey: 'fake-key', secret: 'fake-secret', origin: bOrigin, timeoutMs: 2000 }));
const oVenue = () => opened(new CcxtVenue({ venue: 'okx', apiKey: 'fake-key', secret: 'fake-secret', password: 'fake-pass', origin: oOrigin, timeoutMs: 2000 }));

describe('fake exchange market data', () => {
  it('Binance klines: candles up to the market clock, the newest still forming; since / limit', async () => {
    binance.reset();
    binance.advance(10 * 60_000 + 30_000); // 10.5 minutes in: candles 0..10 opened
    const v = await bVenue();
    const rows = await v.exchange.fetchOHLCV('BTC/USDT:USDT', '1m', undefined, 5);
    expect(rows.map((r) => r[0])).toEqual([6, 7, 8, 9, 10].map((i) => T0 + i * 60_000));
    expect(rows[0].slice(1, 6)).toEqual([106, 107, 105, 106.5, 2]);
    const since = await v.exchange.fetchOHLCV('BTC/USDT:USDT', '1m', T0 + 2 * 60_000, 3);
    expect(since.map((r) => r[0])).toEqual([2, 3, 4].map((i) => T0 + i * 60_000));
    const all = await v.exchange.fetchOHLCV('BTC/USDT:USDT', '1m', T0, 100);
    expect(all).toHaveLength(11);
    const five = await v.exchange.fetchOHLCV('BTC/USDT:USDT', '5m', T0, 10);
    expect(five.map((r) => r.slice(0, 6))).toEqual([
      [T0, 100, 105, 99, 104.5, 10],
      [T0 + 300_000, 105, 110, 104, 109.5, 10],
      [T0 + 600_000, 110, 111, 109, 110.5, 2],
    ]);
  });

  it('Binance 24 h ticker from the replayed candles', async () => {
    binance.reset();
    binance.advance(100 * 60_000);
    const t = await (await bVenue()).exchange.fetchTicker('BTC/USDT:USDT');
    expect(t.last).toBe(200.5);
    expect(t.open).toBe(100);
    expect(t.high).toBe(201);
    expect(t.low).toBe(99);
  });

  it('OKX candles (newest first on the wire) and tickers through ccxt', async () => {
    okx.reset();
    okx.advance(20 * 60_000);
    const v = await oVenue();
    const rows = await v.exchange.fetchOHLCV('BTC/USDT:USDT', '1m', T0 + 5 * 60_000, 4);
    expect(rows.map((r) => r[0])).toEqual([5, 6, 7, 8].map((i) => T0 + i * 60_000));
    expect(rows[0].slice(1, 6)).toEqual([105, 106, 104, 105.5, 2]);
    const latest = await v.exchange.fetchOHLCV('BTC/USDT:USDT', '1m', undefined, 3);
    expect(latest.map((r) => r[0])).toEqual([18, 19, 20].map((i) => T0 + i * 60_000));
    const tickers = await v.exchange.fetchTickers(undefined, { type: 'swap' });
    expect(tickers['BTC/USDT:USDT'].last).toBe(120.5);
    expect(tickers['BTC/USDT:USDT'].open).toBe(100);
  });

  it('wall-clock mode advances the market clock with real time, accelerated', async () => {
    binance.reset();
    const start = binance.timeMs;
    binance.setClock({ mode: 'wall', speed: 600 }); // ten 1m candles per second
    const v = await bVenue();
    let rows: number[][] = [];
    for (let k = 0; k < 100 && rows.length < 3; k++) {
      await new Promise((r) => setTimeout(r, 50));
      rows = (await v.exchange.fetchOHLCV('BTC/USDT:USDT', '1m', T0, 10)) as number[][];
    }
    binance.setClock({ mode: 'manual' });
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(binance.timeMs).toBeGreaterThan(start);
    // Limits rest and fill as the replayed candles pass through them.
    expect(binance.book.price('BTCUSDT')).toBeGreaterThan(100);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candlesFromRows, type Candles } from '@lq/engine';
import type { DatabaseHandle } from '@lq/db';
import { openTestDatabase } from '../../test/helpers';
import {
  deleteSeries,
  listSeries,
  loadCandleRange,
  missingRanges,
  writeCandles,
  type SeriesKey,
} from './store';

const MIN = 60_000;
const T0 = Date.UTC(2024, 0, 31, 23, 50); // ten minutes before the February boundary

const rows = (from: number, n: number, step = MIN, price = 100) =>
  Array.from({ length: n }, (_, i) => ({
    time: from + i * step,
    open: price + i,
    high: price + i + 2,
    low: price + i - 1,
    close: price + i + 1,
    volume: i,
  }));

const times = (c: Candles) => Array.from(c.time.subarray(0, c.length));

let database: DatabaseHandle;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ database, close } = await openTestDatabase('lq-store-'));
});

afterAll(() => close());

describe('candle store', () => {
  const key: SeriesKey = { source: 'test', symbol: 'BTCUSDT', timeframe: '1m' };

  it('round-trips candles across a month boundary into two chunks', async () => {
    const c = candlesFromRows(rows(T0, 20), MIN);
    expect(await writeCandles(database, key, c)).toEqual({ written: 20 });
    const chunks = await database.exec<{ chunk_start: string; count: number }>(
      `select chunk_start, count from candle_chunks where source = 'test' order by chunk_start`,
    );
    expect(chunks.map((r) => [Number(r.chunk_start), Number(r.count)])).toEqual([
      [Date.UTC(2024, 0, 1), 10],
      [Date.UTC(2024, 1, 1), 10],
    ]);
    const back = await loadCandleRange(database, { ...key, fromMs: 0, toMs: Date.UTC(2030, 0, 1) });
    expect(back.length).toBe(20);
    expect(back.intervalMs).toBe(MIN);
    expect(back.time).toBeInstanceOf(Float64Array);
    expect(times(back)).toEqual(times(c));
    expect(Array.from(back.open)).toEqual(Array.from(c.open));
    expect(Array.from(back.high)).toEqual(Array.from(c.high));
    expect(Array.from(back.low)).toEqual(Array.from(c.low));
    expect(Array.from(back.close)).toEqual(Array.from(c.close));
    expect(Array.from(back.volume)).toEqual(Array.from(c.volume));
  });

  it('loads half-open ranges [from, to) within and across chunks', async () => {
    const feb = Date.UTC(2024, 1, 1);
    const a = await loadCandleRange(database, { ...key, fromMs: T0 + 5 * MIN, toMs: feb + 3 * MIN });
    expect(times(a)).toEqual(Array.from({ length: 8 }, (_, i) => T0 + (5 + i) * MIN));
    const b = await loadCandleRange(database, { ...key, fromMs: feb, toMs: feb + MIN });
    expect(times(b)).toEqual([feb]);
    const none = await loadCandleRange(database, { ...key, fromMs: feb, toMs: feb });
    expect(none.length).toBe(0);
    const other = await loadCandleRange(database, { ...key, symbol: 'ETHUSDT', fromMs: 0, toMs: feb * 2 });
    expect(other.length).toBe(0);
  });

  it('merges idempotently: same time replaced, new times inserted in order', async () => {
    const c = candlesFromRows(rows(T0, 20), MIN);
    await writeCandles(database, key, c);
    // overlap: 5 existing times with new prices, 5 new times after, and one before
    const update = candlesFromRows(
      [...rows(T0 + 15 * MIN, 10, MIN, 500), ...rows(T0 - MIN, 1, MIN, 900)],
      MIN,
    );
    expect(await writeCandles(database, key, update)).toEqual({ written: 11 });
    const back = await loadCandleRange(database, { ...key, fromMs: 0, toMs: Date.UTC(2030, 0, 1) });
    expect(back.length).toBe(26);
    expect(times(back)).toEqual(Array.from({ length: 26 }, (_, i) => T0 + (i - 1) * MIN));
    expect(back.open[0]).toBe(900);
    expect(back.open[1]).toBe(100);
    expect(back.open[16]).toBe(500); // T0 + 15 min replaced
    expect(back.open[25]).toBe(509);
    const series = await listSeries(database);
    expect(series.find((s) => s.source === 'test')).toEqual({
      ...key,
      firstTime: T0 - MIN,
      lastTime: T0 + 24 * MIN,
      count: 26,
    });
  });

  it('sorts unsorted input and keeps the last of duplicate times', async () => {
    const k = { ...key, symbol: 'ETHUSDT' };
    const c = candlesFromRows(
      [
        { time: T0 + 2 * MIN, open: 1, high: 1, low: 1, close: 1 },
        { time: T0, open: 2, high: 2, low: 2, close: 2 },
        { time: T0 + 2 * MIN, open: 3, high: 3, low: 3, close: 3 },
      ],
      MIN,
    );
    expect(await writeCandles(database, k, c)).toEqual({ written: 2 });
    const back = await loadCandleRange(database, { ...k, fromMs: 0, toMs: T0 + 10 * MIN });
    expect(times(back)).toEqual([T0, T0 + 2 * MIN]);
    expect(Array.from(back.open)).toEqual([2, 3]);
    await deleteSeries(database, k);
    expect((await listSeries(database)).some((s) => s.symbol === 'ETHUSDT')).toBe(false);
  });

  it('rejects an unknown timeframe and invalid times', async () => {
    await expect(
      writeCandles(database, { ...key, timeframe: '7m' }, candlesFromRows(rows(T0, 1), MIN)),
    ).rejects.toThrow(/interval/i);
    await expect(
      writeCandles(database, key, candlesFromRows([{ time: NaN, open: 1, high: 1, low: 1, close: 1 }], MIN)),
    ).rejects.toThrow(/invalid time/);
  });

  it('reports missing ranges on the timeframe grid', async () => {
    const k = { ...key, symbol: 'SOLUSDT' };
    const a = Date.UTC(2024, 2, 31, 23, 0);
    // empty series: everything is missing
    expect(await missingRanges(database, k, a, a + 60 * MIN)).toEqual([{ fromMs: a, toMs: a + 60 * MIN }]);
    // candles at 0..9 and 20..29 minutes (across the April boundary at 60 min? no: 23:00 + 60 = April 1st)
    await writeCandles(database, k, candlesFromRows([...rows(a, 10), ...rows(a + 20 * MIN, 10), ...rows(a + 70 * MIN, 5)], MIN));
    expect(await missingRanges(database, k, a, a + 80 * MIN)).toEqual([
      { fromMs: a + 10 * MIN, toMs: a + 20 * MIN },
      { fromMs: a + 30 * MIN, toMs: a + 70 * MIN },
      { fromMs: a + 75 * MIN, toMs: a + 80 * MIN },
    ]);
    // unaligned start is rounded up to the grid; fully covered → nothing missing
    expect(await missingRanges(database, k, a + 20 * MIN - 1, a + 30 * MIN)).toEqual([]);
    expect(await missingRanges(database, k, a, a)).toEqual([]);
  });
});

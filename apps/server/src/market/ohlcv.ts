import { allocCandles, type Candles } from '@lq/engine';

/**
 * `[time, open, high, low, close, volume?]` rows from a feed (ccxt, Dukascopy) → candles inside
 * [from, to) on the timeframe grid, sorted; malformed, off-grid or out-of-range rows are dropped.
 */
export function ohlcvRowsToCandles(rows: number[][], step: number, from: number, to: number): Candles {
  const kept = rows
    .filter((r) => Array.isArray(r) && r.length >= 5 && r[0] >= from && r[0] < to && r[0] % step === 0)
    .filter((r) => r.slice(0, 5).every((x) => Number.isFinite(x)))
    .sort((a, b) => a[0] - b[0]);
  const c = allocCandles(kept.length, step);
  kept.forEach((r, i) => {
    c.time[i] = r[0];
    c.open[i] = r[1];
    c.high[i] = r[2];
    c.low[i] = r[3];
    c.close[i] = r[4];
    c.volume[i] = Number.isFinite(r[5]) ? r[5] : 0;
  });
  return c;
}

import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { GridStrategy, SmaCrossStrategy, getInstrument, gridBaseline, parseCandlesCsv, runBacktest, smaCrossBaseline, sliceRows } from '../src';

const shared = process.env.SHARED_DIR ?? join(import.meta.dirname, '../../../../shared');
const file = join(shared, 'data', 'binance_ETHUSDT_1m.csv.gz');

describe.skipIf(!existsSync(file))('reference strategies match their hand-written loops', () => {
  const candles = sliceRows(parseCandlesCsv(gunzipSync(readFileSync(file)).toString('latin1')), 0, 20_000);
  const inst = getInstrument('ETHUSDT');
  const cfg = { instrument: inst, candles, capital: 1e6, leverage: 10, makerFee: 0.0002, takerFee: 0.0005 };

  it('SMA cross: same trades and net PnL', () => {
    const r = runBacktest(new SmaCrossStrategy({ fast: 10, slow: 30, qty: 1 }), cfg);
    const b = smaCrossBaseline(candles.open, candles.close, candles.length, 10, 30, 1, inst.contractSize, 0.0005);
    expect(r.status).toBe(2);
    expect(r.tradeCount).toBeGreaterThan(100);
    expect(r.tradeCount).toBe(b.trades);
    expect(r.realisedPnl - r.totalFees).toBeCloseTo(b.net, 4);
  });

  it('grid: same trades and net PnL', () => {
    const r = runBacktest(new GridStrategy({ levels: 10, gap: 0.004, qty: 1 }), cfg);
    const b = gridBaseline(candles.open, candles.high, candles.low, candles.close, candles.length, 10, 0.004, 1, inst.contractSize, 0.0002);
    expect(r.tradeCount).toBeGreaterThan(20);
    expect(r.tradeCount).toBe(b.trades);
    expect(r.realisedPnl - r.totalFees).toBeCloseTo(b.net, 4);
    const plain = gridBaseline(candles.open, candles.high, candles.low, candles.close, candles.length, 10, 0.004, 1, inst.contractSize, 0.0002, false);
    expect(plain).toEqual(b);
  });
});

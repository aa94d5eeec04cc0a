// LiveKernel + PaperFeed fed candle by candle on a SimulatedBroker give the backtest's trades:
// the same strategy code, executor and fill rules, stepwise.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  GridStrategy,
  LiveKernel,
  PaperFeed,
  SimulatedBroker,
  SmaCrossStrategy,
  getInstrument,
  parseCandlesCsv,
  runBacktest,
  sliceByTime,
  type Candles,
  type Strategy,
} from '../src';

const shared = process.env.SHARED_DIR ?? join(import.meta.dirname, '../../../../shared');
const file = join(shared, 'data', 'binance_BTCUSDT_1m.csv.gz');

function paper(strategy: Strategy, candles: Candles, intervalMs: number) {
  const instrument = getInstrument('BTCUSDT');
  const broker = new SimulatedBroker({ instrument, capital: 100_000, leverage: 5, makerFee: 0.0002, takerFee: 0.0005 });
  const kernel = new LiveKernel({ strategy, broker, instrument, intervalMs, capital: 100_000, leverage: 5 });
  const feed = new PaperFeed(kernel, broker, intervalMs, candles.intervalMs);
  for (let i = 0; i < candles.length; i++) {
    const r = feed.onInputCandle(candles.time[i], candles.open[i], candles.high[i], candles.low[i], candles.close[i], candles.volume[i]);
    if (r !== null) break;
  }
  feed.finish();
  return { broker, kernel };
}

function backtest(strategy: Strategy, candles: Candles, intervalMs: number) {
  return runBacktest(strategy, {
    instrument: getInstrument('BTCUSDT'),
    candles,
    intervalMs,
    capital: 100_000,
    leverage: 5,
    makerFee: 0.0002,
    takerFee: 0.0005,
  });
}

describe.skipIf(!existsSync(file))('LiveKernel on a SimulatedBroker = runBacktest', () => {
  const all = existsSync(file) ? parseCandlesCsv(gunzipSync(readFileSync(file)).toString('latin1')) : null;
  const candles = all ? sliceByTime(all, Date.UTC(2024, 0, 2), Date.UTC(2024, 0, 9)) : null;

  for (const intervalMs of [60_000, 900_000, 3_600_000]) {
    it(`grid, decisions every ${intervalMs / 60_000} min`, () => {
      const make = () => new GridStrategy({ levels: 8, gap: 0.004, qty: 5 });
      const report = backtest(make(), candles!, intervalMs);
      const { broker, kernel } = paper(make(), candles!, intervalMs);
      expect(report.tradeCount).toBeGreaterThan(5);
      expect(broker.trades).toEqual(report.trades);
      expect(kernel.decisions).toBe(report.decisionCount);
      expect(broker.balance).toBeCloseTo(report.finalEquity - report.floatingPnl, 6);
    });

    it(`single (SMA cross at market), decisions every ${intervalMs / 60_000} min`, () => {
      const make = () => new SmaCrossStrategy({ fast: 5, slow: 20, qty: 3 });
      const report = backtest(make(), candles!, intervalMs);
      const { broker } = paper(make(), candles!, intervalMs);
      expect(report.tradeCount).toBeGreaterThan(3);
      expect(broker.trades).toEqual(report.trades);
      expect(broker.fills.map((f) => [f.tag, f.price, f.time])).toEqual(report.fills.map((f) => [f.tag, f.price, f.time]));
    });
  }

  it('a gap in the input candles still decides the bucket before the next one is simulated', () => {
    // Drop minutes here and there, including the last minute of some hours.
    const keep: number[] = [];
    for (let i = 0; i < candles!.length; i++) if (i % 97 !== 59 && i % 60 !== 59) keep.push(i);
    const pick = (a: Float64Array) => Float64Array.from(keep, (i) => a[i]);
    const holey: Candles = {
      length: keep.length,
      intervalMs: 60_000,
      time: pick(candles!.time),
      open: pick(candles!.open),
      high: pick(candles!.high),
      low: pick(candles!.low),
      close: pick(candles!.close),
      volume: pick(candles!.volume),
    };
    const make = () => new SmaCrossStrategy({ fast: 4, slow: 12, qty: 3 });
    const report = backtest(make(), holey, 3_600_000);
    const { broker } = paper(make(), holey, 3_600_000);
    expect(broker.trades).toEqual(report.trades);
  });

  it('a closed gate drops intents (paused robot) and a strategy error halts the kernel', () => {
    const instrument = getInstrument('BTCUSDT');
    const broker = new SimulatedBroker({ instrument, capital: 100_000, leverage: 5, makerFee: 0, takerFee: 0 });
    let calls = 0;
    const kernel = new LiveKernel({
      strategy: {
        onCandle(view, out) {
          calls++;
          if (view.index === 3) throw new Error('boom');
          out.push({ kind: 'open', tag: `t${view.index}`, side: 'long', qty: 1, type: 'market' });
        },
      },
      broker,
      instrument,
      intervalMs: 60_000,
      capital: 100_000,
      leverage: 5,
    });
    kernel.gate = false;
    const c = { time: 0, open: 100, high: 101, low: 99, close: 100, volume: 1 };
    expect(kernel.onCandle(c)).toBeNull();
    expect(broker.pending.length).toBe(0);
    expect(kernel.dropped).toBe(1);
    kernel.gate = true;
    kernel.onCandle({ ...c, time: 60_000 });
    expect(broker.pending.length).toBe(1);
    kernel.onCandle({ ...c, time: 120_000 });
    expect(kernel.onCandle({ ...c, time: 180_000 })).toMatch(/strategy error: boom/);
    expect(kernel.onCandle({ ...c, time: 240_000 })).toMatch(/boom/);
    expect(calls).toBe(4);
  });
});

// AiStream (the AI indicator one candle at a time, for robots) equals computeAiSignal bit for bit.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocCandles, sliceRows } from '../src/candles';
import { AiStream, computeAiSignal, type AiOptions } from '../src/ai/index';
import { mulberry32 } from '../src/optimize/random';
import type { Candles } from '../src/types';

const MINUTE = 60_000;
const HOUR = 3_600_000;

function randomWalk(n: number, seed: number, intervalMs = HOUR): Candles {
  const random = mulberry32(seed);
  const c = allocCandles(n, intervalMs);
  let price = 100;
  for (let i = 0; i < n; i++) {
    const open = price;
    // Some flat bars (zero range, zero volume) exercise the degenerate branches of the features.
    const flat = random() < 0.03;
    price = flat ? price : price * Math.exp((random() - 0.5) * 0.02);
    c.time[i] = 1_700_000_000_000 + i * intervalMs;
    c.open[i] = open;
    c.close[i] = price;
    c.high[i] = flat ? price : Math.max(open, price) * (1 + random() * 0.003);
    c.low[i] = flat ? price : Math.min(open, price) * (1 - random() * 0.003);
    c.volume[i] = flat ? 0 : 10 + random() * 5;
  }
  return c;
}

function streamed(c: Candles, options: AiOptions = {}): { signal: Float64Array; probabilityUp: Float64Array; stream: AiStream } {
  // A small capacity so the buffers grow several times during the run.
  const s = new AiStream(c.intervalMs, options, 8);
  for (let i = 0; i < c.length; i++) {
    const at = s.push({ time: c.time[i], open: c.open[i], high: c.high[i], low: c.low[i], close: c.close[i], volume: c.volume[i] });
    expect(at).toBe(i);
  }
  return { signal: s.signal.slice(0, c.length), probabilityUp: s.probabilityUp.slice(0, c.length), stream: s };
}

/** Bitwise equality of two float arrays (NaN equals NaN, +0 differs from −0). */
function sameBits(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

describe('AiStream', () => {
  it('equals computeAiSignal bit for bit (signal and probability) over several retrain blocks', () => {
    const c = randomWalk(2600, 7);
    const options = { retrain: 300, minTrain: 200 };
    const batch = computeAiSignal(c, options);
    const s = streamed(c, options);
    expect(sameBits(s.probabilityUp, batch.signal.probabilityUp)).toBe(true);
    expect(sameBits(s.signal, batch.signal.signal)).toBe(true);
    expect(s.stream.first).toBe(batch.firstPredictionIndex);
    // The model really predicts (both directions) after the first retrain bar, and nothing before it.
    const first = batch.firstPredictionIndex;
    expect(Number.isNaN(s.signal[first - 1])).toBe(true);
    const after = Array.from(s.signal.subarray(first));
    expect(after.every((x) => x === 1 || x === 0 || x === -1)).toBe(true);
    expect(after.includes(1) && after.includes(-1)).toBe(true);
  });

  it('samples the training rows beyond maxTrainRows as the batch does (seeded)', () => {
    const c = randomWalk(3000, 11);
    for (const seed of [1, 5]) {
      const options = { retrain: 700, minTrain: 300, maxTrainRows: 400, seed };
      expect(sameBits(streamed(c, options).probabilityUp, computeAiSignal(c, options).signal.probabilityUp)).toBe(true);
    }
  });

  it('with the default options and 1m candles (weekly retrain) it equals the batch', () => {
    const c = randomWalk(1500, 3, MINUTE);
    const batch = computeAiSignal(c, { seed: 1 });
    const s = streamed(c, { seed: 1 });
    expect(s.stream.retrain).toBe(10_080);
    expect(sameBits(s.probabilityUp, batch.signal.probabilityUp)).toBe(true);
    expect(sameBits(s.signal, batch.signal.signal)).toBe(true);
  });

  it('property: for any data cut, every streamed prefix equals computeAiSignal on the cut data', () => {
    const c = randomWalk(1400, 21);
    const options = { retrain: 150, minTrain: 100, maxTrainRows: 300 };
    const s = streamed(c, options);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: c.length }), (cut) => {
        const batch = computeAiSignal(sliceRows(c, 0, cut), options);
        return sameBits(s.probabilityUp.subarray(0, cut), batch.signal.probabilityUp) && sameBits(s.signal.subarray(0, cut), batch.signal.signal);
      }),
      { numRuns: 25, seed: 4 },
    );
  });

  it('one model predicting a long block (no retrain) equals the batch block prediction', () => {
    const c = randomWalk(700, 5);
    const options = { retrain: 10_000, minTrain: 100 };
    expect(sameBits(streamed(c, options).probabilityUp, computeAiSignal(c, options).signal.probabilityUp)).toBe(true);
  });

  it('view(origin) aligns the signal with a robot whose first candle is the stream row origin, across buffer growth', () => {
    const c = randomWalk(900, 9);
    const options = { retrain: 200, minTrain: 100 };
    const s = new AiStream(c.intervalMs, options, 4);
    const push = (i: number) => s.push({ time: c.time[i], open: c.open[i], high: c.high[i], low: c.low[i], close: c.close[i], volume: c.volume[i] });
    for (let i = 0; i < 300; i++) push(i);
    const v = s.view();
    const batch = computeAiSignal(c, options).signal.signal;
    for (let i = 300; i < c.length; i++) {
      push(i);
      expect(Object.is(v.signal[i - 300], batch[i])).toBe(true);
    }
  });

  it('rejects invalid options', () => {
    expect(() => new AiStream(HOUR, { horizon: 0 })).toThrow(/horizon/);
  });
});

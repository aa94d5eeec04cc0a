import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocCandles, sliceRows } from '../src/candles';
import { computeAiSignal } from '../src/ai/index';
import { mulberry32 } from '../src/optimize/random';
import type { Candles } from '../src/types';

const HOUR = 3_600_000;

function randomWalk(n: number, seed: number): Candles {
  const random = mulberry32(seed);
  const c = allocCandles(n, HOUR);
  let price = 100;
  for (let i = 0; i < n; i++) {
    const open = price;
    price *= Math.exp((random() - 0.5) * 0.02);
    c.time[i] = 1_700_000_000_000 + i * HOUR;
    c.open[i] = open;
    c.close[i] = price;
    c.high[i] = Math.max(open, price) * (1 + random() * 0.003);
    c.low[i] = Math.min(open, price) * (1 - random() * 0.003);
    c.volume[i] = 10 + random() * 5;
  }
  return c;
}

/** Rises during UTC hours 0–11 and falls during 12–23: the hour of day predicts the next bar. */
function hourlyCycle(days: number): Candles {
  const n = days * 24;
  const c = allocCandles(n, HOUR);
  let price = 1000;
  for (let i = 0; i < n; i++) {
    const hour = i % 24;
    const open = price;
    price += hour < 12 ? 1 + (i % 7) * 0.1 : -1 - (i % 5) * 0.1;
    c.time[i] = 1_704_067_200_000 + i * HOUR; // 2024-01-01T00:00Z
    c.open[i] = open;
    c.close[i] = price;
    c.high[i] = Math.max(open, price) + 0.5;
    c.low[i] = Math.min(open, price) - 0.5;
    c.volume[i] = 1;
  }
  return c;
}

describe('AI indicator', () => {
  it('never looks ahead: the signal on data cut at T equals the full-data signal before T', () => {
    const full = randomWalk(700, 7);
    const options = { minTrain: 120, retrain: 53, horizon: 5, seed: 3, maxTrainRows: 400 };
    const reference = computeAiSignal(full, options);
    const first = reference.firstPredictionIndex;
    const sameBeforeCut = (cut: number) => {
      const partial = computeAiSignal(sliceRows(full, 0, cut), options);
      expect(Array.from(partial.signal.signal)).toEqual(Array.from(reference.signal.signal.subarray(0, cut)));
      expect(Array.from(partial.signal.probabilityUp)).toEqual(Array.from(reference.signal.probabilityUp.subarray(0, cut)));
    };
    // Cuts just after a retrain bar are where a leaked label would show: check them all.
    for (let t0 = first; t0 < full.length; t0 += options.retrain) {
      for (const j of [1, options.horizon]) if (t0 + j < full.length) sameBeforeCut(t0 + j);
    }
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 699 }), sameBeforeCut),
      { numRuns: 10 },
    );
  });

  it('is deterministic for a seed, and the seed matters once the training set is sampled', () => {
    const c = randomWalk(1500, 11);
    const options = { minTrain: 200, retrain: 100, maxTrainRows: 150, horizon: 3 };
    const a = computeAiSignal(c, { ...options, seed: 5 });
    const b = computeAiSignal(c, { ...options, seed: 5 });
    const other = computeAiSignal(c, { ...options, seed: 6 });
    expect(Array.from(a.signal.probabilityUp)).toEqual(Array.from(b.signal.probabilityUp));
    expect(a.hitRate).toBe(b.hitRate);
    expect(Array.from(other.signal.probabilityUp)).not.toEqual(Array.from(a.signal.probabilityUp));
  });

  it('learns a predictable series and reports hit rate and base rate that match the signal', () => {
    const c = hourlyCycle(120);
    const horizon = 1;
    const result = computeAiSignal(c, { minTrain: 300, horizon, margin: 0.05 });
    const first = result.firstPredictionIndex;
    expect(Number.isNaN(result.signal.signal[first - 1])).toBe(true);
    expect(Number.isNaN(result.signal.signal[first])).toBe(false);
    let hits = 0;
    let predictions = 0;
    let ups = 0;
    let scored = 0;
    for (let t = first; t + horizon < c.length; t++) {
      const up = c.close[t + horizon] > c.close[t];
      scored++;
      if (up) ups++;
      const s = result.signal.signal[t];
      if (s === 0) continue;
      predictions++;
      if ((s > 0) === up) hits++;
    }
    expect(result.predictions).toBe(predictions);
    expect(result.hitRate).toBeCloseTo(hits / predictions, 12);
    expect(result.baseRate).toBeCloseTo(ups / scored, 12);
    // Next bar rises when it starts in hours 0–11: 12 of every 24 bars.
    expect(result.baseRate).toBeCloseTo(0.5, 2);
    expect(result.hitRate).toBeGreaterThan(0.9);
    expect(predictions).toBeGreaterThan(0.8 * scored);
  });

  it('is fast: a year of hourly candles well under a second', () => {
    const c = randomWalk(8760, 1);
    const started = performance.now();
    const result = computeAiSignal(c);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(result.predictions).toBeGreaterThan(1000);
    expect(result.hitRate).toBeGreaterThan(0.3);
    expect(result.hitRate).toBeLessThan(0.7);
  });
});

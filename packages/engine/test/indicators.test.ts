import { describe, expect, it } from 'vitest';
import { Atr, Bollinger, Donchian, Ema, Macd, Rsi, Sma, emaSeries, smaSeries, candlesFromRows, atrSeries } from '../src';

describe('indicators (hand-computed values)', () => {
  it('SMA', () => {
    const s = new Sma(3);
    expect([1, 2, 3, 4, 10].map((x) => s.update(x))).toEqual([NaN, NaN, 2, 3, 17 / 3]);
    expect(Array.from(smaSeries(Float64Array.from([1, 2, 3, 4]), 2))).toEqual([NaN, 1.5, 2.5, 3.5]);
  });
  it('EMA seeded with the SMA', () => {
    const e = new Ema(3); // α = 0.5
    expect([2, 4, 6, 8, 4].map((x) => e.update(x))).toEqual([NaN, NaN, 4, 6, 5]);
    expect(emaSeries(Float64Array.from([2, 4, 6, 8]), 3)[3]).toBe(6);
  });
  it('RSI (Wilder)', () => {
    const r = new Rsi(2);
    // changes: +2, −1 → avg gain 1, avg loss 0.5 → RS 2 → 66.67; next +3: gain (1+3)/2=2, loss 0.25 → RS 8 → 88.89
    const v = [10, 12, 11, 14].map((x) => r.update(x));
    expect(v[1]).toBeNaN();
    expect(v[2]).toBeCloseTo(100 - 100 / 3, 10);
    expect(v[3]).toBeCloseTo(100 - 100 / 9, 10);
  });
  it('ATR (Wilder, first TR = high − low)', () => {
    const a = new Atr(2);
    expect(a.update(10, 8, 9)).toBeNaN(); // TR 2
    expect(a.update(12, 9, 11)).toBe(2.5); // TR max(3, |12−9|, |9−9|) = 3 → mean(2,3)
    expect(a.update(11, 10, 10.5)).toBe(1.75); // TR max(1, 0, 1) = 1 → 2.5 + (1 − 2.5)/2
    const c = candlesFromRows([{ time: 0, open: 9, high: 10, low: 8, close: 9 }, { time: 1, open: 9, high: 12, low: 9, close: 11 }], 1);
    expect(atrSeries(c, 2)[1]).toBe(2.5);
  });
  it('MACD with small periods', () => {
    const m = new Macd(1, 2, 2);
    // EMA1 = x; EMA2 seeded at mean of first 2, α 2/3.
    m.update(1);
    m.update(3); // slow 2 → macd 1
    expect(m.macd).toBe(1);
    expect(m.signal).toBeNaN();
    m.update(6); // slow 2 + 2/3·4 = 14/3 → macd 4/3; signal mean(1, 4/3) = 7/6
    expect(m.macd).toBeCloseTo(4 / 3, 12);
    expect(m.signal).toBeCloseTo(7 / 6, 12);
    expect(m.histogram).toBeCloseTo(1 / 6, 12);
  });
  it('Bollinger (population sd)', () => {
    const b = new Bollinger(4, 2);
    [2, 4, 4, 4].forEach((x) => b.update(x));
    // mean 3.5, var (2.25+.25·3)/4 = 0.75
    expect(b.middle).toBe(3.5);
    expect(b.upper).toBeCloseTo(3.5 + 2 * Math.sqrt(0.75), 12);
    expect(b.lower).toBeCloseTo(3.5 - 2 * Math.sqrt(0.75), 12);
  });
  it('Donchian over the last N including the current bar', () => {
    const d = new Donchian(3);
    const highs = [5, 9, 7, 6, 4, 8];
    const lows = [1, 3, 2, 4, 3, 5];
    const out: number[][] = [];
    highs.forEach((h, i) => {
      d.update(h, lows[i]);
      out.push([d.upper, d.lower]);
    });
    expect(out.slice(2)).toEqual([[9, 1], [9, 2], [7, 2], [8, 3]]);
  });
  it('Sma is bit-identical to the plain ring-buffer arithmetic (warm-up, re-sums every 4,096 updates)', () => {
    for (const period of [1, 3, 50, 200]) {
      const s = new Sma(period);
      const ring = new Float64Array(period);
      let sum = 0;
      let count = 0;
      let head = 0;
      let since = 0;
      for (let i = 0; i < 20_000; i++) {
        const x = 30_000 + Math.sin(i * 0.37) * 500 + (i % 13) * 0.01;
        let want = NaN;
        if (count < period) {
          ring[count++] = x;
          sum += x;
          if (count === period) want = sum / period;
        } else {
          sum += x - ring[head];
          ring[head] = x;
          head = head + 1 === period ? 0 : head + 1;
          if (++since === 4096) {
            since = 0;
            let t = 0;
            for (let j = 0; j < period; j++) t += ring[j];
            sum = t;
          }
          want = sum / period;
        }
        const got = s.update(x);
        if (!Object.is(got, want)) expect({ period, i, got }).toEqual({ period, i, got: want });
      }
      expect(s.ready).toBe(true);
    }
  });
  it('long runs stay accurate (re-summing)', () => {
    const s = new Sma(10);
    let last = 0;
    for (let i = 0; i < 100_000; i++) last = s.update(1e6 + (i % 7) * 0.1);
    const expected = Array.from({ length: 10 }, (_, k) => 1e6 + ((100_000 - 10 + k) % 7) * 0.1).reduce((a, b) => a + b) / 10;
    expect(last).toBeCloseTo(expected, 6);
  });
});

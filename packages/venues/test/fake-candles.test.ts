import { describe, expect, it } from 'vitest';
import { allocCandles } from '@lq/engine';
import { continuedTail } from '../src/fake/candles';

describe('continuedTail', () => {
  it('replays the last days shifted to start one candle after the data ends, prices unchanged', () => {
    const n = 3 * 1440;
    const c = allocCandles(n, 60_000);
    for (let i = 0; i < n; i++) {
      c.time[i] = 1_700_000_000_000 + i * 60_000;
      c.close[i] = 100 + i;
    }
    const tail = continuedTail(c, 1);
    expect(tail.length).toBe(1440);
    expect(tail.time[0]).toBe(c.time[n - 1] + 60_000);
    expect(tail.close[0]).toBe(c.close[n - 1440]);
    expect(tail.time[1439] - tail.time[0]).toBe(1439 * 60_000);
    expect(c.time[n - 1]).toBe(1_700_000_000_000 + (n - 1) * 60_000); // the source is not modified
  });
});

// Candle feed of the fake exchange: the project's CSV(.gz) files parsed by the engine's parser
// (venues may import the engine, not @lq/workers), replayed on a controllable clock.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseCandlesCsv, lowerBound, sliceRows, type Candles } from '@lq/engine';

export function loadCandleFile(path: string): Candles {
  const raw = readFileSync(path);
  const text = path.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return parseCandlesCsv(text);
}

/** A replay cursor over one symbol's candles: the index of the last candle closed at a time. */
export class CandleReplay {
  constructor(readonly candles: Candles) {}

  get startMs(): number {
    return this.candles.time[0];
  }

  /** Index of the candle containing `t` (the last one opened at or before it), or -1. */
  indexAt(t: number): number {
    const i = lowerBound(this.candles.time, this.candles.length, t);
    if (i < this.candles.length && this.candles.time[i] === t) return i;
    return i - 1;
  }
}

/**
 * The last `days` of `c`, moved to start one candle after `c` ends. A server that imported the file
 * into its candle store asks a venue only for candles after the newest stored one; replaying this
 * tail gives its robots new candles with real price moves (`FAKE_CONTINUE_DAYS`).
 */
export function continuedTail(c: Candles, days: number): Candles {
  if (c.length === 0) return c;
  const from = Math.max(0, c.length - Math.round((days * 86_400_000) / c.intervalMs));
  const tail = sliceRows(c, from, c.length);
  const shift = c.time[c.length - 1] - tail.time[0] + c.intervalMs;
  const time = new Float64Array(tail.length);
  for (let i = 0; i < tail.length; i++) time[i] = tail.time[i] + shift;
  return { ...tail, time };
}

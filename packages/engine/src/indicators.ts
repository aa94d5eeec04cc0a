// Incremental indicators: O(1) per update, no allocation after construction. `value` is NaN until
// the indicator has seen enough input (`ready`). Running sums are re-summed from their ring buffer
// every few thousand updates so float drift cannot accumulate over millions of bars.
import type { Candles } from './types';

const RESUM_EVERY = 4096;

/** Simple moving average over the last `period` values. */
export class Sma {
  value = NaN;
  readonly period: number = 0;
  private readonly ring: Float64Array;
  private sum = 0;
  private count = 0;
  private head = 0;
  private sinceResum = 0;
  constructor(period: number) {
    if (!(period >= 1) || !Number.isInteger(period)) throw new RangeError(`SMA period must be an integer ≥ 1, got ${period}`);
    this.period = period;
    this.ring = new Float64Array(period);
  }
  get ready(): boolean {
    return this.count >= this.period;
  }
  update(x: number): number {
    const p = this.period;
    const ring = this.ring;
    let sum: number;
    let since: number;
    if (this.count < p) {
      ring[this.count++] = x;
      sum = this.sum + x;
      if (this.count < p) {
        this.sum = sum;
        return this.value;
      }
      // The ring just filled: the re-sum below gives the same sum (0 + ring[0] + … in the same
      // order). Taking that path once per instance gives its code type feedback before the JIT
      // optimises a caller, so the first periodic re-sum does not deoptimise the backtest loop
      // (which V8 could then leave running on on-stack-replacement code, about 1.5× slower).
      since = RESUM_EVERY;
    } else {
      const head = this.head;
      sum = this.sum + (x - ring[head]);
      ring[head] = x;
      this.head = head + 1 === p ? 0 : head + 1;
      since = this.sinceResum + 1;
    }
    if (since === RESUM_EVERY) {
      since = 0;
      let s = 0;
      for (let i = 0; i < p; i++) s += ring[i];
      sum = s;
    }
    this.sinceResum = since;
    this.sum = sum;
    const v = sum / p;
    this.value = v;
    return v;
  }
}

/** Exponential moving average, α = 2 / (period + 1), seeded with the SMA of the first `period` values. */
export class Ema {
  value = NaN;
  private readonly alpha: number;
  private seedSum = 0;
  private count = 0;
  constructor(readonly period: number) {
    if (!(period >= 1)) throw new RangeError(`EMA period must be ≥ 1, got ${period}`);
    this.alpha = 2 / (period + 1);
  }
  get ready(): boolean {
    return this.count >= this.period;
  }
  update(x: number): number {
    if (this.count < this.period) {
      this.seedSum += x;
      if (++this.count === this.period) this.value = this.seedSum / this.period;
      return this.value;
    }
    this.value += this.alpha * (x - this.value);
    return this.value;
  }
}

/** Wilder's smoothing (RMA): seeded with the mean of the first `period` values, then v += (x − v) / period. */
class Wilder {
  value = NaN;
  private seedSum = 0;
  count = 0;
  constructor(readonly period: number) {}
  update(x: number): number {
    if (this.count < this.period) {
      this.seedSum += x;
      if (++this.count === this.period) this.value = this.seedSum / this.period;
      return this.value;
    }
    this.value += (x - this.value) / this.period;
    return this.value;
  }
}

/** RSI with Wilder's smoothing of gains and losses over `period` changes (first value after period + 1 inputs). */
export class Rsi {
  value = NaN;
  private prev = NaN;
  private readonly gain: Wilder;
  private readonly loss: Wilder;
  constructor(readonly period = 14) {
    if (!(period >= 1)) throw new RangeError(`RSI period must be ≥ 1, got ${period}`);
    this.gain = new Wilder(period);
    this.loss = new Wilder(period);
  }
  get ready(): boolean {
    return this.gain.count >= this.period;
  }
  update(x: number): number {
    const prev = this.prev;
    this.prev = x;
    if (Number.isNaN(prev)) return this.value;
    const d = x - prev;
    const g = this.gain.update(d > 0 ? d : 0);
    const l = this.loss.update(d < 0 ? -d : 0);
    if (Number.isNaN(g)) return this.value;
    this.value = l === 0 ? (g === 0 ? 50 : 100) : 100 - 100 / (1 + g / l);
    return this.value;
  }
}

/** Average true range, Wilder-smoothed; the first bar's true range is high − low. */
export class Atr {
  value = NaN;
  private prevClose = NaN;
  private readonly rma: Wilder;
  constructor(readonly period = 14) {
    if (!(period >= 1)) throw new RangeError(`ATR period must be ≥ 1, got ${period}`);
    this.rma = new Wilder(period);
  }
  get ready(): boolean {
    return this.rma.count >= this.period;
  }
  update(high: number, low: number, close: number): number {
    const pc = this.prevClose;
    let tr = high - low;
    if (!Number.isNaN(pc)) {
      const a = high > pc ? high - pc : pc - high;
      const b = low > pc ? low - pc : pc - low;
      if (a > tr) tr = a;
      if (b > tr) tr = b;
    }
    this.prevClose = close;
    this.value = this.rma.update(tr);
    return this.value;
  }
}

/** MACD line = EMA(fast) − EMA(slow); signal = EMA(signal) of the MACD line; histogram = MACD − signal. */
export class Macd {
  macd = NaN;
  signal = NaN;
  histogram = NaN;
  private readonly fast: Ema;
  private readonly slow: Ema;
  private readonly sig: Ema;
  constructor(fast = 12, slow = 26, signal = 9) {
    this.fast = new Ema(fast);
    this.slow = new Ema(slow);
    this.sig = new Ema(signal);
  }
  get ready(): boolean {
    return !Number.isNaN(this.signal);
  }
  update(x: number): number {
    const f = this.fast.update(x);
    const s = this.slow.update(x);
    if (Number.isNaN(s) || Number.isNaN(f)) return this.macd;
    this.macd = f - s;
    this.signal = this.sig.update(this.macd);
    this.histogram = this.macd - this.signal;
    return this.macd;
  }
}

/** Bollinger bands: SMA(period) ± k × population standard deviation over the same window. */
export class Bollinger {
  middle = NaN;
  upper = NaN;
  lower = NaN;
  private readonly ring: Float64Array;
  private sum = 0;
  private sumSq = 0;
  private count = 0;
  private head = 0;
  private sinceResum = 0;
  constructor(
    readonly period = 20,
    readonly k = 2,
  ) {
    if (!(period >= 1) || !Number.isInteger(period)) throw new RangeError(`Bollinger period must be an integer ≥ 1, got ${period}`);
    this.ring = new Float64Array(period);
  }
  get ready(): boolean {
    return this.count >= this.period;
  }
  update(x: number): number {
    const p = this.period;
    if (this.count < p) {
      this.ring[this.count++] = x;
      this.sum += x;
      this.sumSq += x * x;
    } else {
      const old = this.ring[this.head];
      this.ring[this.head] = x;
      if (++this.head === p) this.head = 0;
      this.sum += x - old;
      this.sumSq += x * x - old * old;
      if (++this.sinceResum === RESUM_EVERY) {
        this.sinceResum = 0;
        let s = 0;
        let q = 0;
        for (let i = 0; i < p; i++) {
          s += this.ring[i];
          q += this.ring[i] * this.ring[i];
        }
        this.sum = s;
        this.sumSq = q;
      }
    }
    if (this.count < p) return this.middle;
    const mean = this.sum / p;
    const variance = this.sumSq / p - mean * mean;
    const sd = variance > 0 ? Math.sqrt(variance) : 0;
    this.middle = mean;
    this.upper = mean + this.k * sd;
    this.lower = mean - this.k * sd;
    return mean;
  }
}

/**
 * Donchian channel: highest high and lowest low of the last `period` updates (including the current
 * one), kept with monotonic deques (amortised O(1)).
 */
export class Donchian {
  upper = NaN;
  lower = NaN;
  private readonly maxIdx: Float64Array;
  private readonly maxVal: Float64Array;
  private readonly minIdx: Float64Array;
  private readonly minVal: Float64Array;
  private maxHead = 0;
  private maxLen = 0;
  private minHead = 0;
  private minLen = 0;
  private n = 0;
  constructor(readonly period = 20) {
    if (!(period >= 1) || !Number.isInteger(period)) throw new RangeError(`Donchian period must be an integer ≥ 1, got ${period}`);
    const cap = period + 1;
    this.maxIdx = new Float64Array(cap);
    this.maxVal = new Float64Array(cap);
    this.minIdx = new Float64Array(cap);
    this.minVal = new Float64Array(cap);
  }
  get middle(): number {
    return (this.upper + this.lower) / 2;
  }
  get ready(): boolean {
    return this.n >= this.period;
  }
  update(high: number, low: number): void {
    const i = this.n++;
    const cap = this.period + 1;
    const oldest = i - this.period + 1;
    // Max deque: drop smaller tail values, append, drop expired head.
    while (this.maxLen > 0 && this.maxVal[(this.maxHead + this.maxLen - 1) % cap] <= high) this.maxLen--;
    this.maxIdx[(this.maxHead + this.maxLen) % cap] = i;
    this.maxVal[(this.maxHead + this.maxLen) % cap] = high;
    this.maxLen++;
    while (this.maxIdx[this.maxHead] < oldest) {
      this.maxHead = (this.maxHead + 1) % cap;
      this.maxLen--;
    }
    while (this.minLen > 0 && this.minVal[(this.minHead + this.minLen - 1) % cap] >= low) this.minLen--;
    this.minIdx[(this.minHead + this.minLen) % cap] = i;
    this.minVal[(this.minHead + this.minLen) % cap] = low;
    this.minLen++;
    while (this.minIdx[this.minHead] < oldest) {
      this.minHead = (this.minHead + 1) % cap;
      this.minLen--;
    }
    if (this.n >= this.period) {
      this.upper = this.maxVal[this.maxHead];
      this.lower = this.minVal[this.minHead];
    }
  }
}

// --- whole-column helpers (NaN until ready) ---------------------------------------------------

function column(n: number, step: (i: number) => number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = step(i);
  return out;
}

export const smaSeries = (x: Float64Array, period: number, n = x.length): Float64Array => {
  const s = new Sma(period);
  return column(n, (i) => s.update(x[i]));
};
export const emaSeries = (x: Float64Array, period: number, n = x.length): Float64Array => {
  const s = new Ema(period);
  return column(n, (i) => s.update(x[i]));
};
export const rsiSeries = (x: Float64Array, period = 14, n = x.length): Float64Array => {
  const s = new Rsi(period);
  return column(n, (i) => s.update(x[i]));
};
export const atrSeries = (c: Candles, period = 14): Float64Array => {
  const s = new Atr(period);
  return column(c.length, (i) => s.update(c.high[i], c.low[i], c.close[i]));
};
export function macdSeries(x: Float64Array, fast = 12, slow = 26, signal = 9, n = x.length) {
  const m = new Macd(fast, slow, signal);
  const macd = new Float64Array(n);
  const sig = new Float64Array(n);
  const hist = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    m.update(x[i]);
    macd[i] = m.macd;
    sig[i] = m.signal;
    hist[i] = m.histogram;
  }
  return { macd, signal: sig, histogram: hist };
}
export function bollingerSeries(x: Float64Array, period = 20, k = 2, n = x.length) {
  const b = new Bollinger(period, k);
  const middle = new Float64Array(n);
  const upper = new Float64Array(n);
  const lower = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    b.update(x[i]);
    middle[i] = b.middle;
    upper[i] = b.upper;
    lower[i] = b.lower;
  }
  return { middle, upper, lower };
}
export function donchianSeries(c: Candles, period = 20) {
  const d = new Donchian(period);
  const upper = new Float64Array(c.length);
  const lower = new Float64Array(c.length);
  for (let i = 0; i < c.length; i++) {
    d.update(c.high[i], c.low[i]);
    upper[i] = d.upper;
    lower[i] = d.lower;
  }
  return { upper, lower };
}

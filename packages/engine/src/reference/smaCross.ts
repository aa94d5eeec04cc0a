// SMA-cross reference strategy and its hand-written twin (one loop over typed arrays, no objects),
// used by the engine benchmark to measure the engine's overhead on identical logic.
// Rule: when SMA(fast) crosses above SMA(slow) close any short and go long `qty` at market; crossing
// below mirrors it. Decisions at a candle's close fill at the next candle's open.
import { Sma } from '../indicators';
import type { Intent, Strategy, StrategyView } from '../types';
import type { TwinResult, TwinTracking } from './grid';

export interface SmaCrossParams {
  fast: number;
  slow: number;
  qty: number;
}

export class SmaCrossStrategy implements Strategy {
  private readonly fast: Sma;
  private readonly slow: Sma;
  private prevDiff = NaN;
  private ticket: string | null = null;
  private seq = 0;
  constructor(private readonly p: SmaCrossParams) {
    this.fast = new Sma(p.fast);
    this.slow = new Sma(p.slow);
  }
  onCandle(view: StrategyView, out: Intent[]): void {
    const c = view.candles.close[view.index];
    const f = this.fast.update(c);
    const s = this.slow.update(c);
    if (s !== s || f !== f) return;
    const diff = f - s;
    const prev = this.prevDiff;
    this.prevDiff = diff;
    if (prev !== prev) return;
    const up = prev <= 0 && diff > 0;
    const down = prev >= 0 && diff < 0;
    if (!up && !down) return;
    if (this.ticket !== null) {
      out.push({
        kind: 'close',
        tag: `x${this.seq}`,
        ticket: this.ticket,
        type: 'market',
        reason: 'signal',
      });
    }
    const tag = `t${++this.seq}`;
    out.push({ kind: 'open', tag, side: up ? 'long' : 'short', qty: this.p.qty, type: 'market' });
    this.ticket = tag;
  }
}

export interface BaselineResult {
  trades: number;
  /** Realised PnL in quote currency minus fees. */
  net: number;
}

/**
 * The same SMA cross as one loop over typed arrays. Reproduces the Sma class's arithmetic (ring
 * buffer, running sum re-summed every 4096 updates) so both see bit-identical averages.
 */
export function smaCrossBaseline(
  open: Float64Array,
  close: Float64Array,
  n: number,
  fast: number,
  slow: number,
  qty: number,
  contractSize: number,
  takerFee: number,
  track?: TwinTracking & { high: Float64Array; low: Float64Array },
): BaselineResult & TwinResult {
  if (track !== undefined)
    return smaCrossTwin(open, close, n, fast, slow, qty, contractSize, takerFee, track);
  const rf = new Float64Array(fast);
  const rs = new Float64Array(slow);
  let sf = 0;
  let ss = 0;
  let cf = 0;
  let cs = 0;
  let hf = 0;
  let hs = 0;
  let kf = 0;
  let ks = 0;
  let prev = NaN;
  let pos = 0; // +1 long, −1 short
  let entry = 0;
  let pending = 0; // side to take at the next open
  let trades = 0;
  let net = 0;
  const size = qty * contractSize;
  for (let i = 0; i < n; i++) {
    if (pending !== 0) {
      const px = open[i];
      if (pos !== 0) {
        net += pos * (px - entry) * size - px * size * takerFee;
        trades++;
      }
      pos = pending;
      entry = px;
      net -= px * size * takerFee;
      pending = 0;
    }
    const x = close[i];
    let f = NaN;
    let s = NaN;
    if (cf < fast) {
      rf[cf++] = x;
      sf += x;
      if (cf === fast) f = sf / fast;
    } else {
      sf += x - rf[hf];
      rf[hf] = x;
      if (++hf === fast) hf = 0;
      if (++kf === 4096) {
        kf = 0;
        let t = 0;
        for (let j = 0; j < fast; j++) t += rf[j];
        sf = t;
      }
      f = sf / fast;
    }
    if (cs < slow) {
      rs[cs++] = x;
      ss += x;
      if (cs === slow) s = ss / slow;
    } else {
      ss += x - rs[hs];
      rs[hs] = x;
      if (++hs === slow) hs = 0;
      if (++ks === 4096) {
        ks = 0;
        let t = 0;
        for (let j = 0; j < slow; j++) t += rs[j];
        ss = t;
      }
      s = ss / slow;
    }
    if (s !== s || f !== f) continue;
    const diff = f - s;
    const p = prev;
    prev = diff;
    if (p !== p) continue;
    if (p <= 0 && diff > 0) pending = 1;
    else if (p >= 0 && diff < 0) pending = -1;
  }
  return { trades, net };
}

const DAY = 86_400_000;

/** `smaCrossBaseline` with the engine's per-bar tracking (see `TwinTracking`): the benchmark's twin. */
export function smaCrossTwin(
  open: Float64Array,
  close: Float64Array,
  n: number,
  fast: number,
  slow: number,
  qty: number,
  contractSize: number,
  takerFee: number,
  track: TwinTracking & { high: Float64Array; low: Float64Array },
): TwinResult {
  const rf = new Float64Array(fast);
  const rs = new Float64Array(slow);
  let sf = 0;
  let ss = 0;
  let cf = 0;
  let cs = 0;
  let hf = 0;
  let hs = 0;
  let kf = 0;
  let ks = 0;
  let prev = NaN;
  let pos = 0; // +1 long, −1 short
  let entry = 0;
  let pending = 0; // side to take at the next open
  let trades = 0;
  let net = 0;
  const size = qty * contractSize;
  const { capital, time, barMs, high, low } = track;
  let peak = capital;
  let peakTime = n > 0 ? time[0] : 0;
  let maxDrawdown = 0;
  let drawdownAmount = 0;
  let longestDrawdownMs = 0;
  let exposedBars = 0;
  let minF = 0;
  let maxF = 0;
  let equity = capital;
  let dayEnd = n > 0 ? Math.floor(time[0] / DAY) * DAY + DAY : 0;
  let dayStart = capital;
  let days = 0;
  let dailySum = 0;
  for (let i = 0; i < n; i++) {
    const t = time[i];
    if (t >= dayEnd) {
      dailySum += equity / dayStart - 1;
      days++;
      dayStart = equity;
      dayEnd = Math.floor(t / DAY) * DAY + DAY;
    }
    if (pending !== 0) {
      const px = open[i];
      if (pos !== 0) {
        net += pos * (px - entry) * size - px * size * takerFee;
        trades++;
      }
      pos = pending;
      entry = px;
      net -= px * size * takerFee;
      pending = 0;
    }
    const x = close[i];
    // Mark to market at the close; floating extremes at the open (fill), low and high.
    if (pos !== 0) {
      exposedBars++;
      const fo = pos * (open[i] - entry) * size;
      const fl = pos * (low[i] - entry) * size;
      const fh = pos * (high[i] - entry) * size;
      const lo = fl < fh ? fl : fh;
      const hi = fl < fh ? fh : fl;
      if (lo < minF) minF = lo;
      if (hi > maxF) maxF = hi;
      if (fo < minF) minF = fo;
      if (fo > maxF) maxF = fo;
      equity = capital + net + pos * (x - entry) * size;
    } else equity = capital + net;
    if (equity >= peak) {
      peak = equity;
      peakTime = t;
    } else {
      const amount = peak - equity;
      if (amount > drawdownAmount) drawdownAmount = amount;
      if (amount > maxDrawdown * peak) maxDrawdown = amount / peak;
      const under = t + barMs - peakTime;
      if (under > longestDrawdownMs) longestDrawdownMs = under;
    }
    let f = NaN;
    let s = NaN;
    if (cf < fast) {
      rf[cf++] = x;
      sf += x;
      if (cf === fast) f = sf / fast;
    } else {
      sf += x - rf[hf];
      rf[hf] = x;
      if (++hf === fast) hf = 0;
      if (++kf === 4096) {
        kf = 0;
        let t = 0;
        for (let j = 0; j < fast; j++) t += rf[j];
        sf = t;
      }
      f = sf / fast;
    }
    if (cs < slow) {
      rs[cs++] = x;
      ss += x;
      if (cs === slow) s = ss / slow;
    } else {
      ss += x - rs[hs];
      rs[hs] = x;
      if (++hs === slow) hs = 0;
      if (++ks === 4096) {
        ks = 0;
        let t = 0;
        for (let j = 0; j < slow; j++) t += rs[j];
        ss = t;
      }
      s = ss / slow;
    }
    if (s !== s || f !== f) continue;
    const diff = f - s;
    const p = prev;
    prev = diff;
    if (p !== p) continue;
    if (p <= 0 && diff > 0) pending = 1;
    else if (p >= 0 && diff < 0) pending = -1;
  }
  return {
    trades,
    net,
    finalEquity: equity,
    maxDrawdown,
    drawdownAmount,
    longestDrawdownMs,
    exposedBars,
    maxFloatingLoss: minF,
    maxFloatingProfit: maxF,
    days,
    dailySum,
  };
}

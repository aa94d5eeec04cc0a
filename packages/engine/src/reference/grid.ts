// Grid reference strategy and its hand-written twin, for the engine benchmark.
// Rule: anchor = first close; `levels` buy limits at anchor × (1 − gap)^k (k = 1…levels), each with
// a take-profit sell at its buy level × (1 + gap); when a level's TP fills its buy is placed again.
// Both follow the engine's candle path (open → nearer extreme → other extreme → close), limits
// fill at their price (or at the open when it gapped through) with the maker fee.
import type { Fill, Intent, Strategy, StrategyView } from '../types';

export interface GridParams {
  levels: number;
  /** Fraction, e.g. 0.005 for 0.5 %. */
  gap: number;
  qty: number;
}

export class GridStrategy implements Strategy {
  private started = false;
  private readonly buyPrice: Float64Array;
  private readonly tags: string[];
  constructor(private readonly p: GridParams) {
    this.buyPrice = new Float64Array(p.levels);
    this.tags = Array.from({ length: p.levels }, (_, k) => `g${k + 1}`);
  }
  onCandle(view: StrategyView, out: Intent[]): void {
    if (this.started) return;
    this.started = true;
    const anchor = view.candles.close[view.index];
    for (let k = 0; k < this.p.levels; k++) {
      this.buyPrice[k] = anchor * (1 - this.p.gap) ** (k + 1);
      this.place(k, out);
    }
  }
  onFill(fill: Fill, _view: StrategyView, out: Intent[]): void {
    if (fill.action !== 'close') return;
    this.place(Number(fill.ticket.slice(1)) - 1, out);
  }
  private place(k: number, out: Intent[]): void {
    const price = this.buyPrice[k];
    out.push({
      kind: 'open',
      tag: this.tags[k],
      side: 'long',
      qty: this.p.qty,
      type: 'limit',
      price,
      takeProfit: price * (1 + this.p.gap),
      takeProfitReason: 'gridTakeProfit',
    });
  }
}

/**
 * What the engine reports at every bar, for a twin to compute too: equity marked to market at each
 * close (so drawdown, its amount and duration), exposure, the floating PnL extremes along the path,
 * and daily returns (Sharpe / Sortino sums) at local-day boundaries.
 */
export interface TwinTracking {
  capital: number;
  time: Float64Array;
  barMs: number;
}

export interface TwinResult {
  trades: number;
  /** Realised PnL in quote currency minus fees. */
  net: number;
  /** Present with tracking. */
  finalEquity?: number;
  maxDrawdown?: number;
  drawdownAmount?: number;
  longestDrawdownMs?: number;
  exposedBars?: number;
  maxFloatingLoss?: number;
  maxFloatingProfit?: number;
  days?: number;
  dailySum?: number;
}

const DAY = 86_400_000;

/**
 * The same grid as one loop over typed arrays. `skipQuietCandles` caches the nearest buy and sell
 * levels so a candle that reaches neither costs two comparisons (an optimised loop); without it
 * every candle checks every level along its path (the straightforward loop).
 */
export function gridBaseline(
  open: Float64Array,
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  n: number,
  levels: number,
  gap: number,
  qty: number,
  contractSize: number,
  makerFee: number,
  skipQuietCandles = true,
  track?: TwinTracking,
): TwinResult {
  const buy = new Float64Array(levels);
  const tp = new Float64Array(levels);
  const entry = new Float64Array(levels);
  const holding = new Uint8Array(levels);
  const anchor = close[0];
  for (let k = 0; k < levels; k++) {
    buy[k] = anchor * (1 - gap) ** (k + 1);
    tp[k] = buy[k] * (1 + gap);
  }
  const size = qty * contractSize;
  let trades = 0;
  let net = 0;
  // Aggregated position for marking to market: held levels and Σ entry prices.
  let held = 0;
  let cost = 0;
  let minF = 0;
  let maxF = 0;
  const mark = (px: number) => {
    if (held === 0) return;
    const f = (held * px - cost) * size;
    if (f < minF) minF = f;
    if (f > maxF) maxF = f;
  };
  let nextBuy = buy[0]; // highest waiting buy level
  let nextSell = Infinity; // lowest take-profit of a held level
  const refresh = () => {
    nextBuy = -Infinity;
    nextSell = Infinity;
    for (let k = 0; k < levels; k++) {
      if (holding[k] === 0) {
        if (buy[k] > nextBuy) nextBuy = buy[k];
      } else if (tp[k] < nextSell) nextSell = tp[k];
    }
  };
  // Buys at every waiting level at or above `to` (fill at min(level, from)); sells mirrored.
  const down = (from: number, to: number) => {
    if (skipQuietCandles && nextBuy < to) return;
    for (let k = 0; k < levels; k++) {
      if (holding[k] === 0 && buy[k] >= to) {
        const px = buy[k] < from ? buy[k] : from;
        holding[k] = 1;
        entry[k] = px;
        net -= px * size * makerFee;
        held++;
        cost += px;
      }
    }
    if (skipQuietCandles) refresh();
  };
  const up = (from: number, to: number) => {
    if (skipQuietCandles && nextSell > to) return;
    for (let k = 0; k < levels; k++) {
      if (holding[k] === 1 && tp[k] <= to) {
        const px = tp[k] > from ? tp[k] : from;
        holding[k] = 0;
        net += (px - entry[k]) * size - px * size * makerFee;
        trades++;
        held--;
        cost -= entry[k];
        if (held === 0) cost = 0;
      }
    }
    if (skipQuietCandles) refresh();
  };
  const path = (o: number, h: number, l: number, c: number) => {
    mark(o);
    down(o, o);
    up(o, o);
    if (o - l <= h - o) {
      down(o, l);
      mark(l);
      up(l, h);
      mark(h);
      down(h, c);
    } else {
      up(o, h);
      mark(h);
      down(h, l);
      mark(l);
      up(l, c);
    }
    mark(c);
  };
  if (track === undefined) {
    // The bare loop: fills and fees only, nothing marked to market.
    for (let i = 1; i < n; i++) {
      const h = high[i];
      const l = low[i];
      if (skipQuietCandles && h < nextSell && l > nextBuy) continue;
      const o = open[i];
      const c = close[i];
      down(o, o);
      up(o, o);
      if (o - l <= h - o) {
        down(o, l);
        up(l, h);
        down(h, c);
      } else {
        up(o, h);
        down(h, l);
        up(l, c);
      }
    }
    return { trades, net };
  }
  // With tracking: every bar is marked to market at its close and the metrics updated, quiet or not.
  const { capital, time, barMs } = track;
  let peak = capital;
  let peakTime = time[0];
  let maxDrawdown = 0;
  let drawdownAmount = 0;
  let longestDrawdownMs = 0;
  let exposedBars = 0;
  let equity = capital;
  let dayEnd = Math.floor(time[0] / DAY) * DAY + DAY;
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
    const h = high[i];
    const l = low[i];
    const c = close[i];
    if (i > 0 && !(skipQuietCandles && h < nextSell && l > nextBuy)) path(open[i], h, l, c);
    else if (held > 0) {
      mark(l);
      mark(h);
    }
    if (held > 0) {
      exposedBars++;
      equity = capital + net + (held * c - cost) * size;
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

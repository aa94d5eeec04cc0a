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
): { trades: number; net: number } {
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
      }
    }
    if (skipQuietCandles) refresh();
  };
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

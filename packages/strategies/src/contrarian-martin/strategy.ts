// Contrarian martingale: add (lots × multiplier) each time price moves `refillInterval` against the
// last entry, up to `orderNumber` orders; the whole cycle exits at average entry ± `cycleTakeProfit`.
// The cycle take profit rides on every ticket (amended after each fill), so it fills inside the candle.
import type { Fill, Instrument, Intent, StrategyView } from '@lq/engine';
import {
  BaseStrategy,
  aiAt,
  at,
  reached,
  distance,
  openTag,
  orderQty,
  resolveCommon,
  roundToTick,
  scaledSizes,
  sideDirection,
} from '../common/runtime';
import type { Direction, Distance } from '../common/runtime';
import type { ContrarianMartinParams } from './schema';

export class ContrarianMartinStrategy extends BaseStrategy {
  private readonly sizes: Float64Array;
  private readonly refill: Distance;
  private readonly cycleTp: Distance;
  private direction: Direction = 0;
  /** Orders sent in the current cycle (0 = no cycle). */
  private legs = 0;

  constructor(p: ContrarianMartinParams, instrument: Instrument) {
    super(resolveCommon(p), instrument, 'halt');
    const first = orderQty(p.firstLots, p.unit, instrument, 'firstLots');
    this.sizes = scaledSizes(first, p.multiplier, p.orderNumber, instrument);
    this.refill = distance(p.refillInterval, instrument);
    this.cycleTp = distance(p.cycleTakeProfit, instrument);
  }

  protected update(): void {}

  protected decide(view: StrategyView, out: Intent[]): void {
    if (this.openCount === 0) {
      if (view.pending.length > 0) return;
      // A new cycle: the first order at market, in the direction of `side` (AI modes: the AI now).
      const dir = sideDirection(this.common.side, this.common.useAi, aiAt(view));
      if (dir === 0) return;
      this.direction = dir;
      this.legs = 0;
      this.signalSeq++;
      this.add(out);
      return;
    }
    if (this.legs >= this.sizes.length || this.openCount < this.legs) return;
    const close = view.candles.close[view.index];
    const against = this.direction > 0 ? this.lastEntry - close : close - this.lastEntry;
    if (reached(against, this.refill, this.lastEntry, this.instrument)) this.add(out);
  }

  private add(out: Intent[]): void {
    out.push({ kind: 'open', tag: openTag(this.signalSeq, this.legs + 1), side: this.direction > 0 ? 'long' : 'short', qty: this.sizes[this.legs], type: 'market' });
    this.legs++;
  }

  protected override onOpenFill(_fill: Fill, view: StrategyView, out: Intent[]): void {
    // Move the cycle take profit of every ticket to the new average entry ± cycleTakeProfit.
    this.refreshPosition(view);
    const avg = this.avgEntry;
    const tp = roundToTick(avg + this.direction * at(this.cycleTp, avg), this.instrument);
    const tickets = view.tickets;
    for (let i = 0; i < tickets.length; i++) {
      if (tickets[i].takeProfit !== tp) out.push({ kind: 'amend', ticket: tickets[i].tag, takeProfit: tp, takeProfitReason: 'cycleTakeProfit' });
    }
  }
}

export function createContrarianMartin(params: ContrarianMartinParams, instrument: Instrument): ContrarianMartinStrategy {
  return new ContrarianMartinStrategy(params, instrument);
}

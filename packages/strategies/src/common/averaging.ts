// Signal entries scaled in against the position (marco-hunt refills, blue-bands and inversion-revert
// adds): each add is the previous size × multiplier, one distance beyond the last entry, up to
// `orderNumber` orders. TP/SL are distances from the average entry, carried by every ticket and
// amended after each fill so the broker fills them inside the candle.
import type { Fill, Instrument, Intent, StrategyView } from '@lq/engine';
import { BaseStrategy, allowSignal, aiAt, at, reached, openTag, resolveCommon, roundToTick, scaledSizes, orderQty } from './runtime';
import type { Direction, Distance } from './runtime';
import type { CommonParams } from './schema';

export interface AveragingConfig {
  readonly firstLots: number;
  readonly multiplier: number;
  readonly orderNumber: number;
  /** Distance against the last entry that triggers the next order (null: no adds). */
  readonly addDistance: Distance | null;
  readonly takeProfit: Distance | null;
  readonly stopLoss: Distance | null;
}

export abstract class AveragingStrategy extends BaseStrategy {
  private readonly sizes: Float64Array;
  private readonly addDistance: Distance | null;
  private readonly tp: Distance | null;
  private readonly sl: Distance | null;
  protected direction: Direction = 0;
  protected legs = 0;

  constructor(p: CommonParams, instrument: Instrument, cfg: AveragingConfig) {
    super(resolveCommon(p), instrument, 'continue');
    this.sizes = scaledSizes(orderQty(cfg.firstLots, p.unit, instrument, 'firstLots'), cfg.multiplier, cfg.orderNumber, instrument);
    this.addDistance = cfg.addDistance;
    this.tp = cfg.takeProfit;
    this.sl = cfg.stopLoss;
  }

  /** The strategy's raw entry signal at this candle (+1 long, −1 short, 0 none). */
  protected abstract entrySignal(view: StrategyView): Direction;
  /** Whether the open position should be closed at this candle by the strategy's own rule. */
  protected exitSignal(_view: StrategyView): boolean {
    return false;
  }
  /** Reference price used to anchor adds (default: the last entry). */
  protected addAnchor(): number {
    return this.lastEntry;
  }

  protected decide(view: StrategyView, out: Intent[]): void {
    const c = this.common;
    if (this.openCount === 0) {
      const signal = this.entrySignal(view);
      if (view.pending.length > 0) return;
      const dir = allowSignal(c.side, c.useAi, signal, aiAt(view));
      if (dir === 0) return;
      this.direction = dir;
      this.legs = 0;
      this.signalSeq++;
      this.add(view, out);
      return;
    }
    if (this.exitSignal(view)) {
      this.closeAll(out, 'signal');
      return;
    }
    if (this.addDistance === null || this.legs >= this.sizes.length || this.openCount < this.legs) return;
    const close = view.candles.close[view.index];
    const anchor = this.addAnchor();
    const against = this.direction > 0 ? anchor - close : close - anchor;
    if (reached(against, this.addDistance, anchor, this.instrument)) this.add(view, out);
  }

  private add(view: StrategyView, out: Intent[]): void {
    // TP/SL from the expected fill (the close) ride on the order; `onOpenFill` re-bases them on the real average.
    const ref = this.legs === 0 ? view.candles.close[view.index] : this.avgEntry;
    out.push({
      kind: 'open',
      tag: openTag(this.signalSeq, this.legs + 1),
      side: this.direction > 0 ? 'long' : 'short',
      qty: this.sizes[this.legs],
      type: 'market',
      takeProfit: this.exitPrice(this.tp, ref, 1),
      stopLoss: this.exitPrice(this.sl, ref, -1),
    });
    this.legs++;
  }

  private exitPrice(d: Distance | null, avg: number, sign: 1 | -1): number | undefined {
    return d === null ? undefined : roundToTick(avg + sign * this.direction * at(d, avg), this.instrument);
  }

  protected override onOpenFill(_fill: Fill, view: StrategyView, out: Intent[]): void {
    if (this.tp === null && this.sl === null) return;
    this.refreshPosition(view);
    const tp = this.exitPrice(this.tp, this.avgEntry, 1) ?? null;
    const sl = this.exitPrice(this.sl, this.avgEntry, -1) ?? null;
    const tickets = view.tickets;
    for (let i = 0; i < tickets.length; i++) {
      const t = tickets[i];
      if (t.takeProfit !== tp || t.stopLoss !== sl) out.push({ kind: 'amend', ticket: t.tag, takeProfit: tp, stopLoss: sl });
    }
  }
}

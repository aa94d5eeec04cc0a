// Pegasus (breakout): enter when the close breaks the highest high / lowest low of the previous
// `lookback` bars; initial stop `atrStop` × ATR(14) on the ticket; trailing stop `atrTrail` × ATR
// from the best close, checked at each close; up to `orderNumber` orders, one every `gap` in favour.
import type { Fill, Instrument, Intent, StrategyView } from '@lq/engine';
import { Atr, Donchian } from '@lq/engine';
import { BaseStrategy, aiAt, allowSignal, reached, distance, openTag, orderQty, resolveCommon, roundToTick, sideOf } from '../common/runtime';
import type { Direction, Distance } from '../common/runtime';
import type { PegasusParams } from './schema';

export const ATR_PERIOD = 14;

export class PegasusStrategy extends BaseStrategy {
  private readonly atr = new Atr(ATR_PERIOD);
  private readonly channel: Donchian;
  /** Channel of the bars before the current one, and ATR at the current one. */
  private priorHigh = NaN;
  private priorLow = NaN;
  private atrNow = NaN;
  private readonly qty: number;
  private readonly maxOrders: number;
  private readonly gap: Distance | null;
  private readonly atrStop: number;
  private readonly atrTrail: number;
  private direction: Direction = 0;
  private legs = 0;
  private best = NaN;
  private trail = NaN;

  constructor(p: PegasusParams, instrument: Instrument) {
    super(resolveCommon(p), instrument, 'continue');
    this.channel = new Donchian(p.lookback);
    this.qty = orderQty(p.firstLots, p.unit, instrument, 'firstLots');
    this.maxOrders = p.orderNumber;
    this.gap = p.gap === undefined ? null : distance(p.gap, instrument);
    this.atrStop = p.atrStop;
    this.atrTrail = p.atrTrail;
  }

  protected update(view: StrategyView, i: number): void {
    const c = view.candles;
    // The breakout compares this close with the channel of the previous bars: read it before adding bar i.
    this.priorHigh = this.channel.ready ? this.channel.upper : NaN;
    this.priorLow = this.channel.ready ? this.channel.lower : NaN;
    this.channel.update(c.high[i], c.low[i]);
    this.atrNow = this.atr.update(c.high[i], c.low[i], c.close[i]);
  }

  protected decide(view: StrategyView, out: Intent[]): void {
    const close = view.candles.close[view.index];
    if (this.openCount === 0) {
      if (view.pending.length > 0 || !(this.atrNow > 0)) return;
      const signal: Direction = close > this.priorHigh ? 1 : close < this.priorLow ? -1 : 0;
      const dir = allowSignal(this.common.side, this.common.useAi, signal, aiAt(view));
      if (dir === 0) return;
      this.direction = dir;
      this.legs = 0;
      this.signalSeq++;
      this.best = close;
      this.trail = close - dir * this.atrTrail * this.atrNow;
      this.open(out, close);
      return;
    }
    const d = this.direction;
    if (d * (close - this.best) > 0) this.best = close;
    const trail = this.best - d * this.atrTrail * this.atrNow;
    if (d * (trail - this.trail) > 0) this.trail = trail;
    if (d * (close - this.trail) <= 0) {
      this.closeAll(out, 'trailingStop');
      return;
    }
    if (this.gap !== null && this.legs < this.maxOrders && this.openCount === this.legs && reached(d * (close - this.lastEntry), this.gap, this.lastEntry, this.instrument)) {
      this.open(out, close);
    }
  }

  private open(out: Intent[], ref: number): void {
    const stop = roundToTick(ref - this.direction * this.atrStop * this.atrNow, this.instrument);
    this.legs++;
    out.push({ kind: 'open', tag: openTag(this.signalSeq, this.legs), side: sideOf(this.direction), qty: this.qty, type: 'market', stopLoss: stop });
  }

  protected override onOpenFill(fill: Fill, _view: StrategyView, out: Intent[]): void {
    // The initial stop is measured from the real fill.
    const stop = roundToTick(fill.price - this.direction * this.atrStop * this.atrNow, this.instrument);
    out.push({ kind: 'amend', ticket: fill.ticket, stopLoss: stop });
  }
}

export function createPegasus(params: PegasusParams, instrument: Instrument): PegasusStrategy {
  return new PegasusStrategy(params, instrument);
}

// Purge revert (liquidity sweep): a candle whose high exceeds the highest high of the previous
// `lookback` bars by at least `sweep` and closes back below that high → short, stop beyond the
// sweep extreme + `buffer`, take profit at `rr` × the risk. Lows mirrored. One position at a time.
import type { Fill, Instrument, Intent, StrategyView } from '@lq/engine';
import { Donchian } from '@lq/engine';
import { BaseStrategy, aiAt, allowSignal, at, reached, distance, openTag, orderQty, resolveCommon, roundToTick, sideOf, spreadPrice } from '../common/runtime';
import type { Direction, Distance } from '../common/runtime';
import type { PurgeRevertParams } from './schema';

export class PurgeRevertStrategy extends BaseStrategy {
  private readonly channel: Donchian;
  private priorHigh = NaN;
  private priorLow = NaN;
  private readonly qty: number;
  private readonly sweep: Distance;
  private readonly buffer: Distance;
  private readonly rr: number;
  private readonly spread: number;
  private direction: Direction = 0;
  /** The stop of the position being opened, kept to re-base the TP on the real fill. */
  private stop = NaN;

  constructor(p: PurgeRevertParams, instrument: Instrument) {
    super(resolveCommon(p), instrument, 'continue');
    this.channel = new Donchian(p.lookback);
    this.qty = orderQty(p.firstLots, p.unit, instrument, 'firstLots');
    this.sweep = distance(p.sweep, instrument);
    this.buffer = distance(p.buffer, instrument);
    this.rr = p.rr;
    this.spread = spreadPrice(p, instrument);
  }

  protected update(view: StrategyView, i: number): void {
    const c = view.candles;
    this.priorHigh = this.channel.ready ? this.channel.upper : NaN;
    this.priorLow = this.channel.ready ? this.channel.lower : NaN;
    this.channel.update(c.high[i], c.low[i]);
  }

  protected decide(view: StrategyView, out: Intent[]): void {
    if (this.openCount > 0 || view.pending.length > 0) return;
    const { high, low, close } = view.candles;
    const i = view.index;
    const h = high[i];
    const l = low[i];
    const c = close[i];
    // A candle may sweep both sides (an outside bar closing inside the channel). Each sweep is a
    // signal of its own and the side mode picks among them, so a long-only run takes the long
    // sweep of such a candle exactly as a short-only run takes its short one. Both allowed at
    // once cannot happen (the AI agrees with one side only).
    const sweeps: [Direction, number][] = [];
    if (reached(h - this.priorHigh, this.sweep, this.priorHigh, this.instrument) && h > this.priorHigh && c < this.priorHigh) sweeps.push([-1, h]);
    if (reached(this.priorLow - l, this.sweep, this.priorLow, this.instrument) && l < this.priorLow && c > this.priorLow) sweeps.push([1, l]);
    const ai = aiAt(view);
    const allowed = sweeps.filter(([signal]) => allowSignal(this.common.side, this.common.useAi, signal, ai) !== 0);
    if (allowed.length !== 1) return;
    const [dir, extreme] = allowed[0];
    // Stop beyond the swept extreme (+ buffer).
    const stop = extreme - dir * at(this.buffer, extreme);
    const entry = this.referencePrice(view, dir, this.spread);
    if (dir * (entry - stop) <= 0) return;
    this.direction = dir;
    this.stop = roundToTick(stop, this.instrument, dir < 0);
    this.signalSeq++;
    out.push({
      kind: 'open',
      tag: openTag(this.signalSeq, 1),
      side: sideOf(dir),
      qty: this.qty,
      type: 'market',
      stopLoss: this.stop,
      takeProfit: roundToTick(entry + dir * this.rr * Math.abs(entry - stop), this.instrument),
    });
  }

  protected override onOpenFill(fill: Fill, _view: StrategyView, out: Intent[]): void {
    const risk = this.direction * (fill.price - this.stop);
    if (risk <= 0) {
      // Filled beyond the stop (a gap): leave now.
      this.closeAll(out, 'orderStopLoss');
      return;
    }
    out.push({ kind: 'amend', ticket: fill.ticket, takeProfit: roundToTick(fill.price + this.direction * this.rr * risk, this.instrument) });
  }
}

export function createPurgeRevert(params: PurgeRevertParams, instrument: Instrument): PurgeRevertStrategy {
  return new PurgeRevertStrategy(params, instrument);
}

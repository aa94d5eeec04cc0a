// Inversion revert (RSI reversal): RSI leaves overbought (oversold) and the candle engulfs the
// previous one against the move → short (long). TP/SL distances from the average entry; at most
// `orderNumber` orders, adding every `gap` against the last entry, lots × `multiplier`.
import type { Instrument, StrategyView } from '@lq/engine';
import { AveragingStrategy } from '../common/averaging';
import { Rsi } from '@lq/engine';
import { distance } from '../common/runtime';
import type { Direction } from '../common/runtime';
import type { InversionRevertParams } from './schema';

export class InversionRevertStrategy extends AveragingStrategy {
  private readonly rsi: Rsi;
  private prevRsi = NaN;
  private rsiNow = NaN;
  private readonly overbought: number;
  private readonly oversold: number;

  constructor(p: InversionRevertParams, instrument: Instrument) {
    super(p, instrument, {
      firstLots: p.firstLots,
      multiplier: p.multiplier,
      orderNumber: p.orderNumber,
      addDistance: p.gap === undefined ? null : distance(p.gap, instrument),
      takeProfit: distance(p.orderTakeProfit, instrument),
      stopLoss: distance(p.orderStopLoss, instrument),
    });
    this.rsi = new Rsi(p.rsiPeriod);
    this.overbought = p.overbought;
    this.oversold = p.oversold;
  }

  protected update(view: StrategyView, i: number): void {
    const v = this.rsi.update(view.candles.close[i]);
    this.prevRsi = this.rsiNow;
    this.rsiNow = this.rsi.ready ? v : NaN;
  }

  protected entrySignal(view: StrategyView): Direction {
    const i = view.index;
    if (i < 1) return 0;
    const { open, close } = view.candles;
    const o = open[i];
    const c = close[i];
    const po = open[i - 1];
    const pc = close[i - 1];
    // Bullish engulfing: a down candle followed by an up candle whose body covers it.
    if (this.prevRsi < this.oversold && this.rsiNow >= this.oversold && pc < po && c > o && c >= po && o <= pc) return 1;
    if (this.prevRsi > this.overbought && this.rsiNow <= this.overbought && pc > po && c < o && c <= po && o >= pc) return -1;
    return 0;
  }
}

export function createInversionRevert(params: InversionRevertParams, instrument: Instrument): InversionRevertStrategy {
  return new InversionRevertStrategy(params, instrument);
}

// Blue bands (Bollinger reversion): long when the close crosses back above the lower band, short when
// it crosses back below the upper band; exit when the close reaches the middle band (or the SL
// distance from the average entry, on the tickets); adds every `gap` further beyond, lots × multiplier.
import type { Instrument, StrategyView } from '@lq/engine';
import { AveragingStrategy } from '../common/averaging';
import { Bollinger } from '@lq/engine';
import { distance } from '../common/runtime';
import type { Direction } from '../common/runtime';
import type { BlueBandsParams } from './schema';

export class BlueBandsStrategy extends AveragingStrategy {
  private readonly bands: Bollinger;
  private prevClose = NaN;
  private prevUpper = NaN;
  private prevLower = NaN;
  private upper = NaN;
  private lower = NaN;
  private middle = NaN;

  constructor(p: BlueBandsParams, instrument: Instrument) {
    super(p, instrument, {
      firstLots: p.firstLots,
      multiplier: p.multiplier,
      orderNumber: p.orderNumber,
      addDistance: p.gap === undefined ? null : distance(p.gap, instrument),
      takeProfit: null,
      stopLoss: distance(p.orderStopLoss, instrument),
    });
    this.bands = new Bollinger(p.bbPeriod, p.bbDeviation);
  }

  protected update(view: StrategyView, i: number): void {
    if (i > 0) this.prevClose = view.candles.close[i - 1];
    this.prevUpper = this.upper;
    this.prevLower = this.lower;
    this.bands.update(view.candles.close[i]);
    const ready = this.bands.ready;
    this.upper = ready ? this.bands.upper : NaN;
    this.lower = ready ? this.bands.lower : NaN;
    this.middle = ready ? this.bands.middle : NaN;
  }

  protected entrySignal(view: StrategyView): Direction {
    const close = view.candles.close[view.index];
    if (this.prevClose < this.prevLower && close >= this.lower) return 1;
    if (this.prevClose > this.prevUpper && close <= this.upper) return -1;
    return 0;
  }

  protected override exitSignal(view: StrategyView): boolean {
    const close = view.candles.close[view.index];
    return this.direction > 0 ? close >= this.middle : close <= this.middle;
  }
}

export function createBlueBands(params: BlueBandsParams, instrument: Instrument): BlueBandsStrategy {
  return new BlueBandsStrategy(params, instrument);
}

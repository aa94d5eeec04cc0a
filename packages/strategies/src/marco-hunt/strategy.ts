// Marco hunt (MACD hunter): MACD(12,26,9) crossing its signal line, taken only in the direction of
// EMA(200) (close above it → longs, below → shorts). TP/SL from the average entry; optional
// martin-style refills every `refillInterval` against the last entry, lots × `multiplier`.
import type { Instrument, StrategyView } from '@lq/engine';
import { AveragingStrategy } from '../common/averaging';
import { Ema, Macd } from '@lq/engine';
import { distance } from '../common/runtime';
import type { Direction } from '../common/runtime';
import type { MarcoHuntParams } from './schema';

export class MarcoHuntStrategy extends AveragingStrategy {
  private readonly macd = new Macd(12, 26, 9);
  private readonly trend = new Ema(200);
  private prevHist = NaN;
  private hist = NaN;
  private trendNow = NaN;

  constructor(p: MarcoHuntParams, instrument: Instrument) {
    super(p, instrument, {
      firstLots: p.firstLots,
      multiplier: p.multiplier,
      orderNumber: p.orderNumber,
      addDistance: p.refillInterval === undefined ? null : distance(p.refillInterval, instrument),
      takeProfit: distance(p.orderTakeProfit, instrument),
      stopLoss: distance(p.orderStopLoss, instrument),
    });
  }

  protected update(view: StrategyView, i: number): void {
    const close = view.candles.close[i];
    this.macd.update(close);
    const t = this.trend.update(close);
    this.prevHist = this.hist;
    this.hist = this.macd.ready ? this.macd.macd - this.macd.signal : NaN;
    this.trendNow = this.trend.ready ? t : NaN;
  }

  protected entrySignal(view: StrategyView): Direction {
    const close = view.candles.close[view.index];
    if (this.prevHist <= 0 && this.hist > 0 && close > this.trendNow) return 1;
    if (this.prevHist >= 0 && this.hist < 0 && close < this.trendNow) return -1;
    return 0;
  }
}

export function createMarcoHunt(params: MarcoHuntParams, instrument: Instrument): MarcoHuntStrategy {
  return new MarcoHuntStrategy(params, instrument);
}

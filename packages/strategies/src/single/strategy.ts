// Trend (`single`) and the windowed trends (`day-single`, `week-single`, `month-single`): one
// implementation. Up to three pyramided orders, each with its own TP/SL distance from its own entry.
import type { ExitReason, Fill, Instrument, Intent, StrategyView } from '@lq/engine';
import { Ema } from '@lq/engine';
import {
  BaseStrategy,
  allowSignal,
  at,
  reached,
  distance,
  isAiMode,
  legOf,
  openTag,
  orderQty,
  resolveCommon,
  roundToTick,
  sideDirection,
  spreadPrice,
} from '../common/runtime';
import type { Direction, Distance } from '../common/runtime';
import type { SingleParams } from './schema';
import { TradingWindow } from '../windowed/window';
import type { WindowKind } from '../windowed/window';

export const FAST_EMA = 20;
export const SLOW_EMA = 50;

export interface TrendOptions {
  /** Trading windows of the windowed trends; null for `single`. */
  readonly window: { kind: WindowKind; windowStart: string; windowEnd: string } | null;
}

export class TrendStrategy extends BaseStrategy {
  private readonly fast = new Ema(FAST_EMA);
  private readonly slow = new Ema(SLOW_EMA);
  /** fast − slow at the previous and current candle (NaN until both EMAs are ready). */
  private prevDiff = NaN;
  private diff = NaN;
  private prevAi: Direction = 0;
  private aiNow: Direction = 0;

  private readonly sizes: number[];
  private readonly takeProfits: (Distance | null)[];
  private readonly stopLosses: (Distance | null)[];
  private readonly gap: Distance | null;
  private readonly spread: number;
  private readonly aiMode: boolean;
  private readonly window: TradingWindow | null;

  /** Reference price each leg's TP/SL was computed from. */
  private readonly refPrice = new Float64Array(3);
  /** Legs opened for the current signal (0 = flat). */
  private legs = 0;
  private direction: Direction = 0;
  /** Entry to take once flat (stop-and-reverse), 0 for none. */
  private reverseTo: Direction = 0;
  private started = false;
  /** Start of the window in which the direction was already decided (windowed trends). */
  private decidedWindow = NaN;

  constructor(p: SingleParams, instrument: Instrument, options: TrendOptions) {
    super(resolveCommon(p), instrument, 'continue');
    this.sizes = [orderQty(p.firstLots, p.unit, instrument, 'firstLots')];
    if (p.secondLots !== undefined) this.sizes.push(orderQty(p.secondLots, p.unit, instrument, 'secondLots'));
    if (p.thirdLots !== undefined && p.secondLots !== undefined) this.sizes.push(orderQty(p.thirdLots, p.unit, instrument, 'thirdLots'));
    const dist = (v: number | null | undefined) => (v === null || v === undefined ? null : distance(v, instrument));
    this.takeProfits = [0, 1, 2].map((i) => dist(p.orderTakeProfit[i]));
    this.stopLosses = [0, 1, 2].map((i) => dist(p.orderStopLoss[i]));
    this.gap = p.gap === undefined ? null : distance(p.gap, instrument);
    this.spread = spreadPrice(p, instrument);
    this.aiMode = isAiMode(p.side);
    this.window = options.window === null ? null : new TradingWindow(options.window.kind, options.window.windowStart, options.window.windowEnd, instrument.market);
  }

  protected update(view: StrategyView, i: number): void {
    const c = view.candles.close[i];
    const f = this.fast.update(c);
    const s = this.slow.update(c);
    this.prevDiff = this.diff;
    this.diff = this.slow.ready ? f - s : NaN;
    if (this.aiMode || this.common.useAi) {
      this.prevAi = this.aiNow;
      const ai = view.ai === null ? 0 : view.ai.signal[i];
      this.aiNow = ai > 0 ? 1 : ai < 0 ? -1 : 0;
    }
  }

  /** +1 / −1 on a fresh signal at this candle, else 0. */
  private signal(): Direction {
    if (this.aiMode) return this.aiNow !== this.prevAi ? this.aiNow : 0;
    if (this.prevDiff <= 0 && this.diff > 0) return 1;
    if (this.prevDiff >= 0 && this.diff < 0) return -1;
    return 0;
  }

  protected decide(view: StrategyView, out: Intent[]): void {
    if (this.window !== null) this.decideWindowed(view, out);
    else this.decideSingle(view, out);
  }

  private decideSingle(view: StrategyView, out: Intent[]): void {
    const c = this.common;
    if (this.openCount === 0 && view.pending.length === 0) {
      this.legs = 0;
      let dir: Direction = 0;
      if (this.reverseTo !== 0) {
        // The reversal is still subject to the side mode and the AI at the moment it is taken.
        dir = this.aiMode || c.useAi ? allowSignal(c.side, c.useAi, this.reverseTo, this.aiNow) : this.reverseTo;
        this.reverseTo = 0;
      } else if (!this.started && c.addImmediately) dir = sideDirection(c.side, c.useAi, this.aiNow);
      else dir = allowSignal(c.side, c.useAi, this.signal(), this.aiNow);
      if (dir !== 0) {
        this.started = true;
        this.enter(view, out, dir);
      }
      return;
    }
    this.started = true;
    if (this.legs === 0) return;
    const signal = this.signal();
    if (signal !== 0 && signal !== this.direction) {
      // Opposite signal: exit, and reverse if that direction may be traded.
      this.reverseTo = allowSignal(c.side, c.useAi, signal, this.aiNow);
      this.closeAll(out, 'signal');
      return;
    }
    this.maybeAdd(view, out);
  }

  private decideWindowed(view: StrategyView, out: Intent[]): void {
    const w = this.window!;
    const closeTime = view.candles.time[view.index] + view.candles.intervalMs + view.utcOffsetMinutes * 60_000;
    const inWindow = w.locate(closeTime);
    const sameWindow = inWindow && w.start === this.decidedWindow;
    if (this.openCount > 0) {
      if (sameWindow) this.maybeAdd(view, out);
      else this.closeAll(out, 'windowEnd');
      return;
    }
    if (this.legs > 0) {
      // Every leg closed by its own TP/SL: nothing more in this window.
      if (sameWindow) return;
      this.legs = 0;
    }
    if (!inWindow || w.start === this.decidedWindow || view.pending.length > 0) return;
    const c = this.common;
    let dir: Direction;
    if (c.addImmediately || this.aiMode) dir = sideDirection(c.side, c.useAi, this.aiNow);
    else {
      // long / short: take the window only when the EMA trend points that way.
      const trend: Direction = this.diff > 0 ? 1 : this.diff < 0 ? -1 : 0;
      dir = allowSignal(c.side, c.useAi, trend, this.aiNow);
    }
    if (dir === 0) return;
    this.decidedWindow = w.start;
    this.enter(view, out, dir);
  }

  protected override onFlat(_reason: ExitReason): void {
    this.legs = 0;
  }

  private enter(view: StrategyView, out: Intent[], dir: Direction): void {
    this.signalSeq++;
    this.direction = dir;
    this.legs = 0;
    this.openLeg(view, out);
  }

  private maybeAdd(view: StrategyView, out: Intent[]): void {
    if (this.legs >= this.sizes.length || this.gap === null || this.openCount < this.legs) return;
    const close = view.candles.close[view.index];
    if (reached(this.direction > 0 ? close - this.lastEntry : this.lastEntry - close, this.gap, this.lastEntry, this.instrument)) this.openLeg(view, out);
  }

  private openLeg(view: StrategyView, out: Intent[]): void {
    const leg = this.legs;
    const dir = this.direction;
    const ref = this.referencePrice(view, dir, this.spread);
    const [tp, sl] = this.exits(leg, ref);
    this.refPrice[leg] = ref;
    this.openMarket(out, openTag(this.signalSeq, leg + 1), dir, this.sizes[leg], tp, sl);
    this.legs = leg + 1;
  }

  /** Absolute TP/SL of leg `leg` entered at `entry`. */
  private exits(leg: number, entry: number): [number | undefined, number | undefined] {
    const tp = this.takeProfits[leg];
    const sl = this.stopLosses[leg];
    const d = this.direction;
    return [
      tp === null ? undefined : roundToTick(entry + d * at(tp, entry), this.instrument),
      sl === null ? undefined : roundToTick(entry - d * at(sl, entry), this.instrument),
    ];
  }

  protected override onOpenFill(fill: Fill, _view: StrategyView, out: Intent[]): void {
    // Re-base the leg's TP/SL on its real fill price.
    const leg = legOf(fill.ticket) - 1;
    if (!(leg >= 0 && leg < 3) || Math.abs(fill.price - this.refPrice[leg]) < this.instrument.tickSize / 2) return;
    const [tp, sl] = this.exits(leg, fill.price);
    if (tp !== undefined || sl !== undefined) out.push({ kind: 'amend', ticket: fill.ticket, takeProfit: tp ?? null, stopLoss: sl ?? null });
  }
}

export function createSingle(params: SingleParams, instrument: Instrument): TrendStrategy {
  return new TrendStrategy(params, instrument, { window: null });
}

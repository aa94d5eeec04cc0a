// Shared run-time pieces of every strategy: parameter resolution against the instrument, distances,
// sizes, side resolution, tags, and a base class with the overall TP/SL and halting mechanics.
// Everything here is allocation-free per candle: objects are created only when an intent is sent.
import type { ExitReason, Fill, Instrument, Intent, PositionSide, SideMode, Strategy, StrategyView } from '@lq/engine';
import { checkQty, qtyRulesFor, snapToStep } from './schema';
import type { CommonParams, UnitName } from './schema';

/** A parameter that cannot be used with this instrument (e.g. a size below the minimum). */
export class StrategyParamError extends Error {
  constructor(
    readonly field: string,
    readonly messageKey: string,
  ) {
    super(`${field}: ${messageKey}`);
    this.name = 'StrategyParamError';
  }
}

// --- distances --------------------------------------------------------------------------------

/** A distance as `fixed + perPrice × price`: forex points × point, or crypto percent of price. */
export interface Distance {
  readonly fixed: number;
  readonly perPrice: number;
}
export function distance(value: number, instrument: Instrument): Distance {
  return instrument.market === 'forex' ? { fixed: value * instrument.point, perPrice: 0 } : { fixed: 0, perPrice: value / 100 };
}
/** The price distance of `d` at `price`. */
export function at(d: Distance, price: number): number {
  return d.fixed + d.perPrice * price;
}

/**
 * Whether a price move of `moved` (positive: in the measured direction) reaches the distance `d`
 * measured from `ref`, compared in integer points: prices lie on the point grid, so a move is a
 * whole number of points up to float noise (1.10200 − 1.10000 is 0.0019999999999998), and a
 * distance of whole points (forex) is compared as that whole number. A close exactly `d` away
 * reaches it, whatever the noise.
 */
export function reached(moved: number, d: Distance, ref: number, instrument: Instrument): boolean {
  const point = instrument.point;
  const movedPoints = Math.round(moved / point);
  const needed = at(d, ref) / point;
  const whole = Math.round(needed);
  return movedPoints >= (Math.abs(needed - whole) < 1e-6 ? whole : needed);
}

// --- sizes ------------------------------------------------------------------------------------

/**
 * Converts a size typed by the user (contracts, coins or lots) to order units (contracts or lots),
 * snapped to the step; throws StrategyParamError below the minimum.
 */
export function orderQty(lots: number, unit: UnitName, instrument: Instrument, field: string): number {
  const check = checkQty(lots, qtyRulesFor(instrument, unit));
  if (check.error !== null) throw new StrategyParamError(field, check.error);
  const contracts = instrument.market === 'crypto' && unit === 'KE' ? check.qty / instrument.contractSize : check.qty;
  return clampQty(contracts, instrument);
}
/** Snaps a computed size (e.g. lots × multiplier) to the step, never below the minimum. */
export function clampQty(qty: number, instrument: Instrument): number {
  const snapped = snapToStep(qty + instrument.qtyStep * 1e-7, instrument.qtyStep);
  return snapped < instrument.minQty ? instrument.minQty : snapped;
}
/** Martingale sizes: first, first × m, first × m², … each snapped to the instrument. */
export function scaledSizes(first: number, multiplier: number, count: number, instrument: Instrument): Float64Array {
  const sizes = new Float64Array(count);
  let raw = first;
  for (let i = 0; i < count; i++) {
    sizes[i] = clampQty(raw, instrument);
    raw *= multiplier;
  }
  return sizes;
}

// --- side -------------------------------------------------------------------------------------

export type Direction = -1 | 0 | 1;
export const sideOf = (d: Direction): PositionSide => (d > 0 ? 'long' : 'short');

/** AI signal at the view's candle: +1, −1, or 0 (flat, unknown or no indicator). */
export function aiAt(view: StrategyView): Direction {
  const ai = view.ai;
  if (ai === null) return 0;
  const v = ai.signal[view.index];
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

export function isAiMode(mode: SideMode): boolean {
  return mode === 'ai' || mode === 'aiLongOnly' || mode === 'aiShortOnly';
}
/** Whether a run of these parameters needs the AI indicator. */
export function needsAi(params: { side: SideMode; useAiIndicator: boolean }): boolean {
  return params.useAiIndicator || isAiMode(params.side);
}

/**
 * May a strategy's own directional signal be taken? long/short: only that way (and with
 * useAiIndicator only when the AI agrees); ai: when the AI agrees; aiLongOnly/aiShortOnly: that way
 * and the AI agrees.
 */
export function allowSignal(mode: SideMode, useAi: boolean, signal: Direction, ai: Direction): Direction {
  if (signal === 0) return 0;
  switch (mode) {
    case 'long':
      return signal > 0 && (!useAi || ai > 0) ? 1 : 0;
    case 'short':
      return signal < 0 && (!useAi || ai < 0) ? -1 : 0;
    case 'ai':
      return signal === ai ? signal : 0;
    case 'aiLongOnly':
      return signal > 0 && ai > 0 ? 1 : 0;
    case 'aiShortOnly':
      return signal < 0 && ai < 0 ? -1 : 0;
  }
}

/** Direction for strategies without a directional signal of their own (grid, martin, window start). */
export function sideDirection(mode: SideMode, useAi: boolean, ai: Direction): Direction {
  switch (mode) {
    case 'long':
      return !useAi || ai > 0 ? 1 : 0;
    case 'short':
      return !useAi || ai < 0 ? -1 : 0;
    case 'ai':
      return ai;
    case 'aiLongOnly':
      return ai > 0 ? 1 : 0;
    case 'aiShortOnly':
      return ai < 0 ? -1 : 0;
  }
}

// --- tags -------------------------------------------------------------------------------------

/** Tag of an opening order: `s<signal#>-l<leg>`, stable across replays, ≤ 24 chars of [A-Za-z0-9-]. */
export function openTag(signal: number, leg: number): string {
  return `s${signal}-l${leg}`;
}
/** Tag of the order that closes the ticket opened by `tag`. */
export function closeTag(tag: string): string {
  return `${tag}-x`;
}
/** The leg number of a tag made by `openTag`. */
export function legOf(tag: string): number {
  return Number(tag.slice(tag.lastIndexOf('-l') + 2));
}

// --- the base strategy ------------------------------------------------------------------------

/** What the overall stop loss does after closing everything. */
export type AfterOverallStop = 'halt' | 'continue';

export interface ResolvedCommon {
  readonly side: SideMode;
  readonly useAi: boolean;
  readonly addImmediately: boolean;
  /** Overall TP / SL in money; Infinity when not set. */
  readonly takeProfit: number;
  readonly stopLoss: number;
  readonly unit: UnitName;
}
export function resolveCommon(p: CommonParams): ResolvedCommon {
  return {
    side: p.side,
    useAi: p.useAiIndicator,
    addImmediately: p.addImmediately,
    takeProfit: p.takeProfit ?? Infinity,
    stopLoss: p.stopLoss ?? Infinity,
    unit: p.unit,
  };
}

const RUNNING = 0;
const CLOSING = 1;
const HALTING = 2;
const HALTED = 3;

/**
 * Feeds indicators every candle (catching up if the kernel skipped some), applies the overall
 * TP/SL, waits until a close-all has completed, and halts cleanly. Subclasses implement `update`
 * (indicators, called for every candle index in order) and `decide`.
 */
export abstract class BaseStrategy implements Strategy {
  protected readonly common: ResolvedCommon;
  protected readonly instrument: Instrument;
  private lastIndex = -1;
  private state = RUNNING;
  private haltReason = '';
  /** Fills arrived since the last candle: position figures need refreshing. */
  protected positionDirty = true;
  /** Open tickets: count, total quantity, average and last entry price, and side. */
  protected openCount = 0;
  protected openQty = 0;
  protected avgEntry = 0;
  protected lastEntry = 0;
  protected positionSide: Direction = 0;
  /** Signal counter for tags. */
  protected signalSeq = 0;

  constructor(
    common: ResolvedCommon,
    instrument: Instrument,
    private readonly afterOverallStop: AfterOverallStop,
  ) {
    this.common = common;
    this.instrument = instrument;
    this.hasOverallExit = common.takeProfit < Infinity || common.stopLoss < Infinity;
  }

  /** Update indicators with candle row `i` (called once per row, in order). */
  protected abstract update(view: StrategyView, i: number): void;
  /** The decision at the view's candle, when running and not waiting for a close-all. */
  protected abstract decide(view: StrategyView, out: Intent[]): void;
  /** Called once the position is flat after a close-all (overall TP/SL or the strategy's own). */
  protected onFlat(_reason: ExitReason): void {}
  /** An opening fill of this strategy; may send intents (e.g. TP/SL relative to the real fill price). */
  protected onOpenFill(_fill: Fill, _view: StrategyView, _out: Intent[]): void {}
  /** A closing fill (by a TP/SL or a close intent). */
  protected onCloseFill(_fill: Fill, _view: StrategyView, _out: Intent[]): void {}

  private closingReason: ExitReason = 'manual';
  protected readonly hasOverallExit: boolean;
  private checkedAi = false;

  onCandle(view: StrategyView, out: Intent[]): void {
    const index = view.index;
    if (!this.checkedAi) {
      this.checkedAi = true;
      if (view.ai === null && (this.common.useAi || isAiMode(this.common.side))) {
        throw new Error(`side "${this.common.side}"${this.common.useAi ? ' with useAiIndicator' : ''} needs the AI indicator, but the run has none`);
      }
    }
    for (let i = this.lastIndex + 1; i <= index; i++) this.update(view, i);
    this.lastIndex = index;
    if (this.state === HALTED) return;
    if (this.positionDirty || view.tickets.length !== this.openCount) this.refreshPosition(view);
    const flat = view.tickets.length === 0 && view.pending.length === 0;
    if (this.state === HALTING) {
      if (flat) {
        this.state = HALTED;
        out.push({ kind: 'halt', reason: this.haltReason });
      }
      return;
    }
    if (this.state === CLOSING) {
      if (!flat) return;
      this.state = RUNNING;
      this.onFlat(this.closingReason);
    }
    if (this.hasOverallExit && this.openCount > 0) {
      const floating = view.floatingPnl;
      if (floating <= -this.common.stopLoss) {
        if (this.afterOverallStop === 'halt') this.haltAfterClose(out, 'stopLoss');
        else this.closeAll(out, 'stopLoss');
        return;
      }
      if (floating >= this.common.takeProfit) {
        this.closeAll(out, 'takeProfit');
        return;
      }
    }
    this.decide(view, out);
  }

  onFill(fill: Fill, view: StrategyView, out: Intent[]): void {
    this.positionDirty = true;
    if (this.state !== RUNNING) return;
    if (fill.action === 'open') {
      this.lastEntry = fill.price;
      this.onOpenFill(fill, view, out);
    } else this.onCloseFill(fill, view, out);
  }

  /** Close every ticket and cancel every order; the strategy resumes (`onFlat`) once flat. */
  protected closeAll(out: Intent[], reason: ExitReason): void {
    out.push({ kind: 'closeAll', reason });
    this.state = CLOSING;
    this.closingReason = reason;
  }
  /** Close everything, then halt. */
  protected haltAfterClose(out: Intent[], reason: string): void {
    out.push({ kind: 'closeAll', reason: reason === 'stopLoss' ? 'stopLoss' : 'manual' });
    this.state = HALTING;
    this.haltReason = reason;
  }
  protected get closing(): boolean {
    return this.state !== RUNNING;
  }

  /** Recomputes the open-position figures from the tickets (only after fills). */
  protected refreshPosition(view: StrategyView): void {
    const tickets = view.tickets;
    let qty = 0;
    let cost = 0;
    let side: Direction = 0;
    let latest = -Infinity;
    for (let i = 0; i < tickets.length; i++) {
      const t = tickets[i];
      qty += t.qty;
      cost += t.qty * t.entryPrice;
      side = t.side === 'long' ? 1 : -1;
      if (t.entryTime >= latest) {
        latest = t.entryTime;
        this.lastEntry = t.entryPrice;
      }
    }
    this.openCount = tickets.length;
    this.openQty = qty;
    this.avgEntry = qty > 0 ? cost / qty : 0;
    this.positionSide = side;
    this.positionDirty = false;
  }

  /** Market order opening a leg; TP/SL are absolute prices (or undefined). */
  protected openMarket(out: Intent[], tag: string, dir: Direction, qty: number, takeProfit?: number, stopLoss?: number): void {
    out.push({ kind: 'open', tag, side: sideOf(dir), qty, type: 'market', takeProfit, stopLoss });
  }

  /**
   * The reference entry price of a market order decided at this candle: the close (the bid for
   * forex) plus the spread for a buy. Used for TP/SL before the real fill price is known.
   */
  protected referencePrice(view: StrategyView, dir: Direction, spreadPrice: number): number {
    const close = view.candles.close[view.index];
    return dir > 0 ? close + spreadPrice : close;
  }
}

/** Spread in price units (forex points × point; crypto none). */
export function spreadPrice(params: { spread?: number }, instrument: Instrument): number {
  return instrument.market === 'forex' ? (params.spread ?? 0) * instrument.point : 0;
}

/**
 * Rounds a price to the instrument's tick (TP/SL prices sent to a venue must be on the tick):
 * to the nearest tick, or outward (`up` true: ceiling, false: floor) for stops beyond an extreme.
 */
export function roundToTick(price: number, instrument: Instrument, up?: boolean): number {
  const tick = instrument.tickSize;
  const steps = price / tick;
  const n = up === undefined ? Math.round(steps) : up ? Math.ceil(steps - 1e-9) : Math.floor(steps + 1e-9);
  return Number((n * tick).toFixed(instrument.digits));
}

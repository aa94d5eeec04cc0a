// Grid: resting limit orders at `gridNumber` levels from the anchor, each sold (bought back) one gap
// further with the take profit attached to its ticket. Nothing happens per candle except the overall
// TP/SL check: the broker fills the orders, and `onFill` re-arms a level once its round trip closes.
import type { Fill, Instrument, Intent, StrategyView } from '@lq/engine';
import { BaseStrategy, aiAt, legOf, openTag, orderQty, resolveCommon, roundToTick, sideDirection, sideOf } from '../common/runtime';
import type { Direction } from '../common/runtime';
import type { GridParams } from './schema';

const IDLE = 0;
const WAITING = 1;
const HOLDING = 2;

export class GridStrategy extends BaseStrategy {
  private readonly qty: number;
  private readonly levels: number;
  private readonly geometric: boolean;
  private readonly gapValue: number;
  /** Level k's entry price; index `levels` holds nothing. Level 0 is the anchor (addImmediately). */
  private readonly entry: Float64Array;
  /** Level k's take-profit price (one gap back towards the anchor). */
  private readonly target: Float64Array;
  private readonly levelState: Uint8Array;
  private readonly firstLevel: number;
  private direction: Direction = 0;
  private running = false;

  constructor(p: GridParams, instrument: Instrument) {
    super(resolveCommon(p), instrument, 'halt');
    this.qty = orderQty(p.lotsPerGrid, p.unit, instrument, 'lotsPerGrid');
    this.geometric = instrument.market === 'crypto';
    this.gapValue = this.geometric ? p.gap / 100 : p.gap * instrument.point;
    // With addImmediately the anchor itself is level 0 (bought at market), so the grid still has gridNumber levels.
    this.firstLevel = p.addImmediately ? 0 : 1;
    this.levels = p.gridNumber;
    this.entry = new Float64Array(this.firstLevel + this.levels);
    this.target = new Float64Array(this.firstLevel + this.levels);
    this.levelState = new Uint8Array(this.firstLevel + this.levels);
  }

  protected update(): void {}

  override onCandle(view: StrategyView, out: Intent[]): void {
    // A running grid without overall TP/SL has nothing to do per candle: the broker works its orders.
    if (this.running && !this.hasOverallExit) return;
    super.onCandle(view, out);
  }

  /** Price `k` gaps from the anchor, against the grid's direction (k may be −1: one gap in favour). */
  private levelPrice(anchor: number, k: number, dir: Direction): number {
    if (this.geometric) return dir > 0 ? anchor / Math.pow(1 + this.gapValue, k) : anchor * Math.pow(1 + this.gapValue, k);
    return anchor - dir * k * this.gapValue;
  }

  protected decide(view: StrategyView, out: Intent[]): void {
    if (this.running) return;
    const dir = sideDirection(this.common.side, this.common.useAi, aiAt(view));
    if (dir === 0) return;
    this.start(view, out, dir);
  }

  private start(view: StrategyView, out: Intent[], dir: Direction): void {
    const anchor = view.candles.close[view.index];
    const instrument = this.instrument;
    this.direction = dir;
    this.running = true;
    this.signalSeq++;
    for (let k = this.firstLevel; k < this.entry.length; k++) {
      this.entry[k] = roundToTick(this.levelPrice(anchor, k, dir), instrument);
      this.target[k] = roundToTick(this.levelPrice(anchor, k - 1, dir), instrument);
      if (k === 0) {
        out.push({ kind: 'open', tag: openTag(this.signalSeq, 0), side: sideOf(dir), qty: this.qty, type: 'market', takeProfit: this.target[0], takeProfitReason: 'gridTakeProfit' });
        this.levelState[0] = WAITING;
      } else this.arm(out, k);
    }
  }

  /** Rests a limit order at level k with its take profit. */
  private arm(out: Intent[], k: number): void {
    this.signalSeq++;
    out.push({
      kind: 'open',
      tag: openTag(this.signalSeq, k),
      side: sideOf(this.direction),
      qty: this.qty,
      type: 'limit',
      price: this.entry[k],
      takeProfit: this.target[k],
      takeProfitReason: 'gridTakeProfit',
    });
    this.levelState[k] = WAITING;
  }

  protected override onOpenFill(fill: Fill): void {
    const k = legOf(fill.ticket);
    if (k >= 0 && k < this.levelState.length) this.levelState[k] = HOLDING;
  }

  protected override onCloseFill(fill: Fill, _view: StrategyView, out: Intent[]): void {
    if (!this.running) return;
    const k = legOf(fill.ticket);
    if (!(k >= 0 && k < this.levelState.length) || this.levelState[k] !== HOLDING) return;
    // The level's round trip is done: rest its order again.
    this.levelState[k] = IDLE;
    this.arm(out, k);
  }

  /** After an overall take profit everything is closed: re-anchor at the next decision. */
  protected override onFlat(): void {
    this.running = false;
    this.levelState.fill(IDLE);
  }
}

export function createGrid(params: GridParams, instrument: Instrument): GridStrategy {
  return new GridStrategy(params, instrument);
}

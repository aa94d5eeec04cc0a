// The live kernel: the backtest's strategy code and executor, stepwise. Paper and live robots feed
// it one closed decision candle at a time; what differs between them is only the injected broker
// (SimulatedBroker for paper, a venue adapter for live) and who feeds the input candles.
//
// Paper trading reproduces a backtest exactly when the driver does what the backtest loop does per
// input candle: `broker.processCandle(input, i)` first, then `onCandle(decision candle)` when input
// candle i closes a decision candle (see `PaperFeed` below and the equivalence test).
import { SimulatedBroker } from './broker';
import { executeIntents } from './executor';
import { quoteIsAccount } from './instruments';
import type { Broker } from './ports';
import type { AiSignal, Candles, Fill, Instrument, Intent, PendingOrder, Strategy, StrategyView, Ticket } from './types';

/** Candle columns that grow as candles arrive (amortised doubling). Rows [0, length) are valid. */
export class GrowingCandles implements Candles {
  length = 0;
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;

  constructor(
    readonly intervalMs: number,
    capacity = 256,
  ) {
    this.time = new Float64Array(capacity);
    this.open = new Float64Array(capacity);
    this.high = new Float64Array(capacity);
    this.low = new Float64Array(capacity);
    this.close = new Float64Array(capacity);
    this.volume = new Float64Array(capacity);
  }

  push(time: number, open: number, high: number, low: number, close: number, volume: number): number {
    const i = this.length;
    if (i === this.time.length) this.grow();
    this.time[i] = time;
    this.open[i] = open;
    this.high[i] = high;
    this.low[i] = low;
    this.close[i] = close;
    this.volume[i] = volume;
    this.length = i + 1;
    return i;
  }

  private grow(): void {
    const n = this.time.length * 2;
    const g = (a: Float64Array): Float64Array => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    this.time = g(this.time);
    this.open = g(this.open);
    this.high = g(this.high);
    this.low = g(this.low);
    this.close = g(this.close);
    this.volume = g(this.volume);
  }
}

/** One decision candle (open time in ms UTC). */
export interface LiveCandle {
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

export interface LiveKernelOptions {
  readonly strategy: Strategy;
  readonly broker: Broker;
  readonly instrument: Instrument;
  /** Decision interval in ms. */
  readonly intervalMs: number;
  readonly capital: number;
  readonly leverage: number;
  readonly ai?: AiSignal | null;
  readonly utcOffsetMinutes?: number;
}

/**
 * An AI signal computed as the decision candles arrive (the engine's `AiStream`, kept out of this
 * module's imports): the kernel pushes each decision candle before the strategy sees it.
 */
export interface LiveAiSource {
  /** Rows pushed so far (warm-up history before the robot's first decision candle). */
  readonly length: number;
  push(c: LiveCandle): number;
  /** The signal indexed from row `origin` (the kernel's decision index 0). */
  view(origin: number): AiSignal;
}

/**
 * Money figures of the view. With a SimulatedBroker they come from the broker (exactly as in a
 * backtest); with any other broker from the fills the kernel saw (realised PnL − fees) and the open
 * tickets marked at the decision close.
 */
class LiveView implements StrategyView {
  index = -1;
  fillMark = NaN;
  realised = 0;
  fees = 0;
  constructor(
    private readonly broker: Broker,
    readonly candles: GrowingCandles,
    readonly instrument: Instrument,
    readonly leverage: number,
    public ai: AiSignal | null,
    readonly utcOffsetMinutes: number,
    readonly capital: number,
  ) {}
  get tickets(): readonly Ticket[] {
    return this.broker.tickets;
  }
  get pending(): readonly PendingOrder[] {
    return this.broker.pending;
  }
  get mark(): number {
    const f = this.fillMark;
    return f === f ? f : this.index >= 0 ? this.candles.close[this.index] : NaN;
  }
  get balance(): number {
    const b = this.broker;
    return b instanceof SimulatedBroker ? b.balance : this.capital + this.realised - this.fees;
  }
  get floatingPnl(): number {
    const m = this.mark;
    if (!(m === m)) return 0;
    const b = this.broker;
    if (b instanceof SimulatedBroker) return b.floatingAt(m);
    return floatingOf(b.tickets, m, this.instrument);
  }
  get equity(): number {
    return this.balance + this.floatingPnl;
  }
  get freeMargin(): number {
    const b = this.broker;
    if (b instanceof SimulatedBroker) return this.equity - b.usedMargin;
    let used = 0;
    for (const t of b.tickets) used += (t.qty * this.instrument.contractSize * t.entryPrice) / this.leverage;
    return this.equity - used;
  }
}

/** Floating PnL of tickets at `mark` (USD-quoted instruments; USD-base pairs divide by the mark). */
export function floatingOf(tickets: readonly Ticket[], mark: number, instrument: Instrument): number {
  let f = 0;
  for (const t of tickets) {
    f += (t.side === 'long' ? mark - t.entryPrice : t.entryPrice - mark) * t.qty * instrument.contractSize;
  }
  return quoteIsAccount(instrument) ? f : f / mark;
}

/**
 * Runs a strategy one decision candle at a time. Fills reported by the broker (synchronously, as the
 * SimulatedBroker does, or when a venue adapter books them) go to `strategy.onFill`, whose intents
 * are executed at once, as in the backtest kernel.
 */
export class LiveKernel {
  readonly candles: GrowingCandles;
  readonly broker: Broker;
  private readonly strategy: Strategy;
  private readonly view: LiveView;
  private readonly out: Intent[] = [];
  /** Set once the strategy asked to halt (or threw): no more candles are fed to it. */
  haltReason: string | null = null;
  /** Strategy error that ended the run (also sets `haltReason`). */
  error: Error | null = null;
  /** Every fill the kernel forwarded, for the driver to persist (cleared by the driver). */
  readonly fills: Fill[] = [];
  /** Intents the strategy produced while `gate` was closed (dropped, not executed). */
  dropped = 0;
  /** When false, candles and fills still reach the strategy but its intents are dropped (paused robot). */
  gate = true;
  private aiSource: LiveAiSource | null = null;

  constructor(o: LiveKernelOptions) {
    this.strategy = o.strategy;
    this.broker = o.broker;
    this.candles = new GrowingCandles(o.intervalMs);
    this.view = new LiveView(
      o.broker,
      this.candles,
      o.instrument,
      o.leverage,
      o.ai ?? null,
      o.utcOffsetMinutes ?? 0,
      o.capital,
    );
    const onFill = o.strategy.onFill?.bind(o.strategy);
    o.broker.setFillListener((fill: Fill) => {
      this.view.realised += fill.pnl;
      this.view.fees += fill.fee;
      this.fills.push(fill);
      if (!onFill || this.haltReason !== null) return;
      const b = this.broker;
      this.view.fillMark = b instanceof SimulatedBroker ? b.lastPrice : fill.price;
      const out: Intent[] = [];
      try {
        onFill(fill, this.view, out);
      } catch (e) {
        this.fail(e);
        return;
      } finally {
        this.view.fillMark = NaN;
      }
      this.execute(out);
    });
  }

  /**
   * Computes the AI signal from the decision candles as they come (before the first candle): the
   * source's rows so far are warm-up history; the kernel's decision i is its row length + i.
   */
  attachAi(source: LiveAiSource): void {
    if (this.candles.length > 0) throw new Error('attachAi: the kernel already has candles');
    this.aiSource = source;
    this.view.ai = source.view(source.length);
  }

  /** Decision candles seen so far. */
  get decisions(): number {
    return this.candles.length;
  }

  /** Equity, balance and floating PnL at the last decision close (or at `mark`). */
  figures(mark?: number): { equity: number; balance: number; floating: number } {
    const v = this.view;
    if (mark !== undefined) v.fillMark = mark;
    const r = { equity: v.equity, balance: v.balance, floating: v.floatingPnl };
    v.fillMark = NaN;
    return r;
  }

  private fail(e: unknown): void {
    this.error = e instanceof Error ? e : new Error(String(e));
    this.haltReason = `strategy error: ${this.error.message}`;
  }

  private execute(out: Intent[]): void {
    if (out.length === 0) return;
    if (!this.gate) {
      this.dropped += out.length;
      out.length = 0;
      return;
    }
    let h: string | null;
    try {
      h = executeIntents(out, this.broker);
    } catch (e) {
      // A refused intent (duplicate tag, bad size) is a strategy fault, as in the backtest kernel.
      out.length = 0;
      this.fail(e);
      return;
    }
    if (h !== null && this.haltReason === null) this.haltReason = h;
  }

  /**
   * One closed decision candle: appended to the view's columns, given to the strategy, its intents
   * executed through the broker. Returns the halt reason once the strategy halted (else null).
   */
  onCandle(c: LiveCandle): string | null {
    if (this.haltReason !== null) return this.haltReason;
    const i = this.candles.push(c.time, c.open, c.high, c.low, c.close, c.volume);
    this.aiSource?.push(c);
    const v = this.view;
    v.index = i;
    const b = this.broker;
    // As the backtest kernel: limits placed now are judged against the decision close.
    if (b instanceof SimulatedBroker) b.cur = c.close;
    const out = this.out;
    try {
      this.strategy.onCandle(v, out);
    } catch (e) {
      out.length = 0;
      this.fail(e);
      return this.haltReason;
    }
    this.execute(out);
    return this.haltReason;
  }
}

/**
 * Paper driver of a LiveKernel: 1m input candles in, decision candles out, on a SimulatedBroker —
 * the backtest loop's order per input candle (simulate the candle's path, then decide at the close
 * of a decision candle). `intervalMs` must be a multiple of the input interval; decision candles
 * start at multiples of it (UTC, shifted by `offsetMs` for daily candles as the backtest does).
 */
export class PaperFeed {
  private readonly one: GrowingCandles;
  private bucket = NaN;
  private o = 0;
  private h = 0;
  private l = 0;
  private c = 0;
  private v = 0;
  /** The current bucket has input candles but was not decided yet (its last minute may be missing). */
  private open = false;

  constructor(
    readonly kernel: LiveKernel,
    readonly broker: SimulatedBroker,
    readonly intervalMs: number,
    readonly inputIntervalMs = 60_000,
    private readonly offsetMs = 0,
  ) {
    this.one = new GrowingCandles(inputIntervalMs, 2);
  }

  /** Bucket (decision candle open time) of an input candle. */
  bucketOf(time: number): number {
    const iv = this.intervalMs;
    return Math.floor((time - this.offsetMs) / iv) * iv + this.offsetMs;
  }

  /**
   * One closed input candle. Returns the halt reason (strategy halt, liquidation or insufficient
   * capital) once the run ended, else null.
   */
  onInputCandle(time: number, open: number, high: number, low: number, close: number, volume: number): string | null {
    const k = this.kernel;
    const b = this.broker;
    if (k.haltReason !== null) return k.haltReason;
    if (b.stopCode !== 0) return b.stopReason;
    const bucket = this.bucketOf(time);
    // A bucket whose last input candle never came (a gap) is decided before the next bucket's first
    // candle is simulated: the backtest's order (decision after the bucket's last row).
    if (this.open && bucket !== this.bucket) {
      const r = this.decide();
      if (r !== null) return r;
    }
    const one = this.one;
    one.length = 0;
    one.push(time, open, high, low, close, volume);
    b.processCandle(one, 0);
    if (b.stopCode !== 0) return b.stopReason;
    if (k.haltReason !== null) return k.haltReason;
    if (bucket !== this.bucket) {
      this.bucket = bucket;
      this.o = open;
      this.h = high;
      this.l = low;
      this.v = 0;
    } else {
      if (high > this.h) this.h = high;
      if (low < this.l) this.l = low;
    }
    this.c = close;
    this.v += volume;
    this.open = true;
    // The input candle closes its decision candle when the next one starts a new bucket.
    if (this.bucketOf(time + this.inputIntervalMs) !== bucket) return this.decide();
    return null;
  }

  /** Decides a bucket still open (end of data: the backtest decides its last, partial bucket). */
  finish(): string | null {
    return this.open ? this.decide() : null;
  }

  private decide(): string | null {
    this.open = false;
    const b = this.broker;
    const r = this.kernel.onCandle({ time: this.bucket, open: this.o, high: this.h, low: this.l, close: this.c, volume: this.v });
    if (r !== null) return r;
    return b.stopCode !== 0 ? b.stopReason : null;
  }
}

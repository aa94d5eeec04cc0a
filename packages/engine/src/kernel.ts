// The backtest kernel: feeds decision candles to a strategy, executes its intents through the
// shared executor on the SimulatedBroker (which simulates fills on the finer input candles), and
// keeps the metrics at every input candle.
import { DAY_MS, lowerBound, resampleWithIndex, sliceRows } from './candles';
import { SimulatedBroker } from './broker';
import { executeIntents } from './executor';
import { moneyDigits, roundMoney } from './instruments';
import { PeriodReturns } from './metrics';
import type { Clock } from './ports';
import { RunStatus } from './types';
import type {
  AiSignal,
  EquityPoint,
  BacktestConfig,
  BacktestReport,
  Candles,
  Fill,
  Instrument,
  Intent,
  PendingOrder,
  RunStatusCode,
  Strategy,
  StrategyView,
  Ticket,
  TradeRecord,
} from './types';

/**
 * The view handed to strategies (one object per run). Money figures are computed on read from the
 * broker at the current mark price, so a strategy that never reads them costs nothing per candle.
 */
class KernelView implements StrategyView {
  index = -1;
  /** During onFill: the path price of the fill, which the money figures are marked at (else NaN). */
  fillMark = NaN;
  readonly capital: number = NaN;
  constructor(
    private readonly broker: SimulatedBroker,
    readonly candles: Candles,
    readonly instrument: Instrument,
    readonly tickets: readonly Ticket[],
    readonly pending: readonly PendingOrder[],
    readonly leverage: number,
    readonly ai: AiSignal | null,
    readonly utcOffsetMinutes: number,
    capital: number,
  ) {
    this.capital = capital;
  }
  get balance(): number {
    return this.broker.balance;
  }
  /** Bid the money figures are marked at: the decision candle's close, or the fill's path price in onFill. */
  get mark(): number {
    const f = this.fillMark;
    return f === f ? f : this.index >= 0 ? this.candles.close[this.index] : NaN;
  }
  get floatingPnl(): number {
    const m = this.mark;
    return m === m ? this.broker.floatingAt(m) : 0;
  }
  get equity(): number {
    return this.balance + this.floatingPnl;
  }
  get freeMargin(): number {
    return this.equity - this.broker.usedMargin;
  }
}

/** Backtest clock: the open time of the input candle being simulated. */
export class CandleClock implements Clock {
  time = NaN;
  now(): number {
    return this.time;
  }
}

/** Input candles after `fromMs` / `toMs`, and the decision candles with their last input row. */
export function prepareCandles(config: BacktestConfig): {
  input: Candles;
  inputOffset: number;
  decision: Candles;
  lastInputIndex: Int32Array | null;
} {
  const src = config.candles;
  const a = config.fromMs === undefined ? 0 : lowerBound(src.time, src.length, config.fromMs);
  const b = config.toMs === undefined ? src.length : lowerBound(src.time, src.length, config.toMs);
  const input = sliceRows(src, a, b);
  const intervalMs = config.intervalMs ?? src.intervalMs;
  // Daily candles start at local midnight of the run's timezone.
  const offsetMs = intervalMs >= DAY_MS ? -(config.utcOffsetMinutes ?? 0) * 60_000 : 0;
  const { candles, lastSourceIndex } = resampleWithIndex(input, intervalMs, offsetMs);
  return { input, inputOffset: a, decision: candles, lastInputIndex: lastSourceIndex };
}

/** Accumulators of one run, shared between the hot loop and the report. */
class RunState {
  haltReason: string | null = null;
  status: RunStatusCode = RunStatus.success;
  statusReason = 'completed: end of data';
  bars = 0;
  decisions = 0;
  // Number initialisers (not `undefined` first): V8 keeps these fields as raw doubles.
  lastEquity = NaN;
  peak = NaN;
  peakTime = 0;
  maxDrawdown = 0;
  drawdownAmount = 0;
  longestDrawdownMs = 0;
  exposedBars = 0;
  maxFloatingProfit = 0;
  maxFloatingLoss = 0;
  /**
   * Sampled equity curve as columns (an object per point built in the loop costs more than the
   * rest of a quiet candle: V8 then keeps the loop's equity boxed). `curveCount` points are valid.
   */
  curveTime: Float64Array = new Float64Array(0);
  curveEquity: Float64Array = new Float64Array(0);
  curveCount = 0;
  /**
   * The hot loop's metrics (bars, decisions, lastEquity, peak, peakTime, maxDrawdown, drawdownAmount,
   * longestDrawdownMs, exposedBars, maxFloatingProfit, maxFloatingLoss), kept up to date by the loop
   * (bars and decisions before each call that can throw); copied to the fields by `restore`.
   */
  readonly checkpoint = new Float64Array(12);
  /** Copies the checkpoint into the fields (after the loop, also when it was left by an exception). */
  restore(): void {
    const ck = this.checkpoint;
    this.bars = ck[0];
    this.decisions = ck[1];
    this.lastEquity = ck[2];
    this.peak = ck[3];
    this.peakTime = ck[4];
    this.maxDrawdown = ck[5];
    this.drawdownAmount = ck[6];
    this.longestDrawdownMs = ck[7];
    this.exposedBars = ck[8];
    this.maxFloatingProfit = ck[9];
    this.maxFloatingLoss = ck[10];
  }
  constructor(capital: number) {
    this.lastEquity = capital;
    this.peak = capital;
  }
}

interface LoopInput {
  strategy: Strategy;
  broker: SimulatedBroker;
  view: KernelView;
  input: Candles;
  /** Null: every input candle is a decision candle. */
  lastInputIndex: Int32Array | null;
  decisionCount: number;
  periods: PeriodReturns;
  funding: Float64Array | null;
  inputOffset: number;
  recordEquity: boolean;
  stride: number;
}

/** Records a strategy (or fill callback) error as the run's failure. */
function fail(st: RunState, e: unknown): void {
  st.status = RunStatus.fail;
  st.statusReason = `strategy error: ${(e as Error).message}`;
}

/**
 * Input candles per call of `simulateChunk`: about 250 calls per million candles, enough for V8 to
 * optimise it as a function, few enough that it rarely falls back to on-stack replacement (whose
 * entry costs microseconds per call; with 512-candle chunks a run stuck there was 2× slower).
 */
const CHUNK = 4096;

/**
 * Runs the hot loop (`simulateChunk`) once per chunk of `CHUNK` input candles rather than once per
 * run. One long call per run would run on V8's on-stack-replacement code, whose loop variables
 * enter from the interpreter as tagged values: every double assigned in the loop (equity,
 * drawdown, floating extremes) would then be a heap number allocated per candle. Called often,
 * the function gets ordinary optimised code, where those locals stay raw doubles in registers.
 * The state between chunks is the checkpoint `m`.
 */
function simulate(li: LoopInput, st: RunState): void {
  const n = li.input.length;
  const m = st.checkpoint;
  m[0] = 0;
  m[1] = 0;
  m[2] = st.lastEquity;
  m[3] = st.peak;
  m[4] = n > 0 ? li.input.time[0] : 0;
  m[5] = 0;
  m[6] = 0;
  m[7] = 0;
  m[8] = 0;
  m[9] = 0;
  m[10] = 0;
  const recordEquity = li.recordEquity;
  const maxPoints = recordEquity ? Math.ceil(n / li.stride) + 1 : 0;
  st.curveTime = new Float64Array(maxPoints);
  st.curveEquity = new Float64Array(maxPoints);
  let stopped = false;
  for (let from = 0; from < n && !stopped; from += CHUNK) {
    stopped = simulateChunk(li, st, from, from + CHUNK < n ? from + CHUNK : n);
  }
  const bars = m[0];
  // The inline path does not move the broker's price: leave it at the last close simulated.
  if (li.broker.stopCode === 0 && bars > 0) li.broker.cur = li.input.close[bars - 1];
  st.restore();
}

/**
 * Candles [from, to) of the run, kept apart from set-up and reporting so the JIT optimises it
 * alone. Per input candle: simulate the path (inline when no trigger can fire), mark to market,
 * update the metrics, and at the close of a decision candle call the strategy and execute its
 * intents. Returns true when the run stopped (liquidation, capital, halt).
 *
 * The metrics are locals (registers): read from the checkpoint `m` at the start, written back at
 * the end and, when the strategy (or a fill callback, or an invalid intent) throws, in the catch
 * that rethrows to `runBacktest`. Written through to `m` at every change instead, they cost two
 * to three stores per candle (measured: 1.6 ms per million candles for two of them).
 *
 * The broker figures the inline path needs (trigger bounds, floating-PnL line, balance, exposure)
 * are cached in locals and re-read only after a call that can change the broker (the candle path,
 * funding, executed intents): between those the broker is not touched, so a quiet candle reads no
 * object field at all.
 */
function simulateChunk(li: LoopInput, st: RunState, from: number, to: number): boolean {
  const strategy = li.strategy;
  const b = li.broker;
  const view = li.view;
  const input = li.input;
  const lastInputIndex = li.lastInputIndex;
  const periods = li.periods;
  const funding = li.funding;
  const inputOffset = li.inputOffset;
  const stride = li.stride;
  const nd = li.decisionCount;
  const time = input.time;
  const high = input.high;
  const low = input.low;
  const close = input.close;
  const barMs = input.intervalMs;
  const usdBase = b.usdBase;
  const curveTime = st.curveTime;
  const curveEquity = st.curveEquity;
  const m = st.checkpoint;
  // Typed-array loads: raw doubles, whatever V8 knows about the caller.
  let peak = m[3];
  let maxDrawdown = m[5];
  let drawdownAmount = m[6];
  let exposedBars = m[8] | 0;
  let maxFloatingProfit = m[9];
  let maxFloatingLoss = m[10];
  let bars = from;
  let d = m[1] | 0;
  const out: Intent[] = [];
  let nextDecisionEnd = d < nd ? (lastInputIndex === null ? d : lastInputIndex[d]) : -1;
  // First multiple of `stride` at or after `from` (integer arithmetic: no fractional quotient).
  const rest = from % stride;
  let nextSample = li.recordEquity ? (rest === 0 ? from : from + stride - rest) : -1;
  let nextPeriod = periods.dayEnd < periods.monthEnd ? periods.dayEnd : periods.monthEnd;
  let stopped = false;
  // Broker state cache (see above).
  if (b.dirty) b.reindex();
  let upMin = b.upMin;
  let downMax = b.downMax;
  let slope = b.floatSlope;
  let intercept = b.floatIntercept;
  let balance = b.balance;
  let holding = b.longQty + b.shortQty > 0;
  try {
    for (let i = from; i < to; i++) {
      const t = time[i];
      if (t >= nextPeriod) {
        // The equity at the previous candle's close.
        if (t >= periods.dayEnd) periods.onDay(t, m[2]);
        if (t >= periods.monthEnd) periods.onMonth(t, m[2]);
        nextPeriod = periods.dayEnd < periods.monthEnd ? periods.dayEnd : periods.monthEnd;
      }
      const h = high[i];
      const l = low[i];
      const c = close[i];
      let exposed: boolean;
      let equity: number;
      let halted = false;
      let changed = false;
      if (h < upMin && l > downMax) {
        // Nothing can fire in this candle: floating PnL at the extremes and the close, inline.
        exposed = holding;
        if (holding) {
          let fl = slope * l + intercept;
          let fh = slope * h + intercept;
          let fc = slope * c + intercept;
          if (usdBase) {
            fl /= l;
            fh /= h;
            fc /= c;
          }
          if (fl > fh) {
            const x = fl;
            fl = fh;
            fh = x;
          }
          if (fl < maxFloatingLoss) maxFloatingLoss = fl;
          if (fh > maxFloatingProfit) maxFloatingProfit = fh;
          equity = balance + fc;
        } else {
          equity = balance;
        }
      } else {
        b.processCandle(input, i);
        changed = true;
        exposed = b.longQty + b.shortQty > 0;
        // A call's result is a tagged value: through the Float64Array it reaches the local as a raw double.
        if (b.stopCode !== 0) {
          stopped = true;
          m[11] = b.equityAt(b.lastPrice);
        } else {
          m[11] = exposed ? b.equityAt(c) : b.balance;
        }
        equity = m[11];
        halted = st.haltReason !== null;
      }
      if (funding !== null && exposed && !stopped) {
        const rate = funding[inputOffset + i];
        if (rate === rate && rate !== 0) {
          b.applyFunding(rate, c);
          m[11] = b.equityAt(c);
          equity = m[11];
          changed = true;
        }
      }
      bars++;
      if (exposed) exposedBars++;
      // Equity and the time of the last peak go through the checkpoint array, not loop-carried
      // locals: on V8's on-stack-replacement code (which the engine can end up on, see `simulate`)
      // a double assigned to a loop-carried local at every candle is a heap number per candle.
      m[2] = equity;
      if (equity >= peak) {
        if (equity > peak) peak = equity;
        m[4] = t;
      } else {
        const amount = peak - equity;
        if (amount > drawdownAmount) drawdownAmount = amount;
        if (amount > maxDrawdown * peak) maxDrawdown = amount / peak;
        const under = t + barMs - m[4];
        if (under > m[7]) m[7] = under;
      }
      if (i === nextSample) {
        nextSample += stride;
        const k = st.curveCount++;
        curveTime[k] = t;
        curveEquity[k] = equity;
      }
      if (stopped || halted) {
        stopped = true;
        break;
      }
      if (i === nextDecisionEnd) {
        view.index = d;
        strategy.onCandle(view, out);
        if (out.length > 0) {
          b.cur = c;
          const hr = executeIntents(out, b);
          if (hr !== null) st.haltReason = hr;
          // A halt comes from these intents or from a fill they caused (one during the candle's path
          // has already ended the loop above).
          if (st.haltReason !== null) {
            d++;
            stopped = true;
            break;
          }
          changed = true;
        }
        d++;
        nextDecisionEnd = d < nd ? (lastInputIndex === null ? d : lastInputIndex[d]) : -1;
      }
      if (changed) {
        if (b.dirty) b.reindex();
        upMin = b.upMin;
        downMax = b.downMax;
        slope = b.floatSlope;
        intercept = b.floatIntercept;
        balance = b.balance;
        holding = b.longQty + b.shortQty > 0;
      }
    }
  } catch (e) {
    // The metrics as they were when the strategy (or a fill callback) threw, for the report.
    m[0] = bars;
    m[1] = d;
    m[3] = peak;
    m[5] = maxDrawdown;
    m[6] = drawdownAmount;
    m[8] = exposedBars;
    m[9] = maxFloatingProfit;
    m[10] = maxFloatingLoss;
    throw e;
  }
  m[0] = bars;
  m[1] = d;
  m[3] = peak;
  m[5] = maxDrawdown;
  m[6] = drawdownAmount;
  m[8] = exposedBars;
  m[9] = maxFloatingProfit;
  m[10] = maxFloatingLoss;
  return stopped;
}

/** Runs a strategy over historical candles and returns the report. Pure and deterministic. */
export function runBacktest(strategy: Strategy, config: BacktestConfig): BacktestReport {
  const inst = config.instrument;
  const { input, inputOffset, decision, lastInputIndex } = prepareCandles(config);
  const broker = new SimulatedBroker({
    instrument: inst,
    capital: config.capital,
    leverage: config.leverage,
    makerFee: config.makerFee,
    takerFee: config.takerFee,
    spreadPoints: config.spreadPoints,
    slippagePoints: config.slippagePoints,
    recordFills: config.recordFills,
  });
  const periods = new PeriodReturns({
    capital: config.capital,
    offsetMs: (config.utcOffsetMinutes ?? 0) * 60_000,
  });
  const view = new KernelView(
    broker,
    decision,
    inst,
    broker.tickets,
    broker.pending,
    config.leverage,
    config.ai ?? null,
    config.utcOffsetMinutes ?? 0,
    config.capital,
  );
  const st = new RunState(config.capital);
  if (strategy.onFill) {
    const onFill = strategy.onFill.bind(strategy);
    broker.setFillListener((fill: Fill) => {
      view.fillMark = broker.lastPrice;
      // A fresh array per callback: fills can nest (a market order placed here fills at once).
      const out: Intent[] = [];
      onFill(fill, view, out);
      view.fillMark = NaN;
      if (out.length > 0) {
        const h = executeIntents(out, broker);
        if (h !== null) st.haltReason = h;
      }
    });
  }
  const n = input.length;
  const recordEquity = config.recordEquity ?? true;
  try {
    simulate(
      {
        strategy,
        broker,
        view,
        input,
        lastInputIndex,
        decisionCount: decision.length,
        periods,
        funding: config.fundingRates ?? null,
        inputOffset,
        recordEquity,
        stride: Math.max(1, Math.ceil(n / Math.max(1, (config.maxEquityPoints ?? 2000) - 2))),
      },
      st,
    );
  } catch (e) {
    // The strategy (or a fill callback) threw: the metrics up to that point are in the checkpoint.
    st.restore();
    fail(st, e);
  }
  st.maxFloatingProfit = Math.max(st.maxFloatingProfit, broker.maxFloatingProfit);
  st.maxFloatingLoss = Math.min(st.maxFloatingLoss, broker.maxFloatingLoss);
  return buildReport(config, broker, periods, st, input, decision);
}

function buildReport(
  config: BacktestConfig,
  broker: SimulatedBroker,
  periods: PeriodReturns,
  st: RunState,
  input: Candles,
  decision: Candles,
): BacktestReport {
  const inst = config.instrument;
  let status = st.status;
  let statusReason = st.statusReason;
  if (broker.stopCode !== 0) {
    status = broker.stopCode;
    statusReason = broker.stopReason;
  } else if (st.haltReason !== null && status === RunStatus.success) {
    statusReason = `halted: ${st.haltReason}`;
  }
  const bars = st.bars;
  const barMs = input.intervalMs;
  const lastTime = bars > 0 ? input.time[bars - 1] : NaN;
  const finalEquity = st.lastEquity;
  const curve: EquityPoint[] = [];
  for (let k = 0; k < st.curveCount; k++) curve.push({ time: st.curveTime[k], equity: st.curveEquity[k] });
  if ((config.recordEquity ?? true) && bars > 0 && curve[curve.length - 1]?.time !== lastTime) {
    curve.push({ time: lastTime, equity: finalEquity });
  }
  const durationMs = bars > 0 ? lastTime + barMs - input.time[0] : 0;
  const ratios = periods.finish(
    finalEquity,
    durationMs,
    st.maxDrawdown,
    inst.market === 'crypto' ? 365 : 252,
  );
  const md = moneyDigits(inst);
  const money = (x: number) => roundMoney(x, md);
  const wins = broker.wins;
  const losses = broker.losses;
  const meanWin = wins > 0 ? broker.grossProfit / wins : 0;
  const meanLoss = losses > 0 ? broker.grossLoss / losses : 0;
  const tradeCount = broker.tradeCount;
  // Trade and fill records are rounded by the broker when recorded; the broker keeps them as
  // columns and builds the objects when the report's `trades` / `fills` are first read.
  return {
    status,
    statusReason,
    symbol: inst.symbol,
    intervalMs: decision.intervalMs,
    inputIntervalMs: barMs,
    fromMs: bars > 0 ? input.time[0] : (config.fromMs ?? NaN),
    toMs: bars > 0 ? lastTime + barMs : (config.toMs ?? NaN),
    candleCount: bars,
    decisionCount: st.decisions,
    capital: config.capital,
    finalEquity: money(finalEquity),
    totalReturn: (finalEquity - config.capital) / config.capital,
    realisedPnl: money(broker.realised),
    floatingPnl: money(finalEquity - broker.balance),
    tradeCount,
    winRate: tradeCount > 0 ? wins / tradeCount : 0,
    maxDrawdown: st.maxDrawdown,
    drawdownAmount: money(st.drawdownAmount),
    maxFloatingLoss: money(st.maxFloatingLoss),
    maxFloatingProfit: money(st.maxFloatingProfit),
    riskReward: meanLoss > 0 ? meanWin / meanLoss : wins > 0 ? Infinity : 0,
    totalFees: money(broker.fees),
    totalFunding: money(broker.funding),
    annualisedReturn: ratios.annualisedReturn,
    sharpe: ratios.sharpe,
    sortino: ratios.sortino,
    calmar: ratios.calmar,
    profitFactor:
      broker.grossLoss > 0
        ? broker.grossProfit / broker.grossLoss
        : broker.grossProfit > 0
          ? Infinity
          : 0,
    expectancy: money(tradeCount > 0 ? (broker.grossProfit - broker.grossLoss) / tradeCount : 0),
    exposureTime: bars > 0 ? st.exposedBars / bars : 0,
    longestDrawdownMs: st.longestDrawdownMs,
    monthlyReturns: periods.monthly,
    equity: curve.map((p) => ({ time: p.time, equity: money(p.equity) })),
    get trades(): readonly TradeRecord[] {
      return broker.trades;
    },
    get fills(): readonly Fill[] {
      return broker.fills;
    },
    openTickets: broker.openTickets(),
  };
}

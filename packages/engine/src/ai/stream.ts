// The AI indicator one decision candle at a time (live and paper robots): the same features, the
// same walk-forward retrain bars, the same seeded row sampling and the same model as
// `computeAiSignal`, so the streamed signal equals the batch signal bit for bit at every index.
// Cost per candle: the features of the new row (O(1)) and one dot product; a fit (bounded by
// `maxTrainRows`) only at a retrain bar.
import { Matrix } from 'ml-matrix';
import type { AiSignal } from '../types';
import { mixSeed } from '../optimize/random';
import { FEATURE_COUNT, FEATURE_WARMUP } from './features';
import { binaryClassifier, DEFAULT_AI_OPTIONS, fillRow, sampleRows, standardization, WEEK_MS, type AiOptions } from './indicator';

// Must match features.ts (checked bit for bit by the stream test).
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const RETURN_LAGS = [1, 3, 6, 12, 24] as const;
const RSI_PERIOD = 14;
const ATR_PERIOD = 14;
const FAST_EMA = 20;
const SLOW_EMA = 50;
const BB_PERIOD = 20;
const BB_DEV = 2;
const VOLUME_PERIOD = 20;
const FAST_ALPHA = 2 / (FAST_EMA + 1);
const SLOW_ALPHA = 2 / (SLOW_EMA + 1);

/** One decision candle (open time in ms UTC). */
export interface AiCandle {
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

type Classifier = ReturnType<typeof binaryClassifier>;

function grown(a: Float64Array, n: number, fill: number): Float64Array {
  const b = new Float64Array(n);
  if (fill !== 0) b.fill(fill, a.length);
  b.set(a);
  return b;
}

/** An AiSignal over rows [origin, …) of a stream: index 0 is the stream's row `origin`. */
class AiWindow implements AiSignal {
  private gen = -1;
  private s: Float64Array = new Float64Array(0);
  private p: Float64Array = new Float64Array(0);
  constructor(
    private readonly stream: AiStream,
    readonly origin: number,
  ) {}
  private refresh(): void {
    const st = this.stream;
    if (this.gen === st.generation) return;
    this.gen = st.generation;
    this.s = st.signal.subarray(this.origin);
    this.p = st.probabilityUp.subarray(this.origin);
  }
  get signal(): Float64Array {
    this.refresh();
    return this.s;
  }
  get probabilityUp(): Float64Array {
    this.refresh();
    return this.p;
  }
}

/**
 * Incremental `computeAiSignal`: `push` one closed decision candle, read its signal at the returned
 * index. Rows not predicted yet (before the first model, or not pushed) are NaN.
 */
export class AiStream {
  /** Rows pushed. */
  length = 0;
  /** Bumped whenever the column buffers are reallocated (views re-slice). */
  generation = 0;
  /** Aligned with the pushed candles; capacity beyond `length` is NaN. */
  signal: Float64Array;
  probabilityUp: Float64Array;
  /** First row with a prediction (50 + minTrain + horizon). */
  readonly first: number;
  readonly retrain: number;
  private readonly o: Required<AiOptions>;
  private close: Float64Array;
  private volume: Float64Array;
  private features: Float64Array;
  // Feature state (as computeFeatures' loop).
  private emaFast = 0;
  private emaSlow = 0;
  private avgGain = 0;
  private avgLoss = 0;
  private atr = 0;
  private bbSum = 0;
  private bbSumSq = 0;
  private volSum = 0;
  private volSumSq = 0;
  // The model of the current walk-forward block.
  private model: Classifier | null = null;
  private readonly mean = new Float64Array(FEATURE_COUNT);
  private readonly scale = new Float64Array(FEATURE_COUNT);
  private readonly row = new Matrix(1, FEATURE_COUNT + 1);
  private nextFit: number;

  constructor(
    readonly intervalMs: number,
    options: AiOptions = {},
    capacity = 1024,
  ) {
    const retrain = options.retrain || Math.max(500, Math.ceil(WEEK_MS / intervalMs));
    const o: Required<AiOptions> = { ...DEFAULT_AI_OPTIONS, ...options, retrain };
    if (!(o.horizon >= 1 && o.retrain >= 1 && o.minTrain >= 10)) throw new Error('AI indicator: horizon ≥ 1, retrain ≥ 1, minTrain ≥ 10');
    this.o = o;
    this.retrain = o.retrain;
    this.first = FEATURE_WARMUP + o.minTrain + o.horizon;
    this.nextFit = this.first;
    this.close = new Float64Array(capacity);
    this.volume = new Float64Array(capacity);
    this.features = new Float64Array(capacity * FEATURE_COUNT).fill(NaN);
    this.signal = new Float64Array(capacity).fill(NaN);
    this.probabilityUp = new Float64Array(capacity).fill(NaN);
  }

  /** The signal as seen from row `origin` on (a robot's first decision candle after the warm-up rows). */
  view(origin: number = this.length): AiSignal {
    return new AiWindow(this, origin);
  }

  /** Appends one closed decision candle; returns its row. Its signal is final once pushed. */
  push(c: AiCandle): number {
    const i = this.length;
    if (i === this.close.length) this.grow();
    this.close[i] = c.close;
    this.volume[i] = c.volume;
    this.length = i + 1;
    this.featuresAt(i, c);
    const o = this.o;
    if (i === this.nextFit) {
      this.fit(i);
      this.nextFit = i + o.retrain;
    }
    const m = this.model;
    if (m !== null) {
      fillRow(this.row, 0, this.features, i, this.mean, this.scale);
      const p = m.testScores(this.row)[0];
      this.probabilityUp[i] = p;
      this.signal[i] = p > 0.5 + o.margin ? 1 : p < 0.5 - o.margin ? -1 : 0;
    }
    return i;
  }

  private grow(): void {
    const n = this.close.length * 2;
    this.close = grown(this.close, n, 0);
    this.volume = grown(this.volume, n, 0);
    this.features = grown(this.features, n * FEATURE_COUNT, NaN);
    this.signal = grown(this.signal, n, NaN);
    this.probabilityUp = grown(this.probabilityUp, n, NaN);
    this.generation++;
  }

  /** computeAiSignal's fit at retrain bar t0: rows i + horizon ≤ t0, seeded sample, standardized. */
  private fit(t0: number): void {
    const o = this.o;
    const k = FEATURE_COUNT;
    const close = this.close;
    const rows = sampleRows(FEATURE_WARMUP, t0 - o.horizon, o.maxTrainRows, mixSeed(o.seed, t0));
    standardization(this.features, rows, this.mean, this.scale);
    const x = new Matrix(rows.length, k + 1);
    const y = new Matrix(rows.length, 1);
    rows.forEach((r, j) => {
      fillRow(x, j, this.features, r, this.mean, this.scale);
      y.set(j, 0, close[r + o.horizon] > close[r] ? 1 : 0);
    });
    const model = binaryClassifier(o.numSteps, o.learningRate / rows.length);
    model.train(x, y);
    this.model = model;
  }

  /** Row i of computeFeatures, from the running state (the same operations in the same order). */
  private featuresAt(i: number, c: AiCandle): void {
    const close = this.close;
    const volume = this.volume;
    const price = c.close;
    if (i === 0) {
      this.emaFast = price;
      this.emaSlow = price;
    } else {
      const prev = close[i - 1];
      const change = price - prev;
      const tr = Math.max(c.high - c.low, Math.abs(c.high - prev), Math.abs(c.low - prev));
      const w = i < RSI_PERIOD ? 1 / i : 1 / RSI_PERIOD;
      this.avgGain += (Math.max(change, 0) - this.avgGain) * w;
      this.avgLoss += (Math.max(-change, 0) - this.avgLoss) * w;
      const wa = i < ATR_PERIOD ? 1 / i : 1 / ATR_PERIOD;
      this.atr += (tr - this.atr) * wa;
      this.emaFast += (price - this.emaFast) * FAST_ALPHA;
      this.emaSlow += (price - this.emaSlow) * SLOW_ALPHA;
    }
    this.bbSum += price;
    this.bbSumSq += price * price;
    this.volSum += volume[i];
    this.volSumSq += volume[i] * volume[i];
    if (i >= BB_PERIOD) {
      const old = close[i - BB_PERIOD];
      this.bbSum -= old;
      this.bbSumSq -= old * old;
    }
    if (i >= VOLUME_PERIOD) {
      const old = volume[i - VOLUME_PERIOD];
      this.volSum -= old;
      this.volSumSq -= old * old;
    }
    if (i < FEATURE_WARMUP) return;
    const out = this.features;
    const row = i * FEATURE_COUNT;
    const atr = this.atr;
    const relAtr = atr > 0 ? atr / price : 1e-12;
    let j = 0;
    for (const lag of RETURN_LAGS) out[row + j++] = clampFeature(Math.log(price / close[i - lag]) / (relAtr * Math.sqrt(lag)));
    const rs = this.avgLoss > 0 ? this.avgGain / this.avgLoss : this.avgGain > 0 ? Infinity : 1;
    const rsi = 100 - 100 / (1 + rs);
    out[row + j++] = clampFeature((rsi - 50) / 50);
    const safeAtr = atr > 0 ? atr : 1e-12;
    out[row + j++] = clampFeature((price - this.emaFast) / safeAtr);
    out[row + j++] = clampFeature((price - this.emaSlow) / safeAtr);
    const mean = this.bbSum / BB_PERIOD;
    const sd = Math.sqrt(Math.max(this.bbSumSq / BB_PERIOD - mean * mean, 0));
    out[row + j++] = sd > 0 ? clampFeature((price - (mean - BB_DEV * sd)) / (2 * BB_DEV * sd)) : 0.5;
    const vMean = this.volSum / VOLUME_PERIOD;
    const vSd = Math.sqrt(Math.max(this.volSumSq / VOLUME_PERIOD - vMean * vMean, 0));
    out[row + j++] = vSd > 0 ? clampFeature((volume[i] - vMean) / vSd) : 0;
    const hour = (((c.time % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
    out[row + j++] = clampFeature(Math.sin((2 * Math.PI * hour) / 24));
    out[row + j++] = clampFeature(Math.cos((2 * Math.PI * hour) / 24));
  }
}

/** As features.ts (idempotent, so clamping once per row equals its clamp-then-clamp-all). */
function clampFeature(x: number): number {
  if (Number.isNaN(x)) return 0;
  return x > 20 ? 20 : x < -20 ? -20 : x;
}

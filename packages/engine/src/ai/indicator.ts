// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the package ships no types; ours travel with this file
/// <reference path="./ml-logistic-regression.d.ts" />
// The AI indicator: walk-forward logistic regression (ml-logistic-regression) predicting the sign
// of the return over the next `horizon` bars. Pure and deterministic for a seed.
import LogisticRegression from 'ml-logistic-regression';
import { Matrix } from 'ml-matrix';
import type { AiSignal, Candles } from '../types';
import { mixSeed, mulberry32 } from '../optimize/random';
import { computeFeatures, FEATURE_COUNT, FEATURE_WARMUP } from './features';

export interface AiOptions {
  /** Bars ahead whose return sign is predicted (default 12). */
  readonly horizon?: number;
  /** Retrain every this many bars (default: 500 or one week of bars, whichever is more). */
  readonly retrain?: number;
  /** Labelled rows needed before the first prediction (default 500). */
  readonly minTrain?: number;
  /** Dead zone around 0.5: long above 0.5 + margin, short below 0.5 − margin (default 0.02). */
  readonly margin?: number;
  /** Seed of the training-row sampling (default 1). */
  readonly seed?: number;
  /**
   * The window expands over the whole past; beyond this many rows a seeded stratified sample of it
   * is fitted so a retrain costs the same on year 3 as on month 3 (default 2000).
   */
  readonly maxTrainRows?: number;
  /** Gradient steps per fit (default 30) and step size per row (default 0.5). */
  readonly numSteps?: number;
  readonly learningRate?: number;
}

export interface AiResult {
  /** Aligned with the input candles; NaN before the first trained model. */
  readonly signal: AiSignal;
  /**
   * Out-of-sample hit rate: among bars with a non-zero signal whose horizon has completed, the
   * fraction where the close `horizon` bars later moved in the signalled direction (ties miss).
   */
  readonly hitRate: number;
  /** Fraction of up moves among all predicted bars whose horizon has completed. */
  readonly baseRate: number;
  /** Number of directional predictions scored in `hitRate`. */
  readonly predictions: number;
  /** First bar with a prediction. */
  readonly firstPredictionIndex: number;
}

export const WEEK_MS = 7 * 86_400_000;

export const DEFAULT_AI_OPTIONS = {
  horizon: 12,
  retrain: 0,
  minTrain: 500,
  margin: 0.02,
  seed: 1,
  maxTrainRows: 2000,
  numSteps: 30,
  learningRate: 0.5,
} as const;

/**
 * Walk-forward: the model used for bar t was fitted at a retrain bar t0 ≤ t on rows i whose label
 * close[i + horizon] is known at t0's close (i + horizon ≤ t0). Retrain bars are fixed offsets from
 * the first bar, so cutting the data at T never changes a signal before T.
 */
/** `onProgress`: after each retrain block, the candles computed so far (no effect on the signal). */
export function computeAiSignal(candles: Candles, options: AiOptions = {}, onProgress?: (done: number, total: number) => void): AiResult {
  const o = { ...DEFAULT_AI_OPTIONS, ...options };
  // Depends on the interval only (never on the data length) so cutting the data keeps the schedule.
  if (!options.retrain) o.retrain = Math.max(500, Math.ceil(WEEK_MS / candles.intervalMs));
  if (!(o.horizon >= 1 && o.retrain >= 1 && o.minTrain >= 10)) throw new Error('AI indicator: horizon ≥ 1, retrain ≥ 1, minTrain ≥ 10');
  const n = candles.length;
  const close = candles.close;
  const signal = new Float64Array(n).fill(NaN);
  const probabilityUp = new Float64Array(n).fill(NaN);
  const first = FEATURE_WARMUP + o.minTrain + o.horizon;
  const features = n > first ? computeFeatures(candles) : new Float64Array(0);
  const k = FEATURE_COUNT;
  const mean = new Float64Array(k);
  const scale = new Float64Array(k);

  for (let t0 = first; t0 < n; t0 += o.retrain) {
    const lastRow = t0 - o.horizon;
    const rows = sampleRows(FEATURE_WARMUP, lastRow, o.maxTrainRows, mixSeed(o.seed, t0));
    standardization(features, rows, mean, scale);
    const x = new Matrix(rows.length, k + 1);
    const y = new Matrix(rows.length, 1);
    rows.forEach((r, j) => {
      fillRow(x, j, features, r, mean, scale);
      y.set(j, 0, close[r + o.horizon] > close[r] ? 1 : 0);
    });
    const upClassifier = binaryClassifier(o.numSteps, o.learningRate / rows.length);
    upClassifier.train(x, y);
    const end = Math.min(t0 + o.retrain, n);
    const block = new Matrix(end - t0, k + 1);
    for (let t = t0; t < end; t++) fillRow(block, t - t0, features, t, mean, scale);
    const scores = upClassifier.testScores(block);
    for (let t = t0; t < end; t++) {
      const p = scores[t - t0];
      probabilityUp[t] = p;
      signal[t] = p > 0.5 + o.margin ? 1 : p < 0.5 - o.margin ? -1 : 0;
    }
    onProgress?.(end, n);
  }

  const score = scoreAiSignal(close, signal, o.horizon, first, n);
  return {
    signal: { signal, probabilityUp },
    ...score,
    firstPredictionIndex: Math.min(first, n),
  };
}

/**
 * The library's one-vs-all `train` fits one classifier per class, i.e. the same binary problem twice;
 * loading a one-class model gives its binary logistic regression alone, whose score is P(label = 1).
 */
export function binaryClassifier(numSteps: number, learningRate: number) {
  const model = LogisticRegression.load({
    name: 'LogisticRegression',
    numSteps,
    learningRate,
    numberClasses: 1,
    classifiers: [{ numSteps, learningRate, weights: null }],
  });
  return model.classifiers[0];
}

/** Rows from..to inclusive, or a seeded stratified sample of `max` of them. */
export function sampleRows(from: number, to: number, max: number, seed: number): number[] {
  const count = to - from + 1;
  if (count <= max) return Array.from({ length: count }, (_, j) => from + j);
  const random = mulberry32(seed);
  const stride = count / max;
  return Array.from({ length: max }, (_, j) => from + Math.floor((j + random()) * stride));
}

export function standardization(features: Float64Array, rows: readonly number[], mean: Float64Array, scale: Float64Array): void {
  const k = FEATURE_COUNT;
  mean.fill(0);
  scale.fill(0);
  for (const r of rows) for (let f = 0; f < k; f++) mean[f] += features[r * k + f];
  for (let f = 0; f < k; f++) mean[f] /= rows.length;
  for (const r of rows) {
    for (let f = 0; f < k; f++) {
      const d = features[r * k + f] - mean[f];
      scale[f] += d * d;
    }
  }
  for (let f = 0; f < k; f++) {
    const sd = Math.sqrt(scale[f] / rows.length);
    scale[f] = sd > 1e-12 ? 1 / sd : 0;
  }
}

/** Standardized features plus a constant 1 (the library fits no intercept of its own). */
export function fillRow(m: Matrix, j: number, features: Float64Array, r: number, mean: Float64Array, scale: Float64Array): void {
  const k = FEATURE_COUNT;
  for (let f = 0; f < k; f++) m.set(j, f, (features[r * k + f] - mean[f]) * scale[f]);
  m.set(j, k, 1);
}

export interface AiScore {
  readonly hitRate: number;
  readonly baseRate: number;
  readonly predictions: number;
}

/**
 * Hit rate and base rate of a signal over bars [from, to) whose horizon ends inside the data
 * (e.g. the in-sample or the out-of-sample part of a recommendation). NaN when nothing is scored.
 */
export function scoreAiSignal(close: Float64Array, signal: Float64Array, horizon: number, from: number, to: number): AiScore {
  let hits = 0;
  let predictions = 0;
  let ups = 0;
  let scored = 0;
  const end = Math.min(to, close.length - horizon, signal.length);
  for (let t = Math.max(from, 0); t < end; t++) {
    if (Number.isNaN(signal[t])) continue;
    const move = close[t + horizon] - close[t];
    scored++;
    if (move > 0) ups++;
    if (signal[t] === 0) continue;
    predictions++;
    if (move * signal[t] > 0) hits++;
  }
  return { hitRate: predictions > 0 ? hits / predictions : NaN, baseRate: scored > 0 ? ups / scored : NaN, predictions };
}

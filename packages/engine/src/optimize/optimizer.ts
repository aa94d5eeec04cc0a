// Recommended parameters: seeded exploration + local refinement scored in-sample, the best
// validated out-of-sample (walk-forward), three presets picked among the survivors.
// Pure: candidates are evaluated through the `evaluate` port (a thread pool in production).
import { mulberry32, mixSeed } from './random';
import { latinHypercube, perturb } from './sampling';
import { checkSpace, paramsAt, paramsKey, type ParamSpace, type Params } from './space';

/** The figures of a backtest the search needs (a subset of BacktestReport). */
export interface CandidateMetrics {
  readonly status: number;
  readonly totalReturn: number;
  readonly maxDrawdown: number;
  readonly winRate: number;
  readonly tradeCount: number;
  readonly sharpe: number;
  /** Set when the candidate could not run (e.g. a size below the instrument's minimum). */
  readonly error?: string;
}

/** In-sample = the earlier part of the range, out-of-sample = the later part. */
export type Segment = 'inSample' | 'outOfSample';
export interface EvaluationRequest {
  readonly params: Params;
  readonly segment: Segment;
}
/** Runs a batch of backtests; results in request order. */
export type EvaluateBatch = (batch: readonly EvaluationRequest[]) => Promise<readonly CandidateMetrics[]>;

export type Rejection = 'liquidated' | 'insufficientCapital' | 'tooFewTrades' | 'error';

export interface Candidate {
  readonly params: Params;
  readonly inSample: CandidateMetrics;
  readonly score: number;
  readonly rejection: Rejection | null;
  outOfSample: CandidateMetrics | null;
  outOfSampleScore: number | null;
}

export type PresetTier = 'conservative' | 'balanced' | 'aggressive';
export interface Preset {
  readonly tier: PresetTier;
  readonly params: Params;
  readonly inSample: CandidateMetrics;
  readonly outOfSample: CandidateMetrics;
  readonly score: number;
  readonly outOfSampleScore: number;
  /** False when no candidate survived out-of-sample and this one is shown anyway (it liquidated there). */
  readonly validated: boolean;
}

export interface OptimizeOptions {
  readonly space: ParamSpace;
  /** In-sample candidate backtests to spend (exploration + refinement). */
  readonly budget: number;
  readonly seed: number;
  /** Fewer in-sample trades than this rejects a candidate (default 5). */
  readonly minTrades?: number;
  /** Share of the budget spent on the Latin hypercube (default 0.6); the rest refines. */
  readonly exploreFraction?: number;
  /** Candidates per `evaluate` call (default 32): enough to keep every pool thread busy. */
  readonly batchSize?: number;
  /** Candidates validated out-of-sample (default: a fifth of the budget, 6–24). */
  readonly validateCount?: number;
  /** 0–100, non-decreasing, ends at 100. */
  readonly onProgress?: (percent: number) => void;
}

export interface OptimizeResult {
  readonly presets: readonly Preset[];
  readonly evaluated: number;
  readonly accepted: number;
  readonly rejected: Readonly<Record<Rejection, number>>;
  readonly validated: number;
  /** Accepted candidates, best in-sample score first. */
  readonly candidates: readonly Candidate[];
}

const DRAWDOWN_FLOOR = 0.02;

/**
 * Risk-adjusted score: return per unit of max drawdown (a Calmar ratio over the segment), the
 * drawdown floored at 2 % so a near-flat run cannot score on a tiny return, and shrunk toward 0 by
 * tradeCount / (tradeCount + minTrades) so a few lucky trades do not beat a steady record.
 */
export function riskAdjustedScore(m: CandidateMetrics, minTrades: number): number {
  if (m.error !== undefined || !Number.isFinite(m.totalReturn)) return -Infinity;
  const drawdown = Math.max(Number.isFinite(m.maxDrawdown) ? m.maxDrawdown : 1, DRAWDOWN_FLOOR);
  return (m.totalReturn / drawdown) * (m.tradeCount / (m.tradeCount + Math.max(minTrades, 1)));
}

export function rejectionOf(m: CandidateMetrics, minTrades: number): Rejection | null {
  if (m.error !== undefined || !Number.isFinite(m.totalReturn)) return 'error';
  if (m.status === 4) return 'liquidated';
  if (m.status === 5) return 'insufficientCapital';
  if (m.tradeCount < minTrades) return 'tooFewTrades';
  return null;
}

export async function optimize(options: OptimizeOptions, evaluate: EvaluateBatch): Promise<OptimizeResult> {
  const { space, seed } = options;
  checkSpace(space);
  const budget = Math.max(1, Math.floor(options.budget));
  const minTrades = options.minTrades ?? 5;
  const batchSize = Math.max(1, options.batchSize ?? 32);
  const validateCount = options.validateCount ?? Math.min(24, Math.max(6, Math.round(budget / 5)));
  const categorical = space.map((p) => p.kind === 'choice');
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  const rejected: Record<Rejection, number> = { liquidated: 0, insufficientCapital: 0, tooFewTrades: 0, error: 0 };

  const plannedTotal = budget + Math.min(validateCount, budget);
  let done = 0;
  let lastPercent = -1;
  const progress = (percent: number) => {
    const p = Math.min(100, Math.max(lastPercent, Math.floor(percent)));
    if (p !== lastPercent) {
      lastPercent = p;
      options.onProgress?.(p);
    }
  };
  progress(0);

  const runInSample = async (points: readonly number[][]) => {
    const fresh: Params[] = [];
    for (const point of points) {
      const params = paramsAt(space, point);
      const key = paramsKey(space, params);
      if (seen.has(key)) continue;
      seen.add(key);
      fresh.push(params);
    }
    // Every chunk is submitted at once so the pool never idles between chunks; results are
    // consumed in submission order, which keeps the run deterministic.
    const chunks = chunked(fresh, batchSize);
    const pending = chunks.map((batch) => evaluate(batch.map((params) => ({ params, segment: 'inSample' as const }))));
    for (let c = 0; c < chunks.length; c++) {
      const results = await pending[c];
      chunks[c].forEach((params, j) => {
        const inSample = results[j];
        const rejection = rejectionOf(inSample, minTrades);
        if (rejection) rejected[rejection]++;
        candidates.push({ params, inSample, score: riskAdjustedScore(inSample, minTrades), rejection, outOfSample: null, outOfSampleScore: null });
      });
      done += chunks[c].length;
      progress((done / plannedTotal) * 100);
    }
    return fresh.length;
  };

  // Exploration: a Latin hypercube covers every parameter's range evenly even with few points.
  const exploreCount = Math.max(1, Math.min(budget, Math.round(budget * (options.exploreFraction ?? 0.6))));
  await runInSample(latinHypercube(exploreCount, space.length, mulberry32(mixSeed(seed, 1))));

  // Refinement: perturb the best candidates with a shrinking step until the budget is spent.
  const refineRandom = mulberry32(mixSeed(seed, 2));
  const pointOf = new Map<Params, number[]>();
  const unitPoint = (params: Params): number[] => {
    let point = pointOf.get(params);
    if (!point) {
      point = space.map((p) => unitCoordinate(p, params[p.name]));
      pointOf.set(params, point);
    }
    return point;
  };
  for (let stale = 0; candidates.length < budget && stale < 3; ) {
    const remaining = budget - candidates.length;
    const ranked = rankForRefinement(candidates);
    const elite = ranked.slice(0, Math.min(4, ranked.length));
    if (elite.length === 0) break;
    const sigma = 0.03 + 0.12 * (remaining / budget);
    const points: number[][] = [];
    for (let j = 0; j < Math.min(batchSize, remaining); j++) {
      points.push(perturb(unitPoint(elite[j % elite.length].params), sigma, categorical, refineRandom));
    }
    stale = (await runInSample(points)) === 0 ? stale + 1 : 0;
  }

  // Walk-forward validation on the later, unseen part of the range.
  const accepted = candidates.filter((c) => c.rejection === null).sort((a, b) => b.score - a.score);
  const toValidate = pickForValidation(accepted, validateCount);
  const oosMinTrades = Math.max(1, Math.ceil(minTrades / 2));
  const validationTotal = budget + toValidate.length;
  const validationChunks = chunked(toValidate, batchSize);
  const validations = validationChunks.map((batch) => evaluate(batch.map((c) => ({ params: c.params, segment: 'outOfSample' as const }))));
  let validatedCount = 0;
  for (let c = 0; c < validationChunks.length; c++) {
    const results = await validations[c];
    validationChunks[c].forEach((candidate, j) => {
      candidate.outOfSample = results[j];
      candidate.outOfSampleScore = riskAdjustedScore(results[j], oosMinTrades);
    });
    validatedCount += validationChunks[c].length;
    progress(((budget + validatedCount) / validationTotal) * 100);
  }
  progress(100);
  return {
    presets: choosePresets(toValidate),
    evaluated: candidates.length,
    accepted: accepted.length,
    rejected,
    validated: toValidate.length,
    candidates: accepted,
  };
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Accepted candidates by score; when none is accepted yet, the least bad ones (more trades first). */
function rankForRefinement(candidates: readonly Candidate[]): Candidate[] {
  const accepted = candidates.filter((c) => c.rejection === null);
  if (accepted.length > 0) return accepted.sort((a, b) => b.score - a.score);
  return candidates
    .filter((c) => c.rejection !== 'error')
    .sort((a, b) => b.inSample.tradeCount - a.inSample.tradeCount || b.score - a.score);
}

/** Half by score, a quarter by lowest drawdown, a quarter by highest return: every tier gets candidates. */
function pickForValidation(accepted: readonly Candidate[], count: number): Candidate[] {
  const picked = new Set<Candidate>();
  const take = (list: readonly Candidate[], n: number) => {
    for (const c of list) {
      if (picked.size >= count || n <= 0) break;
      if (!picked.has(c)) {
        picked.add(c);
        n--;
      }
    }
  };
  take(accepted, Math.ceil(count / 2));
  take([...accepted].filter((c) => c.inSample.totalReturn > 0).sort((a, b) => a.inSample.maxDrawdown - b.inSample.maxDrawdown), Math.ceil(count / 4));
  take([...accepted].sort((a, b) => b.inSample.totalReturn - a.inSample.totalReturn), count);
  take(accepted, count);
  return [...picked];
}

const robustScore = (c: Candidate) => (c.score + (c.outOfSampleScore ?? -Infinity)) / 2;

/**
 * conservative: the best mean of in- and out-of-sample score among the third of the survivors
 * with the lowest in-sample drawdown. aggressive: the highest in-sample return among those whose
 * mean score is positive (any, if none is). balanced: the best mean score of the rest.
 * Distinct candidates when there are enough.
 */
export function choosePresets(validated: readonly Candidate[]): Preset[] {
  const survivors = validated.filter((c) => c.outOfSample && rejectionOf(c.outOfSample, 0) === null);
  const pool = survivors.length > 0 ? survivors : validated.filter((c) => c.outOfSample);
  if (pool.length === 0) return [];
  const chosen = new Set<Candidate>();
  const pick = (ordered: readonly Candidate[]): Candidate => {
    const fresh = ordered.find((c) => !chosen.has(c)) ?? ordered[0];
    chosen.add(fresh);
    return fresh;
  };
  // The tiers with a defining extreme pick first; balanced takes the best remaining mean score.
  const byRobust = [...pool].sort((a, b) => robustScore(b) - robustScore(a));
  const lowRisk = [...pool].sort((a, b) => a.inSample.maxDrawdown - b.inSample.maxDrawdown).slice(0, Math.ceil(pool.length / 3));
  const conservative = pick([...lowRisk.sort((a, b) => robustScore(b) - robustScore(a)), ...byRobust]);
  const positive = pool.filter((c) => robustScore(c) > 0);
  const byReturn = [...(positive.length > 0 ? positive : pool)].sort((a, b) => b.inSample.totalReturn - a.inSample.totalReturn);
  const aggressive = pick([...byReturn, ...byRobust]);
  const balanced = pick(byRobust);
  const preset = (tier: PresetTier, c: Candidate): Preset => ({
    tier,
    params: c.params,
    inSample: c.inSample,
    outOfSample: c.outOfSample!,
    score: c.score,
    outOfSampleScore: c.outOfSampleScore!,
    validated: survivors.length > 0,
  });
  return [preset('conservative', conservative), preset('balanced', balanced), preset('aggressive', aggressive)];
}

/** Inverse of `valueAt`: the unit coordinate of a value (the middle of its stratum). */
function unitCoordinate(p: ParamSpace[number], value: Params[string]): number {
  if (p.kind === 'choice') {
    const i = p.choices!.indexOf(value);
    return (Math.max(i, 0) + 0.5) / p.choices!.length;
  }
  const v = Number(value);
  const min = p.min!;
  const max = p.max!;
  if (p.kind === 'int') return (v - min + 0.5) / (max - min + 1);
  if (max === min) return 0.5;
  return p.log ? (Math.log(v) - Math.log(min)) / (Math.log(max) - Math.log(min)) : (v - min) / (max - min);
}

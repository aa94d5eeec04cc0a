import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  choosePresets,
  latinHypercube,
  mulberry32,
  optimize,
  paramsAt,
  riskAdjustedScore,
  valueAt,
  type CandidateMetrics,
  type EvaluationRequest,
  type ParamSpace,
} from '../src/optimize/index';

const space: ParamSpace = [
  { name: 'side', kind: 'choice', choices: ['long', 'short'] },
  { name: 'gap', kind: 'float', min: 0.1, max: 10, log: true },
  { name: 'levels', kind: 'int', min: 1, max: 20 },
];

/**
 * A made-up market: longs beat shorts, the return peaks at gap = 1; more levels mean more return
 * and more drawdown; gap < 0.2 liquidates; fewer than 3 levels trade too rarely.
 * Out-of-sample: the same shape, half the return.
 */
function toyBacktest(r: EvaluationRequest): CandidateMetrics {
  const gap = r.params.gap as number;
  const levels = r.params.levels as number;
  const edge = (r.params.side === 'long' ? 0.3 : 0.1) - 0.1 * Math.log(gap) ** 2;
  const scale = r.segment === 'inSample' ? 1 : 0.5;
  return {
    status: gap < 0.2 ? 4 : 2,
    totalReturn: edge * levels * 0.05 * scale,
    maxDrawdown: 0.01 * levels + 0.02,
    winRate: 0.5,
    tradeCount: levels < 3 ? 1 : levels * 4,
    sharpe: edge,
  };
}

function recordingEvaluator() {
  const batches: EvaluationRequest[][] = [];
  return {
    batches,
    evaluate: (batch: readonly EvaluationRequest[]) => {
      batches.push([...batch]);
      return Promise.resolve(batch.map(toyBacktest));
    },
  };
}

describe('parameter space', () => {
  it('maps the unit interval onto every kind of parameter within its bounds', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (u) => {
        expect(['long', 'short']).toContain(valueAt(space[0], u));
        const gap = valueAt(space[1], u) as number;
        expect(gap).toBeGreaterThanOrEqual(0.1);
        expect(gap).toBeLessThanOrEqual(10);
        const levels = valueAt(space[2], u) as number;
        expect(Number.isInteger(levels)).toBe(true);
        expect(levels).toBeGreaterThanOrEqual(1);
        expect(levels).toBeLessThanOrEqual(20);
      }),
    );
  });

  it('Latin hypercube puts exactly one point in each stratum of each dimension', () => {
    const points = latinHypercube(20, 3, mulberry32(9));
    for (let d = 0; d < 3; d++) {
      const strata = points.map((p) => Math.floor(p[d] * 20)).sort((a, b) => a - b);
      expect(strata).toEqual(Array.from({ length: 20 }, (_, i) => i));
    }
    expect(paramsAt(space, points[0])).toHaveProperty('gap');
  });
});

describe('optimize', () => {
  it('finds the optimum region, rejects liquidating and quiet candidates, and stays in budget', async () => {
    const { evaluate, batches } = recordingEvaluator();
    const result = await optimize({ space, budget: 120, seed: 42, batchSize: 16 }, evaluate);
    const inSample = batches.flat().filter((r) => r.segment === 'inSample');
    expect(inSample.length).toBeLessThanOrEqual(120);
    expect(result.evaluated).toBe(inSample.length);
    expect(batches.every((b) => b.length <= 16)).toBe(true);
    expect(result.rejected.liquidated).toBeGreaterThan(0);
    expect(result.rejected.tooFewTrades).toBeGreaterThan(0);
    const best = result.candidates[0];
    expect(best.params.side).toBe('long');
    expect(Math.abs(Math.log(best.params.gap as number))).toBeLessThan(0.35);
    expect(result.presets.map((p) => p.tier)).toEqual(['conservative', 'balanced', 'aggressive']);
    for (const preset of result.presets) {
      expect(preset.inSample.status).not.toBe(4);
      expect(preset.inSample.tradeCount).toBeGreaterThanOrEqual(5);
      expect(preset.outOfSample.totalReturn).toBeCloseTo(toyBacktest({ params: preset.params, segment: 'outOfSample' }).totalReturn, 12);
      expect(preset.validated).toBe(true);
    }
    const [conservative, , aggressive] = result.presets;
    expect(conservative.inSample.maxDrawdown).toBeLessThan(aggressive.inSample.maxDrawdown);
    expect(aggressive.inSample.totalReturn).toBeGreaterThan(conservative.inSample.totalReturn);
  });

  it('refinement improves on exploration alone', async () => {
    const exploreOnly = await optimize({ space, budget: 60, seed: 3, exploreFraction: 1 }, recordingEvaluator().evaluate);
    const refined = await optimize({ space, budget: 60, seed: 3, exploreFraction: 0.4 }, recordingEvaluator().evaluate);
    expect(refined.candidates[0].score).toBeGreaterThan(exploreOnly.candidates[0].score);
  });

  it('is deterministic for a seed and reports progress from 0 to 100', async () => {
    const progress: number[] = [];
    const a = await optimize({ space, budget: 50, seed: 7, onProgress: (p) => progress.push(p) }, recordingEvaluator().evaluate);
    const b = await optimize({ space, budget: 50, seed: 7 }, recordingEvaluator().evaluate);
    const c = await optimize({ space, budget: 50, seed: 8 }, recordingEvaluator().evaluate);
    expect(a.presets).toEqual(b.presets);
    expect(a.candidates.map((x) => x.params)).not.toEqual(c.candidates.map((x) => x.params));
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress.every((p, i) => i === 0 || p > progress[i - 1])).toBe(true);
  });

  it('returns no preset when every candidate liquidates', async () => {
    const result = await optimize({ space, budget: 20, seed: 1 }, (batch) =>
      Promise.resolve(batch.map(() => ({ status: 4, totalReturn: -1, maxDrawdown: 1, winRate: 0, tradeCount: 10, sharpe: -1 }))),
    );
    expect(result.presets).toEqual([]);
    expect(result.rejected.liquidated).toBe(result.evaluated);
  });
});

describe('scoring and presets', () => {
  const m = (totalReturn: number, maxDrawdown: number, tradeCount = 50, status = 2): CandidateMetrics => ({
    status,
    totalReturn,
    maxDrawdown,
    winRate: 0.5,
    tradeCount,
    sharpe: 1,
  });

  it('prefers return per unit of drawdown, and many trades over few', () => {
    expect(riskAdjustedScore(m(0.2, 0.1), 5)).toBeGreaterThan(riskAdjustedScore(m(0.3, 0.3), 5));
    expect(riskAdjustedScore(m(0.2, 0.1, 100), 5)).toBeGreaterThan(riskAdjustedScore(m(0.2, 0.1, 6), 5));
    // Drawdown is floored: a tiny return on a flat curve does not win.
    expect(riskAdjustedScore(m(0.01, 0.0001), 5)).toBeLessThan(riskAdjustedScore(m(0.2, 0.1), 5));
  });

  it('skips candidates that liquidate out-of-sample', () => {
    const candidate = (id: number, is: CandidateMetrics, oos: CandidateMetrics) => ({
      params: { id },
      inSample: is,
      score: riskAdjustedScore(is, 5),
      rejection: null,
      outOfSample: oos,
      outOfSampleScore: riskAdjustedScore(oos, 3),
    });
    const presets = choosePresets([
      candidate(1, m(0.9, 0.2), m(0.5, 0.9, 10, 4)),
      candidate(2, m(0.2, 0.05), m(0.1, 0.05)),
      candidate(3, m(0.4, 0.15), m(0.2, 0.1)),
      candidate(4, m(0.6, 0.3), m(0.3, 0.2)),
    ]);
    expect(presets.map((p) => p.params.id)).not.toContain(1);
    expect(presets.find((p) => p.tier === 'conservative')!.params.id).toBe(2);
    expect(presets.find((p) => p.tier === 'aggressive')!.params.id).toBe(4);
  });
});

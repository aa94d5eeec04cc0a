import { describe, expect, it } from 'vitest';
import { getInstrument, type Candles } from '@lq/engine';
import { getStrategy } from '@lq/strategies';
import { computeBacktest, type ProgressStep } from './compute';

/** 1m candles waving ±2 % around 60,000 from 2024-01-01. */
function wave(n: number): Candles {
  const t0 = Date.UTC(2024, 0, 1);
  const price = (i: number) => 60_000 * (1 + 0.02 * Math.sin((2 * Math.PI * i) / 90));
  const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
  return {
    length: n,
    intervalMs: 60_000,
    time: col((i) => t0 + i * 60_000),
    open: col((i) => price(i)),
    high: col((i) => Math.max(price(i), price(i + 1)) * 1.0005),
    low: col((i) => Math.min(price(i), price(i + 1)) * 0.9995),
    close: col((i) => price(i + 1)),
    volume: col(() => 1),
  };
}

function run(side: string) {
  const def = getStrategy('grid');
  const params = def.schema.parse({ ...def.defaults(getInstrument('BTCUSDT', 'binance'), { capital: 10_000, price: 60_000 }), interval: '5m', start: '2024-01-01', end: '2024-01-20', side });
  const reports: { percent: number; step?: ProgressStep }[] = [];
  computeBacktest({ kind: 'backtest', symbol: 'BTCUSDT', venue: 'binance', strategy: 'grid', params, candles: wave(20 * 1440) }, (percent, step) => reports.push({ percent, step }));
  return reports;
}

describe('backtest progress', () => {
  it('reports the candles simulated, rising to the total, with a rising percent', () => {
    const reports = run('long');
    const steps = reports.flatMap((r) => (r.step ? [r.step] : []));
    expect(steps.every((s) => s.phase === 'simulating')).toBe(true);
    const total = steps[0].total;
    expect(total).toBeGreaterThan(5000); // 19 days of 5m decisions
    expect(steps.length).toBeGreaterThan(100); // many reports in between, not 2 % then done
    expect(steps.at(-1)).toEqual({ phase: 'simulating', done: total, total });
    for (let i = 1; i < reports.length; i++) expect(reports[i].percent).toBeGreaterThanOrEqual(reports[i - 1].percent);
    for (let i = 1; i < steps.length; i++) expect(steps[i].done).toBeGreaterThanOrEqual(steps[i - 1].done);
  });

  it('reports the AI indicator phase in candles before the simulation', () => {
    const reports = run('ai');
    const ai = reports.flatMap((r) => (r.step?.phase === 'ai' ? [{ ...r.step, percent: r.percent }] : []));
    expect(ai.length).toBeGreaterThan(1);
    expect(ai.at(-1)!.done).toBe(ai.at(-1)!.total);
    expect(ai.at(-1)!.percent).toBeGreaterThan(30);
    const firstSim = reports.findIndex((r) => r.step?.phase === 'simulating');
    expect(firstSim).toBeGreaterThan(reports.findIndex((r) => r.step?.phase === 'ai'));
  });
});

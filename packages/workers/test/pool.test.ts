import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getInstrument, sliceByTime, type Candles } from '@lq/engine';
import { getStrategy } from '@lq/strategies';
import { loadCandlesFile } from '../src/load';
import { BacktestPool, createDataset } from '../src/pool';
import { runCandidate, type CandidateSpec } from '../src/recommend-run';
import { recommend } from '../src/recommend';

const sharedDir = process.env.SHARED_DIR ?? resolve(import.meta.dirname, '../../../../shared');
const DAY = 86_400_000;
const all = loadCandlesFile(resolve(sharedDir, 'data/binance_ETHUSDT_1m.csv.gz'), { cache: false });
const candles: Candles = sliceByTime(all, all.time[0], all.time[0] + 10 * DAY);
const instrument = getInstrument('ETHUSDT');
const base = getStrategy('grid').defaults(instrument, { capital: 10_000, price: candles.close[0] });

const pool = new BacktestPool({ threads: 2 });
afterAll(() => pool.destroy());

describe('backtest pool', () => {
  it('runs candidates on worker threads with the same results as the calling thread', async () => {
    const dataset = createDataset('ETHUSDT', candles, null);
    expect(dataset.candles.close.buffer).toBeInstanceOf(SharedArrayBuffer);
    const specs: CandidateSpec[] = [3, 5, 8, 12, 20, 40].map((gridNumber, i) => ({
      strategy: 'grid',
      params: { ...base, interval: '5m', gridNumber, gap: 0.2 + i * 0.3, side: i % 2 ? 'short' : 'long' },
      fromMs: candles.time[0],
      toMs: candles.time[0] + 7 * DAY,
    }));
    // A size below the instrument's minimum fails in the thread and comes back as an error.
    specs.push({ ...specs[0], params: { ...specs[0].params, lotsPerGrid: 1e-9 } });
    const pooled = await pool.runAll(dataset, specs);
    const local = specs.map((s) => runCandidate(candles, instrument, null, s));
    expect(pooled).toEqual(local);
    expect(local.slice(0, 6).some((r) => r.tradeCount > 0)).toBe(true);
    expect(pooled[6].error).toBeTruthy();
  });

  it('recommends the same presets on the pool as on one thread', async () => {
    const options = { candles, symbol: 'ETHUSDT', strategy: 'grid', capital: 10_000, budget: 16, seed: 5, params: { interval: '15m' } };
    const progress: number[] = [];
    const pooled = await recommend({ ...options, pool }, (p) => progress.push(p));
    const single = await recommend({ ...options, threads: 0 });
    expect(pooled.presets).toEqual(single.presets);
    expect(pooled.presets.length).toBe(3);
    expect(pooled.inSample.toMs).toBe(pooled.outOfSample.fromMs);
    expect(progress.at(-1)).toBe(100);
    expect(progress.every((p, i) => i === 0 || p >= progress[i - 1])).toBe(true);
    for (const preset of pooled.presets) {
      expect(preset.inSample.status).not.toBe(4);
      expect(preset.inSample.tradeCount).toBeGreaterThanOrEqual(5);
      expect(getStrategy('grid').schema.safeParse(preset.params).success).toBe(true);
    }
  });
});

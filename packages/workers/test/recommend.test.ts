import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getInstrument, prepareCandles, sliceByTime } from '@lq/engine';
import { loadCandlesFile } from '../src/load';
import { backtestConfigFor, sliceAi } from '../src/recommend-run';
import { defaultBudget, defaultInterval, recommend, RecommendError } from '../src/recommend';

const sharedDir = process.env.SHARED_DIR ?? resolve(import.meta.dirname, '../../../../shared');
const DAY = 86_400_000;
const all = loadCandlesFile(resolve(sharedDir, 'data/binance_ETHUSDT_1m.csv.gz'), { cache: false });
const candles = sliceByTime(all, all.time[0], all.time[0] + 12 * DAY);

describe('recommend', () => {
  it('picks a default interval with enough decisions and a budget that shrinks with the data', () => {
    expect(defaultInterval(60_000, 90 * DAY)).toBe('1h');
    expect(defaultInterval(60_000, 30 * DAY)).toBe('15m');
    expect(defaultInterval(60_000, 7 * DAY)).toBe('5m');
    expect(defaultInterval(300_000, 25 * DAY)).toBe('15m');
    expect(defaultInterval(300_000, 20 * DAY)).toBe('5m');
    expect(defaultInterval(86_400_000, 900 * DAY)).toBe('1d');
    expect(defaultBudget(90 * 1440 * 0.7)).toBeGreaterThan(defaultBudget(365 * 1440 * 0.7));
    expect(defaultBudget(1e9)).toBe(30);
  });

  it('reports the AI indicator hit rate and base rate with presets that trade on it', async () => {
    const result = await recommend({
      candles,
      symbol: 'ETHUSDT',
      strategy: 'single',
      capital: 10_000,
      budget: 10,
      threads: 0,
      params: { side: 'ai', interval: '5m' },
      minTrades: 1,
    });
    expect(result.presets.length).toBe(3);
    for (const preset of result.presets) {
      expect(preset.params.side).toBe('ai');
      expect(preset.searched).not.toHaveProperty('side');
      expect(preset.ai!.inSample.predictions).toBeGreaterThan(100);
      expect(preset.ai!.outOfSample.hitRate).toBeGreaterThan(0);
      expect(preset.ai!.outOfSample.baseRate).toBeGreaterThan(0);
    }
  });

  it.each(['15m', '1h', '1d'])('slices the range-wide AI signal onto exactly the decision candles of a segment (%s)', (interval) => {
    const instrument = getInstrument('ETHUSDT');
    const params = { interval, capital: 10_000, leverage: 5, timezone: '+08:00' };
    const range = { fromMs: candles.time[0], toMs: candles.time[candles.length - 1] + 60_000 };
    const whole = prepareCandles(backtestConfigFor(params, instrument, candles, range, null)).decision;
    const ai = { intervalMs: whole.intervalMs, time: whole.time.slice(0, whole.length), signal: whole.close.slice(0, whole.length), probabilityUp: whole.open.slice(0, whole.length) };
    const split = whole.time[Math.floor(whole.length * 0.7)];
    for (const segment of [{ fromMs: range.fromMs, toMs: split }, { fromMs: split, toMs: range.toMs }]) {
      const decision = prepareCandles(backtestConfigFor(params, instrument, candles, segment, null)).decision;
      const sliced = sliceAi(ai, segment.fromMs, segment.toMs);
      // The "signal" here is the whole range's close: equal columns mean equal rows.
      expect(Array.from(sliced.signal)).toEqual(Array.from(decision.close.subarray(0, decision.length)));
    }
  });

  it('names the problem for a strategy that does not fit the market or a too-short range', async () => {
    const base = { candles, symbol: 'ETHUSDT', capital: 10_000, threads: 0 };
    await expect(recommend({ ...base, strategy: 'day-single' })).rejects.toThrow(RecommendError);
    await expect(recommend({ ...base, strategy: 'grid', toMs: candles.time[0] + 3 * DAY })).rejects.toThrow(/at least 7 days/);
  });
});

// Every strategy through the engine's kernel on slices of the real data in ../shared/data: status,
// sizes, tags, the side modes, determinism, no look-ahead, and each strategy's entry rule checked
// against the engine's indicator series at the decision candle of every entry.
import { bollingerSeries, donchianSeries, emaSeries, getInstrument, lowerBound, macdSeries, rsiSeries, sliceRows } from '@lq/engine';
import type { BacktestReport, Candles } from '@lq/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STRATEGY_TYPES, strategies } from '../src/index';
import type { StrategyType } from '../src/index';
import { aiSignal, backtest, loadData, loadHead } from './helpers';

interface DataSet {
  name: string;
  symbol: string;
  candles: Candles;
}
const sets: DataSet[] = [
  { name: 'BTCUSDT 1m', symbol: 'BTCUSDT', candles: loadHead('binance_BTCUSDT_1m.csv.gz', 20_000) },
  { name: 'ETHUSDT 1m', symbol: 'ETHUSDT', candles: loadData('binance_ETHUSDT_1m.csv.gz', 0, 20_000) },
  { name: 'EURUSD 1m', symbol: 'EURUSD', candles: loadData('dukascopy_EURUSD_1m.csv.gz') },
  { name: 'XAUUSD 1h', symbol: 'XAUUSD', candles: loadData('oanda_XAUUSD_1h.csv.gz', 60_000, 72_000) },
];

/** Parameters for a data set: the definition's defaults, sized small enough to survive, plus overrides. */
function paramsFor(type: StrategyType, set: DataSet, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const inst = getInstrument(set.symbol);
  const base = strategies[type].defaults(inst, { capital: 100_000, price: set.candles.close[0] });
  const hourly = set.candles.intervalMs >= 3_600_000;
  // Distances scaled to the bar size so that 20 000 bars see trades.
  const scale = hourly ? 3 : 0.3;
  const scaled: Record<string, unknown> = {};
  for (const key of ['gap', 'refillInterval', 'cycleTakeProfit', 'orderTakeProfit', 'orderStopLoss']) {
    if (typeof base[key] === 'number') scaled[key] = (base[key]) * scale;
  }
  if (type === 'day-single') Object.assign(scaled, { windowStart: '07:00', windowEnd: '17:00' });
  return { ...base, ...scaled, ...extra };
}
const applicable = (type: StrategyType, set: DataSet) => strategies[type].markets.includes(getInstrument(set.symbol).market);

/** Decision-candle index of the market entry that filled at `time` (the candle before the fill). */
const decisionIndexOf = (c: Candles, time: number) => lowerBound(c.time, c.length, time) - 1;
const firstLegs = (r: BacktestReport) => r.fills.filter((f) => f.action === 'open' && f.ticket.endsWith('-l1'));

/** A past-only AI stand-in: the sign of the last 30 bars' return. */
function momentumAi(c: Candles) {
  return aiSignal(Array.from({ length: c.length }, (_, i) => (i < 30 ? 0 : Math.sign(c.close[i] - c.close[i - 30]))));
}

describe.each(sets)('$name', (set) => {
  const inst = getInstrument(set.symbol);
  const types = STRATEGY_TYPES.filter((t) => applicable(t, set));

  it.each(types)('%s runs to the end with valid sizes and tags', (type) => {
    const r = backtest(type, paramsFor(type, set), set.candles);
    expect(r.status, r.statusReason).toBe(2);
    expect(r.candleCount).toBe(set.candles.length);
    const opens = r.fills.filter((f) => f.action === 'open');
    if (!['week-single', 'month-single'].includes(type) || set.name !== 'EURUSD 1m') expect(opens.length, type).toBeGreaterThan(0);
    for (const f of opens) {
      expect(f.qty).toBeGreaterThanOrEqual(inst.minQty);
      expect(Math.abs(f.qty / inst.qtyStep - Math.round(f.qty / inst.qtyStep))).toBeLessThan(1e-6);
      expect(f.tag).toMatch(/^s\d+-l\d+$/);
      expect(f.tag.length).toBeLessThanOrEqual(24);
    }
    // Tags never repeat within a run.
    expect(new Set(opens.map((f) => f.tag)).size).toBe(opens.length);
  });

  it.each(types)('%s honours the side modes and the AI indicator', (type) => {
    const ai = momentumAi(set.candles);
    for (const side of ['long', 'short'] as const) {
      const r = backtest(type, paramsFor(type, set, { side }), set.candles);
      expect(r.fills.every((f) => f.side === side)).toBe(true);
    }
    for (const [side, want] of [['aiLongOnly', 'long'], ['aiShortOnly', 'short']] as const) {
      const r = backtest(type, paramsFor(type, set, { side }), set.candles, { ai });
      expect(r.status).toBe(2);
      expect(r.fills.every((f) => f.side === want)).toBe(true);
    }
    if (type === 'grid') {
      // The grid's side comes from the AI at each (re)start; its limit orders then fill at any time.
      const down = aiSignal(Array.from({ length: set.candles.length }, () => -1));
      expect(backtest(type, paramsFor(type, set, { side: 'ai' }), set.candles, { ai: down }).fills.every((f) => f.side === 'short')).toBe(true);
      return;
    }
    // Entries agree with the AI at their decision candle (martin: at each cycle start).
    const r = backtest(type, paramsFor(type, set, { side: 'ai' }), set.candles, { ai });
    for (const f of firstLegs(r)) {
      const d = decisionIndexOf(set.candles, f.time);
      expect(ai.signal[d]).toBe(f.side === 'long' ? 1 : -1);
    }
    const withAi = backtest(type, paramsFor(type, set, { side: 'long', useAiIndicator: true }), set.candles, { ai });
    for (const f of firstLegs(withAi)) expect(ai.signal[decisionIndexOf(set.candles, f.time)]).toBe(1);
  });

  it.each(types)('%s is deterministic and never looks ahead', (type) => {
    const params = paramsFor(type, set);
    const full = backtest(type, params, set.candles);
    expect(backtest(type, params, set.candles)).toEqual(full);
    fc.assert(
      fc.property(fc.integer({ min: 200, max: set.candles.length - 1 }), (cut) => {
        const part = backtest(type, params, sliceRows(set.candles, 0, cut));
        const cutTime = set.candles.time[cut - 1];
        // Everything that happened before the last candle of the cut run happened identically in the full run.
        const before = (r: BacktestReport) => r.fills.filter((f) => f.time < cutTime);
        expect(before(part)).toEqual(before(full));
      }),
      { numRuns: 4, seed: 42 },
    );
  });
});

describe('entry rules on real data (checked at each entry decision candle)', () => {
  const set = sets[0];
  const c = set.candles;
  const close = c.close;

  it('single: EMA(20)/EMA(50) cross in the trade direction', () => {
    const r = backtest('single', paramsFor('single', set, { side: 'long' }), c);
    const fast = emaSeries(close, 20);
    const slow = emaSeries(close, 50);
    const entries = firstLegs(r);
    expect(entries.length).toBeGreaterThan(5);
    for (const f of entries) {
      const d = decisionIndexOf(c, f.time);
      expect(fast[d - 1] - slow[d - 1]).toBeLessThanOrEqual(0);
      expect(fast[d] - slow[d]).toBeGreaterThan(0);
    }
  });

  it('pegasus: the close breaks the previous lookback bars’ channel', () => {
    const r = backtest('pegasus', paramsFor('pegasus', set, { side: 'long', lookback: 30 }), c);
    const ch = donchianSeries(c, 30);
    const entries = firstLegs(r);
    expect(entries.length).toBeGreaterThan(5);
    for (const f of entries) {
      const d = decisionIndexOf(c, f.time);
      expect(close[d]).toBeGreaterThan(ch.upper[d - 1]);
    }
    expect(r.trades.some((t) => t.reason === 'trailingStop')).toBe(true);
  });

  it('marco-hunt: MACD crosses its signal on the EMA(200) side', () => {
    const r = backtest('marco-hunt', paramsFor('marco-hunt', set, { side: 'short' }), c);
    const m = macdSeries(close);
    const trend = emaSeries(close, 200);
    const entries = firstLegs(r);
    expect(entries.length).toBeGreaterThan(3);
    for (const f of entries) {
      const d = decisionIndexOf(c, f.time);
      expect(m.histogram[d - 1]).toBeGreaterThanOrEqual(0);
      expect(m.histogram[d]).toBeLessThan(0);
      expect(close[d]).toBeLessThan(trend[d]);
    }
  });

  it('blue-bands: the close comes back inside the band; exits at the middle band', () => {
    const r = backtest('blue-bands', paramsFor('blue-bands', set, { side: 'long', bbDeviation: 2 }), c);
    const bb = bollingerSeries(close, 20, 2);
    const entries = firstLegs(r);
    expect(entries.length).toBeGreaterThan(5);
    for (const f of entries) {
      const d = decisionIndexOf(c, f.time);
      expect(close[d - 1]).toBeLessThan(bb.lower[d - 1]);
      expect(close[d]).toBeGreaterThanOrEqual(bb.lower[d]);
    }
    for (const t of r.trades.filter((x) => x.reason === 'signal')) {
      const d = decisionIndexOf(c, t.exitTime);
      expect(close[d]).toBeGreaterThanOrEqual(bb.middle[d]);
    }
  });

  it('purge-revert: a sweep of the prior high that closes back below it; stop beyond the extreme, TP at rr × risk', () => {
    const r = backtest('purge-revert', paramsFor('purge-revert', set, { side: 'short', lookback: 30, rr: 2 }), c);
    const ch = donchianSeries(c, 30);
    const entries = firstLegs(r);
    expect(entries.length).toBeGreaterThan(5);
    for (const f of entries) {
      const d = decisionIndexOf(c, f.time);
      expect(c.high[d]).toBeGreaterThan(ch.upper[d - 1]);
      expect(close[d]).toBeLessThan(ch.upper[d - 1]);
    }
    for (const t of r.trades) {
      const d = decisionIndexOf(c, t.entryTime);
      if (t.reason === 'orderStopLoss') expect(t.exitPrice).toBeGreaterThanOrEqual(c.high[d]);
      if (t.reason === 'orderTakeProfit') {
        expect(t.entryPrice - t.exitPrice).toBeGreaterThan(0);
      }
    }
  });

  it('inversion-revert: RSI leaves oversold on a bullish engulfing candle', () => {
    const r = backtest('inversion-revert', paramsFor('inversion-revert', set, { side: 'long' }), c);
    const rsi = rsiSeries(close, 14);
    const entries = firstLegs(r);
    expect(entries.length).toBeGreaterThan(0);
    for (const f of entries) {
      const d = decisionIndexOf(c, f.time);
      expect(rsi[d - 1]).toBeLessThan(30);
      expect(rsi[d]).toBeGreaterThanOrEqual(30);
      expect(close[d]).toBeGreaterThan(c.open[d]);
      expect(close[d - 1]).toBeLessThan(c.open[d - 1]);
    }
  });

  it('grid: every round trip sells one gap above its buy level', () => {
    const r = backtest('grid', paramsFor('grid', set, { gap: 0.3 }), c);
    const trips = r.trades.filter((t) => t.reason === 'gridTakeProfit');
    expect(trips.length).toBeGreaterThan(5);
    for (const t of trips) expect(t.exitPrice / t.entryPrice).toBeGreaterThanOrEqual(1.003 - 0.1 / t.entryPrice);
  });

  it('contrarian-martin: cycles of at most orderNumber orders, sizes × multiplier', () => {
    const r = backtest('contrarian-martin', paramsFor('contrarian-martin', set, { orderNumber: 3, multiplier: 2 }), c);
    const bySignal = new Map<string, number[]>();
    for (const f of r.fills.filter((x) => x.action === 'open')) {
      const s = f.tag.split('-')[0];
      bySignal.set(s, [...(bySignal.get(s) ?? []), f.qty]);
    }
    expect(bySignal.size).toBeGreaterThan(3);
    for (const sizes of bySignal.values()) {
      expect(sizes.length).toBeLessThanOrEqual(3);
      sizes.forEach((q, i) => expect(q).toBeCloseTo(sizes[0] * 2 ** i, 6));
    }
    expect(r.trades.every((t) => t.reason === 'cycleTakeProfit')).toBe(true);
  });
});

describe('windowed trends on real forex data', () => {
  const set = sets[2];
  it('day-single: entries inside the window, everything closed by its end', () => {
    const r = backtest('day-single', paramsFor('day-single', set, { addImmediately: true, windowStart: '08:00', windowEnd: '16:00', orderTakeProfit: null, orderStopLoss: 300 }), set.candles);
    expect(r.trades.length).toBeGreaterThan(10);
    const tod = (t: number) => (t % 86_400_000) / 60_000;
    for (const t of r.trades) {
      expect(tod(t.entryTime)).toBeGreaterThanOrEqual(8 * 60);
      expect(tod(t.entryTime)).toBeLessThan(16 * 60);
      expect(Math.floor(t.exitTime / 86_400_000)).toBe(Math.floor(t.entryTime / 86_400_000));
      expect(tod(t.exitTime)).toBeLessThanOrEqual(16 * 60);
    }
    expect(r.trades.filter((t) => t.reason === 'windowEnd').length).toBeGreaterThan(5);
  });
  it('week-single: one decision per week, closed on Friday', () => {
    const r = backtest('week-single', paramsFor('week-single', set, { addImmediately: true, orderTakeProfit: null, orderStopLoss: null }), set.candles);
    const entries = firstLegs(r);
    expect(entries.length).toBeGreaterThanOrEqual(3);
    for (const t of r.trades.filter((x) => x.reason === 'windowEnd')) {
      expect(new Date(t.exitTime).getUTCDay()).toBe(5);
      expect(new Date(t.exitTime).getUTCHours()).toBe(20);
    }
  });
});

// Pure logic of the backtest screens: pages ↔ strategies, schema → form fields, form values ↔
// params (checked by the same zod schemas as the server), chart data, contract-info cache.
import { describe, expect, it, vi } from 'vitest';
import type { KlineMarker, KlineMarkerGroup } from '@lq/contracts';
import { normalizeCurrencies, normalizeTactics } from '../src/features/backtest/api';
import { buildGroupMarkers, buildMarkers, downsample, equityOnBars, klineMarkerPoints, klineRequestFor, priceFormat, toCandles, toLine, upDownColors, type LinePoint } from '../src/features/backtest/chartData';
import { contractCacheKey, getContractInfo } from '../src/features/backtest/contractInfo';
import { checkValues, defaultRange, describeFields, paramsFromValues, parseParamsQuery, slotName, starterParams, valuesFromParams } from '../src/features/backtest/formModel';
import { strategyParamSchemas } from '../src/features/backtest/schemas';
import { CREATE_ORDER_PAGES, PAGE_STRATEGIES, createOrderPath, marketOfDataSource, marketOfPage, pageOfStrategy, STRATEGY_KEYS } from '../src/features/backtest/strategies';
import type { KeyValueStorage } from '../src/lib/storage';

describe('strategies ↔ create-order pages', () => {
  it('maps every strategy of a page back to that page', () => {
    for (const page of CREATE_ORDER_PAGES) {
      const market = marketOfPage(page) ?? 'crypto';
      for (const s of PAGE_STRATEGIES[page]) expect(pageOfStrategy(s, market)).toBe(page);
    }
  });
  it('offers every strategy on some page and every schema exists', () => {
    const offered = new Set(Object.values(PAGE_STRATEGIES).flat());
    expect([...STRATEGY_KEYS].filter((s) => !offered.has(s))).toEqual([]);
    expect(STRATEGY_KEYS.filter((s) => !(s in strategyParamSchemas))).toEqual([]);
  });
  it('builds paths with the strategy and query', () => {
    expect(createOrderPath('grid', 'crypto')).toBe('/pages/createOrder/crypto_grid?strategy=grid');
    expect(createOrderPath('week-single', 'forex', { type: '1' })).toBe('/pages/createOrder/forex_dmy?strategy=week-single&type=1');
    expect(pageOfStrategy('purge-revert', 'forex')).toBe('prt');
    expect(marketOfDataSource('mt5')).toBe('forex');
    expect(marketOfDataSource('binance')).toBe('crypto');
  });
});

describe('schema → form fields', () => {
  const crypto = describeFields(strategyParamSchemas.grid, 'crypto');
  const forex = describeFields(strategyParamSchemas.grid, 'forex');
  const names = (f: { name: string }[]) => f.map((x) => x.name);

  it('hides market, keeps spread for forex and unit for crypto', () => {
    expect(names(crypto)).not.toContain('market');
    expect(names(crypto)).toContain('unit');
    expect(names(crypto)).not.toContain('spread');
    expect(names(forex)).toContain('spread');
    expect(names(forex)).not.toContain('unit');
  });
  it('orders basic fields first, then the strategy, then risk and fees', () => {
    expect(names(crypto).slice(0, 3)).toEqual(['symbol', 'interval', 'capital']);
    const groups = crypto.map((f) => f.group);
    expect(groups.indexOf('strategy')).toBeGreaterThan(groups.lastIndexOf('basic'));
    expect(groups.indexOf('risk')).toBeGreaterThan(groups.lastIndexOf('strategy'));
  });
  it('reads kinds, bounds, options and defaults from the schema', () => {
    const by = Object.fromEntries(crypto.map((f) => [f.name, f]));
    expect(by.gridNumber).toMatchObject({ kind: 'integer', min: 2, max: 500, optional: false });
    expect(by.capital).toMatchObject({ kind: 'number', min: 1000 });
    expect(by.side).toMatchObject({ kind: 'enum', defaultValue: 'long', options: ['long', 'short', 'ai', 'aiLongOnly', 'aiShortOnly'] });
    expect(by.useAiIndicator).toMatchObject({ kind: 'boolean', defaultValue: false });
    expect(by.start?.kind).toBe('date');
    expect(by.timezone).toMatchObject({ kind: 'timezone', defaultValue: 'UTC' });
    expect(by.makerFee).toMatchObject({ kind: 'number', scale: 100, optional: true });
    const single = Object.fromEntries(describeFields(strategyParamSchemas.single, 'crypto').map((f) => [f.name, f]));
    expect(single.orderTakeProfit?.kind).toBe('distances');
    const day = Object.fromEntries(describeFields(strategyParamSchemas['day-single'], 'forex').map((f) => [f.name, f]));
    expect(day.windowStart?.kind).toBe('time');
  });
  it('describes every strategy without unknown kinds', () => {
    for (const key of STRATEGY_KEYS) {
      const fields = describeFields(strategyParamSchemas[key], 'forex');
      expect(fields.filter((f) => f.kind === 'text').map((f) => `${key}.${f.name}`)).toEqual([]);
    }
  });
});

describe('form values ↔ params', () => {
  const schema = strategyParamSchemas.grid;
  const fields = describeFields(schema, 'crypto');
  const base = { ...starterParams('crypto'), symbol: 'BTCUSDT', start: '2025-01-01', end: '2025-03-01', makerFee: 0.0002 };

  it('round-trips params through the form (fees shown in percent)', () => {
    const values = valuesFromParams(fields, base);
    expect(values.makerFee).toBe('0.02');
    expect(values.capital).toBe('10000');
    expect(values.useAiIndicator).toBe(false);
    const params = paramsFromValues(fields, values);
    expect(params).toMatchObject({ capital: 10000, leverage: 5, gridNumber: 10, makerFee: 0.0002, symbol: 'BTCUSDT' });
    expect(params).not.toHaveProperty('takeProfit');
  });
  it('accepts valid values with the server schema', () => {
    const r = checkValues(schema, fields, valuesFromParams(fields, base), { market: 'crypto' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.params).toMatchObject({ market: 'crypto', side: 'long', timezone: 'UTC', unit: 'ZHANG' });
  });
  it('names each error by its message key next to its field', () => {
    const values = valuesFromParams(fields, { ...base, capital: 500, gridNumber: 1, end: '2025-01-03' });
    values.leverage = 'abc';
    const r = checkValues(schema, fields, values, { market: 'crypto' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors.capital).toBe('validation.capitalMin');
      expect(r.errors.gridNumber).toBe('validation.gridNumberMin');
      expect(r.errors.leverage).toBe('validation.invalidType');
    }
    const r2 = checkValues(schema, fields, valuesFromParams(fields, { ...base, end: '2025-01-03' }), { market: 'crypto' });
    expect(r2.ok ? null : r2.errors.end).toBe('validation.rangeMin7Days');
    const forexFields = describeFields(schema, 'forex');
    const r3 = checkValues(schema, forexFields, valuesFromParams(forexFields, { ...base, spread: undefined, symbol: 'EURUSD', leverage: 600 }), { market: 'forex' });
    expect(r3.ok ? null : r3.errors).toMatchObject({ spread: 'validation.spreadRequired', leverage: 'validation.leverageRangeForex' });
  });
  it('maps per-order distances to their slots', () => {
    const single = strategyParamSchemas.single;
    const f = describeFields(single, 'crypto');
    const values = valuesFromParams(f, { ...base, firstLots: 1, orderTakeProfit: [2, 3], orderStopLoss: 1 });
    expect([values[slotName('orderTakeProfit', 0)], values[slotName('orderTakeProfit', 1)], values[slotName('orderTakeProfit', 2)]]).toEqual(['2', '3', '']);
    expect(values[slotName('orderStopLoss', 2)]).toBe('1');
    expect(paramsFromValues(f, values).orderTakeProfit).toEqual([2, 3]);
    values[slotName('orderTakeProfit', 1)] = '-1';
    const r = checkValues(single, f, values, { market: 'crypto' });
    expect(r.ok ? null : r.errors[slotName('orderTakeProfit', 1)]).toBe('validation.orderTakeProfitPositive');
  });
  it('defaults the range to the last 90 days of the data', () => {
    const day = 86_400_000;
    const to = Date.UTC(2025, 10, 30, 23, 59);
    expect(defaultRange(Date.UTC(2024, 0, 1), to, 0)).toEqual({ start: '2025-09-01', end: '2025-11-30' });
    expect(defaultRange(to - 30 * day, to, 0).start).toBe('2025-11-01');
    expect(defaultRange(undefined, undefined, Date.UTC(2026, 0, 31))).toEqual({ start: '2025-11-02', end: '2026-01-31' });
  });
  it('parses the params query safely', () => {
    expect(parseParamsQuery('{"gap":1}')).toEqual({ gap: 1 });
    expect(parseParamsQuery('[1]')).toEqual({});
    expect(parseParamsQuery('nope')).toEqual({});
    expect(parseParamsQuery(null)).toEqual({});
  });
});

describe('chart data', () => {
  it('converts candles to seconds, ascending, without duplicates or bad rows', () => {
    const c = toCandles([
      [60_000, 1, 2, 0.5, 1.5, 10],
      [60_000, 1, 2, 0.5, 1.5, 10],
      [120_000, 1.5, 3, 1, 2, 5],
      [180_000, NaN, 3, 1, 2, 5],
    ]);
    expect(c).toEqual([
      { time: 60, open: 1, high: 2, low: 0.5, close: 1.5 },
      { time: 120, open: 1.5, high: 3, low: 1, close: 2 },
    ]);
    expect(toLine([[1000, 1], [1500, 2], [3000, 3]])).toEqual([{ time: 1, value: 2 }, { time: 3, value: 3 }]);
  });
  it('downsamples keeping both ends and the extremes', () => {
    const pts: LinePoint[] = Array.from({ length: 1000 }, (_, i) => ({ time: i, value: i === 500 ? 100 : Math.sin(i / 50) }));
    const d = downsample(pts, 100);
    expect(d).toHaveLength(100);
    expect(d[0]).toEqual(pts[0]);
    expect(d[d.length - 1]).toEqual(pts[999]);
    expect(d.some((p) => p.value === 100)).toBe(true);
    expect(d.every((p, i) => i === 0 || p.time > (d[i - 1]?.time ?? -1))).toBe(true);
    expect(downsample(pts.slice(0, 10), 100)).toHaveLength(10);
  });
  it('builds entry ▲▼ and exit ● markers sorted by time', () => {
    const m = (o: Partial<KlineMarker>): KlineMarker => ({ time: 0, at: 0, price: 1, kind: 'entry', side: 'long', lots: 1, trade: 1, pnl: null, reason: null, ...o });
    const colors = upDownColors('en-US');
    const out = buildMarkers([m({ time: 120_000, kind: 'exit', pnl: -5, trade: 1 }), m({ time: 60_000, trade: 1 }), m({ time: 180_000, side: 'short', trade: 2 })], colors);
    expect(out.map((x) => [x.time, x.shape, x.position])).toEqual([
      [60, 'arrowUp', 'belowBar'],
      [120, 'circle', 'aboveBar'],
      [180, 'arrowDown', 'aboveBar'],
    ]);
    expect(out[1]?.color).toBe(colors.down);
    expect(new Set(out.map((x) => x.id)).size).toBe(3);
    expect(out[0]?.text).toBe('#1');
    expect(buildMarkers([m({ trade: 1 }), m({ trade: 2 })], colors, 1).every((x) => x.text === '')).toBe(true);
  });
  it('shows a grouped bar by its net side and count, among the exact markers in time order', () => {
    const colors = upDownColors('en-US');
    const g = (o: Partial<KlineMarkerGroup>): KlineMarkerGroup => ({ time: 0, count: 2, entries: 1, exits: 1, buys: 1, sells: 1, pnl: 0, firstTrade: 1, lastTrade: 1, ...o });
    const groups = buildGroupMarkers([g({ time: 60_000, count: 12, buys: 9, sells: 3 }), g({ time: 120_000, count: 5, buys: 1, sells: 4 }), g({ time: 180_000 })], colors);
    expect(groups.map((x) => [x.time, x.shape, x.position, x.text, x.color])).toEqual([
      [60, 'arrowUp', 'belowBar', '12', colors.up],
      [120, 'arrowDown', 'aboveBar', '5', colors.down],
      [180, 'circle', 'aboveBar', '2', '#848e9c'],
    ]);
    expect(groups[0].size).toBeGreaterThan(groups[2].size ?? 0);
    const m: KlineMarker = { time: 90_000, at: 90_001, price: 1, kind: 'entry', side: 'long', lots: 1, trade: 7, pnl: null, reason: null };
    const all = klineMarkerPoints({ markers: [m], groups: [g({ time: 60_000 }), g({ time: 120_000 })] }, colors);
    expect(all.map((x) => x.time)).toEqual([60, 90, 120]);
  });
  it('puts the equity curve on the candles\' bars (its value at each close)', () => {
    const candles = [0, 3600, 7200].map((time) => ({ time, open: 1, high: 1, low: 1, close: 1 }));
    const equity = [{ time: 100, value: 10 }, { time: 3500, value: 11 }, { time: 3700, value: 12 }, { time: 9000, value: 13 }];
    expect(equityOnBars(candles, equity, 3600)).toEqual([{ time: 0, value: 11 }, { time: 3600, value: 12 }, { time: 7200, value: 13 }]);
    expect(equityOnBars(candles, [{ time: 5000, value: 9 }], 3600)).toEqual([{ time: 3600, value: 9 }, { time: 7200, value: 9 }]);
  });
  it('asks for finer candles when zoomed in, for the view and one width either side, and stops once it has them', () => {
    const DAY = 86_400_000;
    const loaded = { interval: '4h', dataInterval: '1m', from: 0, to: 30 * DAY, rangeFrom: 0, rangeTo: 30 * DAY };
    // The whole range on 1000 px (200 bars): 4h is what it wants: nothing to load.
    expect(klineRequestFor({ from: 0, to: 30 * DAY, widthPx: 1000 }, loaded)).toBeNull();
    // One day in view: 200 bars → 15m (96 bars; 5m would be 288); days 9–12 asked for.
    const next = klineRequestFor({ from: 10 * DAY, to: 11 * DAY, widthPx: 1000 }, loaded);
    expect(next).toEqual({ from: 9 * DAY, to: 12 * DAY, maxCandles: 3 * 96 + 2 });
    // Its answer covers the view at the wanted interval: nothing more, however the view settles.
    const answer = { ...loaded, interval: '15m', from: 9 * DAY, to: 12 * DAY };
    expect(klineRequestFor({ from: 10 * DAY, to: 11 * DAY, widthPx: 1000 }, answer)).toBeNull();
    // Panning out of it, or zooming back out, asks again; never past the backtest's range.
    expect(klineRequestFor({ from: 11.5 * DAY, to: 12.5 * DAY, widthPx: 1000 }, answer)).toEqual({ from: 10.5 * DAY, to: 13.5 * DAY, maxCandles: 3 * 96 + 2 });
    expect(klineRequestFor({ from: 0, to: 30 * DAY, widthPx: 1000 }, answer)).toEqual({ from: 0, to: 30 * DAY, maxCandles: 182 });
    // 1h data never asks for anything finer than 1h.
    expect(klineRequestFor({ from: 10 * DAY, to: 10 * DAY + 3_600_000, widthPx: 1000 }, { ...loaded, interval: '1h', dataInterval: '1h' })).toBeNull();
  });
  it('uses red up in Chinese locales and green up elsewhere', () => {
    expect(upDownColors('zh-CN').up).toBe('#f6465d');
    expect(upDownColors('zh-TW').up).toBe('#f6465d');
    expect(upDownColors('ja-JP').up).toBe('#2ebd85');
    expect(upDownColors('ja-JP', true).up).toBe('#f6465d');
    expect(priceFormat(5)).toEqual({ type: 'price', precision: 5, minMove: 0.00001 });
  });
});

describe('contract info cache (spec §3, §7)', () => {
  const memory = (): KeyValueStorage & { data: Map<string, string> } => {
    const data = new Map<string, string>();
    return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
  };
  const info = { ctVal: 0.01, ctMult: 1, minSz: 1 };

  it('fetches once, then serves the cache for a day', async () => {
    const storage = memory();
    const load = vi.fn(() => Promise.resolve(info));
    let now = 1_000;
    const first = await getContractInfo('BTC-USDT-SWAP', load, storage, () => now);
    expect(first).toMatchObject({ instId: 'BTC-USDT-SWAP', ...info, updated: true, timestamp: 1_000 });
    expect(JSON.parse(storage.data.get(contractCacheKey('BTC-USDT-SWAP'))!)).toMatchObject({ ctVal: 0.01, timestamp: 1_000 });
    now += 86_400_000 - 1;
    expect(await getContractInfo('BTC-USDT-SWAP', load, storage, () => now)).toMatchObject({ updated: false });
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    expect(await getContractInfo('BTC-USDT-SWAP', load, storage, () => now)).toMatchObject({ updated: true, timestamp: now });
    expect(load).toHaveBeenCalledTimes(2);
  });
  it('logs a failure and returns null', async () => {
    const log = vi.fn();
    expect(await getContractInfo('X', () => Promise.reject(new Error('down')), memory(), () => 0, log)).toBeNull();
    expect(await getContractInfo('Y', () => Promise.resolve(null), memory(), () => 0, log)).toBeNull();
    expect(log).toHaveBeenCalledTimes(2);
  });
});

describe('reference data', () => {
  it('accepts strings or objects for tactics and currencies', () => {
    expect(normalizeTactics(['grid', { value: 'single', label: 'Trend' }, { type: 'pegasus' }, 5])).toEqual([{ value: 'grid' }, { value: 'single', label: 'Trend' }, { value: 'pegasus' }]);
    expect(normalizeTactics({ list: ['grid'] })).toEqual([{ value: 'grid' }]);
    // contracts market.ts shapes
    expect(normalizeTactics([{ type: 'grid', nameKey: 'strategy.grid', page: 'crypto_grid' }])).toEqual([{ value: 'grid', page: 'crypto_grid' }]);
    const instrument = { market: 'crypto', quote: 'USDT', tickSize: 0.1, digits: 1, contractSize: 0.001, minQty: 1, qtyStep: 1, maxLeverage: 125 };
    expect(
      normalizeCurrencies([
        { symbol: 'BTCUSDT', instrument, ranges: [{ source: 'binance', timeframe: '1m', firstTime: 5, lastTime: 50, count: 9 }, { source: 'binance', timeframe: '1h', firstTime: 1, lastTime: 40, count: 2 }] },
      ]),
    ).toEqual([{ symbol: 'BTCUSDT', from: 1, to: 50, instrument }]);
    expect(normalizeCurrencies([{ symbol: 'BTCUSDT', from: 1, to: 2 }, 'EURUSD', { symbol: 'X', firstTime: '2025-01-01T00:00:00Z' }])).toEqual([
      { symbol: 'BTCUSDT', from: 1, to: 2 },
      { symbol: 'EURUSD' },
      { symbol: 'X', from: Date.UTC(2025, 0, 1) },
    ]);
  });
});

describe('recommendation presets', () => {
  it('shows presets with identical figures once, under each of their tiers', async () => {
    const { distinctPresets } = await import('../src/features/backtest/presets');
    const metrics = { status: 2, totalReturn: 0.1, maxDrawdown: 0.05, winRate: 0.6, tradeCount: 12, sharpe: 1.2 };
    const preset = (tier: 'conservative' | 'balanced' | 'aggressive', totalReturn: number) => ({
      tier,
      params: { gap: 0.5 },
      searched: { gap: 0.5 },
      inSample: { ...metrics, totalReturn },
      outOfSample: metrics,
      validated: true,
      ai: null,
    });
    const shown = distinctPresets([preset('conservative', 0.1), preset('balanced', 0.2), preset('aggressive', 0.1)]);
    expect(shown.map((s) => s.tiers)).toEqual([['conservative', 'aggressive'], ['balanced']]);
    const merged = distinctPresets([preset('conservative', 0.1), preset('balanced', 0.1)]);
    expect(merged).toHaveLength(1);
    expect(merged[0].preset.tier).toBe('balanced');
    expect(distinctPresets([preset('conservative', 0.1), preset('balanced', 0.2), preset('aggressive', 0.3)])).toHaveLength(3);
  });
});

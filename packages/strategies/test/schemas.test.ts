import { describe, expect, it } from 'vitest';
import {
  blueBandsSchema,
  checkQty,
  commonParamsSchema,
  contrarianMartinSchema,
  daySingleSchema,
  gridSchema,
  inversionRevertSchema,
  marcoHuntSchema,
  monthSingleSchema,
  parseIsoMs,
  pegasusSchema,
  purgeRevertSchema,
  qtyRulesFor,
  singleSchema,
  strategyParamSchemas,
  validationMessageKeys,
  weekSingleSchema,
} from '../src/schemas';

const crypto = { market: 'crypto', symbol: 'BTCUSDT', capital: 10_000, leverage: 10 } as const;
const forex = { market: 'forex', symbol: 'EURUSD', capital: 10_000, leverage: 100, spread: 10 } as const;

type Schema = { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } } };
function messages(schema: Schema, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error!.issues.map((i) => i.message);
}
function expectMessage(schema: Schema, value: unknown, key: string) {
  expect(messages(schema, value)).toContain(key);
}

describe('common parameters', () => {
  it('accepts a minimal crypto and forex parameter set and fills defaults', () => {
    const r = commonParamsSchema.parse(crypto);
    expect(r).toMatchObject({ side: 'long', useAiIndicator: false, addImmediately: false, unit: 'ZHANG', timezone: 'UTC' });
    expect(commonParamsSchema.safeParse(forex).success).toBe(true);
  });
  it('symbol: letters + USDT|USD, six-letter forex pairs, else Invalid symbol format', () => {
    for (const s of ['BTCUSDT', 'ethusdt', 'XAUUSD', 'EURUSD', 'USDJPY']) expect(messages(commonParamsSchema, { ...crypto, symbol: s })).toEqual([]);
    for (const s of ['BTC-USDT', 'BTC', '1INCHUSDT', 'BTCUSDC', '']) expectMessage(commonParamsSchema, { ...crypto, symbol: s }, 'validation.invalidSymbolFormat');
    expect(commonParamsSchema.parse({ ...crypto, symbol: ' ethusdt ' }).symbol).toBe('ETHUSDT');
  });
  it('capital ≥ 1000', () => {
    expectMessage(commonParamsSchema, { ...crypto, capital: 999.99 }, 'validation.capitalMin');
    expect(messages(commonParamsSchema, { ...crypto, capital: 1000 })).toEqual([]);
    expectMessage(commonParamsSchema, { ...crypto, capital: undefined }, 'validation.required');
    expectMessage(commonParamsSchema, { ...crypto, capital: '5000' }, 'validation.invalidType');
  });
  it('leverage is required, integer, 1–125 crypto and 1–500 forex', () => {
    expectMessage(commonParamsSchema, { ...crypto, leverage: undefined }, 'validation.leverageRequired');
    expectMessage(commonParamsSchema, { ...crypto, leverage: 0 }, 'validation.leverageRequired');
    expectMessage(commonParamsSchema, { ...crypto, leverage: 2.5 }, 'validation.integer');
    expectMessage(commonParamsSchema, { ...crypto, leverage: 126 }, 'validation.leverageRangeCrypto');
    expect(messages(commonParamsSchema, { ...crypto, leverage: 125 })).toEqual([]);
    expect(messages(commonParamsSchema, { ...forex, leverage: 500 })).toEqual([]);
    expectMessage(commonParamsSchema, { ...forex, leverage: 501 }, 'validation.leverageRangeForex');
  });
  it('enums: market, interval, side, unit', () => {
    expectMessage(commonParamsSchema, { ...crypto, market: 'stocks' }, 'validation.invalidOption');
    expectMessage(commonParamsSchema, { ...crypto, interval: '2h' }, 'validation.invalidOption');
    expectMessage(commonParamsSchema, { ...crypto, side: 'both' }, 'validation.invalidOption');
    expectMessage(commonParamsSchema, { ...crypto, unit: 'LOT' }, 'validation.invalidOption');
    for (const side of ['long', 'short', 'ai', 'aiLongOnly', 'aiShortOnly']) expect(messages(commonParamsSchema, { ...crypto, side })).toEqual([]);
    for (const interval of ['1m', '5m', '15m', '30m', '1h', '4h', '1d']) expect(messages(commonParamsSchema, { ...crypto, interval })).toEqual([]);
  });
  it('overall take profit / stop loss > 0', () => {
    expectMessage(commonParamsSchema, { ...crypto, takeProfit: 0 }, 'validation.takeProfitPositive');
    expectMessage(commonParamsSchema, { ...crypto, stopLoss: -5 }, 'validation.stopLossPositive');
    expect(messages(commonParamsSchema, { ...crypto, takeProfit: 0.01, stopLoss: 100 })).toEqual([]);
  });
  it('fees: 0 ≤ rate < 100 %', () => {
    expectMessage(commonParamsSchema, { ...crypto, takerFee: 1 }, 'validation.takerFeeRange');
    expectMessage(commonParamsSchema, { ...crypto, makerFee: -0.0001 }, 'validation.feeRange');
    expectMessage(commonParamsSchema, { ...crypto, makerFee: 1 }, 'validation.feeRange');
    expect(messages(commonParamsSchema, { ...crypto, makerFee: 0, takerFee: 0.9999 })).toEqual([]);
  });
  it('spread: > 0 and required for forex only', () => {
    expectMessage(commonParamsSchema, { ...forex, spread: 0 }, 'validation.spreadPositive');
    expectMessage(commonParamsSchema, { ...forex, spread: undefined }, 'validation.spreadRequired');
    expect(messages(commonParamsSchema, crypto)).toEqual([]);
  });
  it('range: valid ISO dates, start ≤ end, at least 7 days', () => {
    expectMessage(commonParamsSchema, { ...crypto, start: '2024-02-30', end: '2024-03-30' }, 'validation.invalidDate');
    expectMessage(commonParamsSchema, { ...crypto, start: '2024-03-10', end: '2024-03-01' }, 'validation.startAfterEnd');
    expectMessage(commonParamsSchema, { ...crypto, start: '2024-03-01T00:00', end: '2024-03-07T23:59' }, 'validation.rangeMin7Days');
    expect(messages(commonParamsSchema, { ...crypto, start: '2024-03-01', end: '2024-03-08' })).toEqual([]);
    expect(messages(commonParamsSchema, { ...crypto, start: '2024-03-01T00:00:00+08:00', end: '2024-03-07T16:00:00Z' })).toEqual([]);
  });
  it('timezone: IANA names and fixed offsets', () => {
    for (const timezone of ['UTC', 'Asia/Shanghai', 'UTC+08:00', '-05:00']) expect(messages(commonParamsSchema, { ...crypto, timezone })).toEqual([]);
    expectMessage(commonParamsSchema, { ...crypto, timezone: 'Mars/Olympus' }, 'validation.invalidTimezone');
  });
  it('parses ISO dates without the Date global, matching Date.parse', () => {
    for (const t of ['2024-01-01T00:00:00Z', '2025-11-30T23:59:00.500Z', '2000-02-29T12:00:00+05:30', '1999-12-31']) {
      const expected = Date.parse(t.length === 10 ? `${t}T00:00:00Z` : t);
      expect(parseIsoMs(t)).toBe(expected);
    }
    expect(parseIsoMs('2023-02-29')).toBeNaN();
    expect(parseIsoMs('yesterday')).toBeNaN();
  });
});

describe('strategy schemas', () => {
  it('single: lots > 0, three per-order distances > 0, gap required with adds', () => {
    expect(messages(singleSchema, { ...crypto, firstLots: 1 })).toEqual([]);
    expectMessage(singleSchema, { ...crypto, firstLots: 0 }, 'validation.lotsPositive');
    expectMessage(singleSchema, { ...crypto, firstLots: 1, secondLots: 1 }, 'validation.gapRequired');
    expectMessage(singleSchema, { ...crypto, firstLots: 1, thirdLots: 1, gap: 1 }, 'validation.secondLotsRequired');
    expectMessage(singleSchema, { ...crypto, firstLots: 1, orderTakeProfit: [1, 0] }, 'validation.orderTakeProfitPositive');
    expectMessage(singleSchema, { ...crypto, firstLots: 1, orderStopLoss: [1, null, -1] }, 'validation.orderStopLossPositive');
    expectMessage(singleSchema, { ...crypto, firstLots: 1, orderStopLoss: [1, 1, 1, 1] }, 'validation.maxThreeOrders');
    expect(messages(singleSchema, { ...crypto, firstLots: 1, secondLots: 2, thirdLots: 3, gap: 0.5, orderTakeProfit: [1, null, 2] })).toEqual([]);
  });
  it('windowed trends: HH:mm windows, non-empty', () => {
    expectMessage(daySingleSchema, { ...forex, firstLots: 0.1 }, 'validation.required');
    expect(messages(daySingleSchema, { ...forex, firstLots: 0.1, windowStart: '08:00', windowEnd: '17:30' })).toEqual([]);
    expectMessage(daySingleSchema, { ...forex, firstLots: 0.1, windowStart: '8:00', windowEnd: '17:30' }, 'validation.invalidTime');
    expectMessage(daySingleSchema, { ...forex, firstLots: 0.1, windowStart: '24:00', windowEnd: '17:30' }, 'validation.invalidTime');
    expectMessage(daySingleSchema, { ...forex, firstLots: 0.1, windowStart: '09:00', windowEnd: '09:00' }, 'validation.windowEmpty');
    expect(weekSingleSchema.parse({ ...forex, firstLots: 0.1 })).toMatchObject({ windowStart: '00:00', windowEnd: '20:00' });
    expect(messages(monthSingleSchema, { ...forex, firstLots: 0.1 })).toEqual([]);
  });
  it('grid: ≥ 2 grids (integer), gap > 0, lots > 0', () => {
    const ok = { ...crypto, gridNumber: 10, gap: 0.5, lotsPerGrid: 1 };
    expect(messages(gridSchema, ok)).toEqual([]);
    expectMessage(gridSchema, { ...ok, gridNumber: 1 }, 'validation.gridNumberMin');
    expectMessage(gridSchema, { ...ok, gridNumber: 2.5 }, 'validation.integer');
    expectMessage(gridSchema, { ...ok, gridNumber: 501 }, 'validation.gridNumberMax');
    expectMessage(gridSchema, { ...ok, gap: 0 }, 'validation.gapPositive');
    expectMessage(gridSchema, { ...ok, lotsPerGrid: 0 }, 'validation.lotsPositive');
  });
  it('contrarian martin: multiplier ≥ 0.01, refill interval > 0, order number ≥ 1, cycle TP > 0', () => {
    const ok = { ...forex, firstLots: 0.01, multiplier: 2, refillInterval: 200, orderNumber: 5, cycleTakeProfit: 100 };
    expect(messages(contrarianMartinSchema, ok)).toEqual([]);
    expectMessage(contrarianMartinSchema, { ...ok, multiplier: 0.009 }, 'validation.multiplierMin');
    expect(messages(contrarianMartinSchema, { ...ok, multiplier: 0.01 })).toEqual([]);
    expectMessage(contrarianMartinSchema, { ...ok, refillInterval: 0 }, 'validation.refillIntervalPositive');
    expectMessage(contrarianMartinSchema, { ...ok, orderNumber: 0 }, 'validation.orderNumberMin');
    expectMessage(contrarianMartinSchema, { ...ok, orderNumber: 51 }, 'validation.orderNumberMax');
    expectMessage(contrarianMartinSchema, { ...ok, cycleTakeProfit: 0 }, 'validation.cycleTakeProfitPositive');
  });
  it('pegasus: ATR multiples > 0, gap needed for adds, defaults', () => {
    const ok = { ...crypto, firstLots: 1 };
    expect(pegasusSchema.parse(ok)).toMatchObject({ lookback: 20, atrStop: 2, atrTrail: 3, orderNumber: 1 });
    expectMessage(pegasusSchema, { ...ok, atrStop: 0 }, 'validation.atrMultiplePositive');
    expectMessage(pegasusSchema, { ...ok, lookback: 1 }, 'validation.lookbackMin');
    expectMessage(pegasusSchema, { ...ok, orderNumber: 3 }, 'validation.gapRequired');
  });
  it('marco hunt: per-order TP/SL > 0, refill interval needed for refills', () => {
    const ok = { ...crypto, firstLots: 1, orderTakeProfit: 1, orderStopLoss: 1 };
    expect(messages(marcoHuntSchema, ok)).toEqual([]);
    expectMessage(marcoHuntSchema, { ...ok, orderTakeProfit: 0 }, 'validation.orderTakeProfitPositive');
    expectMessage(marcoHuntSchema, { ...ok, orderStopLoss: 0 }, 'validation.orderStopLossPositive');
    expectMessage(marcoHuntSchema, { ...ok, orderNumber: 2 }, 'validation.refillIntervalRequired');
    expectMessage(marcoHuntSchema, { ...ok, multiplier: 0 }, 'validation.multiplierMin');
  });
  it('blue bands: SL > 0, band period and deviation', () => {
    const ok = { ...crypto, firstLots: 1, orderStopLoss: 2 };
    expect(blueBandsSchema.parse(ok)).toMatchObject({ bbPeriod: 20, bbDeviation: 2, orderNumber: 1, multiplier: 1 });
    expectMessage(blueBandsSchema, { ...ok, bbPeriod: 1 }, 'validation.periodMin');
    expectMessage(blueBandsSchema, { ...ok, bbDeviation: 0 }, 'validation.deviationPositive');
    expectMessage(blueBandsSchema, { ...ok, orderStopLoss: 0 }, 'validation.orderStopLossPositive');
  });
  it('purge revert: sweep and buffer ≥ 0, rr > 0', () => {
    const ok = { ...forex, firstLots: 0.1 };
    expect(purgeRevertSchema.parse(ok)).toMatchObject({ lookback: 20, sweep: 0, buffer: 0, rr: 2 });
    expectMessage(purgeRevertSchema, { ...ok, sweep: -1 }, 'validation.nonNegative');
    expectMessage(purgeRevertSchema, { ...ok, rr: 0 }, 'validation.rrPositive');
  });
  it('inversion revert: RSI levels ordered inside 0–100', () => {
    const ok = { ...forex, firstLots: 0.1, orderTakeProfit: 100, orderStopLoss: 100 };
    expect(inversionRevertSchema.parse(ok)).toMatchObject({ rsiPeriod: 14, overbought: 70, oversold: 30 });
    expectMessage(inversionRevertSchema, { ...ok, oversold: 80 }, 'validation.rsiLevels');
    expectMessage(inversionRevertSchema, { ...ok, overbought: 100 }, 'validation.rsiLevels');
  });
  it('every strategy schema also runs the common rules', () => {
    const own = { firstLots: 1, gap: 1, gridNumber: 5, lotsPerGrid: 1, multiplier: 1, refillInterval: 1, orderNumber: 2, cycleTakeProfit: 1, windowStart: '08:00', windowEnd: '17:00' };
    for (const [type, schema] of Object.entries(strategyParamSchemas)) {
      const tpsl = type.includes('single') ? {} : { orderTakeProfit: 1, orderStopLoss: 1 };
      expect(messages(schema, { ...crypto, ...own, ...tpsl })).toEqual([]);
      expectMessage(schema, { ...crypto, ...own, ...tpsl, capital: 10 }, 'validation.capitalMin');
      // cross-field rules run once the fields themselves are valid
      expectMessage(schema, { ...crypto, ...own, ...tpsl, leverage: 200 }, 'validation.leverageRangeCrypto');
    }
  });
  it('every message a schema produces is a listed key', () => {
    const bad = [
      { ...crypto, symbol: 'x', capital: 1, leverage: 999, takeProfit: 0, stopLoss: 0, takerFee: 2, makerFee: -1, start: '2024-01-09', end: '2024-01-01' },
      { ...forex, spread: undefined, start: '2024-01-01', end: '2024-01-02', timezone: 'X', firstLots: 0, gap: 0, gridNumber: 0, lotsPerGrid: 0 },
      { ...forex, multiplier: 0, refillInterval: 0, orderNumber: 99, cycleTakeProfit: 0, orderTakeProfit: 0, orderStopLoss: 0, lookback: 0, atrStop: 0, atrTrail: 0, sweep: -1, rr: 0, bbPeriod: 0, bbDeviation: 0, overbought: 0, windowStart: 'x' },
    ];
    const seen = new Set<string>();
    for (const schema of Object.values(strategyParamSchemas)) for (const v of bad) for (const m of messages(schema, v)) seen.add(m);
    expect(seen.size).toBeGreaterThan(20);
    for (const m of seen) expect(validationMessageKeys).toContain(m);
  });
});

describe('checkQty', () => {
  const rules = { minQty: 0.01, qtyStep: 0.01 };
  it('keeps a valid size', () => expect(checkQty(0.37, rules)).toEqual({ qty: 0.37, message: null, error: null }));
  it('snaps down to the step with a notice', () => expect(checkQty(0.379, rules)).toEqual({ qty: 0.37, message: 'validation.qtyStepAdjusted', error: null }));
  it('rejects sizes below the minimum', () => expect(checkQty(0.005, rules).error).toBe('validation.qtyBelowMin'));
  it('rejects non-positive sizes', () => expect(checkQty(0, rules).error).toBe('validation.lotsPositive'));
  it('handles integer contract steps', () => expect(checkQty(7.9, { minQty: 1, qtyStep: 1 })).toMatchObject({ qty: 7, message: 'validation.qtyStepAdjusted' }));
  it('converts contract rules to coins for the KE unit', () => {
    const btc = { market: 'crypto' as const, minQty: 0.01, qtyStep: 0.01, contractSize: 0.01 };
    expect(qtyRulesFor(btc, 'KE')).toEqual({ minQty: 0.0001, qtyStep: 0.0001 });
    expect(qtyRulesFor(btc, 'ZHANG')).toEqual({ minQty: 0.01, qtyStep: 0.01 });
  });
});

describe('schemas entry point', () => {
  it('imports nothing but zod and other schema files (the web bundles it)', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const path = await import('node:path');
    const src = path.resolve(import.meta.dirname, '../src');
    const files = ['schemas.ts', ...readdirSync(src).filter((d) => !d.includes('.')).map((d) => `${d}/schema.ts`)].filter((f) => {
      try {
        readFileSync(path.join(src, f));
        return true;
      } catch {
        return false;
      }
    });
    expect(files.length).toBeGreaterThan(12);
    for (const f of files) {
      const imports = [...readFileSync(path.join(src, f), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      for (const i of imports) expect(i === 'zod' || /\/schema$/.test(i), `${f} imports ${i}`).toBe(true);
    }
  });
});

describe('every error at once', () => {
  it('the cross-field rules run beside the field errors: a short range is named with a low capital and a bad grid count', () => {
    const r = gridSchema.safeParse({ ...crypto, capital: 10, gridNumber: 1, gap: 0.05, lotsPerGrid: 0.05, start: '2024-01-01', end: '2024-01-03' });
    expect(r.success).toBe(false);
    const byPath = Object.fromEntries(r.error!.issues.map((i) => [i.path.join('.'), i.message]));
    expect(byPath).toMatchObject({ capital: 'validation.capitalMin', gridNumber: 'validation.gridNumberMin', end: 'validation.rangeMin7Days' });
  });
  it('a field with its own error gets no second one from a rule, and a malformed value breaks no rule', () => {
    const r = commonParamsSchema.safeParse({ ...forex, spread: 'wide', start: 42, end: '2024-01-03', leverage: 'x' });
    const issues = r.error!.issues.map((i) => `${i.path.join('.')}:${i.message}`);
    expect(issues.filter((i) => i.startsWith('spread:'))).toHaveLength(1);
    expect(issues.filter((i) => i.startsWith('leverage:'))).toHaveLength(1);
    expect(issues.some((i) => i.startsWith('start:'))).toBe(true);
  });
});

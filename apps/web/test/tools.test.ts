// Position and risk calculators (src/features/tools/calc.ts).
import { describe, expect, it } from 'vitest';
import { instrumentsFrom, mergeInstruments } from '../src/features/tools/instruments';
import { floorToStep, LOCAL_INSTRUMENTS, parseInput, pipSize, pipValuePerLot, positionSize, riskFigures, type CalcInstrument } from '../src/features/tools/calc';

const ins = (symbol: string) => LOCAL_INSTRUMENTS.find((i) => i.symbol === symbol) as CalcInstrument;
const ok = <T>(r: { ok: true; value: T } | { ok: false; errors: string[] }): T => {
  if (!r.ok) throw new Error(`unexpected errors ${r.errors.join(',')}`);
  return r.value;
};

describe('inputs and rounding', () => {
  it('parses numbers with separators and refuses text', () => {
    expect(parseInput('1,000.5')).toBe(1000.5);
    expect(parseInput(' 2 ')).toBe(2);
    expect(parseInput('')).toBeUndefined();
    expect(parseInput('abc')).toBeUndefined();
    expect(parseInput('1e3')).toBe(1000);
  });
  it('rounds sizes down to the step without float noise', () => {
    expect(floorToStep(0.3 / 0.1 / 10, 0.01)).toBe(0.3);
    expect(floorToStep(1.239, 0.01)).toBe(1.23);
    expect(floorToStep(7, 5)).toBe(5);
  });
  it('knows pip sizes and pip values (1 pip = 10 points)', () => {
    expect(pipSize(ins('EURUSD'))).toBe(0.0001);
    expect(pipSize(ins('USDJPY'))).toBe(0.01);
    expect(pipSize(ins('XAUUSD'))).toBe(0.1);
    expect(pipValuePerLot(ins('EURUSD'))).toBeCloseTo(10, 10);
    expect(pipValuePerLot(ins('XAUUSD'))).toBeCloseTo(10, 10);
    expect(pipValuePerLot(ins('USDJPY'), 150)).toBeCloseTo(1000 / 150, 10);
    expect(pipValuePerLot(ins('USDJPY'))).toBeUndefined();
    const cross: CalcInstrument = { ...ins('EURUSD'), symbol: 'EURGBP', quote: 'GBP' };
    expect(pipValuePerLot(cross)).toBeUndefined();
    expect(pipValuePerLot(cross, undefined, 1.25)).toBeCloseTo(12.5, 10);
  });
});

describe('position size', () => {
  it('forex: 10,000 USD, 1 %, 50 pips on EURUSD → 0.2 lots', () => {
    const r = ok(positionSize({ instrument: ins('EURUSD'), balance: 10_000, riskPercent: 1, stopDistance: 50 }));
    expect(r.riskAmount).toBe(100);
    expect(r.size).toBe(0.2);
    expect(r.units).toBe(20_000);
    expect(r.actualRisk).toBeCloseTo(100, 8);
    expect(r.pipValue).toBeCloseTo(10, 10);
    expect(r.stopPrice).toBeCloseTo(0.005, 12);
  });
  it('forex: points are a tenth of a pip, and a price distance works too', () => {
    const a = ok(positionSize({ instrument: ins('EURUSD'), balance: 10_000, riskPercent: 1, stopDistance: 500, stopUnit: 'points' }));
    const b = ok(positionSize({ instrument: ins('EURUSD'), balance: 10_000, riskPercent: 1, stopDistance: 0.005, stopUnit: 'price' }));
    expect(a.size).toBe(0.2);
    expect(b.size).toBe(0.2);
  });
  it('forex: rounds down, never risking more than asked', () => {
    const r = ok(positionSize({ instrument: ins('EURUSD'), balance: 10_000, riskPercent: 1, stopDistance: 30 }));
    expect(r.rawSize).toBeCloseTo(0.3333, 3);
    expect(r.size).toBe(0.33);
    expect(r.actualRisk).toBeLessThanOrEqual(100);
    expect(r.actualRiskPercent).toBeCloseTo(0.99, 6);
  });
  it('forex: USD-based pairs need the price; margin from leverage', () => {
    expect(positionSize({ instrument: ins('USDJPY'), balance: 10_000, riskPercent: 1, stopDistance: 50 })).toEqual({ ok: false, errors: ['price'] });
    const r = ok(positionSize({ instrument: ins('USDJPY'), balance: 10_000, riskPercent: 1, stopDistance: 50, price: 150, leverage: 100 }));
    // pip value 1000/150 = 6.667 USD; 100 / (50 × 6.667) = 0.3 lots
    expect(r.size).toBe(0.3);
    expect(r.notional).toBe(30_000);
    expect(r.margin).toBe(300);
  });
  it('forex: a cross needs a pip value typed by the user', () => {
    const cross: CalcInstrument = { ...ins('EURUSD'), symbol: 'EURGBP', quote: 'GBP' };
    expect(positionSize({ instrument: cross, balance: 10_000, riskPercent: 1, stopDistance: 50 })).toEqual({ ok: false, errors: ['pipValue'] });
    expect(ok(positionSize({ instrument: cross, balance: 10_000, riskPercent: 1, stopDistance: 50, pipValueOverride: 12.5 })).size).toBe(0.16);
  });
  it('crypto: 10,000 USDT, 2 %, 500 USDT stop on BTC (0.01 BTC a contract) → 40 contracts', () => {
    const r = ok(positionSize({ instrument: ins('BTCUSDT'), balance: 10_000, riskPercent: 2, stopDistance: 500, price: 60_000, leverage: 10 }));
    expect(r.riskAmount).toBe(200);
    expect(r.size).toBe(40);
    expect(r.units).toBe(0.4);
    expect(r.notional).toBe(24_000);
    expect(r.margin).toBe(2_400);
  });
  it('flags a size under the minimum instead of rounding up', () => {
    const r = ok(positionSize({ instrument: ins('EURUSD'), balance: 100, riskPercent: 0.5, stopDistance: 100 }));
    expect(r.belowMin).toBe(true);
    expect(r.size).toBe(0);
    expect(r.actualRisk).toBe(0);
  });
  it('names every bad input', () => {
    const r = positionSize({ instrument: ins('BTCUSDT'), balance: 0, riskPercent: 120, stopDistance: -1, price: 0, leverage: 0 });
    expect(r).toEqual({ ok: false, errors: ['balance', 'riskPercent', 'stopDistance', 'price', 'leverage'] });
  });
});

describe('figures users trust', () => {
  it('refuses a stop nearer than one price step, or at the price itself', () => {
    // 0.005 pip on EURUSD asked 2,000 lots.
    const tiny = positionSize({ instrument: ins('EURUSD'), balance: 10_000, riskPercent: 1, stopDistance: 0.005 });
    expect(tiny).toEqual({ ok: false, errors: ['stopTooSmall'] });
    expect(positionSize({ instrument: ins('EURUSD'), balance: 10_000, riskPercent: 1, stopDistance: 1, stopUnit: 'points' }).ok).toBe(true);
    expect(positionSize({ instrument: ins('BTCUSDT'), balance: 10_000, riskPercent: 1, stopDistance: 0.05 })).toEqual({ ok: false, errors: ['stopTooSmall'] });
    expect(positionSize({ instrument: ins('BTCUSDT'), balance: 10_000, riskPercent: 1, stopDistance: 60_000, price: 60_000 })).toEqual({ ok: false, errors: ['stopTooLarge'] });
  });
  it('warns when the margin is above the balance', () => {
    // 20 lots of EURUSD at 1.1 with 30× leverage on 10,000: 73,333 margin.
    const r = ok(positionSize({ instrument: ins('EURUSD'), balance: 10_000, riskPercent: 2, stopDistance: 1, price: 1.1, leverage: 30 }));
    expect(r.size).toBe(20);
    expect(r.margin).toBeCloseTo(73_333.33, 1);
    expect(r.marginAboveBalance).toBe(true);
    const fine = ok(positionSize({ instrument: ins('EURUSD'), balance: 10_000, riskPercent: 1, stopDistance: 50, price: 1.1, leverage: 30 }));
    expect(fine.marginAboveBalance).toBe(false);
  });
});

describe('risk: margin and liquidation', () => {
  it('long 10× at 60,000 with 0.5 % maintenance', () => {
    const r = ok(riskFigures({ side: 'long', entry: 60_000, quantity: 0.5, leverage: 10, maintenanceMarginRate: 0.005 }));
    expect(r.notional).toBe(30_000);
    expect(r.initialMargin).toBe(3_000);
    expect(r.maintenanceMargin).toBe(150);
    expect(r.liquidationPrice).toBeCloseTo((60_000 * 0.9) / 0.995, 6);
    expect(r.liquidationDistance).toBeCloseTo(1 - 0.9 / 0.995, 10);
  });
  it('short 20× at 3,000 with 1 % maintenance', () => {
    const r = ok(riskFigures({ side: 'short', entry: 3_000, quantity: 2, leverage: 20, maintenanceMarginRate: 0.01 }));
    expect(r.initialMargin).toBe(300);
    expect(r.liquidationPrice).toBeCloseTo((3_000 * 1.05) / 1.01, 6);
  });
  it('equity at the liquidation price equals the maintenance margin there', () => {
    for (const side of ['long', 'short'] as const) {
      const input = { side, entry: 100, quantity: 3, leverage: 7, maintenanceMarginRate: 0.02, extraMargin: 5 };
      const r = ok(riskFigures(input));
      const p = r.liquidationPrice;
      const equity = r.initialMargin + 5 + (side === 'long' ? 1 : -1) * 3 * (p - 100);
      expect(equity).toBeCloseTo(p * 3 * 0.02, 8);
    }
  });
  it('cross margin: extra balance moves the liquidation further away; 1× long is never liquidated', () => {
    const base = ok(riskFigures({ side: 'long', entry: 100, quantity: 1, leverage: 10, maintenanceMarginRate: 0.01 }));
    const cross = ok(riskFigures({ side: 'long', entry: 100, quantity: 1, leverage: 10, maintenanceMarginRate: 0.01, extraMargin: 20 }));
    expect(cross.liquidationPrice).toBeLessThan(base.liquidationPrice);
    expect(ok(riskFigures({ side: 'long', entry: 100, quantity: 1, leverage: 1, maintenanceMarginRate: 0 })).liquidationPrice).toBe(0);
  });
  it('names every bad input', () => {
    expect(riskFigures({ side: 'long', entry: 0, quantity: -1, leverage: 0.5, maintenanceMarginRate: 1, extraMargin: -1 })).toEqual({
      ok: false,
      errors: ['entry', 'quantity', 'leverage', 'maintenanceMarginRate', 'extraMargin'],
    });
  });
});

describe('instruments from the currency list', () => {
  it('reads instrument facts, keeps the market, drops incomplete items, and fills in the local catalog', () => {
    const data = [
      { symbol: 'ETHUSDT', instrument: { market: 'crypto', quote: 'USDT', tickSize: 0.01, digits: 2, contractSize: 0.1, minQty: 0.01, qtyStep: 0.01, maxLeverage: 100 }, ranges: [] },
      { symbol: 'ADAUSDT', instrument: { market: 'crypto', quote: 'USDT', tickSize: 0.0001, digits: 4, contractSize: 10, minQty: 1, qtyStep: 1, maxLeverage: 50 }, ranges: [] },
      { symbol: 'EURUSD', instrument: { market: 'forex', quote: 'USD', tickSize: 0.00001, digits: 5, contractSize: 100_000, minQty: 0.01, qtyStep: 0.01, maxLeverage: 500 }, ranges: [] },
      { symbol: 'BROKEN', instrument: { market: 'crypto', tickSize: 0 } },
      'TEXT',
    ];
    const server = instrumentsFrom(data, 'crypto');
    expect(server.map((i) => i.symbol)).toEqual(['ETHUSDT', 'ADAUSDT']);
    expect(server[0]).toMatchObject({ contractSize: 0.1, maintenanceMarginRate: 0.005, maxLeverage: 100 });
    expect(server[1].maintenanceMarginRate).toBeUndefined();
    const merged = mergeInstruments(server, 'crypto').map((i) => i.symbol);
    expect(merged.slice(0, 2)).toEqual(['ETHUSDT', 'ADAUSDT']);
    expect(merged).toContain('BTCUSDT');
    expect(merged.filter((s) => s === 'ETHUSDT')).toHaveLength(1);
    expect(merged).not.toContain('EURUSD');
    expect(instrumentsFrom({ list: data }, 'forex').map((i) => i.symbol)).toEqual(['EURUSD']);
    expect(instrumentsFrom(null, 'forex')).toEqual([]);
  });
});

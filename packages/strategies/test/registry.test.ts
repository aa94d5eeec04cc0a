import { getInstrument } from '@lq/engine';
import type { Intent, StrategyView } from '@lq/engine';
import { describe, expect, it } from 'vitest';
import { STRATEGY_TYPES, displayNameToType, getStrategy, strategies } from '../src/index';

const btc = getInstrument('BTCUSDT');
const eur = getInstrument('EURUSD');
const xau = getInstrument('XAUUSD');

describe('registry', () => {
  it('has every strategy type of the spec with its pages', () => {
    expect(Object.keys(strategies).sort()).toEqual([...STRATEGY_TYPES].sort());
    const pages = Object.values(strategies).flatMap((d) => d.pages);
    for (const page of ['crypto_single', 'crypto_grid', 'crypto_pegasus', 'crypto_martin', 'crypto_marco', 'crypto_blue', 'forex_single', 'forex_martin', 'forex_grid', 'forex_pegasus', 'forex_dmy', 'forex_marco', 'prt', 'irl']) {
      expect(pages).toContain(page);
    }
    for (const [type, def] of Object.entries(strategies)) {
      expect(def.type).toBe(type);
      expect(def.displayNameKey).toBe(`strategy.${type}`);
    }
    expect(Object.values(displayNameToType).every((t) => t in strategies)).toBe(true);
  });

  it('getStrategy throws a clear error for unknown types', () => {
    expect(getStrategy('grid').type).toBe('grid');
    expect(() => getStrategy('scalper')).toThrow(/Unknown strategy type "scalper".*grid/);
  });

  it('defaults are valid parameter sets and build a strategy for every market of the type', () => {
    for (const def of Object.values(strategies)) {
      for (const inst of [btc, eur, xau]) {
        if (!def.markets.includes(inst.market)) continue;
        const raw = def.defaults(inst, { capital: 10_000, price: inst.market === 'crypto' ? 40_000 : inst.symbol === 'XAUUSD' ? 1900 : 1.1 });
        const parsed = def.schema.safeParse(raw);
        expect(parsed.success, `${def.type} ${inst.symbol}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
        expect(typeof def.fromInput(raw, inst).onCandle).toBe('function');
      }
    }
  });

  it('search spaces name real parameters with sane ranges per market', () => {
    for (const def of Object.values(strategies)) {
      for (const inst of [btc, eur]) {
        const space = def.searchSpace(inst);
        expect(space.length).toBeGreaterThan(1);
        const base = def.defaults(inst, { capital: 10_000, price: inst.market === 'crypto' ? 40_000 : 1.1 });
        for (const p of space) {
          expect(Object.keys(def.schema.shape)).toContain(p.name);
          if (p.kind === 'choice') expect(p.choices!.length).toBeGreaterThan(1);
          else {
            expect(p.min).toBeLessThan(p.max!);
            if (p.log) expect(p.min).toBeGreaterThan(0);
            // both ends of the range are valid values of the schema
            for (const v of [p.min!, p.max!]) {
              const r = def.schema.safeParse({ ...base, [p.name]: v, ...(p.name === 'oversold' ? { overbought: 90 } : {}) });
              expect(r.success, `${def.type}.${p.name}=${v}`).toBe(true);
            }
          }
        }
      }
    }
    const grid = (i: typeof btc) => strategies.grid.searchSpace(i).find((p) => p.name === 'gap')!;
    expect([grid(btc).min, grid(btc).max]).toEqual([0.2, 5]);
    expect([grid(eur).min, grid(eur).max]).toEqual([50, 1000]);
  });

  it('create rejects sizes below the instrument minimum with a message key', () => {
    const raw = { ...strategies.grid.defaults(eur, { capital: 10_000, price: 1.1 }), lotsPerGrid: 0.001 };
    expect(() => strategies.grid.fromInput(raw, eur)).toThrow(/lotsPerGrid: validation.qtyBelowMin/);
  });
});

function staticView(candles: StrategyView['candles'], instrument = btc): { -readonly [K in keyof StrategyView]: StrategyView[K] } {
  return { index: 0, candles, instrument, tickets: [], pending: [], capital: 1e4, equity: 1e4, balance: 1e4, floatingPnl: 0, freeMargin: 1e4, leverage: 10, ai: null, utcOffsetMinutes: 0 };
}

describe('grid orders (decision only)', () => {
  it('rests gridNumber geometric limit buys below the anchor, each with a one-gap target', async () => {
    const { bars } = await import('./helpers');
    const s = strategies.grid.fromInput({ market: 'crypto', symbol: 'BTCUSDT', capital: 10_000, leverage: 10, gridNumber: 3, gap: 1, lotsPerGrid: 2 }, btc);
    const view = staticView(bars([[100, 100, 100, 100]]));
    const out: Intent[] = [];
    s.onCandle(view, out);
    expect(out).toEqual([
      { kind: 'open', tag: 's2-l1', side: 'long', qty: 2, type: 'limit', price: 99, takeProfit: 100, takeProfitReason: 'gridTakeProfit' },
      { kind: 'open', tag: 's3-l2', side: 'long', qty: 2, type: 'limit', price: 98, takeProfit: 99, takeProfitReason: 'gridTakeProfit' },
      { kind: 'open', tag: 's4-l3', side: 'long', qty: 2, type: 'limit', price: 97.1, takeProfit: 98, takeProfitReason: 'gridTakeProfit' },
    ]);
  });
  it('forex short grid: arithmetic levels above the anchor', async () => {
    const { bars } = await import('./helpers');
    const s = strategies.grid.fromInput({ market: 'forex', symbol: 'EURUSD', capital: 10_000, leverage: 100, spread: 10, side: 'short', gridNumber: 2, gap: 100, lotsPerGrid: 0.1, addImmediately: true }, eur);
    const view = staticView(bars([[1.1, 1.1, 1.1, 1.1]]), eur);
    const out: Intent[] = [];
    s.onCandle(view, out);
    expect(out).toEqual([
      { kind: 'open', tag: 's1-l0', side: 'short', qty: 0.1, type: 'market', takeProfit: 1.099, takeProfitReason: 'gridTakeProfit' },
      { kind: 'open', tag: 's2-l1', side: 'short', qty: 0.1, type: 'limit', price: 1.101, takeProfit: 1.1, takeProfitReason: 'gridTakeProfit' },
    ]);
  });
});

describe('checkSizes', () => {
  it('reports step corrections as notices and sizes below the minimum as errors', async () => {
    const { checkSizes } = await import('../src/index');
    expect(checkSizes({ firstLots: 0.1, secondLots: 0.25 }, eur)).toEqual([]);
    expect(checkSizes({ firstLots: 0.123, lotsPerGrid: 0.004 }, eur)).toEqual([
      { field: 'firstLots', value: 0.123, qty: 0.12, message: 'validation.qtyStepAdjusted', error: false },
      { field: 'lotsPerGrid', value: 0.004, qty: 0, message: 'validation.qtyBelowMin', error: true },
    ]);
    // KE: coins; BTCUSDT contracts are 0.01 BTC with a 0.01-contract step → 0.0001 BTC steps
    expect(checkSizes({ unit: 'KE', firstLots: 0.00015 }, btc)).toEqual([
      { field: 'firstLots', value: 0.00015, qty: 0.0001, message: 'validation.qtyStepAdjusted', error: false },
    ]);
  });
});

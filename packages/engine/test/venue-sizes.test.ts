import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fromVenueAmount,
  getInstrument,
  instruments,
  isVenueName,
  minOrderQty,
  notionalOf,
  toVenueAmount,
  VENUE_SIZE_SPECS,
  venuesOf,
  withVenueSizes,
  type VenueName,
} from '../src';

const multipleOf = (x: number, step: number) => {
  const r = x / step;
  return Math.abs(r - Math.round(r)) < 1e-9 * Math.max(1, Math.abs(r));
};

describe('order sizes per venue', () => {
  it('Binance BTCUSDT: 0.001 BTC steps are 0.1 contracts of 0.01 BTC, MIN_NOTIONAL 100', () => {
    const i = getInstrument('BTCUSDT', 'binance');
    expect(i).toMatchObject({ venue: 'binance', contractSize: 0.01, qtyStep: 0.1, minQty: 0.1, maxQty: 100_000, minNotional: 100, venueUnit: 1 });
    expect(toVenueAmount(0.2, i)).toBe(0.002);
    expect(fromVenueAmount(0.002, i)).toBe(0.2);
    // 0.1 contracts = 0.001 BTC = 90 USDT at 90 000: below the notional minimum, so 0.2.
    expect(minOrderQty(i, 90_000)).toBe(0.2);
    expect(minOrderQty(i, 200_000)).toBe(0.1);
    expect(notionalOf(0.2, 90_000, i)).toBeCloseTo(180, 9);
  });

  it('OKX sizes are its contracts (ctVal) in lot steps; MT5 lots; no venue: the generic 0.01', () => {
    expect(getInstrument('ETHUSDT', 'okx')).toMatchObject({ venue: 'okx', qtyStep: 0.01, minQty: 0.01, minNotional: 0, venueUnit: 0.1 });
    expect(toVenueAmount(0.37, getInstrument('ETHUSDT', 'okx'))).toBe(0.37);
    expect(getInstrument('XAUUSD', 'mt5')).toMatchObject({ venue: 'mt5', qtyStep: 0.01, minQty: 0.01, maxQty: 100 });
    expect(getInstrument('BTCUSDT')).toMatchObject({ qtyStep: 0.01, minQty: 0.01 });
    expect(getInstrument('BTCUSDT').venue).toBeUndefined();
  });

  it('knows its venues, and which of them trade a symbol', () => {
    expect(['binance', 'okx', 'mt5'].map(isVenueName)).toEqual([true, true, true]);
    expect(isVenueName('bybit') || isVenueName('toString')).toBe(false);
    expect(venuesOf('BTCUSDT')).toEqual(['binance', 'okx']);
    expect(venuesOf('XAUUSD')).toEqual(['mt5']);
  });

  it('every catalog symbol has the sizes of every venue of its market', () => {
    for (const inst of instruments) {
      const venues: VenueName[] = inst.market === 'crypto' ? ['binance', 'okx'] : ['mt5'];
      for (const venue of venues) expect(VENUE_SIZE_SPECS[venue][inst.symbol], `${venue} ${inst.symbol}`).toBeDefined();
    }
  });

  it('a quantity on the instrument step is a whole number of venue steps, both ways', () => {
    const cases = Object.entries(VENUE_SIZE_SPECS).flatMap(([venue, specs]) =>
      Object.entries(specs).map(([symbol, spec]) => ({ inst: withVenueSizes(getInstrument(symbol), venue as VenueName, spec), spec })),
    );
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.integer({ min: 1, max: 100_000 }), ({ inst, spec }, steps) => {
        const qty = Number((steps * inst.qtyStep).toPrecision(12));
        const amount = toVenueAmount(qty, inst);
        expect(multipleOf(amount, spec.amountStep)).toBe(true);
        expect(fromVenueAmount(amount, inst)).toBeCloseTo(qty, 9);
      }),
    );
  });

  it('the minimum at a price is on the step and reaches the minimum notional', () => {
    fc.assert(
      fc.property(fc.constantFrom('BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'DOGEUSDT'), fc.double({ min: 0.01, max: 500_000, noNaN: true }), (symbol, price) => {
        const inst = getInstrument(symbol, 'binance');
        const min = minOrderQty(inst, price);
        expect(min).toBeGreaterThanOrEqual(inst.minQty);
        expect(multipleOf(min, inst.qtyStep)).toBe(true);
        expect(notionalOf(min, price, inst)).toBeGreaterThanOrEqual(inst.minNotional! * (1 - 1e-9));
        // one step less is refused by one of the two rules
        const less = min - inst.qtyStep;
        expect(less < inst.minQty - 1e-12 || notionalOf(less, price, inst) < inst.minNotional!).toBe(true);
      }),
    );
  });
});

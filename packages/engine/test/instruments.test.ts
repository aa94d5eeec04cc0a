import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getInstrument, instruments, snapQty, roundPrice, toOrderQty, InstrumentError } from '../src';

describe('instrument catalog', () => {
  it('knows the crypto perps and forex symbols', () => {
    expect(getInstrument('btcusdt').contractSize).toBe(0.01);
    expect(getInstrument('ETHUSDT').contractSize).toBe(0.1);
    expect(getInstrument('USDJPY').point).toBe(0.001);
    expect(getInstrument('XAUUSD').contractSize).toBe(100);
    expect(instruments).toHaveLength(10);
  });
  it('rejects bad symbols', () => {
    expect(() => getInstrument('BTC-USDT')).toThrow('Invalid symbol format');
    expect(() => getInstrument('FOOUSDT')).toThrow(/Unknown symbol/);
  });
  it('converts KE (coins) to contracts', () => {
    expect(toOrderQty(0.05, 'KE', getInstrument('BTCUSDT')).qty).toBe(5);
    expect(toOrderQty(0.05, 'ZHANG', getInstrument('BTCUSDT')).qty).toBe(0.05);
  });
  it('snaps down to the step with a message; below minimum is an error', () => {
    const eur = getInstrument('EURUSD');
    expect(snapQty(0.129, eur)).toMatchObject({ qty: 0.12, adjusted: true });
    expect(snapQty(0.3, eur)).toMatchObject({ qty: 0.3, adjusted: false, message: '' });
    expect(() => snapQty(0.009, eur)).toThrow(InstrumentError);
    expect(roundPrice(1.234567, eur)).toBe(1.23457);
  });
  it('snapped sizes respect min and step (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...instruments), fc.double({ min: 0.0001, max: 1e5, noNaN: true }), (inst, q) => {
        let r;
        try {
          r = snapQty(q, inst);
        } catch (e) {
          expect((e as InstrumentError).code).toBe('qtyBelowMin');
          expect(q).toBeLessThan(inst.minQty + inst.qtyStep);
          return;
        }
        expect(r.qty).toBeGreaterThanOrEqual(inst.minQty);
        expect(r.qty).toBeLessThanOrEqual(q + 1e-9);
        expect(q - r.qty).toBeLessThan(inst.qtyStep + 1e-9);
        const steps = r.qty / inst.qtyStep;
        expect(Math.abs(steps - Math.round(steps))).toBeLessThan(1e-6);
      }),
    );
  });
});

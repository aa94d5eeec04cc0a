import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, parseMoney } from '../src';

describe('wallet money: decimal strings ↔ micro-units', () => {
  it('parses up to 6 decimals exactly and formats with 6', () => {
    expect(parseMoney('12.5')).toBe(12_500_000n);
    expect(parseMoney('0.000001')).toBe(1n);
    expect(parseMoney('-3')).toBe(-3_000_000n);
    expect(parseMoney('0.1')! + parseMoney('0.2')!).toBe(parseMoney('0.3')); // never 0.30000000000000004
    expect(formatMoney(12_500_000n)).toBe('12.500000');
    expect(formatMoney(-1n)).toBe('-0.000001');
    expect(formatMoney(0n)).toBe('0.000000');
  });

  it('refuses what is not a plain decimal with at most 6 places', () => {
    for (const bad of ['', ' 1', '1 ', '1.', '.5', '1.0000001', '1e3', '+1', '0x10', 'NaN', 'Infinity', '1,5', '１', '1234567890123456']) {
      expect(parseMoney(bad), bad).toBeUndefined();
    }
  });

  it('round-trips every amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 21n) + 1n, max: 10n ** 21n - 1n }), (micro) => {
        expect(parseMoney(formatMoney(micro))).toBe(micro);
      }),
    );
  });
});

// The rebate rules of business.md "Settlement, precisely", as @lq/contracts `rebatesOf` computes
// them: the worked example to the letter, and on random uplines and amounts (fast-check) the
// bounds and sums the rules imply.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REBATE_RATES, REBATE_LEVELS, rateOf, rebatesOf, type RebateRates } from '../src/rebates';

const A = 100_000_000n; // 100 Lightning in micro-units
const money = (micro: bigint) => Number(micro) / 1e6;

describe('rebatesOf', () => {
  it('the worked example: A = 100; R1 none, R2 VIP1, R3 VIP1, R4 VIP3 → 10, 10, 0.2, 20 (40.2)', () => {
    const out = rebatesOf(A, [{ userId: 1, level: 'none' }, { userId: 2, level: 'VIP1' }, { userId: 3, level: 'VIP1' }, { userId: 4, level: 'VIP3' }], DEFAULT_REBATE_RATES);
    expect(out.map((s) => [s.userId, s.kind, s.rate, money(s.amount)])).toEqual([
      [1, 'differential', 1000, 10],
      [2, 'differential', 1000, 10],
      [3, 'share', 200, 0.2],
      [4, 'differential', 2000, 20],
    ]);
    expect(money(out.reduce((s, x) => s + x.amount, 0n))).toBe(40.2);
  });

  it('a non-VIP above R1 earns nothing; the walk stops at the top rate; a share of the top earner still goes to a same-level referrer', () => {
    const out = rebatesOf(A, [{ userId: 1, level: 'VIP3' }, { userId: 2, level: 'VIP3' }, { userId: 3, level: 'VIP5' }, { userId: 4, level: 'none' }], DEFAULT_REBATE_RATES);
    expect(out.map((s) => [s.userId, s.kind, money(s.amount)])).toEqual([
      [1, 'differential', 40],
      [2, 'share', 0.8],
    ]);
    expect(rebatesOf(A, [{ userId: 1, level: 'VIP1' }, { userId: 2, level: 'none' }, { userId: 3, level: 'VIP2' }], DEFAULT_REBATE_RATES).map((s) => [s.userId, money(s.amount)])).toEqual([
      [1, 20],
      [3, 10],
    ]);
    // Two non-VIPs: only R1, and no share between non-VIPs.
    expect(rebatesOf(A, [{ userId: 1, level: 'none' }, { userId: 2, level: 'none' }], DEFAULT_REBATE_RATES).map((s) => [s.userId, money(s.amount)])).toEqual([[1, 10]]);
  });

  it('rounds each amount down to the micro (what is rounded away stays with the platform)', () => {
    const out = rebatesOf(33n, [{ userId: 1, level: 'VIP1' }, { userId: 2, level: 'VIP1' }], DEFAULT_REBATE_RATES);
    expect(out.map((s) => s.amount)).toEqual([6n]); // 33 × 20 % = 6.6 → 6; its share 0.12 → 0, left out
  });

  const rates: fc.Arbitrary<RebateRates> = fc
    .record({ none: fc.integer({ min: 0, max: 3000 }), steps: fc.array(fc.integer({ min: 0, max: 1500 }), { minLength: 5, maxLength: 5 }), share: fc.integer({ min: 0, max: 1000 }) })
    .map(({ none, steps, share }) => {
      const [v1, v2, v3, v4, v5] = steps.reduce<number[]>((acc, s) => [...acc, (acc.at(-1) ?? 0) + s], []);
      return { none, VIP1: v1, VIP2: v2, VIP3: v3, VIP4: v4, VIP5: v5, sameLevelShare: share };
    });
  const upline = fc.array(fc.constantFrom(...REBATE_LEVELS), { maxLength: 20 }).map((levels) => levels.map((level, i) => ({ userId: i + 1, level })));
  const amount = fc.bigInt({ min: 1n, max: 10n ** 12n });

  it('on random uplines: total ≤ top rate + the same-level share of it; nobody above their level; differentials sum to the highest rate met; shares exact', () => {
    fc.assert(
      fc.property(rates, upline, amount, (r, up, a) => {
        const out = rebatesOf(a, up, r);
        const top = Math.max(r.none, r.VIP1, r.VIP2, r.VIP3, r.VIP4, r.VIP5);
        const total = out.reduce((s, x) => s + x.amount, 0n);
        expect(total * 10_000n * 10_000n).toBeLessThanOrEqual(a * BigInt(top) * BigInt(10_000 + r.sameLevelShare));
        const differentials = out.filter((s) => s.kind === 'differential');
        const shares = out.filter((s) => s.kind === 'share');
        for (const s of differentials) {
          expect(s.rate).toBeLessThanOrEqual(rateOf(r, up[s.depth - 1].level, s.depth));
          expect(s.amount).toBe((a * BigInt(s.rate)) / 10_000n);
        }
        // Walking up until the top, the differentials' rates add up to the highest rate met on the way.
        let highest = 0;
        for (let i = 0; i < up.length && highest < top; i++) highest = Math.max(highest, rateOf(r, up[i].level, i + 1));
        // (An amount under 1 micro per basis point can round a differential to nothing: left out.)
        const sum = differentials.reduce((s, x) => s + x.rate, 0);
        if (a >= 10_000n) expect(sum).toBe(highest);
        else expect(sum).toBeLessThanOrEqual(highest);
        for (const s of shares) {
          const from = differentials.find((d) => d.depth === s.depth - 1);
          expect(from).toBeDefined();
          expect(up[s.depth - 1].level).toBe(from!.level);
          expect(from!.level).not.toBe('none');
          expect(s.amount).toBe((from!.amount * BigInt(r.sameLevelShare)) / 10_000n);
        }
        // Each earner once per payment: one ledger line each.
        expect(new Set(out.map((s) => s.userId)).size).toBe(out.length);
      }),
      { numRuns: 2000 },
    );
  });
});

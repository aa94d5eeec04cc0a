// Rebates (business.md "Settlement, precisely"): when a user pays Lightning (unlock, pack, renewal)
// of amount A, the referrers above them earn into their rebate wallets — a differential by the
// level each held when the payment was made, and a same-level share. One pure function, used by
// the settlement job (apps/server referrals/rebates.ts) and by the rules page's worked example.
import { z } from 'zod';

/** Levels a referrer may hold; 'none' earns only as the payer's direct referrer (R1). */
export const REBATE_LEVELS = ['none', 'VIP1', 'VIP2', 'VIP3', 'VIP4', 'VIP5'] as const;
export type RebateLevel = (typeof REBATE_LEVELS)[number];

/** Rates in basis points (1 % = 100): exact integers, so every amount is A × bp / 10,000 rounded down. */
const basisPoints = z.number().int().min(0).max(10_000);
export const rebateRates = z.strictObject({
  /** A non-VIP payer's direct referrer (R1); a non-VIP above R1 earns nothing. */
  none: basisPoints,
  VIP1: basisPoints,
  VIP2: basisPoints,
  VIP3: basisPoints,
  VIP4: basisPoints,
  VIP5: basisPoints,
  /** Of a direct referral's differential rebate, to a referrer at the same VIP level. */
  sameLevelShare: basisPoints,
});
export type RebateRates = z.infer<typeof rebateRates>;

export const DEFAULT_REBATE_RATES: RebateRates = { none: 1000, VIP1: 2000, VIP2: 3000, VIP3: 4000, VIP4: 4000, VIP5: 4000, sameLevelShare: 200 };

export interface Referrer {
  userId: number;
  /** The level this referrer held when the payment was made (anything unknown counts as none). */
  level: string;
}

export interface RebateShare {
  userId: number;
  /** 1 = the payer's referrer (R1), 2 = R1's referrer, … */
  depth: number;
  level: RebateLevel;
  kind: 'differential' | 'share';
  /** Basis points: of the payment (differential: the level's rate less what was taken below), or of the referral's differential (share). */
  rate: number;
  /** Micro-Lightning, rounded down. */
  amount: bigint;
}

const levelOf = (level: string): RebateLevel => ((REBATE_LEVELS as readonly string[]).includes(level) ? (level as RebateLevel) : 'none');

/** The rate of a referrer at `depth` holding `level`: a non-VIP earns only as R1. */
export function rateOf(rates: RebateRates, level: RebateLevel, depth: number): number {
  if (level === 'none') return depth === 1 ? rates.none : 0;
  return rates[level];
}

/**
 * What each referrer earns on one payment of `amount` micro-Lightning; `upline` is R1, R2, … in
 * order. Differential: walking up with `taken` = 0, Ri earns max(0, rate_i − taken) × A, then
 * taken = max(taken, rate_i), until taken is the highest rate. Same-level share: when Ri earned a
 * differential X > 0 and R(i+1) is VIP at Ri's level, R(i+1) earns sameLevelShare × X (also just
 * past the top: the share belongs to Ri's earning, not to the walk). Shares are not shared again.
 * Each amount is rounded down to the micro; zero amounts are left out.
 */
export function rebatesOf(amount: bigint, upline: readonly Referrer[], rates: RebateRates): RebateShare[] {
  const top = Math.max(rates.none, rates.VIP1, rates.VIP2, rates.VIP3, rates.VIP4, rates.VIP5);
  const out: RebateShare[] = [];
  let taken = 0;
  for (let i = 0; i < upline.length && taken < top; i++) {
    const depth = i + 1;
    const level = levelOf(upline[i].level);
    const rate = rateOf(rates, level, depth);
    const differential = Math.max(0, rate - taken);
    const earned = (amount * BigInt(differential)) / 10_000n;
    taken = Math.max(taken, rate);
    if (earned <= 0n) continue;
    out.push({ userId: upline[i].userId, depth, level, kind: 'differential', rate: differential, amount: earned });
    const next = upline[i + 1];
    if (next && level !== 'none' && levelOf(next.level) === level) {
      const share = (earned * BigInt(rates.sameLevelShare)) / 10_000n;
      if (share > 0n) out.push({ userId: next.userId, depth: depth + 1, level, kind: 'share', rate: rates.sameLevelShare, amount: share });
    }
  }
  return out;
}

/** Rebate amounts credited to the caller: today and this month (platform timezone), and ever. */
export const rebateSums = z.object({ today: z.string(), month: z.string(), total: z.string(), timeZone: z.string() });
export type RebateSums = z.infer<typeof rebateSums>;

export const REBATE_PAGE_SIZE_MAX = 50;

/** GET user/api/rebate/list */
export const rebateListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(REBATE_PAGE_SIZE_MAX).default(20),
});
export type RebateListQuery = z.input<typeof rebateListQuery>;

export const rebateItem = z.object({
  id: z.number(),
  /** The payment it came from: the payer's ledger entry. */
  paymentId: z.number(),
  paidAt: z.number(),
  /** When it reached the rebate wallet. */
  creditedAt: z.number(),
  payer: z.object({ nickname: z.string().nullable(), userCode: z.string() }),
  /** 1: a direct referral paid. */
  depth: z.number(),
  /** The level the caller held when the payment was made. */
  level: z.enum(REBATE_LEVELS),
  kind: z.enum(['differential', 'share']),
  /** Percent: of the payment (differential) or of the referral's differential (share). */
  rate: z.string(),
  paymentAmount: z.string(),
  amount: z.string(),
});
export type RebateItem = z.infer<typeof rebateItem>;

export const rebateList = z.object({ list: z.array(rebateItem), total: z.number(), sums: rebateSums });
export type RebateList = z.infer<typeof rebateList>;

// The referral rules as configured (spec §2 pages/group/explain/explain): what the rules page
// renders and the settlement and VIP computation use — never a copy of them.
import { z } from 'zod';
import { rebateRates } from './rebates';
import { vipThresholds } from './vip';

/** GET user/api/rebate/rules */
export const referralRules = z.object({
  /** Basis points (1 % = 100). */
  rates: rebateRates,
  thresholds: vipThresholds,
  /** The platform timezone whose days bound the windows and settlement. */
  timeZone: z.string(),
});
export type ReferralRules = z.infer<typeof referralRules>;

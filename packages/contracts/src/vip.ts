// VIP tiers (business.md "VIP tiers", "Settlement, precisely"): reached from what a user and their
// team did in the progress window; a tier once reached does not drop. Thresholds are the
// operator's (`npm run ops -- vip:thresholds`), these are the defaults.
import { z } from 'zod';
import { statsWindowSchema } from './team';

export const VIP_TIERS = ['VIP1', 'VIP2', 'VIP3'] as const;
export type VipTier = (typeof VIP_TIERS)[number];

/** What a tier's conditions measure: own and team volume (USDT notional of live robot fills), active direct referrals, active users in the team. */
export const VIP_MEASURES = ['ownVolume', 'activeDirect', 'teamVolume', 'teamActive'] as const;
export type VipMeasure = (typeof VIP_MEASURES)[number];

const amount = z.string().regex(/^\d{1,15}(\.\d{1,2})?$/, { error: 'validation.invalidFormat' });
export const vipCondition = z.strictObject({ measure: z.enum(VIP_MEASURES), min: amount });
export const vipTierRule = z.strictObject({
  /** any: one condition is enough (VIP1); all: every one (VIP2, VIP3). */
  match: z.enum(['any', 'all']),
  conditions: z.array(vipCondition).min(1).max(4),
});
export type VipTierRule = z.infer<typeof vipTierRule>;
export const vipThresholds = z.strictObject({ VIP1: vipTierRule, VIP2: vipTierRule, VIP3: vipTierRule });
export type VipThresholds = z.infer<typeof vipThresholds>;

export const DEFAULT_VIP_THRESHOLDS: VipThresholds = {
  VIP1: { match: 'any', conditions: [{ measure: 'ownVolume', min: '10000' }, { measure: 'activeDirect', min: '1' }] },
  VIP2: { match: 'all', conditions: [{ measure: 'teamVolume', min: '500000' }, { measure: 'teamActive', min: '5' }] },
  VIP3: { match: 'all', conditions: [{ measure: 'teamVolume', min: '5000000' }, { measure: 'teamActive', min: '20' }] },
};

/** GET user/api/vip/progress */
export const vipProgress = z.object({
  /** The user's level now (the highest of what was reached, ever, and an operator's grant). */
  level: z.string(),
  /** The tier the figures reach now ('none': none). */
  reached: z.string(),
  /** The figures of the last computation; null before the first. */
  computedAt: z.number().nullable(),
  window: statsWindowSchema.nullable(),
  figures: z.object({ ownVolume: z.string(), teamVolume: z.string(), activeDirect: z.number(), teamActive: z.number() }),
  tiers: z.array(
    z.object({
      level: z.enum(VIP_TIERS),
      match: z.enum(['any', 'all']),
      reached: z.boolean(),
      conditions: z.array(z.object({ measure: z.enum(VIP_MEASURES), min: z.string(), value: z.string(), met: z.boolean(), missing: z.string() })),
    }),
  ),
  /** Level changes, newest first (at most 20). */
  changes: z.array(z.object({ from: z.string(), to: z.string(), reason: z.enum(['reached', 'operator']), at: z.number() })),
});
export type VipProgress = z.infer<typeof vipProgress>;

// The team (spec §2 pages/group/group, groupNext; business.md "Referrals and team"): the users
// below the caller in the referral tree. Figures are over the statistics window — the 30 days
// before today 00:00 in the platform timezone — which the answers carry.
import { z } from 'zod';
import { rebateSums } from './rebates';

const idParam = z.coerce.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER);

export const TEAM_PAGE_SIZE_MAX = 50;
export const TEAM_SEARCH_MAX = 32;

/** The statistics window: [from, to) in ms, and the platform timezone whose days bound it. */
export const statsWindowSchema = z.object({ from: z.number(), to: z.number(), timeZone: z.string() });

/** GET user/api/team/summary */
export const teamSummary = z.object({
  /** Direct referrals (depth 1). */
  direct: z.number(),
  /** Everyone below, at any depth. */
  team: z.number(),
  /** Notional of the team's live robot fills in the window (USDT; forex: USD), 2 decimals. */
  teamVolume: z.string(),
  /** Users of the team who ran a live robot in the window. */
  activeUsers: z.number(),
  window: statsWindowSchema,
  /** Rebates credited to the caller: today, this month, ever. */
  rebate: rebateSums,
});
export type TeamSummary = z.infer<typeof teamSummary>;

/** GET user/api/team/list: the direct referrals of `parent` (default: the caller), who must be the caller or below them. */
export const teamListQuery = z.strictObject({
  parent: idParam.optional(),
  /** Part of a nickname or an invite code. */
  q: z.string().trim().max(TEAM_SEARCH_MAX).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(TEAM_PAGE_SIZE_MAX).default(20),
});
export type TeamListQuery = z.input<typeof teamListQuery>;

export const teamMember = z.object({
  id: z.number(),
  /** Null: not set (the screens show the invite code). */
  nickname: z.string().nullable(),
  userCode: z.string(),
  level: z.string(),
  joinedAt: z.number(),
  /** Their own live robot fills' notional in the window, 2 decimals. */
  volume: z.string(),
  /** Ran a live robot in the window. */
  active: z.boolean(),
  /** Their direct referrals and their whole team (the next page lists the former). */
  direct: z.number(),
  team: z.number(),
});
export type TeamMember = z.infer<typeof teamMember>;

export const teamList = z.object({
  /** Whose referrals these are; the caller's own list has the caller here. */
  parent: z.object({ id: z.number(), nickname: z.string().nullable(), userCode: z.string(), depth: z.number() }),
  list: z.array(teamMember),
  total: z.number(),
  window: statsWindowSchema,
});
export type TeamList = z.infer<typeof teamList>;

// Rankings (spec §2 pages/index/rankingList/rankingList; business.md "Rankings"): leaderboards over
// the statistics window — the 30 days before today 00:00 in the platform timezone — computed daily.
import { z } from 'zod';
import { statsWindowSchema } from './team';

/** volume: own live robot volume; team: users who joined the team; rebate: rebates credited — all in the window. */
export const RANKING_BOARDS = ['volume', 'team', 'rebate'] as const;
export type RankingBoard = (typeof RANKING_BOARDS)[number];

/** How many of the top a board shows (the viewer's own row is added when below). */
export const RANKING_TOP = 50;

export const rankingListQuery = z.strictObject({ by: z.enum(RANKING_BOARDS).default('volume') });
export type RankingListQuery = z.input<typeof rankingListQuery>;

export const rankingRow = z.object({
  rank: z.number(),
  /** Masked ("A***z") except on the viewer's own row. */
  name: z.string(),
  level: z.string(),
  /** volume: USDT, 2 decimals; team: a count; rebate: Lightning, 6 decimals. */
  value: z.string(),
  self: z.boolean(),
});
export type RankingRow = z.infer<typeof rankingRow>;

/** GET user/api/ranking/list */
export const rankingList = z.object({
  by: z.enum(RANKING_BOARDS),
  /** The computation shown; null before the first. */
  computedAt: z.number().nullable(),
  window: statsWindowSchema.nullable(),
  list: z.array(rankingRow),
  /** The viewer's row (also when outside the top); null when not ranked (nothing in the window). */
  me: rankingRow.nullable(),
  /** Users ranked on this board. */
  total: z.number(),
});
export type RankingList = z.infer<typeof rankingList>;

/** A name as others see it on a board: its first and last character, the rest hidden. */
export function maskName(name: string): string {
  const chars = [...name];
  if (chars.length <= 1) return `${chars[0] ?? ''}***`;
  if (chars.length === 2) return `${chars[0]}***`;
  return `${chars[0]}***${chars[chars.length - 1]}`;
}

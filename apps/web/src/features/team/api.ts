// Calls of the team screens (packages/contracts/src/team.ts, rebates.ts; docs/api.md "Team",
// "Rebates") and their hooks.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { RankingBoard, RankingList, RebateList, ReferralRules, TeamList, TeamSummary } from '@lq/contracts';
import { api } from '../../lib/session';

export const TEAM_PATH = '/pages/group/group';
export const TEAM_NEXT_PATH = '/pages/group/groupNext';
const PAGE_SIZE = 20;

export function useTeamSummary() {
  return useQuery({ queryKey: ['team', 'summary'], queryFn: () => api.get<TeamSummary>('user/api/team/summary') });
}

/** Direct referrals of `parent` (the caller when undefined), filtered by `q`, page by page. */
export function useTeamList(parent: number | undefined, q: string) {
  return useInfiniteQuery({
    queryKey: ['team', 'list', parent ?? 'me', q],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get<TeamList>('user/api/team/list', { query: { page: pageParam, size: PAGE_SIZE, ...(parent ? { parent } : {}), ...(q ? { q } : {}) } }),
    getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
}

export const REBATE_EXPORT_PATH = 'user/api/rebate/export';

/** The caller's rebates, newest first, page by page. */
export function useRebates() {
  return useInfiniteQuery({
    queryKey: ['team', 'rebates'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => api.get<RebateList>('user/api/rebate/list', { query: { page: pageParam, size: PAGE_SIZE } }),
    getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
}

export const EXPLAIN_PATH = '/pages/group/explain/explain';
export const RANKING_PATH = '/pages/index/rankingList/rankingList';

/** The referral rules in force (rates, tiers): what the rules page renders. */
export function useReferralRules() {
  return useQuery({ queryKey: ['team', 'rules'], queryFn: () => api.get<ReferralRules>('user/api/rebate/rules') });
}

export function useRanking(by: RankingBoard) {
  return useQuery({ queryKey: ['ranking', by], queryFn: () => api.get<RankingList>('user/api/ranking/list', { query: { by } }) });
}

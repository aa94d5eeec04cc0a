// Calls of the benefit screens (paths of packages/contracts/src/benefits.ts, docs/api.md "Benefits")
// and their TanStack Query hooks.
import { useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import { AGREEMENT_VERSIONS, type Agreement, type EquityAgreements, type EquityBuyBody, type EquityCatalogue, type EquityPurchase, type EquityPurchases, type EquityRights, type EquityUnlockBody, type VipProgress, type WalletInfo } from '@lq/contracts';
import { api } from '../../lib/session';

export const PATHS = {
  catalogue: 'user/api/equity/catalogue',
  rights: 'user/api/equity/rights',
  purchases: 'user/api/equity/purchases',
  unlock: 'user/api/equity/unlock',
  buy: 'user/api/equity/buy',
  walletInfo: 'user/api/wallet/info',
  agreements: 'user/api/equity/agreements',
  accept: 'user/api/equity/agreements/accept',
  autoRenew: 'user/api/equity/auto-renew',
} as const;

export const EQUITY_PATH = '/pages/equity/index';
export const PACK_PATH = '/pages/equity/monthEquityPay';
export const PAY_PATH = '/pages/pay/pay';
const PAGE_SIZE = 20;

export function useCatalogue() {
  return useQuery({ queryKey: ['equity', 'catalogue'], queryFn: () => api.get<EquityCatalogue>(PATHS.catalogue), staleTime: 60_000 });
}

export function useVipProgress() {
  return useQuery({ queryKey: ['vip', 'progress'], queryFn: () => api.get<VipProgress>('user/api/vip/progress') });
}

export function useRights() {
  return useQuery({ queryKey: ['equity', 'rights'], queryFn: () => api.get<EquityRights>(PATHS.rights) });
}

export function usePurchases() {
  return useInfiniteQuery({
    queryKey: ['equity', 'purchases'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => api.get<EquityPurchases>(PATHS.purchases, { query: { page: pageParam, size: PAGE_SIZE } }),
    getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
}

/** The balance wallet pays: the wallet screen's own query (same key), so both stay in step. */
export function useBalance() {
  return useQuery({ queryKey: ['wallet', 'info'], queryFn: () => api.get<WalletInfo>(PATHS.walletInfo) });
}

export function unlock(body: EquityUnlockBody) {
  return api.post<EquityPurchase>(PATHS.unlock, body, { silent: true });
}

export function buy(body: EquityBuyBody) {
  return api.post<EquityPurchase>(PATHS.buy, body, { silent: true });
}

/** After a purchase: rights, purchases, the wallet, and the seat counts robots show. */
export async function afterPurchase(queryClient: QueryClient): Promise<void> {
  await Promise.all(['equity', 'wallet', 'robot-seats'].map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
}

export function useAgreements() {
  return useQuery({ queryKey: ['equity', 'agreements'], queryFn: () => api.get<EquityAgreements>(PATHS.agreements) });
}

/** Records that the user accepted the version of `agreement` in force (the one the page links to). */
export function acceptAgreement(agreement: Agreement) {
  return api.post<EquityAgreements>(PATHS.accept, { agreement, version: AGREEMENT_VERSIONS[agreement] });
}

export function switchAutoRenew(id: number, autoRenew: boolean, paidPwd?: string) {
  return api.post<EquityPurchase>(PATHS.autoRenew, { id, autoRenew, ...(paidPwd === undefined ? {} : { paidPwd }) });
}

export const AGREEMENT_PATHS: Record<Agreement, string> = {
  monthEquity: '/pages/agreement/monthEquity/monthEquity',
  autoSubscribe: '/pages/agreement/autoSubscribe/index',
};

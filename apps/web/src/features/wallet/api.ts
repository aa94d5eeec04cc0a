// Calls of the wallet screen (paths of packages/contracts/src/wallet.ts, docs/api.md "Wallet") and
// their TanStack Query hooks.
import { useInfiniteQuery, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SecurityInfo, WithdrawAddressAddBody, WithdrawAddressItem, WithdrawAddressList, CardCheckout, CardLimits, WithdrawCreateRequest, WithdrawItem, WithdrawLimits, WithdrawList, DepositNetwork, RechargeAddress, RechargeList, WalletExportBody, WalletExportList, WalletInfo, WalletRecords, WalletRecordType, WalletTransferResult } from '@lq/contracts';
import { ApiError } from '../../lib/api';
import { api } from '../../lib/session';
import { showToast } from '../../lib/toast';

export const PATHS = {
  info: 'user/api/wallet/info',
  records: 'user/api/wallet/records',
  transfer: 'user/api/wallet/transfer',
  export: 'user/api/wallet/export',
  exportList: 'user/api/wallet/export/list',
  exportFile: (id: number) => `user/api/wallet/export/${id}/file`,
  rechargeAddress: 'user/api/recharge/address',
  rechargeList: 'user/api/recharge/list',
  cardLimits: 'user/api/recharge/card/limits',
  cardCreate: 'user/api/recharge/card/create',
  card: (id: number) => `user/api/recharge/card/${id}`,
  withdrawCreate: 'user/api/withdraw/create',
  withdrawList: 'user/api/withdraw/list',
  withdrawLimits: 'user/api/withdraw/limits',
  withdrawDetail: (id: number) => `user/api/withdraw/detail/${id}`,
  withdrawCancel: 'user/api/withdraw/cancel',
  security: 'user/api/security',
  withdrawAddresses: 'user/api/withdraw/addresses',
  withdrawAddressAdd: 'user/api/withdraw/addresses/add',
  withdrawAddressRemove: 'user/api/withdraw/addresses/remove',
} as const;

export const WALLET_PATH = '/pages/wallet/wallet';
const PAGE_SIZE = 20;

export function useWalletInfo() {
  return useQuery({ queryKey: ['wallet', 'info'], queryFn: () => api.get<WalletInfo>(PATHS.info) });
}

export function useWalletRecords(type: WalletRecordType | undefined) {
  return useInfiniteQuery({
    queryKey: ['wallet', 'records', type ?? 'all'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => api.get<WalletRecords>(PATHS.records, { query: { type, page: pageParam, size: PAGE_SIZE } }),
    getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
}

/** Rebate → balance. `key` stays the same for every retry of one intended transfer. */
export function transferRebate(amount: string, key: string) {
  return api.post<WalletTransferResult>(PATHS.transfer, { amount, idempotencyKey: key });
}

export const invalidateWallet = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: ['wallet'] });

/** Exports; polled while one is still being written. */
export function useExports() {
  return useQuery({
    queryKey: ['wallet', 'exports'],
    queryFn: () => api.get<WalletExportList>(PATHS.exportList),
    refetchInterval: (q) => (q.state.data?.list.some((e) => e.status === 'exporting') ? 1500 : false),
  });
}

export function requestExport(body: WalletExportBody) {
  return api.post<{ id: number }>(PATHS.export, body);
}

/** The user's deposit address on a network (a closed network answers A0360, shown on the page, not toasted). */
export function useRechargeAddress(network: DepositNetwork) {
  return useQuery({
    queryKey: ['wallet', 'recharge', network],
    queryFn: () => api.get<RechargeAddress>(PATHS.rechargeAddress, { query: { network }, silent: true }),
    // An address never changes; "not open" may, when the operator opens the network: asked again
    // on every visit and every 30 s while the page shows it (it used to stay until a reload).
    staleTime: (query) => (query.state.status === 'success' ? Infinity : 0),
    refetchInterval: (query) => (query.state.status === 'error' ? 30_000 : false),
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
  });
}

/** The user's deposits on a network, newest first; polled while the page is open (transfers arrive on their own). */
export function useRechargeList(network: DepositNetwork, enabled: boolean) {
  return useQuery({
    queryKey: ['wallet', 'recharge', network, 'list'],
    queryFn: () => api.get<RechargeList>(PATHS.rechargeList, { query: { network, size: 20 }, silent: true }),
    enabled,
    refetchInterval: 5_000,
  });
}

export function useCardLimits() {
  return useQuery({ queryKey: ['wallet', 'card', 'limits'], queryFn: () => api.get<CardLimits>(PATHS.cardLimits), staleTime: 60_000 });
}

/** `key`: one per intended payment (a retry opens the same checkout). */
export function createCardCheckout(amount: string, key: string) {
  return api.post<CardCheckout>(PATHS.cardCreate, { amount, idempotencyKey: key });
}

/** A checkout, polled while it is open (the provider's webhook changes it). */
export function useCardCheckout(id: number | null) {
  return useQuery({
    queryKey: ['wallet', 'card', id],
    queryFn: () => api.get<CardCheckout>(PATHS.card(id!)),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.state === 'open' || q.state.data === undefined ? 2_000 : false),
  });
}

/** The owner takes back a withdrawal not yet approved: its hold is released. */
export function cancelWithdrawal(id: number) {
  return api.post<WithdrawItem>(PATHS.withdrawCancel, { id });
}

export function createWithdrawal(body: WithdrawCreateRequest) {
  return api.post<WithdrawItem>(PATHS.withdrawCreate, body, { silent: true });
}

/** The withdrawal address book: withdrawals go only to these. */
export function useWithdrawAddresses() {
  return useQuery({ queryKey: ['wallet', 'withdraw-addresses'], queryFn: () => api.get<WithdrawAddressList>(PATHS.withdrawAddresses, { silent: true }) });
}
export const addWithdrawAddress = (body: WithdrawAddressAddBody) => api.post<WithdrawAddressItem>(PATHS.withdrawAddressAdd, body, { silent: true });
export const removeWithdrawAddress = (id: number) => api.post<null>(PATHS.withdrawAddressRemove, { id }, { silent: true });

/** Removes an address of the book and says how it went (the book is read again either way). */
export function useRemoveAddress(): (entry: WithdrawAddressItem) => Promise<boolean> {
  const { t } = useTranslation('wallet');
  const queryClient = useQueryClient();
  return async (entry) => {
    try {
      await removeWithdrawAddress(entry.id);
      showToast(t('withdrawForm.removed'), 'success');
      return true;
    } catch (e) {
      showToast(e instanceof ApiError ? e.message : t('withdrawForm.removeFailed'), 'error');
      return false;
    } finally {
      await queryClient.invalidateQueries({ queryKey: ['wallet', 'withdraw-addresses'] });
    }
  };
}

/** The account's protections; the withdrawal form reads the security lock from it. */
export function useSecurity() {
  return useQuery({ queryKey: ['user', 'security'], queryFn: () => api.get<SecurityInfo>(PATHS.security, { silent: true }) });
}

/** The caller's withdrawal limits over 24 hours and 30 days, and what is left of each. */
export function useWithdrawLimits() {
  return useQuery({ queryKey: ['wallet', 'withdraw-limits'], queryFn: () => api.get<WithdrawLimits>(PATHS.withdrawLimits) });
}

export function useWithdrawals() {
  return useInfiniteQuery({
    queryKey: ['wallet', 'withdrawals'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => api.get<WithdrawList>(PATHS.withdrawList, { query: { page: pageParam, size: PAGE_SIZE } }),
    getNextPageParam: (last, pages) => (pages.length * PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
}

/** One withdrawal; followed every 5 s while it is under review or being paid. */
export function useWithdrawal(id: number | null) {
  return useQuery({
    queryKey: ['wallet', 'withdrawal', id],
    queryFn: () => api.get<WithdrawItem>(PATHS.withdrawDetail(id!)),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.state === 'pendingReview' || q.state.data?.state === 'processing' ? 5_000 : false),
  });
}

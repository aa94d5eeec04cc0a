// Calls of the robot screens (paths of packages/contracts/src/robot.ts, docs/api.md "Robots")
// and their TanStack Query hooks. Live screens poll while the page is visible (TanStack Query
// pauses refetchInterval in a hidden tab by default).
import { keepPreviousData, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import type { RobotDetail, RobotFills, RobotItem, RobotList, RobotTab, SeatSummary, TickerList } from '@lq/contracts';
import { api } from '../../lib/session';

export const PATHS = {
  list: 'order/api/robot/list',
  history: 'order/api/robot/history',
  detail: 'order/api/robot/detail',
  fills: 'order/api/robot/fills',
  pause: 'order/api/robot/pause',
  resume: 'order/api/robot/continue',
  stop: 'order/api/robot/stop',
  seats: 'order/api/robot/seats',
  tickers: 'order/api/market/tickers',
} as const;

/** Live status and income of the robot list and detail. */
export const LIVE_POLL_MS = 3000;
/** Market prices (spec item: refetch every 5 s). */
export const TICKER_POLL_MS = 5000;
// ROBOT_PAGE_SIZE_DEFAULT / ROBOT_FILLS_PAGE_SIZE_DEFAULT of contracts (runtime values of contracts
// are not imported by the lazy pages on purpose: see features/backtest/api.ts).
const PAGE_SIZE = 20;
const FILLS_PAGE_SIZE = 20;

export type RobotAction = 'pause' | 'continue' | 'stop';

export const ROBOT_LIST_PATH = '/pages/robot/robotOrderList/robotOrderList';
export const ROBOT_HISTORY_PATH = '/pages/robot/robotHistory/robotHistory';
export const robotDetailPath = (id: number) => `/pages/orderDetail/orderDetail?id=${id}`;

export function useRobotList(dataSource: string, tab: RobotTab) {
  return useInfiniteQuery({
    queryKey: ['robots', tab, dataSource],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      tab === 'history'
        ? api.get<RobotList>(PATHS.history, { query: { dataSource, page: pageParam, pageSize: PAGE_SIZE } })
        : api.get<RobotList>(PATHS.list, { query: { dataSource, status: 'active', page: pageParam, pageSize: PAGE_SIZE } }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    refetchInterval: tab === 'active' ? LIVE_POLL_MS : false,
  });
}

export function useRobotDetail(id: number | undefined) {
  return useQuery({
    queryKey: ['robot', id],
    enabled: !!id,
    queryFn: () => api.get<RobotDetail>(PATHS.detail, { query: { id: id! }, silent: true }),
    // A stopped robot does not change any more.
    refetchInterval: (q) => (q.state.data?.status === 'stopped' ? false : LIVE_POLL_MS),
  });
}

export function useRobotFills(id: number | undefined, page: number, live: boolean) {
  return useQuery({
    queryKey: ['robot', id, 'fills', page],
    enabled: !!id,
    queryFn: () => api.get<RobotFills>(PATHS.fills, { query: { id: id!, page, pageSize: FILLS_PAGE_SIZE }, silent: true }),
    placeholderData: keepPreviousData,
    refetchInterval: live && page === 1 ? LIVE_POLL_MS * 2 : false,
  });
}

/**
 * Seats of a market. `holders` names the robots that may hold one (id:status of the active list):
 * when it changes — a stop ends, a robot starts — the figures are asked again, so "seats in use"
 * follows the (polled) list instead of waiting for a reload.
 */
export function useSeats(dataSource: string, enabled = true, holders = '') {
  return useQuery({
    queryKey: ['robot-seats', dataSource, holders],
    enabled,
    queryFn: () => api.get<SeatSummary>(PATHS.seats, { query: { dataSource }, silent: true }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export function useTickers(dataSource: string) {
  return useQuery({
    queryKey: ['tickers', dataSource],
    queryFn: () => api.get<TickerList>(PATHS.tickers, { query: { dataSource }, silent: true }),
    refetchInterval: TICKER_POLL_MS,
    placeholderData: keepPreviousData,
  });
}

export function robotAction(id: number, action: RobotAction): Promise<RobotItem> {
  const path = action === 'pause' ? PATHS.pause : action === 'continue' ? PATHS.resume : PATHS.stop;
  return api.post<RobotItem>(path, { id });
}

/** After an action every list and the detail are stale. */
export const invalidateRobots = async (qc: QueryClient, id?: number) => {
  await Promise.all([
    qc.invalidateQueries({ queryKey: ['robots'] }),
    id ? qc.invalidateQueries({ queryKey: ['robot', id] }) : Promise.resolve(),
    qc.invalidateQueries({ queryKey: ['robot-seats'] }),
  ]);
};

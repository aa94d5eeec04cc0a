// Calls of the backtest feature (paths of packages/contracts/src/backtest.ts and market.ts) and
// their TanStack Query hooks. Running things are polled about once a second.
import { keepPreviousData, useInfiniteQuery, useQuery, type QueryClient } from '@tanstack/react-query';
import type {
  BacktestCreateBody,
  BacktestCreateResult,
  BacktestDetail,
  BacktestEquity,
  BacktestKline,
  BacktestList,
  BacktestReport,
  BacktestTab,
  BacktestTrades,
  Recommendation,
  RecommendCreateBody,
  RobotPrefill,
} from '@lq/contracts';
import { api } from '../../lib/session';
import { browserStorage } from '../../lib/storage';
import type { KlineWindow } from './chartData';
import { getContractInfo, type ContractInfo } from './contractInfo';
import type { SizeFacts } from './sizes';

export const PATHS = {
  create: 'order/api/backtest/create',
  list: 'order/api/backtest/list',
  detail: 'order/api/backtest/detail',
  report: 'order/api/backtest/report',
  trades: 'order/api/backtest/trades',
  equity: 'order/api/backtest/equity',
  kline: 'order/api/backtest/kline',
  cancel: 'order/api/backtest/cancel',
  remove: 'order/api/backtest/delete',
  robotPrefill: 'order/api/backtest/robot-prefill',
  recommendCreate: 'order/api/backtest/recommend/create',
  recommendGet: 'order/api/backtest/recommend/detail',
  recommendCancel: 'order/api/backtest/recommend/cancel',
  tactics: 'order/api/backtest/tactics-selection',
  dict: 'user/common/dict-type/list',
  currencies: 'order/api/currency-list',
  contract: 'order/api/contract-info',
} as const;

export const POLL_MS = 1000;
// Page sizes as in contracts (BACKTEST_PAGE_SIZE_DEFAULT, TRADES_PAGE_SIZE_DEFAULT). Runtime values
// of contracts' backtest module are not imported on purpose: its `schema.extend()` calls cannot be
// tree-shaken and would pull zod into the first screen's JavaScript.
const BACKTEST_PAGE_SIZE = 20;
const TRADES_PAGE_SIZE = 20;

// ---- reference data (spec §7) ----

export interface TacticItem {
  /** Strategy type (single, grid …). */
  value: string;
  /** Localized display name from the server, when given. */
  label?: string;
  /** The server's create-order page for this market (contracts market.ts `tacticsItem.page`). */
  page?: string;
}

/** tactics-selection answers a list of strategies; accept plain strings or objects. */
export function normalizeTactics(data: unknown): TacticItem[] {
  const list = Array.isArray(data) ? data : Array.isArray((data as { list?: unknown })?.list) ? (data as { list: unknown[] }).list : [];
  const out: TacticItem[] = [];
  for (const item of list) {
    if (typeof item === 'string') out.push({ value: item });
    else if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      const value = [o.value, o.type, o.strategy, o.key].find((v): v is string => typeof v === 'string');
      const label = [o.label, o.text, o.name].find((v): v is string => typeof v === 'string');
      if (!value) continue;
      const tactic: TacticItem = { value };
      if (label) tactic.label = label;
      if (typeof o.page === 'string' && o.page) tactic.page = o.page;
      out.push(tactic);
    }
  }
  return out;
}

export function useTactics(dataSource: string, robot = false) {
  return useQuery({
    queryKey: ['tactics', dataSource, robot],
    queryFn: async () => normalizeTactics(await api.get<unknown>(PATHS.tactics, { query: { dataSource, robot } })),
    staleTime: 5 * 60_000,
  });
}

export interface CurrencyItem {
  symbol: string;
  /** Data range of the symbol, ms UTC, when known (the union of its stored series). */
  from?: number;
  to?: number;
  label?: string;
  /** Instrument facts of contracts market.ts (digits, minQty, qtyStep, contractSize …). */
  instrument?: { digits?: number; contractSize?: number; maxLeverage?: number } & SizeFacts;
}

const msOf = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v) {
    const n = Date.parse(v);
    return Number.isNaN(n) ? undefined : n;
  }
  return undefined;
};

export function normalizeCurrencies(data: unknown): CurrencyItem[] {
  const list = Array.isArray(data) ? data : Array.isArray((data as { list?: unknown })?.list) ? (data as { list: unknown[] }).list : [];
  const out: CurrencyItem[] = [];
  for (const item of list) {
    if (typeof item === 'string') out.push({ symbol: item });
    else if (item && typeof item === 'object') {
      const o = item as Record<string, unknown>;
      const symbol = [o.symbol, o.value, o.name].find((v): v is string => typeof v === 'string');
      if (!symbol) continue;
      const c: CurrencyItem = { symbol };
      // contracts market.ts: `ranges: [{ source, timeframe, firstTime, lastTime, count }]`.
      const ranges = Array.isArray(o.ranges) ? (o.ranges as Record<string, unknown>[]) : [];
      const firsts = ranges.map((r) => msOf(r.firstTime)).filter((v): v is number => v !== undefined);
      const lasts = ranges.map((r) => msOf(r.lastTime)).filter((v): v is number => v !== undefined);
      const from = firsts.length ? Math.min(...firsts) : msOf(o.from ?? o.firstTime ?? o.startTime ?? o.start);
      const to = lasts.length ? Math.max(...lasts) : msOf(o.to ?? o.lastTime ?? o.endTime ?? o.end);
      if (o.instrument && typeof o.instrument === 'object') c.instrument = o.instrument;
      if (from !== undefined) c.from = from;
      if (to !== undefined) c.to = to;
      if (typeof o.label === 'string') c.label = o.label;
      out.push(c);
    }
  }
  return out;
}

export function useCurrencies(dataSource: string) {
  return useQuery({
    queryKey: ['currencies', dataSource],
    queryFn: async () => normalizeCurrencies(await api.get<unknown>(PATHS.currencies, { query: { dataSource } })),
    // An empty list usually means market data is still being imported: never trust it for long,
    // and look again every 10 s while the page shows it.
    staleTime: (q) => (q.state.data?.length ? 60_000 : 0),
    refetchInterval: (q) => (q.state.data && q.state.data.length === 0 ? 10_000 : false),
  });
}

/** Dict `tacticsInterval` (1m … 1d); falls back to the schema's list when the call fails. */
export function useIntervals(fallback: readonly string[]) {
  return useQuery({
    queryKey: ['dict', 'tacticsInterval'],
    queryFn: async () => {
      const data = await api.get<unknown>(PATHS.dict, { query: { label: 'tacticsInterval' }, silent: true }).catch(() => null);
      const list = Array.isArray(data) ? data : Array.isArray((data as { list?: unknown })?.list) ? (data as { list: unknown[] }).list : [];
      const values = list
        .map((v) => (typeof v === 'string' ? v : v && typeof v === 'object' ? ((v as Record<string, unknown>).value ?? (v as Record<string, unknown>).dictValue) : undefined))
        .filter((v): v is string => typeof v === 'string' && fallback.includes(v));
      return values.length ? values : [...fallback];
    },
    staleTime: 30 * 60_000,
  });
}

export function useContractInfo(instId: string | undefined) {
  return useQuery({
    queryKey: ['contract', instId],
    enabled: !!instId,
    queryFn: () =>
      getContractInfo(
        instId!,
        async (id) => {
          // contracts market.ts: decimal strings as the exchange gives them, or null.
          const info = await api.get<{ ctVal: string; ctMult: string; minSz: string } | null>(PATHS.contract, { query: { instId: id }, silent: true });
          return info ? { ctVal: Number(info.ctVal), ctMult: Number(info.ctMult), minSz: Number(info.minSz) } : null;
        },
        browserStorage(),
      ),
    staleTime: Infinity,
  }) as { data: ContractInfo | null | undefined };
}

// ---- backtests ----

export const createBacktest = (body: BacktestCreateBody) => api.post<BacktestCreateResult>(PATHS.create, body, { silent: true });
export const cancelBacktest = (id: number) => api.post<unknown>(PATHS.cancel, { id });
export const deleteBacktest = (id: number) => api.post<unknown>(PATHS.remove, { id });

export function useBacktestList(tab: BacktestTab) {
  return useInfiniteQuery({
    queryKey: ['backtests', tab],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => api.get<BacktestList>(PATHS.list, { query: { tab, page: pageParam, pageSize: BACKTEST_PAGE_SIZE } }),
    getNextPageParam: (last) => (last.hasMore ? last.page + 1 : undefined),
    // Rows of the running tab show their progress live.
    refetchInterval: tab === 'running' ? POLL_MS * 2 : false,
  });
}

export function useBacktestDetail(id: number | undefined) {
  return useQuery({
    queryKey: ['backtest', id],
    enabled: !!id,
    queryFn: () => api.get<BacktestDetail>(PATHS.detail, { query: { id: id! } }),
    refetchInterval: (q) => (q.state.data?.status === 1 ? POLL_MS : false),
  });
}

export function useBacktestReport(id: number | undefined, finished: boolean) {
  return useQuery({
    queryKey: ['backtest', id, 'report'],
    enabled: !!id && finished,
    queryFn: () => api.get<BacktestReport>(PATHS.report, { query: { id: id! }, silent: true }),
    staleTime: Infinity,
  });
}

export function useBacktestEquity(id: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['backtest', id, 'equity'],
    enabled: !!id && enabled,
    queryFn: () => api.get<BacktestEquity>(PATHS.equity, { query: { id: id!, maxPoints: 800 }, silent: true }),
    staleTime: Infinity,
  });
}

export function useBacktestTrades(id: number | undefined, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['backtest', id, 'trades', page],
    enabled: !!id && enabled,
    queryFn: () => api.get<BacktestTrades>(PATHS.trades, { query: { id: id!, page, pageSize: TRADES_PAGE_SIZE, order: 'asc' }, silent: true }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

/** A window of the K-line (no from / to: the whole backtest); the previous answer stays on screen while the next loads. */
export function useBacktestKline(id: number | undefined, window: KlineWindow) {
  return useQuery({
    queryKey: ['backtest', id, 'kline', window.from ?? null, window.to ?? null, window.maxCandles],
    enabled: !!id,
    queryFn: () =>
      api.get<BacktestKline>(PATHS.kline, {
        query: { id: id!, maxCandles: window.maxCandles, ...(window.from !== undefined ? { from: Math.floor(window.from), to: Math.ceil(window.to ?? window.from) } : {}) },
      }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}


export const getRobotPrefill = (id: number) => api.get<RobotPrefill>(PATHS.robotPrefill, { query: { id } });

// ---- recommendations ----

export const createRecommendation = (body: RecommendCreateBody) => api.post<Recommendation>(PATHS.recommendCreate, body, { silent: true });
export const cancelRecommendation = (id: number) => api.post<unknown>(PATHS.recommendCancel, { id });

export function useRecommendation(id: number | undefined) {
  return useQuery({
    queryKey: ['recommendation', id],
    enabled: !!id,
    // Silent: a remembered id of another session may be gone; the page then shows the form only.
    queryFn: () => api.get<Recommendation>(PATHS.recommendGet, { query: { id: id! }, silent: true }),
    refetchInterval: (q) => (q.state.data && q.state.data.status !== 'running' ? false : POLL_MS),
  });
}

/** After a create / cancel / delete the lists are stale. */
export const invalidateBacktests = (qc: QueryClient) => qc.invalidateQueries({ queryKey: ['backtests'] });

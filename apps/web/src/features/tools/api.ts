// Instruments for the calculators: the server's currency list of the market (contracts market.ts
// `instrument` facts), merged over the local copy of the engine's catalog (calc.ts) so the
// calculators also work offline or before market data is imported. Features never import each
// other: this is a small, separate read of `order/api/currency-list` (the backtest feature's
// one-day contract-info cache is not shared).
import { useQuery } from '@tanstack/react-query';
import type { CurrencyItem } from '@lq/contracts';
import { api } from '../../lib/session';
import { useAppStore } from '../../lib/store';
import { LOCAL_INSTRUMENTS, type CalcInstrument, type CalcMarket } from './calc';

const CURRENCIES = 'order/api/currency-list';

export const dataSourceOf = (market: CalcMarket, currentType: string) => (market === 'forex' ? 'mt5' : currentType === 'mt5' ? 'binance' : currentType);

/** Server items (any shape the list may take) → calculator instruments of `market`. */
export function instrumentsFrom(data: unknown, market: CalcMarket): CalcInstrument[] {
  const list = Array.isArray(data) ? data : Array.isArray((data as { list?: unknown } | null)?.list) ? (data as { list: unknown[] }).list : [];
  const out: CalcInstrument[] = [];
  for (const raw of list as Partial<CurrencyItem>[]) {
    const i = raw?.instrument;
    if (!raw || typeof raw.symbol !== 'string' || !i || typeof i !== 'object') continue;
    if (![i.tickSize, i.contractSize, i.minQty, i.qtyStep].every((n) => typeof n === 'number' && n > 0)) continue;
    const local = LOCAL_INSTRUMENTS.find((l) => l.symbol === raw.symbol);
    const item: CalcInstrument = {
      symbol: raw.symbol,
      market: i.market === 'forex' || i.market === 'crypto' ? i.market : market,
      quote: typeof i.quote === 'string' ? i.quote : market === 'crypto' ? 'USDT' : 'USD',
      tickSize: i.tickSize,
      digits: typeof i.digits === 'number' ? i.digits : 2,
      contractSize: i.contractSize,
      minQty: i.minQty,
      qtyStep: i.qtyStep,
    };
    if (typeof i.maxLeverage === 'number') item.maxLeverage = i.maxLeverage;
    if (local?.maintenanceMarginRate !== undefined) item.maintenanceMarginRate = local.maintenanceMarginRate;
    if (item.market === market) out.push(item);
  }
  return out;
}

/** The server's instruments first, then local ones it does not list. */
export function mergeInstruments(server: CalcInstrument[], market: CalcMarket): CalcInstrument[] {
  const seen = new Set(server.map((s) => s.symbol));
  return [...server, ...LOCAL_INSTRUMENTS.filter((l) => l.market === market && !seen.has(l.symbol))];
}

export function useInstruments(market: CalcMarket) {
  const currentType = useAppStore((s) => s.currentDataSource.type);
  const dataSource = dataSourceOf(market, currentType);
  const query = useQuery({
    queryKey: ['tools', 'instruments', dataSource, market],
    queryFn: async () => instrumentsFrom(await api.get<unknown>(CURRENCIES, { query: { dataSource }, silent: true }).catch(() => []), market),
    staleTime: 10 * 60_000,
  });
  return mergeInstruments(query.data ?? [], market);
}

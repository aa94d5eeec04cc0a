// Instruments for the calculators: the server's currency list of the market (contracts market.ts
// `instrument` facts), merged over the local copy of the engine's catalog (calc.ts) so the
// calculators also work offline or before market data is imported. Features never import each
// other: this is a small, separate read of `order/api/currency-list` (the backtest feature's
// one-day contract-info cache is not shared).
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/session';
import { useAppStore } from '../../lib/store';
import type { CalcMarket } from './calc';
import { instrumentsFrom, mergeInstruments } from './instruments';

const CURRENCIES = 'order/api/currency-list';

export const dataSourceOf = (market: CalcMarket, currentType: string) => (market === 'forex' ? 'mt5' : currentType === 'mt5' ? 'binance' : currentType);

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

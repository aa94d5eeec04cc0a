// "Create a robot" (and "backtest this symbol"): the strategies of the current market (tactics-selection, robot=true) → the
// create-order page of each in robot mode (?type=1). The server names each strategy's page.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useBacktestTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import type { TacticsItem } from '@lq/contracts';
import { IconChevron } from '../../components/icons';
import { Sheet } from '../../components/Sheet';
import { api } from '../../lib/session';
import '../../components/screens.css';

const TACTICS = 'order/api/backtest/tactics-selection';

/** Create-order page of a strategy: type 1 (robot) by default, 0 (backtest). */
export const createPath = (page: string, strategy: string, symbol?: string, type: 0 | 1 = 1) => {
  const q = new URLSearchParams({ strategy });
  if (type === 1) q.set('type', '1');
  if (symbol) q.set('symbol', symbol);
  return `/pages/createOrder/${page}?${q.toString()}`;
};

export function useRobotTactics(dataSource: string, enabled = true) {
  return useQuery({
    queryKey: ['robot-tactics', dataSource],
    enabled,
    queryFn: async () => {
      const data = await api.get<unknown>(TACTICS, { query: { dataSource, robot: true } });
      return (Array.isArray(data) ? data : []).filter((i): i is TacticsItem => !!i && typeof (i as TacticsItem).type === 'string' && typeof (i as TacticsItem).page === 'string');
    },
    staleTime: 5 * 60_000,
  });
}

export function StrategySheet({ dataSource, symbol, type = 1, onClose }: { dataSource: string; symbol?: string; type?: 0 | 1; onClose: () => void }) {
  const { t } = useTranslation('robot');
  const { t: tc } = useBacktestTranslation();
  const tactics = useRobotTactics(dataSource);
  return (
    <Sheet title={t(type === 1 ? 'chooseStrategy' : 'chooseBacktestStrategy')} onClose={onClose} testId="strategy-sheet">
      {tactics.isPending ? (
        <div className="spinner" aria-label={tc('common.loading')} />
      ) : !tactics.data?.length ? (
        <p className="bt-sub">{tc('common.loadFailed')}</p>
      ) : (
        <ul className="list">
          {tactics.data.map((s) => (
            <li key={`${s.type}:${s.page}`}>
              <Link className="list-row bt-choose-row" to={createPath(s.page, s.type, symbol, type)} data-testid={`robot-strategy-${s.type}`}>
                <span className="bt-choose-text">
                  <strong>{tc(`strategy.${s.type}`, { defaultValue: s.type })}</strong>
                  <span className="bt-sub">{tc(`strategyInfo.${s.type}`, { defaultValue: '' })}</span>
                </span>
                <IconChevron className="chev" />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Sheet>
  );
}

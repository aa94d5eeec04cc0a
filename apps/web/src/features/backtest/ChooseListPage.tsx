// pages/backtest/chooseList/chooseList: the strategies of the current market (tactics-selection)
// → the matching create-order page.
import { useBacktestTranslation } from '../../i18n';
import { Link } from '../../lib/router';
import { Button } from '../../components/Button';
import { IconChevron } from '../../components/icons';
import { useAppStore } from '../../lib/store';
import { useTactics } from './api';
import { createOrderPath, isCreateOrderPage, isStrategyKey, marketOfDataSource } from './strategies';
import { EmptyState } from './ui';

export default function ChooseListPage() {
  const { t } = useBacktestTranslation();
  const current = useAppStore((s) => s.currentDataSource);
  const market = marketOfDataSource(current.type);
  const tactics = useTactics(current.type, false);
  if (tactics.isPending) return <div className="spinner" aria-label={t('common.loading')} />;
  if (tactics.isError) return <EmptyState text={t('common.loadFailed')} action={<Button onClick={() => void tactics.refetch()}>{t('common.retry')}</Button>} />;
  const list = tactics.data.filter((s) => isStrategyKey(s.value));
  // The server names the page (tacticsItem.page); our own mapping is the fallback.
  const pathOf = (value: string, page?: string) => {
    if (!isStrategyKey(value)) return '/';
    const own = createOrderPath(value, market);
    return page && isCreateOrderPage(page) ? own.replace(/\/pages\/createOrder\/[^?]+/, `/pages/createOrder/${page}`) : own;
  };
  if (!list.length) return <EmptyState text={t('backtest.noStrategies')} testId="no-strategies" />;
  return (
    <div className="bt-page" data-testid="choose-list" data-market={market}>
      <p className="bt-lead">{t('backtest.chooseStrategy')}</p>
      <ul className="list bt-choose">
        {list.map((s) => (
          <li key={s.value}>
            <Link className="list-row bt-choose-row" to={pathOf(s.value, s.page)} data-testid={`choose-${s.value}`}>
              <span className="bt-choose-text">
                <strong>{t(`strategy.${s.value}`)}</strong>
                <span className="bt-sub">{t(`strategyInfo.${s.value}`)}</span>
              </span>
              <IconChevron className="chev" />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

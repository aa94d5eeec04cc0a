import { useTranslation } from 'react-i18next';
import { Link } from '../lib/router';
import { IconChart, IconRobot, IconUser } from '../components/icons';
import type { Tab } from './routeTable';

const TABS = [
  { tab: 'backtest', path: '/', label: 'nav.backtest', Icon: IconChart },
  { tab: 'robot', path: '/pages/robot/robotOrderList/robotOrderList', label: 'nav.robot', Icon: IconRobot },
  { tab: 'mine', path: '/pages/index/mine', label: 'nav.mine', Icon: IconUser },
] as const;

/** Bottom tab bar under 768 px: 70 px, three tabs (spec §2, §9). */
export function TabBar({ current }: { current: Tab | undefined }) {
  const { t } = useTranslation();
  return (
    <nav className="tabbar" aria-label={t('nav.tabBar')} data-testid="tab-bar">
      {TABS.map(({ tab, path, label, Icon }) => (
        <Link key={tab} className="tab" to={path} replace aria-current={current === tab ? 'page' : undefined} data-testid={`tab-${tab}`}>
          <Icon />
          <span>{t(label)}</span>
        </Link>
      ))}
    </nav>
  );
}

// Left menu of spec §2 (≥ 768 px): home, backtest, robot, wallet, mine (the wide screen's entries)
// and API management; then privacy and license (new window) and about us. 200 px ↔ 20 px with a
// round toggle. The entry lit is the section of the page shown (a backtest result lights Backtest,
// a calculator Mine); only a page of no section falls back to the last entry chosen.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from '../lib/router';
import { IconBack, IconChart, IconDoc, IconHome, IconInfo, IconKey, IconRobot, IconShield, IconUser, IconWallet } from '../components/icons';
import { browserStorage } from '../lib/storage';
import { useAppStore, appStore } from '../lib/store';

export const MENU_INDEX_KEY = 'leftMenuIndex';

interface Entry {
  label: string;
  icon: ReactNode;
  testId: string;
  path: string;
  /** Opens on the public host in a new browser window. */
  external?: boolean;
  /** Pages of its section, by path prefix (besides its own path). */
  section?: readonly string[];
}

const BACKTEST_SECTION = ['/pages/backtest/backtestRecord', '/pages/backtest/resultDateil/', '/pages/backtest/chooseList/', '/pages/createOrder/'];
const ROBOT_SECTION = ['/pages/robot/', '/pages/orderDetail/', '/pages/market/'];
const WALLET_SECTION = ['/pages/wallet/', '/pages/recharge/', '/pages/withdraw/', '/pages/buyusd/', '/pages/webview/'];
const MINE_SECTION = [
  '/pages/index/', '/pages/personal/', '/pages/changePwd/', '/pages/tools/', '/pages/equity/', '/pages/pay/', '/pages/group/', '/pages/notice/',
  '/pages/agreement/autoSubscribe/', '/pages/agreement/monthEquity/',
];

const inSection = (entry: Entry, pathname: string) =>
  !entry.external && (entry.path === pathname || (entry.section ?? []).some((prefix) => pathname === prefix || pathname.startsWith(prefix)));

export function SideMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const open = useAppStore((s) => s.menuShow);
  const [remembered, setRemembered] = useState(() => Number(browserStorage().getItem(MENU_INDEX_KEY) ?? 0) || 0);
  const main: Entry[] = [
    { label: t('nav.home'), icon: <IconHome width={20} />, testId: 'menu-home', path: '/', section: ['/pages/backtest/recommandParams'] },
    { label: t('nav.backtest'), icon: <IconChart width={20} />, testId: 'menu-backtest', path: '/pages/backtest/backtestRecord', section: BACKTEST_SECTION },
    { label: t('nav.robot'), icon: <IconRobot width={20} />, testId: 'menu-robot', path: '/pages/robot/robotOrderList/robotOrderList', section: ROBOT_SECTION },
    { label: t('nav.wallet'), icon: <IconWallet width={20} />, testId: 'menu-wallet', path: '/pages/wallet/wallet', section: WALLET_SECTION },
    { label: t('nav.mine'), icon: <IconUser width={20} />, testId: 'menu-mine', path: '/pages/index/mine', section: MINE_SECTION },
    { label: t('nav.apiManagement'), icon: <IconKey width={20} />, testId: 'menu-api', path: '/pages/apikey/apiList', section: ['/pages/apikey/'] },
  ];
  const secondary: Entry[] = [
    { label: t('nav.privacy'), icon: <IconShield width={20} />, testId: 'menu-privacy', path: '/pages/agreement/privacy/privacy', external: true },
    { label: t('nav.license'), icon: <IconDoc width={20} />, testId: 'menu-license', path: '/pages/agreement/license/license', external: true },
    { label: t('nav.aboutUs'), icon: <IconInfo width={20} />, testId: 'menu-about', path: '/pages/aboutus/aboutus' },
  ];
  const all = [...main, ...secondary];
  const matching = all.findIndex((e) => inSection(e, location.pathname));
  const selected = matching >= 0 ? matching : remembered;

  const activate = (entry: Entry, index: number) => {
    if (entry.external) {
      window.open(`${window.location.origin}/#${entry.path}`, '_blank', 'noopener');
      return;
    }
    setRemembered(index);
    browserStorage().setItem(MENU_INDEX_KEY, String(index));
    navigate(entry.path);
  };
  const item = (entry: Entry, index: number) => (
    <button
      key={entry.testId}
      type="button"
      className="menu-item"
      aria-current={index === selected && !entry.external ? 'page' : undefined}
      onClick={() => activate(entry, index)}
      data-testid={entry.testId}
      tabIndex={open ? 0 : -1}
    >
      {entry.icon}
      <span>{entry.label}</span>
      {entry.external ? <span className="sr-only">({t('nav.opensInNewWindow')})</span> : null}
    </button>
  );
  return (
    <nav className={`sidemenu${open ? '' : ' closed'}`} aria-label={t('nav.mainMenu')} data-testid="side-menu" data-open={open}>
      <button type="button" className="menu-toggle" aria-expanded={open} aria-label={open ? t('nav.collapseMenu') : t('nav.expandMenu')} onClick={() => appStore.getState().setMenuShow(!open)} data-testid="menu-toggle">
        <IconBack />
      </button>
      <div className="sidemenu-inner">
        {main.map((e, i) => item(e, i))}
        <hr />
        {secondary.map((e, i) => item(e, i + main.length))}
      </div>
    </nav>
  );
}

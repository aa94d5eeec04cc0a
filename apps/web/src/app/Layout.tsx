import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavBar } from '../components/Views';
import { LanguagePicker } from '../features/locale';
import { MarketSwitcher } from '../features/market';
import { useIsDesktop } from '../lib/useMedia';
import { useRouteDef } from './currentRoute';
import { SideMenu } from './SideMenu';
import { TabBar } from './TabBar';
import { TopBar } from './TopBar';

/** The app's frame around the page shown (`children`): top bar, side menu, nav bar, tab bar. */
export function Layout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const route = useRouteDef();
  const isDesktop = useIsDesktop();
  const chrome = route.chrome ?? 'full';
  const title = t(route.title ?? 'page.notFound', route.titleParams);
  const showTabBar = !isDesktop && !!route.tab && chrome === 'full';

  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);

  // Phones have no top bar: login and register carry the language picker in their nav bar.
  const navRight = isDesktop ? undefined : route.tab && route.tab !== 'mine' ? <MarketSwitcher /> : chrome === 'auth' ? <LanguagePicker /> : undefined;
  return (
    <div className={`shell${showTabBar ? ' has-tabbar' : ''}`} data-layout={isDesktop ? 'desktop' : 'mobile'} data-chrome={chrome}>
      {isDesktop && chrome !== 'bare' ? <TopBar showMarket={chrome === 'full'} /> : null}
      <div className="shell-body">
        {isDesktop && chrome === 'full' ? <SideMenu /> : null}
        <main className="content" id="main">
          <NavBar title={title} back={!route.tab} right={navRight} />
          <div className="content-inner">
            {children}
          </div>
        </main>
      </div>
      {showTabBar ? <TabBar current={route.tab} /> : null}
    </div>
  );
}

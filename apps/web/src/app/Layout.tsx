import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavBar } from '../components/Views';
import { LanguagePicker } from '../features/locale';
import { MarketSwitcher } from '../features/market';
import { useIsDesktop } from '../lib/useMedia';
import { useRouteDef } from './currentRoute';
import { TabBar } from './TabBar';

// The top bar and the left menu exist only on wide screens: a chunk of their own, so the phone's
// first screen does not carry them; desktops start loading it at boot (main.tsx), beside the page.
const loadDesktopChrome = () => import('./desktopChrome');
const TopBar = lazy(() => loadDesktopChrome().then((m) => ({ default: m.TopBar })));
const SideMenu = lazy(() => loadDesktopChrome().then((m) => ({ default: m.SideMenu })));
export const preloadDesktopChrome = () => void loadDesktopChrome().then((m) => m.preloadTopBar(), () => undefined);

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
      {isDesktop && chrome !== 'bare' ? (
        <Suspense fallback={<header className="topbar" />}>
          <TopBar market={chrome === 'full' ? <MarketSwitcher /> : null} language={<LanguagePicker />} />
        </Suspense>
      ) : null}
      <div className="shell-body">
        {isDesktop && chrome === 'full' ? (
          <Suspense fallback={<nav className="sidemenu" />}>
            <SideMenu />
          </Suspense>
        ) : null}
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

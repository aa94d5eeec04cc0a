import { useEffect } from 'react';
import { HashRouter, useLocation, useNavigate } from 'react-router-dom';
import { isConsolePath, NOT_FOUND, useRouteDef } from './currentRoute';
import { Guard } from './Guard';
import { Layout } from './Layout';
import { consoleElement, NotFound, pageElement } from './pages';

/**
 * react-router for the location, links and navigation, not for matching (currentRoute.ts), and no
 * data router: the app loads its data with TanStack Query, and the data router would add about
 * 15 KB gzip to the first screen for loaders it does not use.
 */
export function AppRoutes() {
  return (
    <HashRouter>
      <CatchUpWithHash />
      <Frame />
    </HashRouter>
  );
}

/** The console has its own frame and session; every other path is the users' app. */
function Frame() {
  if (isConsolePath(useLocation().pathname)) return consoleElement;
  return (
    <Layout>
      <CurrentPage />
    </Layout>
  );
}

/** The page of the current path (routeTable: every route is a fixed path, looked up, not matched). */
function CurrentPage() {
  const route = useRouteDef();
  if (route === NOT_FOUND) return <NotFound />;
  return <Guard guarded={!!route.guard}>{pageElement(route)}</Guard>;
}

/**
 * HashRouter reads the location while it first renders and subscribes to changes only in a layout
 * effect; the app mounts in a transition, so a hash change in between (a link followed, or a test's
 * goto, while the first screen renders) was lost and the old page stayed. After the subscription,
 * follow the hash once if it moved.
 */
function CatchUpWithHash() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const live = window.location.hash.replace(/^#/, '') || '/';
    if (live !== `${location.pathname}${location.search}`) void navigate(live, { replace: true });
    // Once, after mount: later changes reach the router through its own subscription.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

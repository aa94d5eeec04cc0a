import { HashRouter, useLocation } from '../lib/router';
import { isConsolePath, NOT_FOUND, useRouteDef } from './currentRoute';
import { Guard } from './Guard';
import { Layout } from './Layout';
import { consoleElement, NotFound, pageElement } from './pages';

/**
 * The hash location (lib/router: wouter with the path and query inside the hash) for the location,
 * links and navigation; no matching: every route is a fixed path, looked up (currentRoute.ts). The
 * app loads its data with TanStack Query, so there are no loaders.
 */
export function AppRoutes() {
  return (
    <HashRouter>
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

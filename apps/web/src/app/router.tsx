import { useEffect } from 'react';
import { HashRouter, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { Guard } from './Guard';
import { Layout } from './Layout';
import { NotFound, pageElement } from './pages';
import { ROUTES } from './routeTable';

/**
 * Declarative routes, not a data router: the app loads its data with TanStack Query, and the data
 * router would add about 15 KB gzip to the first screen for loaders it does not use.
 */
export function AppRoutes() {
  return (
    <HashRouter>
      <CatchUpWithHash />
      <Routes>
        <Route element={<Layout />}>
          {ROUTES.map((route) => (
            <Route key={route.path} path={route.path} element={<Guard guarded={!!route.guard}>{pageElement(route)}</Guard>} />
          ))}
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </HashRouter>
  );
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

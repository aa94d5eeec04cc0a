import type { ReactNode } from 'react';
import { Navigate, navigateTo, splitHash, useLocation } from '../lib/router';
import { useAppStore } from '../lib/store';
import { isConsolePath, routeOf } from './currentRoute';
import { LOGIN_PATH } from './routeTable';

/** Spec §4: guarded pages without a stored token go to the login page. */
export function Guard({ guarded, children }: { guarded: boolean; children: ReactNode }) {
  const token = useAppStore((s) => s.token);
  const location = useLocation();
  if (guarded && !token) return <Navigate to={LOGIN_PATH} replace state={guestRedirectState(location.pathname + location.search)} />;
  return children;
}

const guestRedirectState = (from: string) => ({ from });

/**
 * The guard's redirect for the page the app opens on, before the first render: a guest opening a
 * guarded page (`/` included) renders the login page once. Left to <Guard>, the app first mounted
 * the home page's frame (tab bar, market switcher), then re-rendered everything synchronously from
 * the redirect's layout effect: the longest task of a phone's first screen.
 */
export function guardBootLocation(hasToken: boolean): void {
  const { path, query } = splitHash(window.location.hash);
  if (hasToken || isConsolePath(path) || !routeOf(path).guard) return;
  navigateTo(LOGIN_PATH, { replace: true, state: guestRedirectState(query ? `${path}?${query}` : path) });
}

import { useCallback, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { Redirect, Router } from 'wouter';

/**
 * The app's location: the hash, as spec §2 writes every page (`#/path?query`). wouter (2 KB gzip)
 * gives the links and the redirect; react-router's hash router cost 13 KB of the first screen for
 * the same. wouter's own hash hook writes `?query` outside the hash (`/?query#/path`), which would
 * change every shared link, so the location is read and written here:
 * - the path and the query are both inside the hash;
 * - each history entry carries `{ usr, idx }`, as react-router wrote it: `usr` is the state a
 *   navigation passes on (the login page's e-mail, the guard's `from`), `idx` numbers this tab's
 *   entries so the back button can tell whether there is an entry of ours to go back to.
 */

export type NavigateOptions = { replace?: boolean; state?: unknown };
type EntryState = { usr?: unknown; idx?: number } | null;

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function subscribe(listener: () => void) {
  if (listeners.size === 0) {
    // Back and forward fire popstate (and hashchange when the hash differs); a typed URL only hashchange.
    window.addEventListener('popstate', notify);
    window.addEventListener('hashchange', notify);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.removeEventListener('popstate', notify);
      window.removeEventListener('hashchange', notify);
    }
  };
}

const currentHash = () => window.location.hash;
const useHash = () => useSyncExternalStore(subscribe, currentHash);

/** `#/path?query` → path (with a leading slash) and query (without `?`). */
export function splitHash(hash: string): { path: string; query: string } {
  const body = hash.replace(/^#?\/?/, '');
  const mark = body.indexOf('?');
  return mark < 0 ? { path: `/${body}`, query: '' } : { path: `/${body.slice(0, mark)}`, query: body.slice(mark + 1) };
}

/** The entry index of the current history entry (0 for the first of this tab, or one typed in). */
export const entryIndex = () => (window.history.state as EntryState)?.idx ?? 0;

/** Goes to `to` (an app path, `/path?query`), or moves through history by a number of entries. */
export function navigateTo(to: string | number, { replace = false, state }: NavigateOptions = {}) {
  if (typeof to === 'number') {
    window.history.go(to);
    return;
  }
  const entry: EntryState = { usr: state, idx: entryIndex() + (replace ? 0 : 1) };
  if (replace) window.history.replaceState(entry, '', `#${to}`);
  else window.history.pushState(entry, '', `#${to}`);
  notify();
}

/** wouter's location hook: the path of the hash; its search hook: the query of the hash. */
function useHashPath(): [string, typeof navigateTo] {
  return [splitHash(useHash()).path, navigateTo];
}
const useHashQuery = () => splitHash(useHash()).query;
const hashHref = (href: string) => `#${href}`;

export function HashRouter({ children }: { children: ReactNode }) {
  return (
    <Router hook={useHashPath} searchHook={useHashQuery} hrefs={hashHref}>
      {children}
    </Router>
  );
}

export interface AppLocation {
  pathname: string;
  /** `?query`, or '' without one. */
  search: string;
  /** What the navigation here passed on (`navigate(to, { state })`, `<Link state>`), null otherwise. */
  state: unknown;
}

export function useLocation(): AppLocation {
  const hash = useHash();
  return useMemo(() => {
    const { path, query } = splitHash(hash);
    return { pathname: path, search: query ? `?${query}` : '', state: (window.history.state as EntryState)?.usr ?? null };
  }, [hash]);
}

export function useNavigate() {
  return navigateTo;
}

type SearchInit = URLSearchParams | Record<string, string> | string;

/**
 * The query of the current page and a setter that keeps the path. Parsed by URLSearchParams alone
 * (wouter's decodes the query with decodeURI first, which turns an encoded `%25` into a `%` and
 * then the next two characters into another character).
 */
export function useSearchParams(): [URLSearchParams, (next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => void] {
  const hash = useHash();
  const params = useMemo(() => new URLSearchParams(splitHash(hash).query), [hash]);
  const setParams = useCallback((next: SearchInit | ((current: URLSearchParams) => SearchInit), options?: NavigateOptions) => {
    const { path, query } = splitHash(currentHash());
    const value = new URLSearchParams(typeof next === 'function' ? next(new URLSearchParams(query)) : next).toString();
    navigateTo(value ? `${path}?${value}` : path, options);
  }, []);
  return [params, setParams];
}

/** Goes to `to` once rendered (the guard's way to the login page). */
export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  return <Redirect to={to} replace={replace} state={state} />;
}

export { Link } from 'wouter';

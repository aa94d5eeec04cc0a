import { useLocation } from '../lib/router';
import { ROUTES, type RouteDef } from './routeTable';

/** What an unknown path shows (the layout titles it; the router renders the not-found page). */
export const NOT_FOUND: RouteDef = { path: '*', title: 'page.notFound', page: 'soon' };

// Every route is a fixed path (spec §2), so the route of a location is one lookup. react-router's
// <Routes> ranked and matched ~60 path patterns on each render of the shell (52–117 ms of a
// 4x-throttled first load, 22 ms with the lookup). Matching stays case-insensitive and ignores a
// trailing slash, as before.
const key = (path: string) => path.toLowerCase().replace(/\/+$/, '') || '/';
const byPath = new Map(ROUTES.map((route) => [key(route.path), route]));

/** The route definition of a path, NOT_FOUND when none. */
export function routeOf(pathname: string): RouteDef {
  return byPath.get(key(pathname)) ?? NOT_FOUND;
}

/** The route definition of the current location (title, chrome, tab), for the layout and the router. */
export function useRouteDef(): RouteDef {
  return routeOf(useLocation().pathname);
}

/** The operator console's paths (`#/console/...`): its own part of the app, outside the users' frame. */
export const isConsolePath = (pathname: string) => /^\/console(\/|$)/i.test(pathname);

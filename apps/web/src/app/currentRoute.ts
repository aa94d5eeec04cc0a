import { matchRoutes, useLocation } from 'react-router-dom';
import { ROUTES, type RouteDef } from './routeTable';

const notFound: RouteDef = { path: '*', title: 'page.notFound', page: 'soon' };
const matchTable = [...ROUTES, notFound].map((route) => ({ path: route.path, route }));

/** The route definition of the current location (title, chrome, tab), for the layout. */
export function useRouteDef(): RouteDef {
  const location = useLocation();
  const matches = matchRoutes(matchTable, location);
  return matches?.[matches.length - 1]?.route.route ?? notFound;
}


import { createHashRouter } from 'react-router-dom';
import { Guard } from './Guard';
import { Layout } from './Layout';
import { NotFound, pageElement } from './pages';
import { ROUTES, type RouteDef } from './routeTable';

const notFound: RouteDef = { path: '*', title: 'page.notFound', page: 'soon' };

export function createAppRouter() {
  return createHashRouter([
    {
      element: <Layout />,
      children: [
        ...ROUTES.map((route) => ({
          path: route.path,
          handle: route,
          element: <Guard guarded={!!route.guard}>{pageElement(route)}</Guard>,
        })),
        { path: '*', handle: notFound, element: <NotFound /> },
      ],
    },
  ]);
}

// The operator console (issue 32): operators (a role of their own, not a user level) with a
// password and a TOTP second factor, the `console/api` prefix guarded for them alone, and the audit
// log of every operator action. Screens come in the web app's own lazy part (#/console).
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { consoleRoutes, type ConsoleRouteTable } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every console route (method, URL, what it is open to), as registered. */
    consoleRouteTable: ConsoleRouteTable;
  }
}

export const consolePlugin = fp(
  async (app) => {
    const deps = platformDeps(app);
    const table: ConsoleRouteTable = [];
    app.decorate('consoleRouteTable', table);
    // Encapsulated: the guard applies to this prefix only.
    await app.register(
      async (scope) => {
        consoleRoutes(scope, deps, table);
        return Promise.resolve();
      },
      { prefix: '/console/api' },
    );
  },
  { name: 'console' },
);

export { CONSOLE_OPS } from './ops';
export type { ConsoleRouteTable } from './routes';

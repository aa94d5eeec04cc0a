// Robots: orders to run a strategy on a trading account (create, pause, continue, stop), seats and
// tickers. The runner area drives them.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { robotRoutes } from './routes';

export const robotsPlugin = fp(
  async (app) => {
    robotRoutes(app, platformDeps(app));
    return Promise.resolve();
  },
  { name: 'robots' },
);

export { ROBOT_OPS } from './ops';

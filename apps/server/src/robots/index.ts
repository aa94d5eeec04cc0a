// Robots: orders to run a strategy on a trading account (create, pause, continue, stop), seats and
// tickers. The runner area drives them.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { startRobotJobs } from './jobs';
import { robotRoutes } from './routes';

export const robotsPlugin = fp(
  async (app) => {
    const deps = platformDeps(app);
    robotRoutes(app, deps);
    app.jobs.add('robots', startRobotJobs((mail) => deps.mailer.send(mail)));
    return Promise.resolve();
  },
  { name: 'robots' },
);

export { ROBOT_OPS } from './ops';
export { enforceSeats, notifyFrozenAccounts } from './seat-expiry';
export { decimalText, getOwnRobot } from './service';
export { checkMt5Fills, type FillCheckRun } from './fill-check';

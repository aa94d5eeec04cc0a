// Backtests and parameter recommendations: the API, the rows, and the jobs that run the engine.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { startBacktestJobs } from './jobs';
import { backtestRoutes } from './routes';

export const backtestsPlugin = fp(
  async (app) => {
    backtestRoutes(app, platformDeps(app));
    app.jobs.add('backtests', startBacktestJobs);
    return Promise.resolve();
  },
  { name: 'backtests' },
);

export { BACKTEST_OPS } from './ops';
export { backtestMaintenanceOn, setBacktestMaintenance } from './service';

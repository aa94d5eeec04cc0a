// The drift area's plugin: one shadow monitor per app (the shadows it keeps in memory), its routes
// and its schedule.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { driftRoutes } from './routes';
import { FundingRecorder } from './funding';
import { startDriftJobs } from './jobs';
import { ShadowMonitor } from './service';

export const driftPlugin = fp(
  async (app) => {
    const monitor = new ShadowMonitor(app.database);
    driftRoutes(app, platformDeps(app), monitor);
    app.jobs.add('drift', startDriftJobs(monitor, new FundingRecorder(app.database, app.config)));
    return Promise.resolve();
  },
  { name: 'drift' },
);

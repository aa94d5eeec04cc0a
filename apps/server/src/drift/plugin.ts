// The drift area's plugin: one shadow monitor per app (the shadows it keeps in memory) and its routes.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { driftRoutes } from './routes';
import { ShadowMonitor } from './service';

export const driftPlugin = fp(
  async (app) => {
    driftRoutes(app, platformDeps(app), new ShadowMonitor(app.database));
    return Promise.resolve();
  },
  { name: 'drift' },
);

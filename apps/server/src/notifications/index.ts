// Notifications: the centre of what happened to a user's robots, money and packs. Events are rows
// of `notifications`, raised by database triggers in the transaction of the change itself
// (migration 0035: robots stopped or paused by an error or an offline terminal, withdrawals
// approved / paid / rejected / failed, deposits credited, renewals failed, accounts frozen).
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { notificationRoutes } from './routes';

export const notificationsPlugin = fp(
  async (app) => {
    notificationRoutes(app, platformDeps(app));
    return Promise.resolve();
  },
  { name: 'notifications' },
);

// Notifications: the centre of what happened to a user's robots, money and packs, and their
// delivery by e-mail and Telegram. Events are rows of `notifications`, raised by database triggers
// in the transaction of the change itself (migration 0035: robots stopped or paused by an error or
// an offline terminal, withdrawals approved / paid / rejected / failed, deposits credited, renewals
// failed, accounts frozen; 0036: fills, for those who asked); the delivery job hands them on.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { startNotificationJobs } from './jobs';
import { notificationRoutes } from './routes';
import { pushChannel } from './push';
import { telegramChannel } from './telegram';

export const notificationsPlugin = fp(
  async (app) => {
    const deps = platformDeps(app);
    const config = deps.config;
    const telegram = telegramChannel(config, deps.db);
    const push = pushChannel(config);
    notificationRoutes(app, deps, telegram, push);
    const publicUrl = (config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '');
    const webhook = config.PUBLIC_URL && config.TELEGRAM_WEBHOOK_SECRET ? { url: `${publicUrl}/telegram/webhook`, secret: config.TELEGRAM_WEBHOOK_SECRET } : undefined;
    app.jobs.add('notifications', startNotificationJobs({ mailer: deps.mailer, telegram, push, publicUrl }, config.NOTIFY_POLL_SECONDS, webhook));
    return Promise.resolve();
  },
  { name: 'notifications' },
);

export { deliverNotifications, expandNotifications } from './delivery';

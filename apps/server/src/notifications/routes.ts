import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { webhookCallback } from 'grammy';
import { AppError, envelopeOf, notificationList, notificationListQuery, notificationPrefBody, notificationPrefs, notificationReadBody, noticeUnread, pushSubscribeBody, pushUnsubscribeBody, telegramLinkResult } from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import type { PlatformDeps } from '../platform/deps';
import { notificationPrefsOf, setNotificationPref } from './prefs';
import { subscribePush, unsubscribePush, type PushChannel } from './push';
import { markNotificationsRead, notificationListOf, unreadNotificationsOf } from './service';
import { createLinkToken, unlinkUser, type TelegramChannel } from './telegram';

const tags = ['notifications'];

/** The notification centre: `user/api/notification/...` (docs/api.md "Notifications"). */
export function notificationRoutes(app: FastifyInstance, deps: PlatformDeps, telegram: TelegramChannel | undefined, push: PushChannel | undefined): void {
  const offered = { telegram: telegram !== undefined, pushKey: push?.publicKey };
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);

  r.get(
    '/user/api/notification/list',
    {
      schema: {
        tags,
        summary: 'The caller’s notifications, newest first (robots stopped or paused, withdrawals, deposits, renewals, frozen accounts), each with what its text needs and the page it opens; with the unread count',
        security: bearerAuth,
        querystring: notificationListQuery,
        response: { 200: envelopeOf(notificationList), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await notificationListOf(deps.db, req.auth!.user.id, req.query)),
  );

  r.post(
    '/user/api/notification/read',
    {
      schema: {
        tags,
        summary: 'Marks one notification read (`id`), or all of the caller’s; answers how many are left unread',
        security: bearerAuth,
        body: notificationReadBody,
        response: { 200: envelopeOf(noticeUnread), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, { unread: await markNotificationsRead(deps.db, req.auth!.user.id, req.body.id) }),
  );

  r.get(
    '/user/api/notification/unread',
    {
      schema: { tags, summary: 'How many of the caller’s notifications are unread', security: bearerAuth, response: { 200: envelopeOf(noticeUnread), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, { unread: await unreadNotificationsOf(deps.db, req.auth!.user.id) }),
  );

  r.get(
    '/user/api/notification/prefs',
    {
      schema: {
        tags,
        summary: 'Which channels (e-mail, Telegram) each kind of notification goes to, and whether a Telegram chat can be / is linked',
        security: bearerAuth,
        response: { 200: envelopeOf(notificationPrefs), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await notificationPrefsOf(deps.db, req.auth!.user.id, offered)),
  );

  r.post(
    '/user/api/notification/prefs',
    {
      schema: {
        tags,
        summary: 'Switches one kind of notification on or off on one channel (robot.filled is off until switched on; a failed renewal and a frozen account are always e-mailed); answers all preferences',
        security: bearerAuth,
        body: notificationPrefBody,
        response: { 200: envelopeOf(notificationPrefs), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => {
      await setNotificationPref(deps.db, req.auth!.user.id, req.body);
      return ok(req, await notificationPrefsOf(deps.db, req.auth!.user.id, offered));
    },
  );

  r.post(
    '/user/api/notification/telegram/link',
    {
      schema: {
        tags,
        summary: 'A one-time t.me deep link (15 minutes) that links the Telegram chat it is opened in to the caller; a new one replaces the last',
        security: bearerAuth,
        response: { 200: envelopeOf(telegramLinkResult), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => {
      if (!telegram) throw new AppError('TELEGRAM_CLOSED');
      const { token, expiresAt } = await createLinkToken(deps.db, req.auth!.user.id);
      return ok(req, { url: `https://t.me/${telegram.botName}?start=${token}`, expiresAt: expiresAt.getTime() });
    },
  );

  r.post(
    '/user/api/notification/telegram/unlink',
    {
      schema: { tags, summary: 'Unlinks the caller’s Telegram chat (nothing more is sent there)', security: bearerAuth, response: { 200: envelopeOf(notificationPrefs), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      await unlinkUser(deps.db, req.auth!.user.id);
      return ok(req, await notificationPrefsOf(deps.db, req.auth!.user.id, offered));
    },
  );

  r.post(
    '/user/api/notification/push/subscribe',
    {
      schema: {
        tags,
        summary: 'Turns Web Push on for this device: its PushSubscription (endpoint on a browser push service, keys); answers the preferences',
        security: bearerAuth,
        body: pushSubscribeBody,
        response: { 200: envelopeOf(notificationPrefs), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => {
      if (!push) throw new AppError('PUSH_CLOSED');
      await subscribePush(deps.db, req.auth!.user.id, req.body, deps.config.PUSH_SERVICE_HOSTS, req.headers['user-agent']);
      return ok(req, await notificationPrefsOf(deps.db, req.auth!.user.id, offered));
    },
  );

  r.post(
    '/user/api/notification/push/unsubscribe',
    {
      schema: { tags, summary: 'Turns Web Push off for the device of this endpoint', security: bearerAuth, body: pushUnsubscribeBody, response: { 200: envelopeOf(notificationPrefs), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      await unsubscribePush(deps.db, req.auth!.user.id, req.body.endpoint);
      return ok(req, await notificationPrefsOf(deps.db, req.auth!.user.id, offered));
    },
  );

  // Telegram's updates (/start <token>, /stop): refused without the secret header set with the webhook.
  if (telegram) {
    app.post('/telegram/webhook', { schema: { hide: true } }, webhookCallback(telegram.bot, 'fastify', { secretToken: deps.config.TELEGRAM_WEBHOOK_SECRET }));
  }
}

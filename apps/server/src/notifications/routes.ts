import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, notificationList, notificationListQuery, notificationReadBody, noticeUnread } from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import type { PlatformDeps } from '../platform/deps';
import { markNotificationsRead, notificationListOf, unreadNotificationsOf } from './service';

const tags = ['notifications'];

/** The notification centre: `user/api/notification/...` (docs/api.md "Notifications"). */
export function notificationRoutes(app: FastifyInstance, deps: PlatformDeps): void {
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
}

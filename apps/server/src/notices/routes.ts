import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, noticeDetail, noticeDetailQuery, noticeList, noticeListQuery, noticeReadBody, noticeUnread } from '@lq/contracts';
import { optionalAuth, requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import type { PlatformDeps } from '../platform/deps';
import { markNoticesRead, noticeDetailOf, noticeListOf, unreadCountOf } from './service';

const tags = ['notices'];

/**
 * Notices and news: `user/api/notice/...` (docs/api.md). The notice page is open to guests (spec
 * §2: only mine, recommendations, robots, wallet and recharge are guarded): without a token the
 * list and the detail answer with nothing read; unread counts and marking read need a user.
 */
export function noticeRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);
  const maybeAuth = optionalAuth(deps.sessions);

  r.get(
    '/user/api/notice/list',
    {
      schema: {
        tags,
        summary: 'Published notices and news, pinned first then newest, each in the caller’s language (English when it has none), with read state and the unread count',
        security: bearerAuth,
        querystring: noticeListQuery,
        response: { 200: envelopeOf(noticeList), ...errorResponses },
      },
      preHandler: maybeAuth,
    },
    async (req) => ok(req, await noticeListOf(deps.db, req.auth?.user.id ?? null, req.locale, req.query)),
  );

  r.get(
    '/user/api/notice/detail',
    {
      schema: {
        tags,
        summary: 'One published notice with its body rendered from Markdown (no raw HTML, no script or data links); 404 for one not published',
        security: bearerAuth,
        querystring: noticeDetailQuery,
        response: { 200: envelopeOf(noticeDetail), ...errorResponses },
      },
      preHandler: maybeAuth,
    },
    async (req) => ok(req, await noticeDetailOf(deps.db, req.auth?.user.id ?? null, req.locale, req.query.id)),
  );

  r.post(
    '/user/api/notice/read',
    {
      schema: {
        tags,
        summary: 'Marks one notice read (`id`), or every published one (no `id`); answers how many are left unread',
        security: bearerAuth,
        body: noticeReadBody,
        response: { 200: envelopeOf(noticeUnread), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, { unread: await markNoticesRead(deps.db, req.auth!.user.id, req.body.id) }),
  );

  r.get(
    '/user/api/notice/unread',
    {
      schema: { tags, summary: 'How many published notices the caller has not read (the badge)', security: bearerAuth, response: { 200: envelopeOf(noticeUnread), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, { unread: await unreadCountOf(deps.db, req.auth!.user.id) }),
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { envelopeOf, rankingList, rankingListQuery, rebateList, rebateListQuery, referralRules, vipProgress } from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import type { PlatformDeps } from '../platform/deps';
import { rankingListOf } from './rankings';
import { ratesOf, rebateCsvOf, rebateListOf } from './rebates';
import { thresholdsOf, vipProgressOf } from './vip';

const tags = ['referrals'];

/** VIP progress, rebates, rankings: `user/api/vip/...`, `user/api/rebate/...`, `user/api/ranking/...` (docs/api.md). */
export function referralRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);

  r.get(
    '/user/api/vip/progress',
    {
      schema: {
        tags,
        summary: 'The caller’s level, the figures of the last daily computation (own and team volume, active direct referrals, active users in the team), each tier’s conditions with what is missing, and the level changes',
        security: bearerAuth,
        response: { 200: envelopeOf(vipProgress), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await vipProgressOf(deps.db, req.auth!.user.id, deps.config.PLATFORM_TIMEZONE)),
  );

  r.get(
    '/user/api/rebate/list',
    {
      schema: {
        tags,
        summary: 'The caller’s rebates, newest first: the payment each came from (who paid, when, how much), the level held then, differential or same-level share, rate and amount; with today’s, this month’s and total sums',
        security: bearerAuth,
        querystring: rebateListQuery,
        response: { 200: envelopeOf(rebateList), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await rebateListOf(deps.db, req.auth!.user.id, req.query, deps.config.PLATFORM_TIMEZONE)),
  );

  r.get(
    '/user/api/rebate/export',
    {
      schema: { tags, summary: 'The caller’s whole rebate history as CSV (UTF-8), oldest first', security: bearerAuth, response: { ...errorResponses } },
      preHandler: auth,
    },
    async (req, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="rebates.csv"')
        .send(Readable.from(rebateCsvOf(deps.db, req.auth!.user.id)) as never), // a file, not an envelope
  );

  r.get(
    '/user/api/rebate/rules',
    {
      schema: {
        tags,
        summary: 'The referral rules in force: rebate rates (basis points) by level, the same-level share, the VIP tiers’ conditions, and the platform timezone',
        security: bearerAuth,
        response: { 200: envelopeOf(referralRules), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, { rates: await ratesOf(deps.db), thresholds: await thresholdsOf(deps.db), timeZone: deps.config.PLATFORM_TIMEZONE }),
  );

  r.get(
    '/user/api/ranking/list',
    {
      schema: {
        tags,
        summary: 'A leaderboard over the 30 days before today 00:00 (platform timezone): live robot volume, users who joined the team, or rebates credited — the top 50 with names masked, and the caller’s own row wherever it stands',
        security: bearerAuth,
        querystring: rankingListQuery,
        response: { 200: envelopeOf(rankingList), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await rankingListOf(deps.db, req.auth!.user.id, req.query.by)),
  );
}

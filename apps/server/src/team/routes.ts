import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, teamList, teamListQuery, teamSummary } from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import type { PlatformDeps } from '../platform/deps';
import { statsWindow } from '../platform/windows';
import { teamListOf, teamSummaryOf } from './service';

const tags = ['team'];

/** The team: `user/api/team/...` (docs/api.md, "Team"). */
export function teamRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);

  r.get(
    '/user/api/team/summary',
    {
      schema: {
        tags,
        summary: 'The caller’s team: direct referrals, everyone below, and the team’s live robot volume and active users over the 30 days before today 00:00 (platform timezone)',
        security: bearerAuth,
        response: { 200: envelopeOf(teamSummary), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await teamSummaryOf(deps.db, req.auth!.user.id, statsWindow(deps.config.PLATFORM_TIMEZONE))),
  );

  r.get(
    '/user/api/team/list',
    {
      schema: {
        tags,
        summary: 'Direct referrals of `parent` (the caller by default; else someone below the caller, or 404), newest first, searchable by nickname or invite code: level, join date, 30-day volume, active, their own team',
        security: bearerAuth,
        querystring: teamListQuery,
        response: { 200: envelopeOf(teamList), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await teamListOf(deps.db, req.auth!.user.id, req.query, statsWindow(deps.config.PLATFORM_TIMEZONE))),
  );
}

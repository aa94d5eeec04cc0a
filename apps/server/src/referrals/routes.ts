import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, vipProgress } from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import type { PlatformDeps } from '../platform/deps';
import { vipProgressOf } from './vip';

const tags = ['referrals'];

/** VIP progress: `user/api/vip/...` (docs/api.md, "VIP progress"). */
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
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, errorEnvelope, withdrawCreateBody, withdrawIdParams, withdrawItem, withdrawList, withdrawListQuery } from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { ok } from '../platform/http';
import { perUserLimit } from '../platform/limits';
import type { PlatformDeps } from '../platform/deps';
import { createWithdrawal, withdrawalOf, withdrawalsOf } from './service';

const errors = { '4xx': errorEnvelope, '5xx': errorEnvelope };
const bearer = [{ bearer: [] }];
const tags = ['withdrawals'];

/** Withdrawals: `user/api/withdraw/...` (docs/api.md, "Withdrawals"). */
export function withdrawRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);

  r.post(
    '/user/api/withdraw/create',
    {
      schema: {
        tags,
        summary: 'Withdraw to a USDT address on BEP20 or TRC20: amount (≥ 10) arrives, amount + fee (3) are held now; payment password required',
        security: bearer,
        body: withdrawCreateBody,
        response: { 200: envelopeOf(withdrawItem), ...errors },
      },
      config: perUserLimit(deps.config.USER_RATE_PER_MINUTE),
      preHandler: auth,
    },
    async (req) => ok(req, await createWithdrawal(deps.db, req.auth!.user.id, req.body)),
  );

  r.get(
    '/user/api/withdraw/list',
    {
      schema: { tags, summary: 'The caller’s withdrawals, newest first', security: bearer, querystring: withdrawListQuery, response: { 200: envelopeOf(withdrawList), ...errors } },
      preHandler: auth,
    },
    async (req) => ok(req, await withdrawalsOf(deps.db, req.auth!.user.id, req.query, req.locale)),
  );

  r.get(
    '/user/api/withdraw/detail/:id',
    {
      schema: { tags, summary: 'One of the caller’s withdrawals', security: bearer, params: withdrawIdParams, response: { 200: envelopeOf(withdrawItem), ...errors } },
      preHandler: auth,
    },
    async (req) => ok(req, await withdrawalOf(deps.db, req.auth!.user.id, req.params.id, req.locale)),
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, rechargeAddress, rechargeAddressQuery, rechargeList, rechargeListQuery } from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import type { PlatformDeps } from '../platform/deps';
import { depositAddressOf, type DepositSetup } from './addresses';
import { depositsOf } from './service';

const tags = ['deposits'];

/** Deposits: `user/api/recharge/...` (docs/api.md, "Deposits"). */
export function depositRoutes(app: FastifyInstance, deps: PlatformDeps, setup: DepositSetup): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);

  r.get(
    '/user/api/recharge/address',
    {
      schema: {
        tags,
        summary: 'The caller’s USDT deposit address on BEP20 or TRC20, with the minimum and the confirmations a credit waits for',
        security: bearerAuth,
        querystring: rechargeAddressQuery,
        response: { 200: envelopeOf(rechargeAddress), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await depositAddressOf(deps.db, setup, req.auth!.user.id, req.query.network)),
  );

  r.get(
    '/user/api/recharge/list',
    {
      schema: {
        tags,
        summary: 'The caller’s USDT deposits, newest first: pending with their confirmations, waiting for the minimum, credited',
        security: bearerAuth,
        querystring: rechargeListQuery,
        response: { 200: envelopeOf(rechargeList), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await depositsOf(deps.db, setup, req.auth!.user.id, req.query)),
  );
}

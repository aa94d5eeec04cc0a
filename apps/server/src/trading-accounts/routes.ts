import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountBindBody,
  accountBindResult,
  accountEditBody,
  accountIdBody,
  accountRotateBody,
  accountIdQuery,
  accountItem,
  accountList,
  accountListQuery,
  accountOverview,
  accountPublicKey,
  envelopeOf,
} from '@lq/contracts';
import {
  bindAccount,
  editAccount,
  getOwnAccount,
  itemOf,
  listAccounts,
  overviewOf,
  recheckAccount,
  releaseAccount,
  rotateBridgeToken,
  unbindAccount,
  type TradingAccountDeps,
} from './service';
import { SecretBox } from './secrets';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { perUserLimit } from '../platform/limits';
import type { PlatformDeps } from '../platform/deps';
import { stepUp } from '../users';

const tags = ['apikey'];

/**
 * Trading accounts (API keys): `user/api/apikey/...` (docs/api.md, "Trading accounts").
 * Building the SecretBox here makes a key file with loose permissions stop the server at start.
 */
export function tradingAccountRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);
  const box = SecretBox.fromConfig(deps.config);
  const svc: TradingAccountDeps = { db: deps.db, box, config: deps.config };
  // Binding, key changes and checks call the exchange: limited per user.
  const venueLimit = perUserLimit(deps.config.USER_RATE_PER_MINUTE);

  r.get(
    '/user/api/apikey/public-key',
    {
      schema: {
        tags,
        summary: 'The RSA public key the client encrypts secretKey and passphrase with (RSA-OAEP, SHA-256)',
        response: { 200: envelopeOf(accountPublicKey), ...errorResponses },
      },
    },
    (req) => ok(req, { spki: box.publicKeySpki, pem: box.publicKeyPem, algorithm: 'RSA-OAEP-256' as const }),
  );

  r.get(
    '/user/api/apikey/overview',
    {
      schema: { tags, summary: 'Per market: exchanges, bound accounts, frozen ones, robots running', security: bearerAuth, response: { 200: envelopeOf(accountOverview), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await overviewOf(deps.db, req.auth!.user.id)),
  );

  r.get(
    '/user/api/apikey/list',
    {
      schema: { tags, summary: 'The caller’s trading accounts (of one market when `market` is given); keys masked', security: bearerAuth, querystring: accountListQuery, response: { 200: envelopeOf(accountList), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, { list: await listAccounts(deps.db, req.auth!.user.id, req.query.market) }),
  );

  r.get(
    '/user/api/apikey/detail',
    {
      schema: { tags, summary: 'One trading account (key masked, last key check, bridge status)', security: bearerAuth, querystring: accountIdQuery, response: { 200: envelopeOf(accountItem), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await itemOf(deps.db, await getOwnAccount(deps.db, req.auth!.user.id, req.query.id))),
  );

  r.post(
    '/user/api/apikey/bind',
    {
      schema: {
        tags,
        summary: 'Bind a trading account: crypto keys are checked with the exchange (read-only); MT5 answers its bridge token once. Step-up: twoFactorCode (two-step on) or an API_KEY e-mail code',
        security: bearerAuth,
        body: accountBindBody,
        response: { 200: envelopeOf(accountBindResult), ...errorResponses },
      },
      config: venueLimit,
      preHandler: auth,
    },
    async (req) => {
      const { user } = req.auth!;
      const useProof = await stepUp(deps, user, req.body, 'API_KEY');
      return ok(req, await bindAccount(svc, user.id, req.body, useProof));
    },
  );

  r.put(
    '/user/api/apikey/edit',
    {
      schema: {
        tags,
        summary: 'Change name, remark, leverage; new secrets are checked with the exchange again and need the step-up of a bind (twoFactorCode, or an API_KEY e-mail code)',
        security: bearerAuth,
        body: accountEditBody,
        response: { 200: envelopeOf(accountItem), ...errorResponses },
      },
      config: venueLimit,
      preHandler: auth,
    },
    async (req) => {
      const { user } = req.auth!;
      const { apiKey, secretKey, passphrase } = req.body;
      const newKeys = apiKey !== undefined || secretKey !== undefined || passphrase !== undefined;
      const useProof = newKeys ? await stepUp(deps, user, req.body, 'API_KEY') : undefined;
      return ok(req, await editAccount(svc, user.id, req.body, useProof));
    },
  );

  r.delete(
    '/user/api/apikey/unbind',
    {
      schema: { tags, summary: 'Unbind (refused while a robot on it runs, is paused or stopping); secrets are erased', security: bearerAuth, querystring: accountIdQuery, response: { 200: envelopeOf(z.null()), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      await unbindAccount(svc, req.auth!.user.id, req.query.id);
      return ok(req, null);
    },
  );

  r.post(
    '/user/api/apikey/release',
    {
      schema: {
        tags,
        summary: 'Release an account frozen because its seat expired, once a seat of its market is free again (buy one first); robots can then start on it',
        security: bearerAuth,
        body: accountIdBody,
        response: { 200: envelopeOf(accountItem), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await releaseAccount(svc, req.auth!.user.id, req.body.id)),
  );

  r.post(
    '/user/api/apikey/check',
    {
      schema: { tags, summary: 'Check the stored key with the exchange again (permissions, position and margin mode)', security: bearerAuth, body: accountIdBody, response: { 200: envelopeOf(accountItem), ...errorResponses } },
      config: venueLimit,
      preHandler: auth,
    },
    async (req) => ok(req, await recheckAccount(svc, req.auth!.user.id, req.body.id)),
  );

  r.post(
    '/user/api/apikey/rotate-token',
    {
      schema: {
        tags,
        summary: 'MT5: a new bridge token, shown once; the old one stops working. Step-up as for a bind (twoFactorCode, or an API_KEY e-mail code)',
        security: bearerAuth,
        body: accountRotateBody,
        response: { 200: envelopeOf(accountBindResult), ...errorResponses },
      },
      config: venueLimit,
      preHandler: auth,
    },
    async (req) => {
      const { user } = req.auth!;
      const useProof = await stepUp(deps, user, req.body, 'API_KEY');
      return ok(req, await rotateBridgeToken(svc, user.id, req.body.id, useProof));
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelopeOf, equityAgreementAcceptBody, equityAgreements, equityAutoRenewBody, equityRights, equityBuyBody, equityCatalogue, equityPurchase, equityPurchases, equityPurchasesQuery, equityUnlockBody } from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { perUserLimit } from '../platform/limits';
import type { PlatformDeps } from '../platform/deps';
import { acceptAgreement, agreementsOf } from './agreements';
import { rightsOf } from './entitlements';
import { buy, catalogueOf, purchasesOf, setAutoRenew, unlock } from './service';

const tags = ['benefits'];

/** Benefits: `user/api/equity/...` (docs/api.md, "Benefits"). */
export function benefitRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);
  const moneyLimit = perUserLimit(deps.config.USER_RATE_PER_MINUTE);

  r.get(
    '/user/api/equity/catalogue',
    {
      schema: {
        tags,
        summary: 'Prices of the basic unlock and of a seat or backtest slot per month (decimal strings), the markets, and the months and quantities a pack may have',
        response: { 200: envelopeOf(equityCatalogue), ...errorResponses },
      },
    },
    async (req) => ok(req, await catalogueOf(deps.db)),
  );

  r.post(
    '/user/api/equity/unlock',
    {
      schema: {
        tags,
        summary: 'Buy the basic rights (once): 1 account seat and 1 backtest slot on each market, paid from the balance wallet; payment password required',
        security: bearerAuth,
        body: equityUnlockBody,
        response: { 200: envelopeOf(equityPurchase), ...errorResponses },
      },
      config: moneyLimit,
      preHandler: auth,
    },
    async (req) => ok(req, await unlock(deps.db, req.auth!.user.id, req.body, deps.payPepper)),
  );

  r.post(
    '/user/api/equity/buy',
    {
      schema: {
        tags,
        summary: 'Buy a pack: quantity seats or backtest slots of one market for 1–12 months (30 days each), paid from the balance wallet; the basic unlock comes first',
        security: bearerAuth,
        body: equityBuyBody,
        response: { 200: envelopeOf(equityPurchase), ...errorResponses },
      },
      config: moneyLimit,
      preHandler: auth,
    },
    async (req) => ok(req, await buy(deps.db, req.auth!.user.id, req.body, deps.payPepper)),
  );

  r.get(
    '/user/api/equity/purchases',
    {
      schema: {
        tags,
        summary: 'The caller’s purchases, newest first: purchase time, expiry, quantity, months, market, auto-renew, state',
        security: bearerAuth,
        querystring: equityPurchasesQuery,
        response: { 200: envelopeOf(equityPurchases), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await purchasesOf(deps.db, req.auth!.user.id, req.query)),
  );

  r.get(
    '/user/api/equity/rights',
    {
      schema: {
        tags,
        summary: 'Per market: account seats and backtest slots owned (the unlock’s 1 + live packs + operator grants), in use, free, and when the next ones expire',
        security: bearerAuth,
        response: { 200: envelopeOf(equityRights), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await rightsOf(deps.db, req.auth!.user.id)),
  );

  r.get(
    '/user/api/equity/agreements',
    {
      schema: {
        tags,
        summary: 'The monthly benefit and auto-subscribe agreements: the version in force, and whether (and when) the caller accepted it',
        security: bearerAuth,
        response: { 200: envelopeOf(equityAgreements), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await agreementsOf(deps.db, req.auth!.user.id)),
  );

  r.post(
    '/user/api/equity/agreements/accept',
    {
      schema: {
        tags,
        summary: 'Accept the version in force of an agreement (recorded with the time); a pack needs monthEquity, auto-renew autoSubscribe',
        security: bearerAuth,
        body: equityAgreementAcceptBody,
        response: { 200: envelopeOf(equityAgreements), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await acceptAgreement(deps.db, req.auth!.user.id, req.body)),
  );

  r.post(
    '/user/api/equity/auto-renew',
    {
      schema: {
        tags,
        summary: 'Switch auto-renew of one of the caller’s active packs (on: after the auto-subscribe agreement and the payment password, at today’s price); renewed at expiry for one period from the balance wallet',
        security: bearerAuth,
        body: equityAutoRenewBody,
        response: { 200: envelopeOf(equityPurchase), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await setAutoRenew(deps.db, req.auth!.user.id, req.body, deps.payPepper)),
  );
}

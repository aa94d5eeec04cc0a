import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, cardCheckout, cardCheckoutBody, cardCheckoutIdParams, cardLimits, cardWebhookResult, envelopeOf, errorEnvelope, formatMoney, parseMoney } from '@lq/contracts';
import { requireAuth } from '../../platform/auth';
import { ok } from '../../platform/http';
import { perUserLimit } from '../../platform/limits';
import type { PlatformDeps } from '../../platform/deps';
import { parseWebhookEvent, SIGNATURE_HEADER, verifyWebhook, type CardProvider } from './provider';
import { applyCardEvent, checkoutOf, createCheckout } from './service';
import { simulatedProvider, simulatedProviderRoutes } from './simulated';

const errors = { '4xx': errorEnvelope, '5xx': errorEnvelope };
const bearer = [{ bearer: [] }];
const tags = ['deposits'];

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** Card deposits: `user/api/recharge/card/...` and, for the simulated provider, its pages under /sim-pay. */
export function cardRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);
  const config = deps.config;
  const limits = { min: config.CARD_DEPOSIT_MIN, max: config.CARD_DEPOSIT_MAX };
  // The simulated provider and we share one secret; without a configured one it is this process's own.
  const secret = config.CARD_WEBHOOK_SECRET ?? randomBytes(32).toString('hex');
  const publicUrl = () => {
    if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
    const address = app.server.address();
    return `http://127.0.0.1:${address && typeof address === 'object' ? address.port : config.PORT}`;
  };
  let provider: CardProvider | null = null;
  if (config.CARD_PROVIDER === 'simulated') {
    provider = simulatedProvider({ publicUrl, secret });
    void app.register((scope, _opts, done) => {
      // The hosted page's forms post url-encoded bodies (empty ones).
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, _body, parsed) => parsed(null, {}));
      simulatedProviderRoutes(scope, { publicUrl, secret, log: app.log });
      done();
    });
  }
  const requireProvider = (): CardProvider => {
    if (!provider) throw new AppError('CARD_CLOSED');
    return provider;
  };

  r.get(
    '/user/api/recharge/card/limits',
    { schema: { tags, summary: 'Whether card deposits are open, and the amounts one checkout may have', security: bearer, response: { 200: envelopeOf(cardLimits), ...errors } }, preHandler: auth },
    (req) => ok(req, { open: provider !== null, min: formatMoney(limits.min), max: formatMoney(limits.max), provider: provider?.name ?? null }),
  );

  r.post(
    '/user/api/recharge/card/create',
    {
      schema: {
        tags,
        summary: 'Open a hosted card checkout for an amount of USDT; the idempotency key makes a retry answer the same checkout',
        security: bearer,
        body: cardCheckoutBody,
        response: { 200: envelopeOf(cardCheckout), ...errors },
      },
      config: perUserLimit(config.USER_RATE_PER_MINUTE),
      preHandler: auth,
    },
    async (req) => {
      const p = requireProvider();
      const checkout = await createCheckout(deps.db, p, limits, req.auth!.user.id, parseMoney(req.body.amount)!, req.body.idempotencyKey, '/#/pages/buyusd/buyusd');
      return ok(req, checkout);
    },
  );

  r.get(
    '/user/api/recharge/card/:id',
    {
      schema: { tags, summary: 'One of the caller’s card checkouts (open, paid, expired, failed)', security: bearer, params: cardCheckoutIdParams, response: { 200: envelopeOf(cardCheckout), ...errors } },
      preHandler: auth,
    },
    async (req) => ok(req, await checkoutOf(deps.db, req.auth!.user.id, req.params.id)),
  );

  // The provider's webhook: the signature covers the raw body, so this route keeps it.
  void app.register((scope, _opts, registered) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req: FastifyRequest, body: string, done) => {
      req.rawBody = body;
      try {
        done(null, JSON.parse(body));
      } catch (err) {
        done(err as Error, undefined);
      }
    });
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/user/api/recharge/card/webhook',
      {
        schema: {
          tags,
          summary: `The card provider's signed event (header ${SIGNATURE_HEADER}: t=<unix s>,v1=<HMAC-SHA256 of "t.body">); each event applied once`,
          response: { 200: envelopeOf(cardWebhookResult), ...errors },
        },
      },
      async (req) => {
        const p = requireProvider();
        verifyWebhook(secret, req.rawBody ?? '', req.headers[SIGNATURE_HEADER] as string | undefined, Math.floor(Date.now() / 1000));
        const event = parseWebhookEvent(req.rawBody ?? '');
        const outcome = await applyCardEvent(deps.db, p.name, event);
        return ok(req, { outcome });
      },
    );
    registered();
  });
}

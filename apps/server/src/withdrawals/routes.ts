import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelopeOf, withdrawAddressAddBody, withdrawAddressItem, withdrawAddressList, withdrawAddressRemoveBody, withdrawCancelBody, withdrawCreateBody, withdrawIdParams, withdrawItem, withdrawLimits, withdrawList, withdrawListQuery } from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { perUserLimit } from '../platform/limits';
import type { PlatformDeps } from '../platform/deps';
import { stepUp } from '../users';
import type { AddressGuard } from './addresses';
import { addAddress, addressesOf, removeAddress } from './address-book';
import { cancelWithdrawal, createWithdrawal, limitsOf, withdrawalOf, withdrawalsOf } from './service';

const tags = ['withdrawals'];

/** Withdrawals: `user/api/withdraw/...` (docs/api.md, "Withdrawals"). */
export function withdrawRoutes(app: FastifyInstance, deps: PlatformDeps, guard: AddressGuard): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);

  r.post(
    '/user/api/withdraw/create',
    {
      schema: {
        tags,
        summary: 'Withdraw to a USDT address on BEP20 or TRC20: amount (≥ 10) arrives, amount + fee (3) are held now; payment password required, and with two-step on a fresh twoFactorCode',
        security: bearerAuth,
        body: withdrawCreateBody,
        response: { 200: envelopeOf(withdrawItem), ...errorResponses },
      },
      config: perUserLimit(deps.config.USER_RATE_PER_MINUTE),
      preHandler: auth,
    },
    async (req) => {
      const { user } = req.auth!;
      const proveOwner = () => stepUp(deps, user, { twoFactorCode: req.body.twoFactorCode, passkey: req.body.passkey }, null);
      return ok(req, await createWithdrawal(deps.db, user.id, req.body, guard, deps.payPepper, proveOwner));
    },
  );

  r.get(
    '/user/api/withdraw/addresses',
    {
      schema: { tags, summary: 'The withdrawal address book: withdrawals go only to these, each from its usableFrom', security: bearerAuth, response: { 200: envelopeOf(withdrawAddressList), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await addressesOf(deps.db, req.auth!.user.id)),
  );

  r.post(
    '/user/api/withdraw/addresses/add',
    {
      schema: {
        tags,
        summary: 'Add an address to the book (checked as a withdrawal’s address is); usable WITHDRAW_NEW_ADDRESS_HOURS later. Step-up: twoFactorCode (two-step on) or a WITHDRAW_ADDRESS e-mail code',
        security: bearerAuth,
        body: withdrawAddressAddBody,
        response: { 200: envelopeOf(withdrawAddressItem), ...errorResponses },
      },
      config: perUserLimit(deps.config.USER_RATE_PER_MINUTE),
      preHandler: auth,
    },
    async (req) => {
      const { user } = req.auth!;
      const proveOwner = () => stepUp(deps, user, req.body, 'WITHDRAW_ADDRESS');
      return ok(req, await addAddress(deps.db, user.id, req.body, guard, deps.config.WITHDRAW_NEW_ADDRESS_HOURS, proveOwner));
    },
  );

  r.post(
    '/user/api/withdraw/addresses/remove',
    {
      schema: { tags, summary: 'Remove an address from the book', security: bearerAuth, body: withdrawAddressRemoveBody, response: { 200: envelopeOf(z.null()), ...errorResponses } },
      config: perUserLimit(deps.config.USER_RATE_PER_MINUTE),
      preHandler: auth,
    },
    async (req) => {
      await removeAddress(deps.db, req.auth!.user.id, req.body.id);
      return ok(req, null);
    },
  );

  r.get(
    '/user/api/withdraw/limits',
    {
      schema: {
        tags,
        summary: 'The caller’s withdrawal limits (their level’s, over a rolling 24 hours and 30 days), what was used and what is left; above either a withdrawal waits for review',
        security: bearerAuth,
        response: { 200: envelopeOf(withdrawLimits), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await limitsOf(deps.db, req.auth!.user.id)),
  );

  r.get(
    '/user/api/withdraw/list',
    {
      schema: { tags, summary: 'The caller’s withdrawals, newest first', security: bearerAuth, querystring: withdrawListQuery, response: { 200: envelopeOf(withdrawList), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await withdrawalsOf(deps.db, req.auth!.user.id, req.query, req.locale)),
  );

  r.post(
    '/user/api/withdraw/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel one of the caller’s withdrawals an operator has not approved yet: the hold is released',
        security: bearerAuth,
        body: withdrawCancelBody,
        response: { 200: envelopeOf(withdrawItem), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await cancelWithdrawal(deps.db, req.auth!.user.id, req.body.id, req.locale)),
  );

  r.get(
    '/user/api/withdraw/detail/:id',
    {
      schema: { tags, summary: 'One of the caller’s withdrawals', security: bearerAuth, params: withdrawIdParams, response: { 200: envelopeOf(withdrawItem), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await withdrawalOf(deps.db, req.auth!.user.id, req.params.id, req.locale)),
  );
}

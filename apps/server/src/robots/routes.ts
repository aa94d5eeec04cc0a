import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelopeOf,
  robotCreateBody,
  robotCreateResult,
  robotDetail,
  robotFills,
  robotFillsQuery,
  robotIdBody,
  robotIdQuery,
  robotItem,
  robotList,
  robotListQuery,
  robotOrders,
  robotSeatsQuery,
  seatSummary,
  tickerList,
  tickersQuery,
} from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import { marketOf } from '../strategy-setup';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { perUserLimit } from '../platform/limits';
import { NoFreeSeatError, seatSummary as seatSummaryOf } from './seats';
import { createRobot, detailOf, fillsOf, getOwnRobot, listRobots, ordersOf, robotAction } from './service';
import { latestPriceOf, tickersOf } from './tickers';
import type { PlatformDeps } from '../platform/deps';

/** NO_FREE_SEAT carries {market, used, total} so the web can offer opening a seat. */
const conflictEnvelope = z.object({
  code: z.string(),
  msg: z.string(),
  data: z.union([
    z.null(),
    z.object({
      field: z.string().optional(),
      market: z.enum(['crypto', 'forex']).optional(),
      used: z.number().optional(),
      total: z.number().optional(),
    }),
  ]),
});
const tags = ['robot'];

/** Robot orders, seats and tickers: `order/api/robot/...`, `order/api/market/tickers` (docs/api.md, "Robots"). */
export function robotRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);
  // Creating and acting on robots are order endpoints: limited per user.
  const orderLimit = perUserLimit(deps.config.USER_RATE_PER_MINUTE);

  r.post(
    '/order/api/robot/create',
    {
      schema: {
        tags,
        summary: 'Start a robot (create-order type 1) on one of the caller’s trading accounts; needs a free seat on its market',
        security: bearerAuth,
        body: robotCreateBody,
        response: { 200: envelopeOf(robotCreateResult), 409: conflictEnvelope, ...errorResponses },
      },
      config: orderLimit,
      preHandler: auth,
    },
    async (req, reply) => {
      try {
        return ok(req, await createRobot(deps.db, req.auth!.user, req.body, req.locale, (market, symbol) => latestPriceOf(app.database, market, symbol)));
      } catch (e) {
        if (e instanceof NoFreeSeatError) return reply.status(e.status).send(e.envelope(req.locale));
        throw e;
      }
    },
  );

  const listRoute = (url: string, summary: string, history: boolean) =>
    r.get(
      url,
      {
        schema: { tags, summary, security: bearerAuth, querystring: robotListQuery, response: { 200: envelopeOf(robotList), ...errorResponses } },
        preHandler: auth,
      },
      async (req) =>
        ok(req, await listRobots(deps.db, req.auth!.user.id, { ...req.query, status: history ? 'history' : req.query.status })),
    );
  listRoute('/order/api/robot/list', 'The caller’s robots: status active (running, paused, stopping) or history (stopped), newest first', false);
  listRoute('/order/api/robot/history', 'The caller’s stopped robots (robotHistory), latest stop first', true);

  r.get(
    '/order/api/robot/detail',
    {
      schema: { tags, summary: 'One robot: parameters, live figures, positions, latest orders, fills and events, error and stop details', security: bearerAuth, querystring: robotIdQuery, response: { 200: envelopeOf(robotDetail), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await detailOf(deps.db, await getOwnRobot(deps.db, req.auth!.user.id, req.query.id))),
  );

  r.get(
    '/order/api/robot/orders',
    {
      schema: { tags, summary: 'Every order intent of a robot with its state, newest first', security: bearerAuth, querystring: robotIdQuery, response: { 200: envelopeOf(robotOrders), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await ordersOf(deps.db, await getOwnRobot(deps.db, req.auth!.user.id, req.query.id))),
  );

  r.get(
    '/order/api/robot/fills',
    {
      schema: { tags, summary: 'The fills of a robot, newest first, paged', security: bearerAuth, querystring: robotFillsQuery, response: { 200: envelopeOf(robotFills), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      const row = await getOwnRobot(deps.db, req.auth!.user.id, req.query.id);
      return ok(req, await fillsOf(deps.db, row, req.query.page, req.query.pageSize));
    },
  );

  const actionRoute = (action: 'pause' | 'continue' | 'stop', summary: string) =>
    r.post(
      `/order/api/robot/${action}`,
      {
        schema: { tags, summary, security: bearerAuth, body: robotIdBody, response: { 200: envelopeOf(robotItem), ...errorResponses } },
        config: orderLimit,
        preHandler: auth,
      },
      async (req) => ok(req, await robotAction(deps.db, req.auth!.user.id, req.body.id, action)),
    );
  actionRoute('pause', 'Pause a running robot (no new decisions; orders and positions stay)');
  actionRoute('continue', 'Continue a paused robot (refused while its account is frozen)');
  actionRoute('stop', 'Stop a running or paused robot: the runner cancels its orders and closes its positions, then it is stopped');

  r.get(
    '/order/api/robot/seats',
    {
      schema: { tags, summary: 'Seats of a market: in use (accounts with active robots), total (the unlock’s 1 + seat packs + operator grants) and the accounts holding them', security: bearerAuth, querystring: robotSeatsQuery, response: { 200: envelopeOf(seatSummary), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await seatSummaryOf(deps.db, req.auth!.user.id, marketOf(req.query.dataSource))),
  );

  r.get(
    '/order/api/market/tickers',
    {
      schema: {
        tags: ['market'],
        summary: 'Last price and 24 h change of every symbol of a market, from the candle store (nulls without data)',
        querystring: tickersQuery,
        response: { 200: envelopeOf(tickerList), ...errorResponses },
      },
    },
    async (req) => ok(req, await tickersOf(app.database, marketOf(req.query.dataSource))),
  );
}


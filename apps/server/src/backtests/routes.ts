import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  backtestCreateBody,
  backtestCreateResult,
  backtestDetail,
  backtestEquity,
  backtestEquityQuery,
  backtestIdBody,
  backtestIdQuery,
  backtestItem,
  backtestKline,
  backtestKlineQuery,
  backtestList,
  backtestListQuery,
  backtestReport,
  backtestTrades,
  backtestTradesQuery,
  envelopeOf,
  recommendation,
  recommendCreateBody,
  recommendIdBody,
  recommendIdQuery,
  robotPrefill,
} from '@lq/contracts';
import { requireAuth } from '../platform/auth';
import {
  backtestService,
  cancelBacktest,
  cancelRecommendation,
  createBacktest,
  createRecommendation,
  deleteBacktest,
  equityOf,
  getOwnBacktest,
  getOwnRecommendation,
  klineOf,
  listBacktests,
  reportOf,
  robotPrefillOf,
  toDetail,
  toRecommendation,
  tradesOf,
} from './service';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { perUserLimit } from '../platform/limits';
import type { PlatformDeps } from '../platform/deps';

const tags = ['backtest'];

/** Backtests and parameter recommendations: `order/api/backtest/...` (docs/api.md, "Backtests"). */
export function backtestRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);
  const svc = backtestService(app.database);
  // Creating runs the engine: limited per account like the other order endpoints.
  const createLimit = perUserLimit(deps.config.USER_RATE_PER_MINUTE);
  app.addHook('preClose', async () => {
    await svc.close();
  });

  r.post(
    '/order/api/backtest/create',
    {
      schema: {
        tags,
        summary: 'Start a backtest (create-order type 0; VIP only; one per free backtest slot)',
        security: bearerAuth,
        body: backtestCreateBody,
        response: { 200: envelopeOf(backtestCreateResult), ...errorResponses },
      },
      config: createLimit,
      preHandler: auth,
    },
    async (req) => ok(req, await createBacktest(svc, req.auth!.user, req.body, req.locale)),
  );

  r.get(
    '/order/api/backtest/list',
    {
      schema: {
        tags,
        summary: 'The caller’s backtests of a record tab (running, completed, failed), newest first',
        security: bearerAuth,
        querystring: backtestListQuery,
        response: { 200: envelopeOf(backtestList), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) =>
      ok(req, await listBacktests(deps.db, req.auth!.user.id, req.query.tab, req.query.page, req.query.pageSize, req.locale)),
  );

  r.get(
    '/order/api/backtest/detail',
    {
      schema: { tags, summary: 'One backtest with its parameters (poll it for progress)', security: bearerAuth, querystring: backtestIdQuery, response: { 200: envelopeOf(backtestDetail), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, toDetail(await getOwnBacktest(deps.db, req.auth!.user.id, req.query.id), req.locale)),
  );

  r.get(
    '/order/api/backtest/report',
    {
      schema: { tags, summary: 'Every report metric of a finished backtest', security: bearerAuth, querystring: backtestIdQuery, response: { 200: envelopeOf(backtestReport), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, reportOf(await getOwnBacktest(deps.db, req.auth!.user.id, req.query.id), req.locale)),
  );

  r.get(
    '/order/api/backtest/trades',
    {
      schema: { tags, summary: 'The order log (closed trades), paged', security: bearerAuth, querystring: backtestTradesQuery, response: { 200: envelopeOf(backtestTrades), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      const row = await getOwnBacktest(deps.db, req.auth!.user.id, req.query.id);
      return ok(req, await tradesOf(app.database, row, req.query.page, req.query.pageSize, req.query.order));
    },
  );

  r.get(
    '/order/api/backtest/equity',
    {
      schema: { tags, summary: 'The profit (equity) curve, downsampled', security: bearerAuth, querystring: backtestEquityQuery, response: { 200: envelopeOf(backtestEquity), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      const row = await getOwnBacktest(deps.db, req.auth!.user.id, req.query.id);
      return ok(req, await equityOf(deps.db, row, req.query.maxPoints));
    },
  );

  r.get(
    '/order/api/backtest/kline',
    {
      schema: { tags, summary: 'Candles of a window of the backtest (resampled to at most maxCandles) with the trade markers', security: bearerAuth, querystring: backtestKlineQuery, response: { 200: envelopeOf(backtestKline), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      const row = await getOwnBacktest(deps.db, req.auth!.user.id, req.query.id);
      return ok(req, await klineOf(svc, row, req.query));
    },
  );

  r.post(
    '/order/api/backtest/cancel',
    {
      schema: { tags, summary: 'Stop a running backtest (status 3, reason cancelled)', security: bearerAuth, body: backtestIdBody, response: { 200: envelopeOf(backtestItem), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      const row = await getOwnBacktest(deps.db, req.auth!.user.id, req.body.id);
      return ok(req, await cancelBacktest(svc, row, req.locale));
    },
  );

  r.post(
    '/order/api/backtest/delete',
    {
      schema: { tags, summary: 'Delete a backtest from the records (a running one is cancelled first)', security: bearerAuth, body: backtestIdBody, response: { 200: envelopeOf(z.null()), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      const row = await getOwnBacktest(deps.db, req.auth!.user.id, req.body.id);
      await deleteBacktest(svc, row);
      return ok(req, null);
    },
  );

  r.get(
    '/order/api/backtest/robot-prefill',
    {
      schema: { tags, summary: 'The robot form (create-order type 1) filled from a finished backtest', security: bearerAuth, querystring: backtestIdQuery, response: { 200: envelopeOf(robotPrefill), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, robotPrefillOf(await getOwnBacktest(deps.db, req.auth!.user.id, req.query.id))),
  );

  r.post(
    '/order/api/backtest/recommend/create',
    {
      schema: { tags, summary: 'Start a parameter recommendation (VIP only; one at a time)', security: bearerAuth, body: recommendCreateBody, response: { 200: envelopeOf(recommendation), ...errorResponses } },
      config: createLimit,
      preHandler: auth,
    },
    async (req) => ok(req, await createRecommendation(svc, req.auth!.user, req.body, req.locale)),
  );

  r.get(
    '/order/api/backtest/recommend/detail',
    {
      schema: { tags, summary: 'A recommendation: status, progress, and when done the three presets', security: bearerAuth, querystring: recommendIdQuery, response: { 200: envelopeOf(recommendation), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, toRecommendation(await getOwnRecommendation(deps.db, req.auth!.user.id, req.query.id), req.locale)),
  );

  r.post(
    '/order/api/backtest/recommend/cancel',
    {
      schema: { tags, summary: 'Stop a running recommendation', security: bearerAuth, body: recommendIdBody, response: { 200: envelopeOf(recommendation), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      const row = await getOwnRecommendation(deps.db, req.auth!.user.id, req.body.id);
      return ok(req, await cancelRecommendation(svc, row, req.locale));
    },
  );
}

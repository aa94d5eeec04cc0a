// The drift report of a robot, "Live vs backtest" (issue 33, slice 3): `order/api/robot/drift/{id}`
// brings the robot's shadow up to its last candle (incremental: only the new candles) and answers
// both sides, the gap and its parts, the pairs, the unpaired trades and both equity curves; the
// pairs as CSV. The robot's owner only (another's robot is not found).
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, envelopeOf, robotDrift, robotDriftAlertBody, robotDriftParams, type RobotDrift } from '@lq/contracts';
import { sql } from '@lq/db';
import { z } from 'zod';
import { requireAuth } from '../platform/auth';
import { csvLine } from '../platform/csv';
import type { PlatformDeps } from '../platform/deps';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { getOwnRobot } from '../robots';
import { driftReportOf } from './report';
import type { ShadowMonitor } from './service';

const tags = ['robot'];
const iso = (ms: number) => new Date(ms).toISOString();

function* csvOf(d: RobotDrift): Generator<string> {
  yield csvLine(['kind', 'cause', 'action', 'side', 'shadow_time', 'shadow_price', 'shadow_qty', 'shadow_fee', 'live_time', 'live_price', 'live_qty', 'live_fee', 'offset_s', 'move_points', 'move_money', 'slippage_points', 'slippage_money', 'fee_diff', 'qty_short', 'funding', 'order_id']);
  for (const p of d.pairs) {
    yield csvLine([
      `pair-${p.by}`, '', p.shadow.action, p.shadow.side, iso(p.shadow.time), String(p.shadow.price), String(p.shadow.qty), String(p.shadow.fee),
      iso(p.live.time), String(p.live.price), String(p.live.qty), String(p.live.fee), String(p.offsetMs / 1000), String(p.movePoints), String(p.moveMoney), String(p.slippagePoints), String(p.slippageMoney), String(p.feeDiff), String(p.qtyShort), String(p.funding), p.live.clientOrderId,
    ]);
  }
  for (const u of d.unpaired) {
    const t = u.trade;
    const [shadowCols, liveCols] = u.on === 'shadow' ? [[iso(t.time), String(t.price), String(t.qty), String(t.fee)], ['', '', '', '']] : [['', '', '', ''], [iso(t.time), String(t.price), String(t.qty), String(t.fee)]];
    yield csvLine([u.on === 'shadow' ? 'missed' : 'extra', u.detail ? `${u.cause}: ${u.detail}` : u.cause, t.action, t.side, ...shadowCols, ...liveCols, '', '', '', '', '', '', '', String(u.funding), t.clientOrderId]);
  }
}

export function driftRoutes(app: FastifyInstance, deps: PlatformDeps, monitor: ShadowMonitor): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);
  const report = async (userId: number, id: number): Promise<RobotDrift> => {
    await getOwnRobot(deps.db, userId, id);
    await monitor.check(id);
    const d = await driftReportOf(app.database, id);
    if (!d) throw new AppError('NOT_FOUND', {}, 'id');
    return d;
  };

  r.get(
    '/order/api/robot/drift/:id',
    {
      schema: {
        tags,
        summary: 'Live vs backtest: the robot’s trades held against a backtest over the same candles — each side’s result, the gap and its parts, the pairs, the trades missed or extra with their likeliest cause, both equity curves',
        security: bearerAuth,
        params: robotDriftParams,
        response: { 200: envelopeOf(robotDrift), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await report(req.auth!.user.id, req.params.id)),
  );

  r.get(
    '/order/api/robot/drift/:id/pairs.csv',
    {
      schema: { tags, summary: 'The pairs and the unpaired trades of the drift report as CSV (UTF-8)', security: bearerAuth, params: robotDriftParams, response: { ...errorResponses } },
      preHandler: auth,
    },
    async (req, reply) => {
      const d = await report(req.auth!.user.id, req.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="robot-${d.robotId}-drift.csv"`)
        .send(Readable.from(csvOf(d)) as never);
    },
  );

  r.post(
    '/order/api/robot/drift/alert',
    {
      schema: { tags, summary: 'When the owner is told of the robot’s drift: the gap past a percent of capital (once per crossing), and at each missed trade', security: bearerAuth, body: robotDriftAlertBody, response: { 200: envelopeOf(z.object({ gapPct: z.number(), onMissed: z.boolean() })), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => {
      const { id, gapPct, onMissed } = req.body;
      await getOwnRobot(deps.db, req.auth!.user.id, id);
      await deps.db.execute(sql`update robots set drift_alert_pct = ${gapPct}, drift_alert_missed = ${onMissed}, updated_at = now() where id = ${id}`);
      return ok(req, { gapPct, onMissed });
    },
  );
}

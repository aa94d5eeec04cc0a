import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, envelopeOf, errorEnvelope } from '@lq/contracts';
import type { DatabaseHandle } from '@lq/db';
import { ok } from './http';

export function healthRoutes(app: FastifyInstance, database: DatabaseHandle) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/healthz',
    {
      schema: {
        tags: ['ops'],
        summary: 'Liveness: the process answers',
        response: { 200: envelopeOf(z.object({ status: z.literal('ok') })) },
      },
    },
    (req, reply) => {
      void reply.send(ok(req, { status: 'ok' as const }));
    },
  );
  r.get(
    '/readyz',
    {
      schema: {
        tags: ['ops'],
        summary: 'Readiness: the database answers',
        response: {
          200: envelopeOf(z.object({ status: z.literal('ready'), database: z.string() })),
          503: errorEnvelope,
        },
      },
    },
    async (req) => {
      try {
        await database.exec('select 1');
      } catch (err) {
        req.log.warn({ err }, 'database not reachable');
        throw new AppError('DB_UNAVAILABLE');
      }
      return ok(req, { status: 'ready' as const, database: database.kind });
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  envelopeOf,
  formatMoney,
  parseMoney,
  walletInfo,
  walletRecords,
  walletRecordsQuery,
  walletTransferBody,
  walletTransferResult,
  walletExportBody,
  walletExportCreated,
  walletExportIdParams,
  walletExportList,
} from '@lq/contracts';
import { createReadStream } from 'node:fs';
import { requireAuth } from '../platform/auth';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { perUserLimit } from '../platform/limits';
import type { PlatformDeps } from '../platform/deps';
import { createExport, EXPORT_QUEUE, exportFile, listExports } from './exports';
import { EXPORT_JOB_OPTIONS } from './jobs';
import { transferRebate, walletInfoOf, walletRecordsOf } from './service';

const tags = ['wallet'];

/** The wallet: `user/api/wallet/...` (docs/api.md, "Wallet"). */
export function walletRoutes(app: FastifyInstance, deps: PlatformDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = requireAuth(deps.sessions);
  const moneyLimit = perUserLimit(deps.config.USER_RATE_PER_MINUTE);

  r.get(
    '/user/api/wallet/info',
    {
      schema: { tags, summary: 'Both wallets and the totals, as decimal strings with 6 places', security: bearerAuth, response: { 200: envelopeOf(walletInfo), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, await walletInfoOf(deps.db, req.auth!.user.id, deps.config.PLATFORM_TIMEZONE)),
  );

  r.get(
    '/user/api/wallet/records',
    {
      schema: {
        tags,
        summary: 'The wallets’ movements, newest first, one line per wallet touched; filter by type',
        security: bearerAuth,
        querystring: walletRecordsQuery,
        response: { 200: envelopeOf(walletRecords), ...errorResponses },
      },
      preHandler: auth,
    },
    async (req) => ok(req, await walletRecordsOf(deps.db, req.auth!.user.id, req.query)),
  );

  r.post(
    '/user/api/wallet/transfer',
    {
      schema: {
        tags,
        summary: 'Move an amount from the rebate wallet to the balance wallet; the idempotency key makes a retry safe',
        security: bearerAuth,
        body: walletTransferBody,
        response: { 200: envelopeOf(walletTransferResult), ...errorResponses },
      },
      config: moneyLimit,
      preHandler: auth,
    },
    async (req) => {
      const userId = req.auth!.user.id;
      const amount = parseMoney(req.body.amount)!; // the schema checked it
      const entry = await transferRebate(deps.db, userId, amount, req.body.idempotencyKey);
      return ok(req, { id: entry.id, amount: formatMoney(amount), wallet: await walletInfoOf(deps.db, userId, deps.config.PLATFORM_TIMEZONE) });
    },
  );

  r.post(
    '/user/api/wallet/export',
    {
      schema: {
        tags,
        summary: 'Request a CSV or XLSX file of the records (UTC days from–to, both optional); a job writes it',
        security: bearerAuth,
        body: walletExportBody,
        response: { 200: envelopeOf(walletExportCreated), ...errorResponses },
      },
      config: moneyLimit,
      preHandler: auth,
    },
    async (req) => {
      const id = await createExport(deps.db, req.auth!.user.id, req.body, req.locale);
      await app.boss?.send(EXPORT_QUEUE, { id }, EXPORT_JOB_OPTIONS);
      return ok(req, { id });
    },
  );

  r.get(
    '/user/api/wallet/export/list',
    {
      schema: { tags, summary: 'The caller’s exports, newest first: exporting, exported or failed, and when each file is deleted', security: bearerAuth, response: { 200: envelopeOf(walletExportList), ...errorResponses } },
      preHandler: auth,
    },
    async (req) => ok(req, { list: await listExports(deps.db, req.auth!.user.id, req.locale) }),
  );

  r.get(
    '/user/api/wallet/export/:id/file',
    {
      schema: {
        tags,
        summary: 'Download an exported file (the caller’s own only)',
        security: bearerAuth,
        params: walletExportIdParams,
        response: { ...errorResponses },
      },
      preHandler: auth,
    },
    async (req, reply) => {
      const file = await exportFile(deps.db, deps.config.dataDir, req.auth!.user.id, req.params.id);
      const type = file.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
      return reply.header('content-type', type).header('content-disposition', `attachment; filename="${file.name}"`).send(createReadStream(file.path) as never); // a file, not an envelope
    },
  );
}

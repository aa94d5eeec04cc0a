// The console's market data and jobs (issue 32, slice 4): the candle series in the store and the
// newest import runs, fetching missing candles as a job (the same runs `npm run ops -- data:fetch`
// makes), and the jobs pg-boss gave up on, with a retry. Each action in the audit log.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, consoleFailedJob, consoleFailedJobList, consoleFailedJobsQuery, consoleImportItem, consoleJobRetryBody, consoleMarketData, consoleMarketFetchBody, envelopeOf, type ConsoleFailedJob } from '@lq/contracts';
import { rowsOf, sql } from '@lq/db';
import type { PlatformDeps } from '../platform/deps';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { createDukascopyRun, createExchangeRun, latestImportRuns, listSeries, MARKET_QUEUES, MarketImportError } from '../market';
import type { ConsoleAudit } from './routes';

const tags = ['console'];
const IMPORTS_SHOWN = 50;
/** Keys whose values are not shown (a job's data could carry one). */
const SECRET_KEY = /secret|token|password|passphrase|key|sig|auth/i;

function redacted(value: unknown, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.slice(0, 20).map((v) => redacted(v, depth + 1));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[hidden]' : redacted(v, depth + 1)]));
}

const utcDay = (day: string) => Date.parse(`${day}T00:00:00Z`);

export function dataRoutes(app: FastifyInstance, deps: PlatformDeps, audit: ConsoleAudit): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const c = deps.config;
  // pg-boss makes its schema when it starts (a process without jobs may not have it).
  const hasJobTable = async () => rowsOf<{ ok: boolean }>(await deps.db.execute(sql`select to_regclass('pgboss.job') is not null as ok`))[0].ok;

  r.get(
    '/market',
    { schema: { tags, summary: 'The candle series in the store (first and last candle, count) and the newest import runs with their progress', security: bearerAuth, response: { 200: envelopeOf(consoleMarketData), ...errorResponses } } },
    async (req) => {
      const runs = await latestImportRuns(app.database, IMPORTS_SHOWN);
      return ok(req, {
        imports: runs.map((x) => ({ ...x, createdAt: new Date(x.createdAt).getTime(), updatedAt: new Date(x.updatedAt).getTime() })),
        series: await listSeries(app.database),
      });
    },
  );

  r.post(
    '/market/fetch',
    { schema: { tags, summary: 'Fetches the missing candles of a symbol over UTC days as a job: USDT perpetuals through ccxt, forex from Dukascopy', security: bearerAuth, body: consoleMarketFetchBody, response: { 200: envelopeOf(consoleImportItem), ...errorResponses } } },
    async (req) => {
      const b = req.body;
      const boss = app.boss;
      // Without a job queue here nothing would run the import: say so rather than record a run that waits for ever.
      if (!boss) {
        await audit(req, 'market.fetch', { objectType: 'market', objectId: `${b.source}:${b.symbol}`, detail: { ...b, error: 'no job queue' }, outcome: 'failed' });
        throw new AppError('DB_UNAVAILABLE');
      }
      const request = { symbol: b.symbol, timeframe: b.timeframe, fromMs: utcDay(b.from), toMs: b.to ? utcDay(b.to) : Date.now() };
      let runId: number;
      try {
        runId =
          b.source === 'dukascopy'
            ? await createDukascopyRun(app.database, { ...request, apiOrigin: c.MARKET_DUKASCOPY_URL })
            : await createExchangeRun(app.database, { exchange: b.source, ...request, apiOrigin: b.source === 'okx' ? c.MARKET_OKX_URL : c.MARKET_BINANCE_URL });
      } catch (e) {
        if (e instanceof MarketImportError) {
          await audit(req, 'market.fetch', { objectType: 'market', objectId: `${b.source}:${b.symbol}`, detail: { ...b, error: e.message }, outcome: 'refused' });
          throw new AppError('VALIDATION_FAILED', { field: 'symbol' }, 'symbol');
        }
        throw e;
      }
      await boss.send(MARKET_QUEUES.exchangeImport, { runId });
      await audit(req, 'market.fetch', { objectType: 'import', objectId: runId, after: { status: 'queued' }, detail: b });
      const [run] = (await latestImportRuns(app.database, IMPORTS_SHOWN)).filter((x) => x.id === runId);
      return ok(req, { ...run, createdAt: new Date(run.createdAt).getTime(), updatedAt: new Date(run.updatedAt).getTime() });
    },
  );

  r.get(
    '/jobs/failed',
    { schema: { tags, summary: 'Jobs pg-boss gave up on (their retries spent), newest first, with their last error', security: bearerAuth, querystring: consoleFailedJobsQuery, response: { 200: envelopeOf(consoleFailedJobList), ...errorResponses } } },
    async (req) => {
      if (!(await hasJobTable())) return ok(req, { list: [], total: 0 });
      const { queue, page, size } = req.query;
      const where = queue ? sql`state = 'failed' and name = ${queue}` : sql`state = 'failed'`;
      const rows = rowsOf<{ id: string; name: string; data: unknown; output: unknown; retry_count: number; created_on: string; completed_on: string | null }>(
        await deps.db.execute(sql`select id::text as id, name, data, output, retry_count, created_on::text as created_on, completed_on::text as completed_on
          from pgboss.job where ${where} order by completed_on desc nulls last, id limit ${size} offset ${(page - 1) * size}`),
      );
      const [{ total }] = rowsOf<{ total: number }>(await deps.db.execute(sql`select count(*)::int as total from pgboss.job where ${where}`));
      const errorOf = (output: unknown): string | null => {
        if (output === null || output === undefined) return null;
        if (typeof output === 'object' && 'message' in output && typeof output.message === 'string') return output.message.slice(0, 1000);
        return JSON.stringify(redacted(output)).slice(0, 1000);
      };
      const list: ConsoleFailedJob[] = rows.map((x) => ({
        id: x.id,
        queue: x.name,
        data: redacted(x.data),
        error: errorOf(x.output),
        retryCount: x.retry_count,
        createdAt: Date.parse(x.created_on),
        failedAt: x.completed_on === null ? null : Date.parse(x.completed_on),
      }));
      return ok(req, { list, total });
    },
  );

  r.post(
    '/jobs/retry',
    { schema: { tags, summary: 'Runs a failed job again (pg-boss retry)', security: bearerAuth, body: consoleJobRetryBody, response: { 200: envelopeOf(consoleFailedJob.pick({ id: true, queue: true })), ...errorResponses } } },
    async (req) => {
      const { queue, id } = req.body;
      const [job] = (await hasJobTable()) ? rowsOf<{ state: string }>(await deps.db.execute(sql`select state from pgboss.job where name = ${queue} and id = ${id}::uuid`)) : [];
      if (!job || job.state !== 'failed') {
        await audit(req, 'jobs.retry', { objectType: 'job', objectId: id, detail: { queue, state: job?.state ?? 'none' }, outcome: 'refused' });
        throw job ? new AppError('CONFLICT', {}, 'id') : new AppError('NOT_FOUND', {}, 'id');
      }
      if (!app.boss) throw new AppError('DB_UNAVAILABLE');
      await app.boss.retry(queue, id);
      await audit(req, 'jobs.retry', { objectType: 'job', objectId: id, before: { state: 'failed' }, after: { state: 'retry' }, detail: { queue } });
      return ok(req, { id, queue });
    },
  );
}

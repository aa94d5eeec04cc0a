// pg-boss queues of the market data service: file imports (MARKET_DATA_DIR) and exchange imports
// (ccxt and dukascopy runs share the exchange queue; the run's kind picks the importer).
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import type { DatabaseHandle } from '@lq/db';
import type { JobContext } from '../platform/jobs';
import { runDukascopyImport } from './dukascopy';
import { runExchangeImport, type ExchangeImportJob } from './exchange';
import { getImportRun, importCandleFile, scanMarketDataDir, type FileImportJob } from './imports';

export const MARKET_QUEUES = {
  fileImport: 'market-file-import',
  exchangeImport: 'market-exchange-import',
} as const;

/** Creates the market queues; when `work`, also consumes them. */
export async function startMarketJobs({ boss, database, log, work }: JobContext): Promise<void> {
  // A bad file does not get better by retrying; an exchange run is resumable and is retried once.
  await boss.createQueue(MARKET_QUEUES.fileImport, { name: MARKET_QUEUES.fileImport, retryLimit: 0, expireInHours: 2 });
  await boss.createQueue(MARKET_QUEUES.exchangeImport, {
    name: MARKET_QUEUES.exchangeImport,
    retryLimit: 1,
    retryDelay: 60,
    expireInHours: 6,
  });
  if (!work) return;
  await boss.work<FileImportJob>(MARKET_QUEUES.fileImport, { pollingIntervalSeconds: 1 }, async ([job]) => {
    const { runId, file } = job.data;
    try {
      const r = await importCandleFile(database, { file, runId });
      log.info(
        { file, source: r.key.source, symbol: r.key.symbol, timeframe: r.key.timeframe, rows: r.rows, seconds: Math.round(r.seconds * 10) / 10 },
        'market data: file imported',
      );
    } catch (e) {
      // The run is marked failed with the reason; the job ends normally so nothing retries or crashes.
      log.warn({ file, runId }, `market data: import of ${file} failed: ${(e as Error).message}`);
    }
  });
  await boss.work<ExchangeImportJob>(MARKET_QUEUES.exchangeImport, { pollingIntervalSeconds: 1 }, async ([job]) => {
    const run = await getImportRun(database, job.data.runId);
    const r =
      run?.kind === 'dukascopy' ? await runDukascopyImport(database, run.id, log) : await runExchangeImport(database, job.data, log);
    // The run is already marked failed with its reason; failing the job lets pg-boss retry it once
    // (retryDelay), which resumes after the run's cursor.
    if (r.status === 'failed') throw new Error(r.message ?? 'import failed');
  });
}

/** MARKET_DATA_DIR at start: queues an import job for every file not yet imported; never throws. */
export async function importMarketDataDir(
  boss: PgBoss,
  database: DatabaseHandle,
  log: FastifyBaseLogger,
  dir: string,
): Promise<void> {
  try {
    const r = await scanMarketDataDir(database, dir, async (job) => {
      await boss.send(MARKET_QUEUES.fileImport, job);
    });
    for (const s of r.skipped) log.warn(`market data: skipped ${s.file}: ${s.reason}`);
    log.info(
      { dir, queued: r.queued.length, alreadyImported: r.known.length, skipped: r.skipped.length },
      'market data: MARKET_DATA_DIR scanned',
    );
  } catch (e) {
    log.warn(`market data: ${(e as Error).message}`);
  }
}

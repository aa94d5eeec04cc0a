// pg-boss jobs of the wallet: exports, and the schedule deleting them after 3 days.
import type { JobContext } from '../platform/jobs';
import { cleanupExports, EXPORT_CLEANUP_QUEUE, EXPORT_QUEUE, failExport, runExport } from './exports';

/** A killed export's job expires and runs again (retries); a thrown error marks it failed at once. */
export const EXPORT_JOB_OPTIONS = { retryLimit: 3, retryDelay: 5, expireInSeconds: 15 * 60 } as const;

export function startWalletJobs(dataDir: string) {
  return async ({ boss, database, log, work }: JobContext): Promise<void> => {
    await boss.createQueue(EXPORT_QUEUE);
    await boss.createQueue(EXPORT_CLEANUP_QUEUE);
    if (!work) return;
    await boss.work<{ id: number }>(EXPORT_QUEUE, { pollingIntervalSeconds: 1 }, async ([job]) => {
      try {
        await runExport(database.db, dataDir, job.data.id);
      } catch (err) {
        log.warn({ err, exportId: job.data.id }, 'wallet export failed');
        await failExport(database.db, job.data.id, (err as Error).message);
      }
    });
    await boss.schedule(EXPORT_CLEANUP_QUEUE, '23 * * * *');
    await boss.work(EXPORT_CLEANUP_QUEUE, async () => {
      const removed = await cleanupExports(database.db, dataDir);
      if (removed > 0) log.info({ removed }, 'old wallet exports deleted');
    });
    // Exports whose job never got queued (the process stopped between the two writes): queue them.
    const stuck = await database.exec<{ id: number | string }>(
      `select id from wallet_exports where status = 'exporting' and created_at < now() - interval '1 minute'`,
    );
    for (const s of stuck) await boss.send(EXPORT_QUEUE, { id: Number(s.id) }, EXPORT_JOB_OPTIONS);
  };
}

import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '@lq/db';
import { startBacktestJobs } from './backtest/jobs';
import { registerMarketJobs } from './market/jobs';

export const QUEUES = { housekeeping: 'housekeeping' } as const;

/**
 * pg-boss on our own database, PGlite or PostgreSQL alike: it runs its SQL through the handle's
 * `executeSql`, so on PGlite it shares the one connection of the data directory.
 * `work` decides whether this process also consumes jobs and runs schedules (ROLE worker/all).
 */
export async function startJobs(
  database: DatabaseHandle,
  log: FastifyBaseLogger,
  work: boolean,
): Promise<PgBoss> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
    schema: 'pgboss',
    supervise: work,
    schedule: work,
  });
  boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
  await boss.start();
  await boss.createQueue(QUEUES.housekeeping);
  await startBacktestJobs(boss, database, log, work);
  if (work) {
    await boss.schedule(QUEUES.housekeeping, '17 3 * * *');
    await boss.work(QUEUES.housekeeping, async () => {
      const removed = await housekeeping(database);
      log.info({ removed }, 'housekeeping done');
    });
  }
  await registerMarketJobs(boss, database, log, work);
  return boss;
}

/** Deletes sessions, codes and login attempts that can no longer matter. */
export async function housekeeping(database: DatabaseHandle) {
  const deleted = async (statement: string) =>
    (
      await database.exec<{ n: number }>(
        `with d as (${statement} returning 1) select count(*)::int as n from d`,
      )
    )[0].n;
  const s = await deleted(
    `delete from sessions where expires_at < now() - interval '1 day' or revoked_at < now() - interval '1 day'`,
  );
  const c = await deleted(
    `delete from verification_codes where expires_at < now() - interval '1 day'`,
  );
  const a = await deleted(
    `delete from login_attempts where created_at < now() - interval '7 days'`,
  );
  return { sessions: s, codes: c, loginAttempts: a };
}

// Database upkeep PostgreSQL does by itself and PGlite does not: PGlite runs no autovacuum, so
// without this its tables keep their dead rows and never mark pages all-visible, and every
// count or deep page reads the heap row by row (a records page of 100,000 lines: 64 → 31 ms).
import type { DatabaseHandle } from '@lq/db';
import type { JobContext } from './jobs';

export const MAINTENANCE_QUEUE = 'database-maintenance';

/**
 * VACUUM (ANALYZE) of every table, one statement per table so other work runs in between (PGlite
 * has one backend). Pages already all-visible are skipped, so a run after the first is short.
 */
export async function vacuumTables(database: DatabaseHandle): Promise<number> {
  const tables = await database.exec<{ name: string }>(
    `select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables order by schemaname, relname`,
  );
  for (const t of tables) await database.exec(`vacuum (analyze) ${t.name}`);
  return tables.length;
}

/** On PGlite, vacuums hourly; on PostgreSQL its autovacuum does it. */
export async function startMaintenanceJobs({ boss, database, log, work }: JobContext): Promise<void> {
  await boss.createQueue(MAINTENANCE_QUEUE);
  if (!work) return;
  if (database.kind !== 'pglite') {
    await boss.unschedule(MAINTENANCE_QUEUE); // a data directory moved to PostgreSQL keeps no schedule
    return;
  }
  await boss.schedule(MAINTENANCE_QUEUE, '41 * * * *');
  await boss.work(MAINTENANCE_QUEUE, async () => {
    const started = Date.now();
    const tables = await vacuumTables(database);
    log.info({ tables, ms: Date.now() - started }, 'database vacuumed');
  });
}

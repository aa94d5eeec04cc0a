import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '@lq/db';
import { noRequests, type Yielder } from './yield';

/** What an area's job set-up gets: it creates its queues, and consumes them when `work`. */
export interface JobContext {
  boss: PgBoss;
  database: DatabaseHandle;
  log: FastifyBaseLogger;
  /** This process consumes jobs and runs schedules (ROLE worker/all). */
  work: boolean;
  /** Waits while this process answers requests (bounded): for jobs that move many rows. */
  requests: Yielder;
}

export type JobSetup = (ctx: JobContext) => Promise<void>;

/**
 * The areas' job set-ups, added by each area's plugin while it registers (`app.jobs.add`) and run
 * in that order when pg-boss starts. The platform knows no area's queues.
 */
export class JobRegistry {
  private readonly setups: { area: string; setup: JobSetup }[] = [];

  add(area: string, setup: JobSetup): void {
    this.setups.push({ area, setup });
  }

  /** The areas that added job set-ups, in order. */
  areas(): string[] {
    return this.setups.map((s) => s.area);
  }

  /**
   * pg-boss on our own database, PGlite or PostgreSQL alike: it runs its SQL through the handle's
   * `executeSql`, so on PGlite it shares the one connection of the data directory.
   */
  async start(database: DatabaseHandle, log: FastifyBaseLogger, work: boolean, requests: Yielder = noRequests): Promise<PgBoss> {
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
      schema: 'pgboss',
      supervise: work,
      schedule: work,
    });
    boss.on('error', (err) => log.error({ err }, 'pg-boss error'));
    await boss.start();
    for (const { setup } of this.setups) await setup({ boss, database, log, work, requests });
    return boss;
  }
}

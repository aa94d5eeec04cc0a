// The drift monitor's schedule (issue 33): every 5 minutes, each robot running, paused or stopping
// (or stopped within the hour: its last candles) gets its shadow brought up to it, its report, and
// its alert decided. A stately queue: one pass at a time. A robot that fails its check is logged
// and left for the next pass; the others go on.
import type { FastifyBaseLogger } from 'fastify';
import { rowsOf, sql, type DatabaseHandle } from '@lq/db';
import type { JobContext } from '../platform/jobs';
import { evaluateDriftAlert, type AlertDecision } from './alerts';
import type { FundingRecorder } from './funding';
import { driftReportOf } from './report';
import type { ShadowMonitor } from './service';

export const DRIFT_QUEUE = 'drift-check';

/** One robot: shadow, report, alert. */
export async function checkDrift(database: DatabaseHandle, monitor: ShadowMonitor, robotId: number): Promise<AlertDecision | null> {
  const checked = await monitor.check(robotId);
  if (!checked) return null;
  const report = await driftReportOf(database, robotId);
  return report ? evaluateDriftAlert(database, report) : null;
}

/** Every robot that moved lately (live ones' funding recorded first, when a settlement has passed). */
export async function checkAllDrift(
  database: DatabaseHandle,
  monitor: ShadowMonitor,
  log: Pick<FastifyBaseLogger, 'warn'>,
  funding?: FundingRecorder,
): Promise<{ robots: number; told: number; failed: number }> {
  const rows = rowsOf<{ id: string; mode: string }>(
    await database.db.execute(sql`select id::text as id, mode from robots where last_candle_at is not null
      and (status in ('running', 'paused', 'stopping') or (status = 'stopped' and stopped_at > now() - interval '1 hour')) order by id`),
  ).map((r) => ({ id: Number(r.id), live: r.mode === 'live' }));
  let told = 0;
  let failed = 0;
  for (const { id, live } of rows) {
    // Only live robots pay funding. A venue that cannot tell it now is asked again at the next pass; the check goes on.
    if (live) await funding?.record(id).catch((err: unknown) => log.warn({ err, robot: id }, 'drift: funding not read'));
    try {
      told += (await checkDrift(database, monitor, id))?.told.length ?? 0;
    } catch (err) {
      failed++;
      log.warn({ err, robot: id }, 'drift: check failed');
    }
  }
  return { robots: rows.length, told, failed };
}

export function startDriftJobs(monitor: ShadowMonitor, funding?: FundingRecorder) {
  return async ({ boss, database, log, work }: JobContext): Promise<void> => {
    await boss.createQueue(DRIFT_QUEUE, { name: DRIFT_QUEUE, policy: 'stately' });
    if (!work) return;
    await boss.work(DRIFT_QUEUE, async () => {
      const r = await checkAllDrift(database, monitor, log, funding);
      if (r.told > 0 || r.failed > 0) log.info(r, 'drift checks');
    });
    await boss.schedule(DRIFT_QUEUE, '*/5 * * * *');
  };
}

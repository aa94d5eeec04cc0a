// The referrals' schedule: every day at 00:10 in the platform timezone, VIP progress for the day
// (vip.ts), and once at start, so a new server has figures. A stately queue: one run at a time.
import type { JobContext } from '../platform/jobs';
import { computeVip } from './vip';

export const VIP_QUEUE = 'vip-compute';

export function startReferralJobs(timeZone: string) {
  return async ({ boss, database, log, work }: JobContext): Promise<void> => {
    await boss.createQueue(VIP_QUEUE, { name: VIP_QUEUE, policy: 'stately' });
    if (!work) return;
    await boss.work(VIP_QUEUE, async () => {
      const run = await computeVip(database.db, timeZone);
      log.info({ asOf: run.asOf, users: run.users, raised: run.raised }, 'vip progress computed');
    });
    await boss.schedule(VIP_QUEUE, '10 0 * * *', {}, { tz: timeZone });
    await boss.send(VIP_QUEUE, {});
  };
}

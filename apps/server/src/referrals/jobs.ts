// The referrals' schedule, in the platform timezone: at 00:10 VIP progress for the day (vip.ts),
// at 00:20 the rebates of the days not settled yet (rebates.ts), at 00:30 the leaderboards
// (rankings.ts, after the rebates they rank), and each once at start, so a new server has figures.
// At 01:00, and once at start, the dividends of every month over and not settled yet (dividends.ts):
// a pass missed (a deploy at the hour) is caught up by the next. Stately queues: one run at a time.
import type { JobContext } from '../platform/jobs';
import { settleDueDividends } from './dividends';
import { computeRankings } from './rankings';
import { settleDueRebates } from './rebates';
import { computeVip } from './vip';

export const VIP_QUEUE = 'vip-compute';
export const REBATE_QUEUE = 'rebate-settle';
export const RANKING_QUEUE = 'ranking-compute';
export const DIVIDEND_QUEUE = 'dividend-settle';

export function startReferralJobs(timeZone: string) {
  return async ({ boss, database, log, work }: JobContext): Promise<void> => {
    await boss.createQueue(VIP_QUEUE, { name: VIP_QUEUE, policy: 'stately' });
    await boss.createQueue(REBATE_QUEUE, { name: REBATE_QUEUE, policy: 'stately' });
    await boss.createQueue(RANKING_QUEUE, { name: RANKING_QUEUE, policy: 'stately' });
    await boss.createQueue(DIVIDEND_QUEUE, { name: DIVIDEND_QUEUE, policy: 'stately' });
    if (!work) return;
    await boss.work(VIP_QUEUE, async () => {
      const run = await computeVip(database.db, timeZone);
      log.info({ asOf: run.asOf, users: run.users, raised: run.raised }, 'vip progress computed');
    });
    await boss.work(REBATE_QUEUE, async () => {
      for (const run of await settleDueRebates(database.db, timeZone)) {
        log.info({ day: run.day, payments: run.payments, rebates: run.rebates, total: run.total.toString() }, 'rebates settled');
      }
    });
    await boss.work(RANKING_QUEUE, async () => {
      const run = await computeRankings(database.db, timeZone);
      log.info({ asOf: run.asOf, ...run.ranked }, 'rankings computed');
    });
    await boss.work(DIVIDEND_QUEUE, async () => {
      for (const run of await settleDueDividends(database.db, timeZone)) {
        if (run.settledNow) log.info({ month: run.month, pool: run.pool.toString(), recipients: run.recipients }, 'dividends settled');
      }
    });
    await boss.schedule(VIP_QUEUE, '10 0 * * *', {}, { tz: timeZone });
    await boss.schedule(REBATE_QUEUE, '20 0 * * *', {}, { tz: timeZone });
    await boss.send(VIP_QUEUE, {});
    await boss.schedule(RANKING_QUEUE, '30 0 * * *', {}, { tz: timeZone });
    await boss.schedule(DIVIDEND_QUEUE, '0 1 * * *', {}, { tz: timeZone });
    await boss.send(DIVIDEND_QUEUE, {});
    await boss.send(REBATE_QUEUE, {});
    await boss.send(RANKING_QUEUE, {});
  };
}

// The benefits' schedule: every minute, owners of auto-renewed packs whose price rose are told
// (7 days before it reaches them), packs due are renewed (renewals.ts), the owners of failed
// renewals are mailed, and packs without auto-renew expiring within 3 days are told of (the
// notification centre). A stately queue: one pass at a time, whatever the number of workers.
import type { JobContext } from '../platform/jobs';
import type { OutgoingMail } from '../platform/mail';
import { noticeExpiringPacks, noticePriceChanges, notifyFailedRenewals, renewDue } from './renewals';

export const RENEW_QUEUE = 'benefits-renew';

export function startBenefitJobs(send: (mail: OutgoingMail) => Promise<void>) {
  return async ({ boss, database, log, work }: JobContext): Promise<void> => {
    await boss.createQueue(RENEW_QUEUE, { name: RENEW_QUEUE, policy: 'stately' });
    if (!work) return;
    await boss.work(RENEW_QUEUE, async () => {
      // Price rises told first: the renewals then see what their owners were told.
      const priceTold = await noticePriceChanges(database.db);
      const r = await renewDue(database.db);
      const told = await notifyFailedRenewals(database.db, send);
      const expiring = await noticeExpiringPacks(database.db);
      if (r.renewed > 0 || r.failed > 0 || told > 0 || expiring > 0 || priceTold > 0) log.info({ ...r, told, expiring, priceTold }, 'benefit renewals');
    });
    await boss.schedule(RENEW_QUEUE, '* * * * *');
    await boss.send(RENEW_QUEUE, {});
  };
}

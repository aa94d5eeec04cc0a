// The robots' schedule: every minute, seats are enforced (seat-expiry.ts: renewals due first, then
// accounts above the seats owned freeze and their robots stop) and the live MT5 fills are checked
// against the market (fill-check.ts). Stately queues: one pass of each at a time.
import type { JobContext } from '../platform/jobs';
import type { OutgoingMail } from '../platform/mail';
import { checkMt5Fills } from './fill-check';
import { enforceSeats } from './seat-expiry';

export const SEATS_QUEUE = 'seats-enforce';
export const FILLS_QUEUE = 'fills-check';

export function startRobotJobs(send: (mail: OutgoingMail) => Promise<void>) {
  return async ({ boss, database, log, work }: JobContext): Promise<void> => {
    await boss.createQueue(SEATS_QUEUE, { name: SEATS_QUEUE, policy: 'stately' });
    await boss.createQueue(FILLS_QUEUE, { name: FILLS_QUEUE, policy: 'stately' });
    if (!work) return;
    await boss.work(FILLS_QUEUE, async () => {
      const r = await checkMt5Fills(database);
      if (r.suspect > 0) log.warn(r, 'suspect MT5 fills');
    });
    await boss.schedule(FILLS_QUEUE, '* * * * *');
    await boss.work(SEATS_QUEUE, async () => {
      const r = await enforceSeats(database.db, send);
      if (r.renewed > 0 || r.renewFailed > 0 || r.frozen > 0 || r.told > 0) log.info(r, 'seats enforced');
    });
    await boss.schedule(SEATS_QUEUE, '* * * * *');
    await boss.send(SEATS_QUEUE, {});
  };
}

import type { DatabaseHandle } from '@lq/db';
import type { JobContext } from '../platform/jobs';
import { forgetExpiredSecrets } from '../platform/mail';

export const USER_QUEUES = { housekeeping: 'housekeeping', forgetCodes: 'forget-mailed-codes' } as const;

/** The nightly clean-up of sign-in data, and every minute the words of mailed codes that expired. */
export async function startUserJobs({ boss, database, log, work }: JobContext): Promise<void> {
  await boss.createQueue(USER_QUEUES.housekeeping);
  await boss.createQueue(USER_QUEUES.forgetCodes);
  if (!work) return;
  await boss.schedule(USER_QUEUES.housekeeping, '17 3 * * *');
  await boss.work(USER_QUEUES.housekeeping, async () => {
    const removed = await housekeeping(database);
    log.info({ removed }, 'housekeeping done');
  });
  await boss.schedule(USER_QUEUES.forgetCodes, '* * * * *');
  await boss.work(USER_QUEUES.forgetCodes, async () => {
    const forgotten = await forgetExpiredSecrets(database.db);
    if (forgotten > 0) log.info({ forgotten }, 'expired codes forgotten from the outbox');
  });
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
  const ch = await deleted(`delete from login_challenges where expires_at < now() - interval '1 day'`);
  const o = await deleted(`delete from operator_login_failures where created_at < now() - interval '1 day'`);
  return { sessions: s, codes: c, loginAttempts: a, loginChallenges: ch, operatorLoginFailures: o };
}

// The delivery job: a pass every NOTIFY_POLL_SECONDS hands new notifications to their channels and
// sends what is due (delivery.ts). A stately queue (one pass waiting, one running, however many
// workers) re-queued by each pass, and a minutely schedule that restarts the chain after a crash.
// With Telegram and PUBLIC_URL configured, the worker points the bot's webhook here at start.
import type { JobContext } from '../platform/jobs';
import { deliverNotifications, type DeliveryChannels } from './delivery';
import type { TelegramChannel } from './telegram';

export const DELIVER_QUEUE = 'notifications-deliver';
/** How long one job keeps running full passes (well inside pg-boss's 15 min job expiry). */
const BACKLOG_SECONDS = 60;

export function startNotificationJobs(channels: DeliveryChannels, pollSeconds: number, webhook: { url: string; secret: string } | undefined) {
  return async ({ boss, database, log, work, requests }: JobContext): Promise<void> => {
    await boss.createQueue(DELIVER_QUEUE, { name: DELIVER_QUEUE, policy: 'stately' });
    if (!work) return;
    if (channels.telegram && webhook) await setWebhook(channels.telegram, webhook, log);
    await boss.work(DELIVER_QUEUE, { pollingIntervalSeconds: 0.5 }, async () => {
      // Passes back to back while they come back full (a backlog, a notice's fan-out), for up to
      // BACKLOG_SECONDS; then the next job: at once if still full, else after the poll interval.
      let full = false;
      const until = Date.now() + BACKLOG_SECONDS * 1000;
      try {
        do {
          const r = await deliverNotifications(database.db, channels, { requests });
          full = r.full;
          if (r.sent > 0 || r.retried > 0 || r.failed > 0 || r.skipped > 0 || r.fannedOut > 0) log.info(r, 'notifications delivered');
        } while (full && Date.now() < until);
      } catch (err) {
        log.warn({ err }, 'notification delivery pass failed; the next one tries again');
      }
      await boss.send(DELIVER_QUEUE, {}, full ? {} : { startAfter: pollSeconds });
    });
    await boss.schedule(DELIVER_QUEUE, '* * * * *');
    await boss.send(DELIVER_QUEUE, {});
  };
}

async function setWebhook(telegram: TelegramChannel, webhook: { url: string; secret: string }, log: JobContext['log']) {
  try {
    await telegram.api.setWebhook(webhook.url, { secret_token: webhook.secret, allowed_updates: ['message'] });
    log.info({ url: webhook.url }, 'Telegram webhook set');
  } catch (err) {
    // Not fatal: notifications still go out; linking waits for the next start.
    log.warn({ err: String((err as Error).message) }, 'Telegram webhook could not be set; chats cannot be linked until it is');
  }
}

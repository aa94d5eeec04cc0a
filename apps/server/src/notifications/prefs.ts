// Which channels each kind of notification goes to, per user: a row per choice made, else the
// kind's default (every kind on but the opt-in robot.filled); the kinds their area always e-mails
// keep their e-mail switch on.
import { ALWAYS_MAILED_KINDS, AppError, channelDefault, NOTIFICATION_KINDS, type NotificationPrefBody, type NotificationPrefs } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import { pushDevicesOf } from './push';
import { telegramLinkOf } from './telegram';

type Runner = Pick<Database, 'execute'>;

/** What the server offers: a Telegram bot, a VAPID public key for Web Push. */
export interface ChannelsOffered {
  telegram: boolean;
  pushKey: string | undefined;
}

export async function notificationPrefsOf(db: Runner, userId: number, offered: ChannelsOffered): Promise<NotificationPrefs> {
  const rows = rowsOf<{ kind: string; channel: string; enabled: boolean }>(
    await db.execute(sql`select kind, channel, enabled from notification_prefs where user_id = ${userId}`),
  );
  const chosen = new Map(rows.map((r) => [`${r.kind}/${r.channel}`, r.enabled]));
  const link = await telegramLinkOf(db, userId);
  return {
    prefs: NOTIFICATION_KINDS.map((kind) => ({
      kind,
      email: ALWAYS_MAILED_KINDS.includes(kind) || (chosen.get(`${kind}/email`) ?? channelDefault(kind)),
      telegram: chosen.get(`${kind}/telegram`) ?? channelDefault(kind),
      push: chosen.get(`${kind}/push`) ?? channelDefault(kind),
    })),
    telegram: { available: offered.telegram, linked: link !== undefined, linkedAt: link?.linkedAt ?? null },
    push: { available: offered.pushKey !== undefined, publicKey: offered.pushKey ?? null, devices: await pushDevicesOf(db, userId) },
  };
}

export async function setNotificationPref(db: Runner, userId: number, body: NotificationPrefBody): Promise<void> {
  if (body.channel === 'email' && !body.enabled && ALWAYS_MAILED_KINDS.includes(body.kind)) throw new AppError('NOTIFY_MAIL_REQUIRED', {}, 'enabled');
  await db.execute(sql`insert into notification_prefs (user_id, kind, channel, enabled) values (${userId}, ${body.kind}, ${body.channel}, ${body.enabled})
    on conflict (user_id, kind, channel) do update set enabled = excluded.enabled, updated_at = now()`);
}

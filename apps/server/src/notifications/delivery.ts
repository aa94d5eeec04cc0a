// Delivering notifications by e-mail, Telegram and Web Push. A pass of the delivery job (jobs.ts):
//  0. fan out: notices gone live become a notification for each user who wants them (fanout.ts);
//  1. expand: notifications not yet handed on (delivered_at null) get one delivery row per channel
//     the user wants (preferences, else the kind's default; Telegram only to a linked chat), and
//     delivered_at is set, in one statement;
//  2. send: due pending rows are claimed by moving next_at past a lease (a process killed while
//     sending leaves them to be claimed again when it runs out), sent, and closed — sent, or
//     retried with a doubling backoff, or failed for good after MAX_ATTEMPTS or a refusal.
// E-mail: the first attempt writes the mail_outbox row and keeps its id, so the outbox holds each
// event once however many times SMTP is retried. Telegram: 403 (bot blocked) unlinks the chat.
import { AREA_MAILED_KINDS, DELIVERY_MAILED_KINDS, NOTICE_FALLBACK_LOCALE, SECURITY_KINDS, type NotificationKind, NOTIFICATION_CHANNELS, notificationText, OPT_IN_KINDS, resolveLocale, translate, type NotificationChannel } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import { FORGET_WORDS, type Mailer } from '../platform/mail';
import { withoutUrlSecrets } from '../platform/urls';
import { noRequests, type Yielder } from '../platform/yield';
import { fanOutNotices } from './fanout';
import { classifyPushError, dropSubscription, markPushed, subscriptionsOf, type PushChannel } from './push';
import { classifyTelegramError, unlinkChat, type SendFailure, type TelegramChannel } from './telegram';

/** Attempts before a delivery is given up (the backoff reaches an hour by then). */
export const MAX_ATTEMPTS = 8;
/** How long a claimed delivery is left to its sender before another pass may claim it again. */
const LEASE_SECONDS = 120;
/** Deliveries sent at once (SMTP connections, Bot API requests). */
const PARALLEL = 8;

export interface DeliveryChannels {
  mailer: Mailer;
  telegram: TelegramChannel | undefined;
  push: PushChannel | undefined;
  /** The origin of the app the texts link to. */
  publicUrl: string;
}

export interface DeliveryOptions {
  /** Seconds before the first retry; each further one doubles it (up to an hour). Tests pass 0. */
  retryBaseSeconds?: number;
  /** Deliveries claimed per pass. */
  batch?: number;
  /** Requests this process answers, given way to before each statement (platform/yield.ts). */
  requests?: Yielder;
}

type Runner = Pick<Database, 'execute'>;

/** Seconds before attempt `attempts + 1` after `attempts` failed ones. */
export const retryDelaySeconds = (base: number, attempts: number) => Math.min(3600, base * 2 ** Math.max(0, attempts - 1));

const kindList = (kinds: readonly string[]) => sql.join(kinds.map((k) => sql`${k}`), sql`, `);

/** Notifications handed on per statement (about 6 ms of the embedded database). */
const EXPAND_CHUNK = 100;

/** Step 1: hands undelivered notifications to their channels; answers how many it handed on. */
export async function expandNotifications(db: Runner, limit = EXPAND_CHUNK): Promise<number> {
  const channels = sql.join(NOTIFICATION_CHANNELS.map((c) => sql`(${c})`), sql`, `);
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`with picked as (
        select id, user_id, kind from notifications where delivered_at is null order by id limit ${limit} for update skip locked
      ), wanted as (
        select p.id, c.channel from picked p
        cross join (values ${channels}) as c(channel)
        left join notification_prefs np on np.user_id = p.user_id and np.kind = p.kind and np.channel = c.channel
        where (case when c.channel = 'email' and p.kind in (${kindList(AREA_MAILED_KINDS)}) then false
                    when c.channel = 'email' and p.kind in (${kindList(DELIVERY_MAILED_KINDS)}) then true
                    else coalesce(np.enabled, p.kind not in (${kindList(OPT_IN_KINDS)})) end)
          and (c.channel <> 'telegram' or exists (select 1 from telegram_links t where t.user_id = p.user_id and t.chat_id is not null))
          and (c.channel <> 'push' or exists (select 1 from push_subscriptions s where s.user_id = p.user_id))
      ), handed as (
        insert into notification_deliveries (notification_id, channel) select id, channel from wanted on conflict do nothing
      )
      update notifications n set delivered_at = now() from picked where n.id = picked.id returning n.id::text as id`),
  );
  return rows.length;
}

interface Claimed {
  notification_id: string;
  user_id: string;
  channel: NotificationChannel;
  attempts: number;
  mail_id: string | null;
  kind: string;
  params: Record<string, string | number | null>;
  link: string | null;
  mail: string;
  locale: string;
  chat_id: string | null;
}

async function claimDue(db: Runner, limit: number): Promise<Claimed[]> {
  return rowsOf<Claimed>(
    await db.execute(sql`with due as (
        select notification_id, channel from notification_deliveries
        where status = 'pending' and next_at <= now() order by next_at limit ${limit} for update skip locked
      ), claimed as (
        update notification_deliveries d set next_at = now() + make_interval(secs => ${LEASE_SECONDS}), attempts = d.attempts + 1
        from due where d.notification_id = due.notification_id and d.channel = due.channel
        returning d.notification_id, d.channel, d.attempts, d.mail_id
      )
      select c.notification_id::text as notification_id, n.user_id::text as user_id, c.channel, c.attempts, c.mail_id::text as mail_id,
        n.kind, n.link, u.mail, u.locale, t.chat_id,
        case when n.kind = 'notice.published' then n.params || jsonb_build_object('title', (
          select coalesce(own.title, f.title) from notices live join notice_texts f on f.notice_id = live.id and f.locale = ${NOTICE_FALLBACK_LOCALE}
          left join notice_texts own on own.notice_id = live.id and own.locale = u.locale
          where live.id = (n.params->>'noticeId')::bigint and live.status = 'published')) else n.params end as params
      from claimed c join notifications n on n.id = c.notification_id join users u on u.id = n.user_id
      left join telegram_links t on t.user_id = n.user_id`),
  );
}

/** The notification's text in the user's language, with the link to its page. */
function render(d: Claimed, publicUrl: string) {
  const locale = resolveLocale(d.locale);
  const text = notificationText(locale, d.kind, d.params);
  const url = `${publicUrl}/#${d.link ?? '/pages/notice/notice?tab=notifications'}`;
  return { locale, text, open: translate(locale, 'notify.open', { url }) };
}

async function markSent(db: Runner, d: Claimed) {
  await db.execute(sql`update notification_deliveries set status = 'sent', sent_at = now(), last_error = null
    where notification_id = ${d.notification_id} and channel = ${d.channel}`);
}

async function markFailure(db: Runner, d: Claimed, failure: SendFailure, base: number) {
  const error = withoutUrlSecrets(failure.error);
  if (!failure.retry || d.attempts >= MAX_ATTEMPTS) {
    const status = !failure.retry && failure.unlink ? 'skipped' : 'failed';
    await db.execute(sql`update notification_deliveries set status = ${status}, last_error = ${error}
      where notification_id = ${d.notification_id} and channel = ${d.channel}`);
    return status;
  }
  const delay = Math.max(failure.afterSeconds ?? 0, retryDelaySeconds(base, d.attempts));
  await db.execute(sql`update notification_deliveries set next_at = now() + make_interval(secs => ${delay}), last_error = ${error}
    where notification_id = ${d.notification_id} and channel = ${d.channel}`);
  return 'retry';
}

async function sendMail(db: Database, channels: DeliveryChannels, d: Claimed): Promise<void> {
  const { locale, text, open } = render(d, channels.publicUrl);
  const settings = `${channels.publicUrl}/#/pages/personal/personal`;
  const mail = {
    to: d.mail,
    subject: `Lightning Quant: ${text.length > 110 ? `${text.slice(0, 109)}…` : text}`,
    // A security notice cannot be switched off: its footer says so instead of pointing at the settings.
    text: `${text}\n\n${open}\n\n-- \n${SECURITY_KINDS.includes(d.kind as NotificationKind) ? translate(locale, 'notify.footerSecurity') : translate(locale, 'notify.footer', { url: settings })}`,
  };
  let mailId = d.mail_id;
  if (mailId === null) {
    // The outbox row and the delivery's hold on it in one statement (no transaction block: on the
    // embedded database an operator command may hold one through the socket): a retry re-sends it.
    const [row] = rowsOf<{ id: string }>(
      await db.execute(sql`with m as (insert into mail_outbox ("to", subject, text) values (${mail.to}, ${mail.subject}, ${mail.text}) returning id)
        update notification_deliveries set mail_id = (select id from m) where notification_id = ${d.notification_id} and channel = 'email' returning mail_id::text as id`),
    );
    mailId = row.id;
  }
  try {
    if (await channels.mailer.transmit(mail)) await db.execute(sql`update mail_outbox set sent_at = now(), error = null, ${FORGET_WORDS} where id = ${mailId}`);
  } catch (err) {
    await db.execute(sql`update mail_outbox set error = ${withoutUrlSecrets(String((err as Error).message)).slice(0, 500)} where id = ${mailId}`);
    throw err;
  }
}

/**
 * Sends to every device of the user. A device the push service says is gone is removed; any other
 * failure retries the whole delivery (the tag makes a device that already has it replace it, not
 * show it twice). 'none': no device (left) to send to.
 */
async function sendPush(db: Database, channels: DeliveryChannels, d: Claimed): Promise<'sent' | 'none'> {
  if (!channels.push) return 'none';
  const { text } = render(d, channels.publicUrl);
  const message = { title: 'Lightning Quant', body: text, link: d.link, tag: `n-${d.notification_id}` };
  let delivered = 0;
  let retry: SendFailure | undefined;
  for (const sub of await subscriptionsOf(db, Number(d.user_id))) {
    try {
      await channels.push.send(sub, message);
      await markPushed(db, sub.id);
      delivered++;
    } catch (err) {
      const failure = classifyPushError(err);
      if (failure.gone) await dropSubscription(db, sub.id);
      else if (failure.retry) retry = failure;
    }
  }
  if (retry) throw Object.assign(new Error(retry.error), { failure: retry });
  return delivered > 0 ? 'sent' : 'none';
}

export interface DeliveryPass {
  /** Notification rows written for notices gone live (fanout.ts). */
  fannedOut: number;
  handed: number;
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
  /** The pass claimed a whole batch: more may be due now (the job runs the next pass at once). */
  full: boolean;
}

/** One pass: fan out notices gone live, expand, then send what is due, PARALLEL at a time. */
export async function deliverNotifications(db: Database, channels: DeliveryChannels, options: DeliveryOptions = {}): Promise<DeliveryPass> {
  const base = options.retryBaseSeconds ?? 30;
  const requests = options.requests ?? noRequests;
  const batch = options.batch ?? 100;
  const { written: fannedOut } = await fanOutNotices(db, { requests });
  const result: DeliveryPass = { fannedOut, handed: 0, sent: 0, retried: 0, failed: 0, skipped: 0, full: false };
  // Hand on about what this pass can send, in small statements.
  for (let step = EXPAND_CHUNK; result.handed < batch * 2 && step === EXPAND_CHUNK; ) {
    await requests.quiet();
    step = await expandNotifications(db);
    result.handed += step;
  }
  await requests.quiet();
  const due = await claimDue(db, batch);
  result.full = due.length === batch;
  const sendOne = async (d: Claimed) => {
    try {
      // A notice taken down (or deleted) while its fan-out was being sent: the rest is not sent.
      if (d.kind === 'notice.published' && d.params.title === null) {
        result.skipped++;
        await markFailure(db, d, { retry: false, unlink: true, error: 'notice no longer published' }, base);
        return;
      }
      if (d.channel === 'email') await sendMail(db, channels, d);
      else if (d.channel === 'push') {
        const outcome = await sendPush(db, channels, d);
        if (outcome === 'none') {
          result.skipped++;
          await markFailure(db, d, { retry: false, unlink: true, error: channels.push ? 'no device left' : 'Web Push not configured' }, base);
          return;
        }
      } else {
        // Unlinked (or the bot removed from config) since it was handed on: nothing to send to.
        if (!channels.telegram || d.chat_id === null) {
          result.skipped++;
          await markFailure(db, d, { retry: false, unlink: true, error: channels.telegram ? 'chat unlinked' : 'Telegram not configured' }, base);
          return;
        }
        const { text, open } = render(d, channels.publicUrl);
        try {
          await channels.telegram.send(d.chat_id, `${text}\n${open}`);
        } catch (err) {
          const failure = classifyTelegramError(err);
          if (!failure.retry && failure.unlink) await unlinkChat(db, d.chat_id);
          throw Object.assign(new Error(failure.error), { failure });
        }
      }
      await markSent(db, d);
      result.sent++;
    } catch (err) {
      const failure: SendFailure = (err as { failure?: SendFailure }).failure ?? { retry: true, error: String((err as Error)?.message ?? err) };
      const outcome = await markFailure(db, d, failure, base);
      if (outcome === 'retry') result.retried++;
      else if (outcome === 'skipped') result.skipped++;
      else result.failed++;
    }
  };
  // PARALLEL senders, each taking the next delivery when no request is waiting.
  let next = 0;
  const sender = async () => {
    for (let i = next++; i < due.length; i = next++) {
      await requests.quiet();
      await sendOne(due[i]);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, sender));
  return result;
}

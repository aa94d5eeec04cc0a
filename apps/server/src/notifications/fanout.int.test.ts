// Notices sent as notifications, on a real app and database, to a real SMTP sink and a stand-in of
// the Telegram Bot API on 127.0.0.1: a notice going live reaches exactly the users who switched
// "new notices" on, on the channels they chose, titled in their language (else English); a
// scheduled one waits for its time; the fan-out goes a chunk at a time and resumes after a crash
// without writing anyone twice; a notice taken down stops its sending; publishing it again sends
// nothing again; the centre does not list these (the notice page has its own badge).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationList, NotificationPrefs, TelegramLinkResult } from '@lq/contracts';
import { registeredUserWithId, type Envelope, type TestApp } from '../../test/helpers';
import { startTelegramTestApp, type TelegramTestApp } from '../../test/telegram-app';
import type { TelegramStandIn } from '../../test/telegram-standin';
import { createNotice, publishNotice, setNoticeText, unpublishNotice } from '../notices';
import { deliverNotifications, type DeliveryChannels } from './delivery';
import { fanOutChunk, fanOutNotices } from './fanout';

let app: TelegramTestApp;
let t: TestApp;
let tg: TelegramStandIn;
let channels: DeliveryChannels;

beforeAll(async () => {
  app = await startTelegramTestApp();
  ({ t, tg, channels } = app);
});
afterAll(() => app?.close());

const pass = () => deliverNotifications(t.database.db, channels, { retryBaseSeconds: 0 });

async function userIn(locale: string, optIn: ('email' | 'telegram' | 'push')[] = []) {
  const u = await registeredUserWithId(t);
  await t.database.exec(`update users set locale = $2 where id = $1`, [u.id, locale]);
  for (const channel of optIn) {
    const res = await t.call('POST', '/user/api/notification/prefs', { token: u.token, body: { kind: 'notice.published', channel, enabled: true } });
    expect(res.statusCode).toBe(200);
  }
  return u;
}

async function linkTelegram(token: string, chatId: number) {
  const link = (await t.call('POST', '/user/api/notification/telegram/link', { token })).json<Envelope<TelegramLinkResult>>().data;
  expect((await app.update(chatId, `/start ${new URL(link.url).searchParams.get('start')!}`)).statusCode).toBe(200);
}

async function noticeIn(texts: Record<string, string>) {
  const [first, ...rest] = Object.entries(texts);
  const id = await createNotice(t.database.db, { category: 'news', text: { locale: first[0] as 'en-US', title: first[1], body: `${first[1]} — body` } });
  for (const [locale, title] of rest) await setNoticeText(t.database.db, id, { locale: locale as 'en-US', title, body: `${title} — body` });
  return id;
}

// What reached the mailbox (the outbox forgets a delivered mail's words).
const noticeMails = (mail: string) => Promise.resolve(t.smtp.mailsTo(mail).filter((m) => !m.subject.includes('code') && m.text.includes('pages/notice/notice')));
const rowsFor = (noticeId: number) =>
  t.database.exec<{ user_id: string }>(`select user_id::text from notifications where kind = 'notice.published' and params->>'noticeId' = $1 order by user_id`, [String(noticeId)]);

describe('notices sent as notifications', () => {
  it('reaches the users who switched it on, on their channels, in their language; the centre does not list it', async () => {
    const ja = await userIn('ja-JP', ['email']);
    const th = await userIn('th-TH', ['email']);
    const en = await userIn('en-US', ['telegram']);
    await linkTelegram(en.token, 9101);
    const none = await userIn('zh-TW');

    // Off by default on every channel.
    const prefs = (await t.call('GET', '/user/api/notification/prefs', { token: none.token })).json<Envelope<NotificationPrefs>>().data;
    expect(prefs.prefs.find((p) => p.kind === 'notice.published')).toEqual({ kind: 'notice.published', email: false, telegram: false, push: false });

    const id = await noticeIn({ 'en-US': 'Maintenance on Sunday', 'ja-JP': '日曜日のメンテナンス' });
    await publishNotice(t.database.db, id);
    const first = await pass();
    expect(first.fannedOut).toBe(3);
    expect(first.sent).toBe(3);

    const [jaMail] = await noticeMails(ja.mail);
    expect(jaMail.subject).toBe('Lightning Quant: 新しいお知らせ：日曜日のメンテナンス');
    expect(jaMail.text).toContain(`https://app.example/#/pages/notice/notice?id=${id}`);
    // No Thai text: the English title.
    expect((await noticeMails(th.mail))[0].subject).toBe('Lightning Quant: ประกาศใหม่: Maintenance on Sunday');
    expect(tg.sentTo(9101).at(-1)).toContain('New notice: Maintenance on Sunday');
    expect(await noticeMails(en.mail)).toHaveLength(0);
    expect(await noticeMails(none.mail)).toHaveLength(0);
    expect((await rowsFor(id)).map((r) => Number(r.user_id))).toEqual([ja.id, th.id, en.id].sort((a, b) => a - b));

    // Nothing twice; not in the centre, not counted there.
    expect(await pass()).toMatchObject({ fannedOut: 0, handed: 0, sent: 0 });
    expect(await noticeMails(ja.mail)).toHaveLength(1);
    const centre = (await t.call('GET', '/user/api/notification/list', { token: ja.token })).json<Envelope<NotificationList>>().data;
    expect(centre).toMatchObject({ total: 0, unread: 0, list: [] });

    // Taken down and published again: not sent again.
    await unpublishNotice(t.database.db, id);
    await publishNotice(t.database.db, id);
    expect(await pass()).toMatchObject({ fannedOut: 0, sent: 0 });
    expect(await noticeMails(ja.mail)).toHaveLength(1);
  });

  it('waits for a scheduled notice’s time', async () => {
    const u = await userIn('en-US', ['email']);
    const id = await noticeIn({ 'en-US': 'Scheduled news' });
    await publishNotice(t.database.db, id, new Date(Date.now() + 3_600_000));
    expect((await pass()).fannedOut).toBe(0);
    expect(await rowsFor(id)).toHaveLength(0);
    // Its time comes.
    await t.database.exec(`update notices set publish_at = now() - interval '1 second' where id = $1`, [id]);
    await pass();
    expect((await rowsFor(id)).map((r) => Number(r.user_id))).toContain(u.id);
    expect((await noticeMails(u.mail)).map((m) => m.subject)).toEqual(['Lightning Quant: New notice: Scheduled news']);
  });

  it('goes a chunk at a time and resumes after a crash without writing anyone twice', async () => {
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await userIn('en-US', ['email', 'push']));
    const id = await noticeIn({ 'en-US': 'Chunked' });
    await publishNotice(t.database.db, id);
    // Two chunks of two, then the process "dies".
    const a = await fanOutChunk(t.database.db, 2);
    const b = await fanOutChunk(t.database.db, 2);
    expect(a).toMatchObject({ noticeId: id, done: false });
    expect(b).toMatchObject({ noticeId: id, done: false });
    const before = await rowsFor(id);
    expect(before.length).toBeGreaterThanOrEqual(4);
    // A cursor lost with the crash (rows written, cursor not moved): the rows are not written again.
    await t.database.exec(`update notices set fanout_cursor = 0 where id = $1`, [id]);
    const resumed = await fanOutNotices(t.database.db, { chunk: 2 });
    expect(resumed.finished).toBe(1);
    const after = await rowsFor(id);
    expect(new Set(after.map((r) => r.user_id)).size).toBe(after.length);
    for (const u of users) expect(after.map((r) => Number(r.user_id))).toContain(u.id);
    expect(await fanOutChunk(t.database.db, 2)).toBeNull();
    await pass();
    for (const u of users) expect(await noticeMails(u.mail)).toHaveLength(1);
  });

  it('stops sending a notice taken down before its messages went out', async () => {
    const u = await userIn('en-US', ['email']);
    const id = await noticeIn({ 'en-US': 'Posted by mistake' });
    await publishNotice(t.database.db, id);
    expect((await fanOutNotices(t.database.db)).written).toBeGreaterThanOrEqual(1);
    await unpublishNotice(t.database.db, id);
    const r = await pass();
    expect(r.skipped).toBeGreaterThanOrEqual(1);
    expect(await noticeMails(u.mail)).toHaveLength(0);
    const [d] = await t.database.exec<{ status: string; last_error: string }>(
      `select d.status, d.last_error from notification_deliveries d join notifications n on n.id = d.notification_id where n.user_id = $1 and n.kind = 'notice.published'`,
      [u.id],
    );
    expect(d).toEqual({ status: 'skipped', last_error: 'notice no longer published' });
  });
});

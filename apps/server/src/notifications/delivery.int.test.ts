// Delivery of notifications on a real app and database, to a real SMTP sink and a stand-in of the
// Telegram Bot API on 127.0.0.1 (grammy pointed at it): each event once to the mail outbox and
// once to the linked chat, in the user's language with the link to its page; linking by a one-time
// deep link through the webhook, /stop and unlinking; preferences per kind and channel (robot.filled
// opt-in, the always-mailed kinds); an SMTP outage and a Bot API outage retried; a rate limit
// waited out; a blocked bot unlinked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPrefs, TelegramLinkResult } from '@lq/contracts';
import { registeredUserWithId, startTestApp, runningRobot, type Envelope, type TestApp } from '../../test/helpers';
import { startTelegramTestApp, type TelegramTestApp } from '../../test/telegram-app';
import type { TelegramStandIn } from '../../test/telegram-standin';
import { deliverNotifications, type DeliveryChannels } from './delivery';

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
const update = (chatId: number, text: string, secret?: string) => app.update(chatId, text, secret);

const robotOf = (userId: number) => runningRobot(t, userId);

/** The runner pausing the robot for a venue refusal (robot.error), then letting it run again. */
async function pauseByError(robotId: number, message = 'Margin is insufficient.') {
  await t.database.exec(`update robots set status = 'paused', pause_reason = $2 where id = $1`, [robotId, `insufficientFunds: ${message}`]);
  await t.database.exec(`update robots set status = 'running', pause_reason = null where id = $1`, [robotId]);
}

async function linkedUser(chatId: number, locale = 'en-US') {
  const u = await registeredUserWithId(t);
  await t.database.exec(`update users set locale = $2 where id = $1`, [u.id, locale]);
  const link = (await t.call('POST', '/user/api/notification/telegram/link', { token: u.token })).json<Envelope<TelegramLinkResult>>().data;
  const token = new URL(link.url).searchParams.get('start')!;
  expect((await update(chatId, `/start ${token}`)).statusCode).toBe(200);
  return { ...u, token: u.token, linkToken: token };
}

const deliveries = (userId: number) =>
  t.database.exec<{ kind: string; channel: string; status: string; attempts: number }>(
    `select n.kind, d.channel, d.status, d.attempts from notification_deliveries d join notifications n on n.id = d.notification_id where n.user_id = $1 order by n.id, d.channel`,
    [userId],
  );
/** The notification mails in the outbox (not the registration's code). */
const outboxTo = (mail: string) =>
  t.database.exec<{ subject: string; text: string; sent_at: string | null }>(`select subject, text, sent_at::text from mail_outbox where "to" = $1 and subject like 'Lightning Quant: Robot%' order by id`, [mail]);
const mailsTo = (mail: string) => t.smtp.mails.filter((m) => m.to.includes(mail) && m.subject.includes('BTCUSDT')).length;

describe('notification delivery', () => {
  it('links a chat by its one-time deep link, then delivers each event once by e-mail and Telegram in the user’s language', async () => {
    const u = await registeredUserWithId(t);
    await t.database.exec(`update users set locale = 'th-TH' where id = $1`, [u.id]);
    const res = await t.call('POST', '/user/api/notification/telegram/link', { token: u.token });
    expect(res.statusCode).toBe(200);
    const link = res.json<Envelope<TelegramLinkResult>>().data;
    expect(link.url).toMatch(/^https:\/\/t\.me\/lq_test_bot\?start=[\w-]{32}$/);
    expect(link.expiresAt - Date.now()).toBeGreaterThan(14 * 60_000);
    const token = new URL(link.url).searchParams.get('start')!;

    // Updates without Telegram's secret header are refused; the right one links the chat.
    expect((await update(7001, `/start ${token}`, 'wrong-secret-0123456789')).statusCode).toBe(401);
    expect((await update(7001, `/start ${token}`)).statusCode).toBe(200);
    expect(tg.sentTo(7001).at(-1)).toContain(u.mail);
    // The token works once: opened again (or in another chat) it links nothing.
    expect((await update(7002, `/start ${token}`)).statusCode).toBe(200);
    expect(tg.sentTo(7002).at(-1)).toMatch(/expired or was already used/);
    const prefs = (await t.call('GET', '/user/api/notification/prefs', { token: u.token })).json<Envelope<NotificationPrefs>>().data;
    expect(prefs.telegram).toMatchObject({ available: true, linked: true });

    const robot = await robotOf(u.id);
    await pauseByError(robot);
    const first = await pass();
    expect(first).toMatchObject({ handed: 1, sent: 2, retried: 0, failed: 0 });
    const mail = await t.smtp.waitFor(u.mail);
    expect(mail.subject).toBe('Lightning Quant: โรบอท BTCUSDT หยุดชั่วคราวเพราะข้อผิดพลาด: เงินในบัญชีไม่เพียงพอ (Margin is insufficient.)');
    expect(mail.text).toContain(`https://app.example/#/pages/orderDetail/orderDetail?id=${robot}`);
    expect(mail.text).toContain('https://app.example/#/pages/personal/personal');
    const sent = tg.sentTo(7001).at(-1)!;
    expect(sent).toContain('โรบอท BTCUSDT');
    expect(sent).toContain(`/pages/orderDetail/orderDetail?id=${robot}`);

    // A second pass sends nothing again.
    expect(await pass()).toMatchObject({ handed: 0, sent: 0 });
    expect(mailsTo(u.mail)).toBe(1);
    expect(tg.sentTo(7001).filter((m) => m.includes('BTCUSDT'))).toHaveLength(1);
    expect(await deliveries(u.id)).toEqual([
      { kind: 'robot.error', channel: 'email', status: 'sent', attempts: 1 },
      { kind: 'robot.error', channel: 'telegram', status: 'sent', attempts: 1 },
    ]);
  });

  it('retries through an SMTP outage and a Bot API outage, keeping one outbox row; waits out a rate limit', async () => {
    const u = await linkedUser(7101);
    const robot = await robotOf(u.id);
    t.smtp.refusals = 1;
    tg.fail('sendMessage', 2, { status: 502, description: 'Bad Gateway' });
    await pauseByError(robot);

    expect(await pass()).toMatchObject({ handed: 1, sent: 0, retried: 2 });
    const [row] = await outboxTo(u.mail);
    expect(row.sent_at).toBeNull();
    expect(await pass()).toMatchObject({ sent: 1, retried: 1 });
    expect(await pass()).toMatchObject({ sent: 1, retried: 0 });
    const outbox = await outboxTo(u.mail);
    expect(outbox).toHaveLength(1);
    expect(outbox[0].sent_at).not.toBeNull();
    expect(mailsTo(u.mail)).toBe(1);
    expect(tg.sentTo(7101).filter((m) => m.includes('BTCUSDT'))).toHaveLength(1);
    expect(await deliveries(u.id)).toEqual([
      { kind: 'robot.error', channel: 'email', status: 'sent', attempts: 2 },
      { kind: 'robot.error', channel: 'telegram', status: 'sent', attempts: 3 },
    ]);

    // 429: Telegram's retry_after is waited out, whatever the backoff says.
    tg.fail('sendMessage', 1, { status: 429, description: 'Too Many Requests: retry after 30', retryAfter: 30 });
    await pauseByError(robot, 'second');
    expect(await pass()).toMatchObject({ sent: 1, retried: 1 });
    const [waiting] = await t.database.exec<{ wait: number }>(
      `select extract(epoch from d.next_at - now())::int as wait from notification_deliveries d join notifications n on n.id = d.notification_id where n.user_id = $1 and d.status = 'pending'`,
      [u.id],
    );
    expect(waiting.wait).toBeGreaterThanOrEqual(28);
    expect(await pass()).toMatchObject({ sent: 0 });
  });

  it('a blocked bot unlinks the chat; /stop and the app unlink too', async () => {
    const u = await linkedUser(7201);
    const robot = await robotOf(u.id);
    tg.fail('sendMessage', 1, { status: 403, description: 'Forbidden: bot was blocked by the user' });
    await pauseByError(robot);
    expect(await pass()).toMatchObject({ sent: 1, skipped: 1 });
    expect(await t.database.exec(`select 1 from telegram_links where user_id = $1`, [u.id])).toEqual([]);
    await pauseByError(robot, 'again');
    await pass();
    expect((await deliveries(u.id)).map((d) => `${d.channel}:${d.status}`)).toEqual(['email:sent', 'telegram:skipped', 'email:sent']);

    const v = await linkedUser(7202, 'ja-JP');
    expect((await update(7202, '/stop')).statusCode).toBe(200);
    expect(tg.sentTo(7202).at(-1)).toBe('連携を解除しました：このチャットには通知が届かなくなります。');
    expect((await t.call('GET', '/user/api/notification/prefs', { token: v.token })).json<Envelope<NotificationPrefs>>().data.telegram.linked).toBe(false);

    const w = await linkedUser(7203);
    const after = (await t.call('POST', '/user/api/notification/telegram/unlink', { token: w.token })).json<Envelope<NotificationPrefs>>().data;
    expect(after.telegram.linked).toBe(false);
  });

  it('follows the preferences per kind and channel; robot fills only when asked for', async () => {
    const u = await linkedUser(7301);
    const get = async () => (await t.call('GET', '/user/api/notification/prefs', { token: u.token })).json<Envelope<NotificationPrefs>>().data.prefs;
    const set = (body: unknown) => t.call('POST', '/user/api/notification/prefs', { token: u.token, body });
    const defaults = await get();
    expect(defaults.find((p) => p.kind === 'robot.filled')).toEqual({ kind: 'robot.filled', email: false, telegram: false, push: false });
    expect(defaults.find((p) => p.kind === 'robot.error')).toEqual({ kind: 'robot.error', email: true, telegram: true, push: true });

    expect((await set({ kind: 'robot.error', channel: 'email', enabled: false })).statusCode).toBe(200);
    const refused = await set({ kind: 'account.frozen', channel: 'email', enabled: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('A0391');
    expect((await set({ kind: 'robot.nothing', channel: 'email', enabled: true })).statusCode).toBe(422);
    expect((await set({ kind: 'robot.error', channel: 'pigeon', enabled: true })).statusCode).toBe(422);

    const robot = await robotOf(u.id);
    const fill = (n: number) =>
      t.database.exec(`insert into robot_fills (robot_id, client_order_id, fill_key, action, position_side, qty, price, notional, filled_at) values ($1, $2, $2, 'buy', 'long', 0.002, 65000.5, 1.300010, now())`, [robot, `c-${robot}-${n}`]);
    await fill(1);
    await pauseByError(robot);
    await pass();
    // No fill raised (not asked for); the error went to Telegram only.
    expect((await deliveries(u.id)).map((d) => `${d.kind}/${d.channel}`)).toEqual(['robot.error/telegram']);

    expect((await set({ kind: 'robot.filled', channel: 'telegram', enabled: true })).json<Envelope<NotificationPrefs>>().data.prefs.find((p) => p.kind === 'robot.filled')).toEqual({
      kind: 'robot.filled',
      email: false,
      telegram: true,
      push: false,
    });
    await fill(2);
    await pass();
    expect((await deliveries(u.id)).map((d) => `${d.kind}/${d.channel}`)).toEqual(['robot.error/telegram', 'robot.filled/telegram']);
    expect(tg.sentTo(7301).at(-1)).toMatch(/^Robot BTCUSDT: buy 0\.002\d* filled at 65000\.5/);
  });

  it('says Telegram and Web Push are closed on a server without a bot or VAPID keys', async () => {
    const bare = await startTestApp();
    try {
      const u = await registeredUserWithId(bare);
      const res = await bare.call('POST', '/user/api/notification/telegram/link', { token: u.token });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('A0390');
      expect((await bare.call('GET', '/user/api/notification/prefs', { token: u.token })).json<Envelope<NotificationPrefs>>().data).toMatchObject({ telegram: { available: false, linked: false, linkedAt: null }, push: { available: false, publicKey: null, devices: 0 } });
      expect((await bare.call('POST', '/telegram/webhook', { body: {} })).statusCode).toBe(404);
      const push = await bare.call('POST', '/user/api/notification/push/subscribe', { token: u.token, body: { endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) } } });
      expect(push.statusCode).toBe(409);
      expect(push.json().code).toBe('A0393');
    } finally {
      await bare.close();
    }
  });
});

describe('security notices (issue 52 item 7)', () => {
  const kindsOf = async (u: { token: string }) =>
    (await t.call('GET', '/user/api/notification/list', { token: u.token })).json<Envelope<{ list: { kind: string; params: Record<string, unknown> }[] }>>().data.list;

  it('a password change and a sign-in from a new device are told in the centre and by e-mail, which cannot be switched off', async () => {
    const u = await registeredUserWithId(t);
    await t.database.exec(`update users set locale = 'en-US' where id = $1`, [u.id]);
    // The registration's own browser: no notice. Another device: one; that device again: none.
    const login = (ua: string) => t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password }, headers: { 'user-agent': ua }, ip: '10.9.8.7' });
    expect((await login('lightMyRequest')).json().code).toBe('00000');
    expect((await kindsOf(u)).map((n) => n.kind)).toEqual([]);
    expect((await login('Mozilla/5.0 (X11; Linux x86_64) NewPhone')).json().code).toBe('00000');
    expect((await login('Mozilla/5.0 (X11; Linux x86_64) NewPhone')).json().code).toBe('00000');
    const signIns = await kindsOf(u);
    expect(signIns.map((n) => n.kind)).toEqual(['security.signIn']);
    expect(signIns[0].params).toMatchObject({ device: 'Mozilla/5.0 (X11; Linux x86_64) NewPhone', ip: '10.9.8.7' });

    const changed = await t.call('POST', '/user/api/password/change', { token: u.token, body: { oldPassword: u.password, password: 'Changed2026x', passwordAgain: 'Changed2026x' } });
    expect(changed.json().code, changed.body).toBe('00000');
    expect((await kindsOf(u)).map((n) => n.kind)).toEqual(['security.passwordChanged', 'security.signIn']);
    const off = await t.call('POST', '/user/api/notification/prefs', { token: u.token, body: { kind: 'security.passwordChanged', channel: 'email', enabled: false } });
    expect(off.json().code).toBe('A0391');

    // The anti-phishing phrase (users' tests) is on every mail the delivery sends too.
    await t.database.exec(`update users set anti_phishing_phrase = 'Blue heron 42' where id = $1`, [u.id]);
    const before = t.smtp.countTo(u.mail);
    await pass();
    await t.smtp.waitFor(u.mail, before + 1);
    const texts = t.smtp.mailsTo(u.mail).map((m) => m.text);
    expect(texts.join('\n---\n')).toContain('Your login password was changed');
    expect(texts.at(-1)).toMatch(/^Your anti-phishing phrase: Blue heron 42\n/);
    expect(texts.at(-1)).toContain('Security notices are always sent by e-mail');
    expect(texts.join('\n---\n')).toContain('New sign-in to your account from Mozilla/5.0 (X11; Linux x86_64) NewPhone (10.9.8.7)');
  });

  it('a price rise of an auto-renewed pack is e-mailed whatever the preferences say, in the reader’s words (issue 53 item 5)', async () => {
    const u = await registeredUserWithId(t);
    await t.database.exec(`update users set locale = 'en-US' where id = $1`, [u.id]);
    const off = await t.call('POST', '/user/api/notification/prefs', { token: u.token, body: { kind: 'pack.priceChange', channel: 'email', enabled: false } });
    expect(off.json().code).toBe('A0391');
    const at = Date.UTC(2027, 0, 15, 9, 30);
    await t.database.exec(`insert into notifications (user_id, kind, event_key, params, link) values ($1, 'pack.priceChange', $2, $3::jsonb, '/pages/equity/index')`, [
      u.id,
      `price:test:${u.id}`,
      JSON.stringify({ purchaseId: 1, item: 'seat', market: 'crypto', quantity: 2, amount: '30000000', was: '20000000', expiresAt: at }),
    ]);
    const before = t.smtp.countTo(u.mail);
    await pass();
    await t.smtp.waitFor(u.mail, before);
    expect(t.smtp.mailsTo(u.mail).at(-1)!.text).toContain('from the renewal on Jan 15, 2027, 9:30 AM UTC it costs 30.00 Lightning per 30 days (now 20.00)');
  });
});

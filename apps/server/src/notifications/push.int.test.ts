// Web Push on a real app and database, to a stand-in push service on 127.0.0.1 that checks the
// VAPID JWT and decrypts the payload as a browser would: a device subscribed through the API (only
// on the push services' hosts), each event pushed once in the user's language with its page, a
// 503 retried, a gone endpoint (410) removed, two devices, unsubscribing.
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPrefs } from '@lq/contracts';
import { registeredUserWithId, startTestApp, runningRobot, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { PushServiceStandIn } from '../../test/push-standin';
import { deliverNotifications, type DeliveryChannels } from './delivery';
import { pushChannel } from './push';

let t: TestApp;
let service: PushServiceStandIn;
let channels: DeliveryChannels;

beforeAll(async () => {
  service = await PushServiceStandIn.start();
  const vapid = webpush.generateVAPIDKeys();
  t = await startTestApp({ env: { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT: 'mailto:ops@lightning-quant.test', PUSH_SERVICE_HOSTS: '127.0.0.1' } });
  channels = { mailer: t.app.mailer, telegram: undefined, push: pushChannel(t.config), publicUrl: 'https://app.example' };
});
afterAll(async () => {
  await t?.close();
  await service?.close();
});

const pass = () => deliverNotifications(t.database.db, channels, { retryBaseSeconds: 0 });
const subscribe = (u: RegisteredUser, body: unknown) => t.call('POST', '/user/api/notification/push/subscribe', { token: u.token, body });
const prefs = async (u: RegisteredUser) => (await t.call('GET', '/user/api/notification/prefs', { token: u.token })).json<Envelope<NotificationPrefs>>().data;

const robotOf = (userId: number) => runningRobot(t, userId, 'ETHUSDT');
async function stopByStrategy(robotId: number) {
  await t.database.exec(`update robots set status = 'stopped', stop_reason = 'halted: stopLoss', stopped_at = now() where id = $1`, [robotId]);
}
const pushDeliveries = (userId: number) =>
  t.database.exec<{ status: string; attempts: number }>(`select d.status, d.attempts from notification_deliveries d join notifications n on n.id = d.notification_id where n.user_id = $1 and d.channel = 'push' order by n.id`, [userId]);

describe('web push', () => {
  it('subscribes a device on a push service only, and pushes each event once, encrypted and signed', async () => {
    const u = await registeredUserWithId(t);
    await t.database.exec(`update users set locale = 'vi-VN' where id = $1`, [u.id]);
    expect((await prefs(u)).push).toMatchObject({ available: true, devices: 0 });
    expect((await prefs(u)).push.publicKey).toBe(t.config.VAPID_PUBLIC_KEY);

    const device = service.device();
    const refused = await subscribe(u, { endpoint: 'https://evil.example/collect', keys: device.keys });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('A0392');
    expect((await subscribe(u, { endpoint: 'http://10.0.0.8/push/x', keys: device.keys })).statusCode).toBe(422);
    expect((await subscribe(u, { endpoint: device.endpoint, keys: { p256dh: 'short', auth: device.keys.auth } })).statusCode).toBe(422);
    const ok = await subscribe(u, { endpoint: device.endpoint, keys: device.keys, expirationTime: null });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<Envelope<NotificationPrefs>>().data.push.devices).toBe(1);

    const robot = await robotOf(u.id);
    await stopByStrategy(robot);
    expect(await pass()).toMatchObject({ handed: 1, sent: 2 }); // e-mail and push
    const [got] = service.to(device.id);
    expect(got.payload).toEqual({ title: 'Lightning Quant', body: 'Robot ETHUSDT đã dừng: Chiến lược đã ngừng', link: `/pages/orderDetail/orderDetail?id=${robot}`, tag: expect.stringMatching(/^n-\d+$/) });
    expect(got.claims).toMatchObject({ aud: service.origin, sub: 'mailto:ops@lightning-quant.test' });
    expect(got.ttl).toBe(86_400);
    expect(service.refused).toEqual([]);
    await pass();
    expect(service.to(device.id)).toHaveLength(1);
  });

  it('retries a push service outage; removes a device that is gone; reaches the devices left', async () => {
    const u = await registeredUserWithId(t);
    const phone = service.device();
    const laptop = service.device();
    await subscribe(u, { endpoint: phone.endpoint, keys: phone.keys });
    await subscribe(u, { endpoint: laptop.endpoint, keys: laptop.keys });
    const robot = await robotOf(u.id);

    service.fail(phone.id, 503);
    await stopByStrategy(robot);
    expect(await pass()).toMatchObject({ retried: 1 });
    expect(await pass()).toMatchObject({ sent: 1 });
    // The retry went to both again: the tag makes the laptop replace its copy, not show two.
    expect(service.to(phone.id)).toHaveLength(1);
    expect(new Set(service.to(laptop.id).map((p) => p.payload.tag)).size).toBe(1);

    service.fail(laptop.id, 410);
    await t.database.exec(`update robots set status = 'running', stop_reason = null, stopped_at = null where id = $1`, [robot]);
    await stopByStrategy(robot);
    expect(await pass()).toMatchObject({ sent: 2 });
    expect((await prefs(u)).push.devices).toBe(1);
    expect(await t.database.exec(`select endpoint from push_subscriptions where user_id = $1`, [u.id])).toEqual([{ endpoint: phone.endpoint }]);

    // The last device unsubscribes: the next event is not handed to push at all.
    const after = (await t.call('POST', '/user/api/notification/push/unsubscribe', { token: u.token, body: { endpoint: phone.endpoint } })).json<Envelope<NotificationPrefs>>().data;
    expect(after.push.devices).toBe(0);
    await t.database.exec(`update robots set status = 'running', stop_reason = null, stopped_at = null where id = $1`, [robot]);
    await stopByStrategy(robot);
    await pass();
    expect(await pushDeliveries(u.id)).toEqual([
      { status: 'sent', attempts: 2 },
      { status: 'sent', attempts: 1 },
    ]);
  });

  it('a device whose every push is refused for good is given up, and a preference turns push off', async () => {
    const u = await registeredUserWithId(t);
    const device = service.device();
    await subscribe(u, { endpoint: device.endpoint, keys: device.keys });
    expect((await t.call('POST', '/user/api/notification/prefs', { token: u.token, body: { kind: 'robot.stopped', channel: 'push', enabled: false } })).json<Envelope<NotificationPrefs>>().data.prefs.find((p) => p.kind === 'robot.stopped')).toMatchObject({ push: false, email: true });
    const robot = await robotOf(u.id);
    await stopByStrategy(robot);
    await pass();
    expect(service.to(device.id)).toEqual([]);
    expect(await pushDeliveries(u.id)).toEqual([]);
  });
});

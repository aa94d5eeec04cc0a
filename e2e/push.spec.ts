// Push messages on a phone and a desktop: one delivered to the app's service worker through the
// DevTools protocol (ServiceWorker.deliverPushMessage) shows a notification that opens its robot;
// a link that is not one of the app's pages opens the notification centre instead. End to end:
// push turned on from the personal page, an event pushed by the server's delivery job to the push
// service stand-in (VAPID checked, payload decrypted), handed to the worker, shown, turned off.
//
// Not here: a real `pushManager.subscribe` needs the browser vendor's push service, which this
// machine cannot reach, and a headless browser has no notification to tap — the notification's
// target (its data.url, what the worker's notificationclick opens) is checked instead.
// chromium-headless-shell has no notifications (permission always denied): this file runs in
// Debian's full Chromium, headless.
import { expect, test } from '@playwright/test';
import { PUSH_PORT } from './support/env';
import { controlled } from './support/service-worker';
import { adjustWallet, register, rejectedWithdrawal, setPayPassword, signIn } from './support/users';

test.use({
  serviceWorkers: 'allow',
  launchOptions: { executablePath: process.env.CHROMIUM_FULL_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'] },
});

test('a push message shows a notification that opens its robot', async ({ page, context }) => {
  await context.grantPermissions(['notifications']);
  await page.goto('/');
  await controlled(page);
  const cdp = await context.newCDPSession(page);
  const registrations = new Promise<{ registrationId: string; scopeURL: string }[]>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string }[] }) => {
      if (e.registrations.length > 0) resolve(e.registrations);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const [registration] = await registrations;
  const origin = new URL(page.url()).origin;
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId: registration.registrationId,
    data: JSON.stringify({ title: 'Lightning Quant', body: 'Robot BTCUSDT paused by an error: Insufficient funds on the account', link: '/pages/orderDetail/orderDetail?id=42', tag: 'n-1' }),
  });
  await expect
    .poll(() => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, data: n.data as unknown }))))
    .toEqual([{ title: 'Lightning Quant', body: 'Robot BTCUSDT paused by an error: Insufficient funds on the account', data: { url: '/#/pages/orderDetail/orderDetail?id=42' } }]);
  // A link that is not one of the app's pages opens the notification centre instead.
  await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: registration.registrationId, data: JSON.stringify({ body: 'x', link: 'https://evil.example/', tag: 'n-2' }) });
  await expect
    .poll(() => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications({ tag: 'n-2' })).map((n) => n.data as unknown)))
    .toEqual([{ url: '/#/pages/notice/notice?tab=notifications' }]);
});

test('push turned on from the personal page; a rejected withdrawal reaches the device and its notification opens the withdrawal', async ({ page, context, request }) => {
  const device = (await (await request.get(`http://127.0.0.1:${PUSH_PORT}/__device`)).json()) as { id: string; endpoint: string; keys: { p256dh: string; auth: string } };
  // A real pushManager.subscribe needs the browser vendor's push service, out of reach here: the
  // browser's PushManager answers with a subscription on the stand-in push service on 127.0.0.1.
  await page.addInitScript((d) => {
    const sub = {
      endpoint: d.endpoint,
      expirationTime: null,
      toJSON: () => ({ endpoint: d.endpoint, expirationTime: null, keys: d.keys }),
      unsubscribe: () => (localStorage.removeItem('e2e-push'), Promise.resolve(true)),
    };
    PushManager.prototype.getSubscription = () => Promise.resolve((localStorage.getItem('e2e-push') ? sub : null) as unknown as PushSubscription);
    PushManager.prototype.subscribe = () => (localStorage.setItem('e2e-push', '1'), Promise.resolve(sub as unknown as PushSubscription));
  }, device);
  await context.grantPermissions(['notifications']);
  const phone = test.info().project.name === 'phone';
  const mail = `push.${test.info().project.name}.${Date.now()}@example.com`;
  await register(request, mail);
  adjustWallet(mail, '50', 'balance', `e2e-push-${mail}`);
  await setPayPassword(request, mail, '246810');
  await signIn(page, request, mail);
  await page.evaluate((l) => localStorage.setItem('locale', l), phone ? 'th-TH' : 'en-US');
  await page.goto('/#/pages/personal/personal');
  await controlled(page);
  await expect(page.getByTestId('push-device')).toHaveAttribute('data-state', 'off');
  await page.getByTestId('push-on').click();
  await expect(page.getByTestId('push-device')).toHaveAttribute('data-state', 'on');
  await expect(page.getByTestId('push-state')).toHaveText(phone ? 'เปิดบนอุปกรณ์นี้ (ทั้งหมด 1 เครื่อง)' : 'On for this device (1 in all)');
  await expect(page.locator('[data-kind="withdraw.rejected"] input').nth(2)).toBeChecked();
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
  await page.screenshot({ path: `e2e/artifacts/screens/${test.info().project.name}/push-settings.png`, fullPage: true });

  const withdrawId = await rejectedWithdrawal(request, mail, '246810', 'address under review');
  // The delivery job pushes to the device; the stand-in checked the VAPID JWT and decrypted it.
  let payload: Record<string, unknown> | undefined;
  await expect
    .poll(async () => {
      const { received } = (await (await request.get(`http://127.0.0.1:${PUSH_PORT}/__pushes`)).json()) as { received: { device: string; payload: Record<string, unknown> }[] };
      // The rejection's push (security notices, the address added and the withdrawal asked for, came before it).
      payload = received.find((r) => r.device === device.id && String(r.payload.body).includes('address under review'))?.payload;
      return payload?.link;
    }, { timeout: 20_000 })
    .toBe(`/pages/withdraw/withdrawDetail?id=${withdrawId}`);
  expect(String(payload!.body)).toContain('address under review');

  // What the push service would hand the browser: delivered to the worker, shown, opening the withdrawal.
  const cdp = await context.newCDPSession(page);
  const registrations = new Promise<{ registrationId: string }[]>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string }[] }) => {
      if (e.registrations.length > 0) resolve(e.registrations);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const [registration] = await registrations;
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(page.url()).origin, registrationId: registration.registrationId, data: JSON.stringify(payload) });
  await expect
    .poll(() => page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ body: n.body, data: n.data as unknown }))))
    .toEqual([{ body: payload!.body, data: { url: `/#/pages/withdraw/withdrawDetail?id=${withdrawId}` } }]);

  await page.getByTestId('push-off').click();
  await expect(page.getByTestId('push-device')).toHaveAttribute('data-state', 'off');
  await expect(page.locator('[data-kind="withdraw.rejected"] input').nth(2)).toBeDisabled();
});

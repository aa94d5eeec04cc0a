// Push messages on a phone and a desktop: one delivered to the app's service worker through the
// DevTools protocol (ServiceWorker.deliverPushMessage) shows a notification that opens its robot;
// a link that is not one of the app's pages opens the notification centre instead.
//
// Not here: a real `pushManager.subscribe` needs the browser vendor's push service, which this
// machine cannot reach, and a headless browser has no notification to tap — the notification's
// target (its data.url, what the worker's notificationclick opens) is checked instead.
// chromium-headless-shell has no notifications (permission always denied): this file runs in
// Debian's full Chromium, headless.
import { expect, test } from '@playwright/test';
import { controlled } from './support/service-worker';

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

// The service worker (vite-plugin-pwa, injectManifest): the built app precached, so the app opens
// without a network (the page then shows its offline view); a new version waits until the user
// takes it from the in-app prompt (SKIP_WAITING); push messages become notifications that open
// their page on a tap.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
// One page with hash routes: every navigation of the app is index.html. The API, the docs, the
// bridge, webhooks and the simulated card provider are the server's, never the cache's.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/(user|order|bridge|telegram|sim-pay|docs|readyz|healthz|metrics)\b/] }));

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

/** What the server pushes (notifications/push.ts): the text in the user's language and the app route it opens. */
interface PushPayload {
  title?: string;
  body?: string;
  link?: string;
  tag?: string;
}

/** Only routes of this app open from a notification (never another origin). */
const appUrl = (link: unknown) => `/#${typeof link === 'string' && link.startsWith('/pages/') ? link : '/pages/notice/notice?tab=notifications'}`;

self.addEventListener('push', (event: PushEvent) => {
  let data: PushPayload = {};
  try {
    data = (event.data?.json() ?? {}) as PushPayload;
  } catch {
    data = { body: event.data?.text() };
  }
  event.waitUntil(
    self.registration.showNotification(data.title ?? 'Lightning Quant', {
      body: data.body ?? '',
      icon: '/icons/app-192.png',
      badge: '/icons/app-192.png',
      tag: data.tag,
      data: { url: appUrl(data.link) },
    }),
  );
});

self.addEventListener('notificationclick', (event: NotificationEvent) => {
  event.notification.close();
  const url = (event.notification.data as { url?: string } | null)?.url ?? appUrl(undefined);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows[0];
      if (open) {
        await open.focus();
        await open.navigate(url);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});

// The installable app on a phone and a desktop, with the service worker allowed (the other specs
// block it): the manifest with the product's name, icons and colours; the worker registered after
// the page has loaded and controlling it; the app opened without a network shows the offline view,
// which goes when the network is back; a new version of the worker is offered in the app and taken
// on "Reload". Push messages: e2e/push.spec.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { holding } from './support/exclusive';
import { controlled } from './support/service-worker';

test.use({ serviceWorkers: 'allow' });
const WEB_DIST = join(import.meta.dirname, '../apps/web/dist');

const THEMES: Record<string, string> = { forex: '#14B8A6', crypto: '#8B5CF6' };

test('the manifest, the worker after the page, the market colour, and the app opened offline', async ({ page, context, request }) => {
  await page.goto('/');
  await expect(page.getByTestId('login-form')).toBeVisible();

  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = (await (await request.get(manifestHref!)).json()) as {
    name: string;
    short_name: string;
    display: string;
    start_url: string;
    background_color: string;
    theme_color: string;
    icons: { src: string; sizes: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({ name: 'Lightning Quant', display: 'standalone', start_url: '/', background_color: '#0B0E11', theme_color: '#14B8A6' });
  expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  for (const icon of manifest.icons) {
    const res = await request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()['content-type']).toBe('image/png');
  }

  await controlled(page);
  // The worker's chunk came after the load event, once the page was idle: not part of the first
  // screen. (controlled() may have reloaded the page, which the worker controls at once: its chunk
  // may still be to come.)
  const pwaTiming = () =>
    page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const chunk = performance.getEntriesByType('resource').find((e) => /\/pwa-[^/]*\.js$/.test(e.name));
      return { loadEnd: nav.loadEventEnd, chunkStart: chunk?.startTime ?? -1 };
    });
  await expect.poll(async () => (await pwaTiming()).chunkStart).toBeGreaterThanOrEqual(0);
  const timing = await pwaTiming();
  expect(timing.loadEnd).toBeGreaterThan(0);
  expect(timing.chunkStart).toBeGreaterThanOrEqual(timing.loadEnd);
  // The browser's colour follows the chosen market.
  const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? 'forex');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', THEMES[theme]);

  // The whole app is precached: offline, it opens from the worker and says it is offline.
  await expect.poll(() => page.evaluate(async () => (await caches.keys()).some((k) => k.includes('precache')))).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('offline-view')).toBeVisible();
  await expect(page.getByTestId('offline-view')).toContainText('You are offline');
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
  await page.screenshot({ path: `e2e/artifacts/screens/${test.info().project.name}/pwa-offline.png` });
  await context.setOffline(false);
  await expect(page.getByTestId('offline-view')).toBeHidden();
  await expect(page.getByTestId('login-form')).toBeVisible();
});

/** The built worker with `suffix` appended (a deploy of a new version), its pre-compressed copies too; answers how to put it back. */
function redeployWorker(suffix: string): () => void {
  const kept = ['', '.br', '.gz'].map((ext) => join(WEB_DIST, `sw.js${ext}`)).filter((f) => existsSync(f)).map((f) => ({ f, bytes: readFileSync(f) }));
  const next = Buffer.concat([readFileSync(join(WEB_DIST, 'sw.js')), Buffer.from(suffix)]);
  for (const { f } of kept) writeFileSync(f, f.endsWith('.br') ? brotliCompressSync(next) : f.endsWith('.gz') ? gzipSync(next) : next);
  return () => kept.forEach(({ f, bytes }) => writeFileSync(f, bytes));
}

holding('service-worker')('a new version is offered in the app and taken on Reload', async ({ page }) => {
  test.skip(!!process.env.E2E_BASE_URL, 'changes the built worker of the server this run started');
  await page.goto('/');
  await controlled(page);
  // A deploy: the server now has another worker script; the next check for updates finds it.
  const restore = redeployWorker(`\n// the next version (${Date.now()})\n`);
  try {
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    await expect(page.getByTestId('update-prompt')).toBeVisible();
    await expect(page.getByTestId('update-prompt')).toContainText('A new version of Lightning Quant is ready.');
    await page.screenshot({ path: `e2e/artifacts/screens/${test.info().project.name}/pwa-update.png` });
    const reloaded = page.waitForEvent('load');
    await page.getByTestId('update-reload').click();
    await reloaded;
  } finally {
    restore();
  }
  await expect(page.getByTestId('update-prompt')).toBeHidden();
  await expect(page.getByTestId('login-form')).toBeVisible();
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull();
});

import { defineConfig } from '@playwright/test';

// End-to-end tests drive Debian's Chromium against the real server (API + built SPA) on a fresh
// embedded database; mails go to an SMTP sink on 127.0.0.1 (see e2e/support/global-setup.ts).
// The browser is Debian's chromium-headless-shell: the same Blink as the chromium package without
// the desktop browser's GPU and compositor processes (what Playwright itself runs headless). Measured
// alone: 528 s and 309 CPU-seconds for the suite, against 813 s and 995 with /usr/bin/chromium.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
const launchOptions = {
  executablePath: chromium,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'e2e/artifacts/results',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Two workers, one spec file at a time each: most of a flow's time is spent waiting on the app.
  // The specs that use the fake exchange's one account hold it in turn (e2e/support/fake-account.ts).
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // The JSON report gives each test's time to the suite's budget (scripts/test-budget.mjs).
  reporter: [['list'], ['html', { outputFolder: 'e2e/artifacts/report', open: 'never' }], ['json', { outputFile: 'e2e/artifacts/timings/playwright.json' }]],
  globalSetup: './e2e/support/global-setup.ts',
  globalTeardown: './e2e/support/global-teardown.ts',
  use: {
    baseURL: process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? 8091}`,
    screenshot: 'on',
    // A trace records every action's DOM snapshot and screenshot, kept or not: CI (one retry) records
    // only the retry of a test that failed; a local run keeps the trace of each failure.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions,
    // The app's service worker would serve the app from its cache and take requests out of the
    // page's sight (page.route, response events): only e2e/pwa.spec.ts lets it run.
    serviceWorkers: 'block',
    // One device for the pages and the API calls of a test: a user registered through the API and
    // signed in on the page is not "a sign-in from a new device" (that notice: apps/server tests).
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36 lq-e2e',
  },
  // Layout and fit checks, and every test whose steps or words differ by size, run on both. A flow
  // whose steps are the same on both sizes is walked on one (tag `@phone` or `@desktop`; each size
  // gets some, and a flow in two languages walks one on each): the other size's screens are
  // checked by e2e/fit.spec.ts and the tests that run on both.
  projects: [
    { name: 'phone', grepInvert: /@desktop\b/, use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
    { name: 'desktop', grepInvert: /@phone\b/, use: { viewport: { width: 1280, height: 800 } } },
  ],
});

// The page's polls, brought forward. A page asks the server again every few seconds while something
// is under way (react-query's refetchInterval: a deposit confirming, a withdrawal being paid); a test
// that waits for the screen to change waited out those seconds after the server already had the
// answer. The test drives the page's timers instead (Playwright's clock, installed before the first
// page): each time the screen does not show it yet, the clock jumps one poll ahead, so the page asks
// at once. The server's own jobs (the deposit scan, the hot wallet's pass) run on real time.
import type { Page } from '@playwright/test';

/** Installs the page's clock: call before the test's first page (timers made before it stay real). */
export async function drivePolls(page: Page): Promise<void> {
  await page.clock.install();
}

/**
 * Passes when `assertion` does (give it a short timeout, ASK_MS), bringing the page's next poll
 * (`pollMs`: the page's interval) forward after each miss; fails with the last miss after `timeoutMs`.
 */
export async function untilShown(page: Page, assertion: () => Promise<unknown>, { pollMs = 5_000, timeoutMs = 30_000 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await page.clock.fastForward(pollMs);
  }
}

/** How long each look at the screen waits before the poll is brought forward. */
export const ASK_MS = 750;

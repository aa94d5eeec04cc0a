// What the browser tests share and must not use two at a time. They run in two workers, and some
// state is one for the whole run: the fake exchange's one account (key fake-key) and market clock,
// which the specs that bind the key reset and seed; the local chain, whose blocks a deposit or a
// payout test mines to confirm what it sent (blocks mined by the other worker would confirm it
// early and skip the "confirming" step it checks); the benefits' prices, which the console test
// changes for a moment and the purchase flows read; the published notices, which every signed-in
// user registered before them counts as unread (a badge that must read 1); the built service worker, which the
// update test changes on disk for a moment. A spec that uses one takes `test` from
// `holding(name)`, and each of its tests holds that resource: a lock directory in the e2e state
// folder, released when the test's fixtures are torn down (after its afterEach hooks).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { STATE_DIR } from './env';

export type SharedResource = 'fake-account' | 'local-chain' | 'notices' | 'prices' | 'service-worker';

function ownerAlive(ownerFile: string): boolean {
  try {
    process.kill(Number(readFileSync(ownerFile, 'utf8')), 0);
    return true;
  } catch (err) {
    // EPERM: alive under another user; no owner file yet: its holder is writing it.
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EPERM' || code === 'ENOENT';
  }
}

async function hold(resource: SharedResource): Promise<() => void> {
  const lockDir = join(STATE_DIR, `${resource}.lock`);
  const ownerFile = join(lockDir, 'owner');
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(ownerFile, String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A worker killed while holding it leaves the folder behind: its process is gone.
      if (!ownerAlive(ownerFile)) rmSync(lockDir, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/**
 * `test` whose every test holds `resources` from its start to the end of its afterEach hooks, taken
 * in one order (by name) so two tests wanting two of them never wait on each other.
 */
export function holding(...resources: SharedResource[]) {
  const inOrder = [...new Set(resources)].sort();
  return base.extend<{ sharedResource: void }>({
    sharedResource: [
      // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
      async ({}, use) => {
        const releases: (() => void)[] = [];
        try {
          for (const resource of inOrder) releases.push(await hold(resource));
          await use();
        } finally {
          for (const release of releases.reverse()) release();
        }
      },
      // Waiting for the other worker's test is not this test's time.
      { auto: true, timeout: 12 * 60_000 },
    ],
  });
}
export { expect } from '@playwright/test';

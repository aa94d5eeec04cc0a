// The fake exchange keeps one account (key fake-key) and one market clock, which the specs that bind
// the key reset and seed. The browser tests run in two workers: a spec that touches that account
// takes `test` from here, and its tests hold the account one at a time (a lock directory in the
// e2e state folder, released when the test's fixtures are torn down, after its afterEach hooks).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { STATE_DIR } from './env';

const LOCK_DIR = join(STATE_DIR, 'fake-account.lock');
const OWNER_FILE = join(LOCK_DIR, 'owner');

function ownerAlive(): boolean {
  try {
    process.kill(Number(readFileSync(OWNER_FILE, 'utf8')), 0);
    return true;
  } catch (err) {
    // EPERM: alive under another user; no owner file yet: its holder is writing it.
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EPERM' || code === 'ENOENT';
  }
}

async function holdFakeAccount(): Promise<() => void> {
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      writeFileSync(OWNER_FILE, String(process.pid));
      return () => rmSync(LOCK_DIR, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A worker killed while holding it leaves the folder behind: its process is gone.
      if (!ownerAlive()) rmSync(LOCK_DIR, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
}

export const test = base.extend<{ fakeAccount: void }>({
  fakeAccount: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const release = await holdFakeAccount();
      try {
        await use();
      } finally {
        release();
      }
    },
    // Waiting for the other worker's robot flow is not this test's time.
    { auto: true, timeout: 12 * 60_000 },
  ],
});
export { expect } from '@playwright/test';

import { existsSync, readFileSync } from 'node:fs';
import { PIDS_FILE } from './env';

export default function globalTeardown(): void {
  // A server started by someone else (E2E_BASE_URL) is left running, as global-setup left it.
  if (process.env.E2E_BASE_URL || !existsSync(PIDS_FILE)) return;
  const pids = JSON.parse(readFileSync(PIDS_FILE, 'utf8')) as Record<string, number>;
  for (const pid of Object.values(pids)) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

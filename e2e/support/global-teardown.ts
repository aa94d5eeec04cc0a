import { existsSync, readFileSync } from 'node:fs';
import { PIDS_FILE } from './env';

export default function globalTeardown(): void {
  if (!existsSync(PIDS_FILE)) return;
  const pids = JSON.parse(readFileSync(PIDS_FILE, 'utf8')) as Record<string, number>;
  for (const pid of Object.values(pids)) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

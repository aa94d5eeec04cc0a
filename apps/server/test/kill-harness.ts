// Shared by the SIGKILL tests (wallet/kill.int.test.ts, deposits/kill.int.test.ts): a child
// process started from apps/server, killed at a moment after it said "ready".
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, openDatabase, type DatabaseHandle } from '@lq/db';

const serverDir = fileURLToPath(new URL('../', import.meta.url));

/**
 * Runs `script` (relative to apps/server) with `env`; SIGKILLs it `killAfterMs` after it printed
 * "ready" (undefined: lets it finish). Resolves true when it finished ("done"), false when killed
 * before; rejects when it failed on its own.
 */
export function runChild(script: string, env: Record<string, string>, killAfterMs: number | undefined): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: serverDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      const was = out;
      out += d.toString();
      if (killAfterMs !== undefined && !was.includes('ready') && out.includes('ready')) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(out.includes('done'));
      else if (code === 0) resolve(true);
      else reject(new Error(`${script} exited ${code}: ${err.slice(-2000)}`));
    });
  });
}

/**
 * A kill test's database: a fresh PGlite directory, or (DATABASE_URL set) a scratch PostgreSQL
 * database as well. `withDb` opens it for the test's own reads and writes between the child's runs
 * (PGlite: one process at a time); `env` is what the child needs to open the same one.
 */
export interface KillDatabase {
  dir: string;
  env: { KILL_DATA_DIR: string; KILL_DATABASE_URL: string };
  withDb<T>(fn: (db: DatabaseHandle) => Promise<T>): Promise<T>;
  cleanup(): Promise<void>;
}

export async function killDatabase(prefix: string): Promise<KillDatabase> {
  const target = await createTestDatabase(prefix);
  const dir = target.dataDir;
  return {
    dir,
    env: { KILL_DATA_DIR: dir, KILL_DATABASE_URL: target.databaseUrl ?? '' },
    async withDb(fn) {
      const db = await openDatabase({ dataDir: dir, databaseUrl: target.databaseUrl, pgliteMode: 'exclusive' });
      try {
        return await fn(db);
      } finally {
        await db.close();
      }
    },
    cleanup: () => target.remove(),
  };
}

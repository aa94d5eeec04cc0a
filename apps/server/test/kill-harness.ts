// Shared by the SIGKILL tests (wallet/kill.int.test.ts, deposits/kill.int.test.ts): a child
// process started from apps/server, killed at a moment after it said "ready".
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, openDatabase, type DatabaseHandle } from '@lq/db';
import { bundledScript } from './node-bundle';

const serverDir = fileURLToPath(new URL('../', import.meta.url));

// A kill costs a Node start and the child's imports before it opens the database (from a bundle,
// node-bundle.ts: 1.2 s of a core for the withdrawal child, 4.3 s through tsx). So the next child
// of the same script and environment is started while the current one works (a standby): it
// loads, then waits for "go" on its stdin (KILL_STANDBY) before it opens the database, and a restart
// costs the open alone. (Two loading at once were slower: the boots share the cores.)
const standbys = new Map<string, ChildProcess>();

/**
 * V8 flags of the short-lived children: WebAssembly compiled by the baseline compiler only. A
 * child lives for a few hundred milliseconds, and optimising PGlite's Postgres in the background
 * cost more than it saved: opening PGlite took 1.2 s of a core, 0.75 s with these.
 */
const SHORT_LIVED_NODE_FLAGS = ['--liftoff-only'];

function spawnChild(bundle: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...SHORT_LIVED_NODE_FLAGS, bundle], {
    cwd: serverDir,
    env: { ...process.env, ...env, KILL_STANDBY: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Kills the standby children left (a test's cleanup). */
export function stopStandbys(): void {
  for (const child of standbys.values()) child.kill('SIGKILL');
  standbys.clear();
}

/**
 * Runs `script` (relative to apps/server) with `env`; SIGKILLs it `killAfterMs` after it printed
 * "ready" (undefined: lets it finish). Resolves true when it finished ("done"), false when killed
 * before; rejects when it failed on its own. `output` gets everything it printed.
 */
export async function runChild(script: string, env: Record<string, string>, killAfterMs: number | undefined, output?: (out: string) => void): Promise<boolean> {
  const bundle = await bundledScript(script);
  const key = JSON.stringify([script, env]);
  const standby = standbys.get(key);
  const child = standby && standby.exitCode === null && standby.signalCode === null ? standby : spawnChild(bundle, env);
  // The next one loads beside this run and waits for its own "go".
  standbys.set(key, spawnChild(bundle, env));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      const was = out;
      out += d.toString();
      if (killAfterMs !== undefined && !was.includes('ready') && out.includes('ready')) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.on('exit', (code, signal) => {
      output?.(out);
      if (signal === 'SIGKILL') resolve(out.includes('done'));
      else if (code === 0) resolve(true);
      else reject(new Error(`${script} exited ${code}: ${err.slice(-2000)}`));
    });
    child.stdin!.end('go\n');
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
    async cleanup() {
      stopStandbys();
      await target.remove();
    },
  };
}

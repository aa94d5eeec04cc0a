// A runner-only process: `ROLE=runner node --import tsx apps/server/src/runner/main.ts` drives robots
// without the API or the job workers (what `npm start` with ROLE=runner also does, lighter to start;
// the crash tests and `npm run soak` kill and restart it). Same configuration as the server.
import { DataDirBusyError, openDatabase, type DatabaseHandle } from '@lq/db';
import { loadCcxt } from '@lq/venues';
import { loadConfig } from '../platform/config';
import { startRunner } from './index';

const config = loadConfig();
const quiet = config.LOG_LEVEL === 'silent';
const line = (level: string) => (o: unknown, m?: string) => {
  if (!quiet) process.stdout.write(`${JSON.stringify({ level, msg: m, ...(typeof o === 'object' && o !== null ? o : { value: o }) }, (_k, v: unknown) => (v instanceof Error ? v.message : v))}\n`);
};
// The robots' venues need ccxt (seconds to import): loaded now, so a runner that takes over after a
// crash places its first order at once, not after the import.
await loadCcxt();
line('info')({ pid: process.pid }, 'runner process loaded');
// A supervisor's warm standby (the crash test's): loaded, it waits to be told to start, so
// a restart after a crash costs opening the database, not booting Node and importing ccxt.
if (config.RUNNER_STANDBY === 'stdin') for await (const _go of process.stdin) break;
// A standby runner on an embedded database waits for the data directory to be free (its owner
// stopped or died), then takes over the robots whose leases expired.
let database: DatabaseHandle;
for (;;) {
  try {
    database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL, pgliteMode: 'exclusive' });
    break;
  } catch (e) {
    if (!(e instanceof DataDirBusyError)) throw e;
    await new Promise((r) => setTimeout(r, 50));
  }
}
const runner = startRunner(database, config, { info: line('info'), warn: line('warn'), error: line('error') });
let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await runner.stop();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

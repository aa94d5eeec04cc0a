// Shared by integration tests that drive operator commands: an app on a real database in the platform timezone
// `timeZone`, and the operator command (`npm run ops`) on that same database, its output kept.
import { startTestApp, type TestApp } from './helpers';
import { runOps } from '../src/ops';

export interface AppWithOps {
  t: TestApp;
  /** Every line the commands printed, in order. */
  out: string[];
  /** Runs `npm run ops -- …args` in process; answers its exit code. */
  ops: (...args: string[]) => Promise<number>;
}

export async function startAppWithOps(timeZone: string): Promise<AppWithOps> {
  const t = await startTestApp({ shareSocket: true, bookWithdrawAddresses: true, env: { PLATFORM_TIMEZONE: timeZone } });
  const out: string[] = [];
  const env = { DATA_DIR: t.dataDir, PLATFORM_TIMEZONE: timeZone, ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}) };
  return { t, out, ops: (...args: string[]) => runOps(args, env, (l) => out.push(l), (l) => out.push(l)) };
}

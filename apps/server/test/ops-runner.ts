// `npm run ops` in the test's process, on the test app's database (shared through its socket on
// PGlite): the exit code and what the command printed.
import { runOps } from '../src/ops';
import type { TestApp } from './helpers';

export function opsRunner(t: () => TestApp, extraEnv: Record<string, string> = {}) {
  return async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const app = t();
    const env = { DATA_DIR: app.dataDir, ...(app.config.DATABASE_URL ? { DATABASE_URL: app.config.DATABASE_URL } : {}), ...extraEnv };
    const code = await runOps(argv, env, (l) => out.push(l), (l) => err.push(l));
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
}

import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The longest files start first, so neither worker is left running one of them alone at the end.
// Vitest orders by the durations it cached, but a fresh clone (CI) has none and would start the
// largest files first: the crash test (150 s on PGlite) is small and came last.
const SLOW_FIRST = [/runner\/crash\.int\.test/, /kill\.int\.test/, /fuzz\.int\.test/, /trading-accounts\.int\.test/, /boot\.int\.test/, /presets\.int\.test/];
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((re) => re.test(f.moduleId));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    return sorted.map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map((x) => x.f);
  }
}

// Two projects: `unit` (pure, fast) and `integration` (real database, real sockets on 127.0.0.1).
// Integration tests run on PGlite, and on PostgreSQL when DATABASE_URL is set.
//
// Not isolated: each worker process runs file after file with one module cache (Vitest's default
// forks a new process per file, and each re-imported fastify, ccxt, drizzle and PGlite's WASM:
// about 6 s of a core per integration file). Every test opens its own database (a template clone)
// and its own ports, so two files run side by side; a test that changes process-wide state
// restores it.
export default defineConfig({
  test: {
    // Vitest takes one worker fewer than the cores for `run`: one on these 2-core machines.
    maxWorkers: 2,
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        test: {
          name: 'unit',
          isolate: false,
          include: ['{apps,packages}/*/test/**/*.test.{ts,tsx}', 'apps/server/src/**/*.test.ts'],
          exclude: ['**/*.int.test.{ts,tsx}', '**/node_modules/**'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          isolate: false,
          include: ['{apps,packages}/*/test/**/*.int.test.{ts,tsx}', 'apps/server/src/**/*.int.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

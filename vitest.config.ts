import { defineConfig } from 'vitest/config';

// Two projects: `unit` (pure, fast) and `integration` (real database, real sockets on 127.0.0.1).
// Integration tests run on PGlite, and on PostgreSQL when DATABASE_URL is set.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{apps,packages}/*/test/**/*.test.{ts,tsx}', 'apps/server/src/**/*.test.ts'],
          exclude: ['**/*.int.test.{ts,tsx}', '**/node_modules/**'],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['{apps,packages}/*/test/**/*.int.test.{ts,tsx}', 'apps/server/src/**/*.int.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh, empty PostgreSQL database on the server of `adminUrl` (tests: one per test file, so
 * runs never collide). `drop()` removes it.
 */
export async function createScratchDatabase(
  adminUrl: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `lq_test_${randomBytes(6).toString('hex')}`;
  // The named database may not exist on a fresh server: fall back to the `postgres` database.
  let adminConn = adminUrl;
  let admin = new pg.Client({ connectionString: adminConn });
  try {
    await admin.connect();
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err;
    const fallback = new URL(adminUrl);
    fallback.pathname = '/postgres';
    adminConn = fallback.toString();
    admin = new pg.Client({ connectionString: adminConn });
    await admin.connect();
  }
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: adminConn });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

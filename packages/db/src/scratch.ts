import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A client on adminUrl's server; the named database may not exist on a fresh server: then `postgres`. */
export async function connectAdmin(adminUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: adminUrl });
  try {
    await client.connect();
    return client;
  } catch (err) {
    if ((err as { code?: string }).code !== '3D000') throw err;
  }
  const fallback = new URL(adminUrl);
  fallback.pathname = '/postgres';
  const other = new pg.Client({ connectionString: fallback.toString() });
  await other.connect();
  return other;
}

/** adminUrl with another database name. */
function databaseUrlOf(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh PostgreSQL database on the server of `adminUrl` (tests: one per test file, so runs never
 * collide): empty, or a copy of `template`. `drop()` removes it.
 */
export async function createScratchDatabase(adminUrl: string, options: { template?: string } = {}): Promise<ScratchDatabase> {
  const name = `lq_test_${randomBytes(6).toString('hex')}`;
  const admin = await connectAdmin(adminUrl);
  try {
    await admin.query(`create database ${name}${options.template ? ` template ${options.template}` : ''}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrlOf(adminUrl, name),
    name,
    async drop() {
      const c = await connectAdmin(adminUrl);
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

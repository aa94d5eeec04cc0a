import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createScratchDatabase, createTestDatabase, DataDirBusyError, isUniqueViolation, MIGRATIONS_DIR, openDatabase, queryPrepared, readOwner, users, type TestDatabase } from '../src';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'lq-db-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

// PGlite's own behaviour runs in the PGlite pass only: the PostgreSQL pass (DATABASE_URL set) would
// open the same PGlite again and prove nothing more.
const PGLITE_PASS = !process.env.DATABASE_URL;

describe.runIf(PGLITE_PASS)('PGlite', () => {
  it('migrates, shares the directory through a socket, and releases it on close', async () => {
    const dataDir = tempDir();
    const owner = await openDatabase({ dataDir, pgliteMode: 'owner' });
    expect(owner.kind).toBe('pglite');
    expect(owner.socket?.port).toBeGreaterThan(0);
    expect(readOwner(dataDir)).toMatchObject({ pid: process.pid, port: owner.socket!.port });

    await owner.db
      .insert(users)
      .values({ mail: 'a@b.co', passwordHash: 'x', userCode: 'ABC', country: 'TH' });

    await expect(openDatabase({ dataDir, pgliteMode: 'exclusive' })).rejects.toBeInstanceOf(
      DataDirBusyError,
    );

    const second = await openDatabase({ dataDir, pgliteMode: 'auto' });
    expect(second.via).toBe('socket');
    const rows = await second.exec<{ mail: string }>(
      'select mail from users where user_code = $1',
      ['ABC'],
    );
    expect(rows).toEqual([{ mail: 'a@b.co' }]);
    // quoting survives the inlined parameters of the socket path
    expect(await second.exec('select $1::text as v', ["it's; drop table users"])).toEqual([
      { v: "it's; drop table users" },
    ]);
    await second.close();

    await owner.close();
    expect(readOwner(dataDir)).toBeUndefined();

    const reopened = await openDatabase({ dataDir, pgliteMode: 'auto' });
    expect(reopened.via).toBe('direct');
    expect(await reopened.exec('select count(*)::int as n from users')).toEqual([{ n: 1 }]);
    await reopened.close();
  });

  it('takes over a directory whose recorded owner is dead', async () => {
    const dataDir = tempDir();
    writeFileSync(
      path.join(dataDir, 'server.json'),
      JSON.stringify({ pid: 2 ** 22 + 12345, port: 1, startedAt: '' }),
    );
    const handle = await openDatabase({ dataDir, pgliteMode: 'auto' });
    expect(handle.via).toBe('direct');
    await handle.close();
  });
});

describe.runIf(process.env.DATABASE_URL)('PostgreSQL', () => {
  it('migrates a fresh database twice without harm', async () => {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    try {
      for (let i = 0; i < 2; i++) {
        const h = await openDatabase({ dataDir: tempDir(), databaseUrl: scratch.url });
        expect(h.kind).toBe('postgres');
        expect(await h.exec('select count(*)::int as n from users')).toEqual([{ n: 0 }]);
        await h.close();
      }
    } finally {
      await scratch.drop();
    }
  });
});

describe.runIf(PGLITE_PASS)('PGlite socket and transactions', () => {
  it('runs another process’s statement between our transactions, never inside one', async () => {
    const dataDir = tempDir();
    const owner = await openDatabase({ dataDir, pgliteMode: 'owner' });
    const other = await openDatabase({ dataDir, pgliteMode: 'auto' });
    try {
      await owner.exec(`create table t (v int)`);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const tx = owner.db.transaction(async (t) => {
        await t.execute(sql`insert into t values (1)`);
        await gate;
        throw new Error('rollback');
      });
      // wait until the transaction is open, then write through the socket
      await new Promise((r) => setTimeout(r, 100));
      const write = other.exec('insert into t values (2)');
      await new Promise((r) => setTimeout(r, 200));
      release();
      await expect(tx).rejects.toThrow('rollback');
      await write;
      // the socket's row survived our rollback: it was not part of our transaction
      expect(await owner.exec<{ v: number }>('select v from t order by v')).toEqual([{ v: 2 }]);
    } finally {
      await other.close();
      await owner.close();
    }
  });
});

describe.runIf(PGLITE_PASS)('PGlite socket: the owner inside another process’s transaction', () => {
  it('keeps the owner’s statements and scripts out of a socket client’s open transaction', async () => {
    const dataDir = tempDir();
    const owner = await openDatabase({ dataDir, pgliteMode: 'owner' });
    const other = await openDatabase({ dataDir, pgliteMode: 'auto' });
    try {
      await owner.exec(`create table t (v int)`);
      let stop = false;
      // What the owner does all the time: single statements and pg-boss's BEGIN … COMMIT scripts.
      const busy = (async () => {
        for (let i = 0; !stop; i++) {
          await owner.exec('select count(*) from t');
          await owner.executeSql('BEGIN; SELECT 1; COMMIT;');
          await new Promise((r) => setTimeout(r, 1));
        }
      })();
      // An operator command's transaction with a nested one (a savepoint), a moment between each statement.
      await other.db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values (1)`);
        await new Promise((r) => setTimeout(r, 50));
        await tx.transaction(async (inner) => {
          await inner.execute(sql`insert into t values (2)`);
          await new Promise((r) => setTimeout(r, 50));
        });
        await new Promise((r) => setTimeout(r, 50));
        await tx.execute(sql`insert into t values (3)`);
      });
      stop = true;
      await busy;
      expect(await owner.exec<{ v: number }>('select v from t order by v')).toEqual([{ v: 1 }, { v: 2 }, { v: 3 }]);
    } finally {
      await other.close();
      await owner.close();
    }
  });
});

describe.runIf(PGLITE_PASS)('PGlite socket: a client gone inside its transaction', () => {
  it('is rolled back and the owner goes on', async () => {
    const dataDir = tempDir();
    const owner = await openDatabase({ dataDir, pgliteMode: 'owner' });
    const other = await openDatabase({ dataDir, pgliteMode: 'auto' });
    try {
      await owner.exec(`create table t (v int)`);
      await other.exec('begin');
      await other.exec('insert into t values (1)');
      await other.close(); // an operator command killed half-way
      expect(await owner.exec<{ n: number }>('select count(*)::int as n from t')).toEqual([{ n: 0 }]);
      await owner.exec('insert into t values (2)');
      expect(await owner.exec<{ v: number }>('select v from t')).toEqual([{ v: 2 }]);
    } finally {
      await owner.close();
    }
  });
});

describe('queryPrepared', () => {
  // The same answers on every path: a PostgreSQL pool (named statement), PGlite in process and a
  // caller's transaction (plain parameterised statements); arrays travel as one parameter each.
  const text =
    'select $1::text as a, $2::bigint[]::text as b, cardinality($3::text[]) as n, $4::int + $5::int + $6::int + $7::int + $8::int + $9::int + $10::int + $1::int as c';
  const values = ['7', ['1', '-2'], ['x', null, "it's"], 0, 0, 0, 0, 0, 0, 5];
  const expected = { a: '7', b: '{1,-2}', c: 12, n: 3 };

  async function check(handle: Awaited<ReturnType<typeof openDatabase>>) {
    for (let i = 0; i < 2; i++) expect(await queryPrepared(handle.db, 'db_test_probe', text, values)).toEqual([expected]);
    const inTx = await handle.db.transaction((tx) => queryPrepared(tx, 'db_test_probe', text, values));
    expect(inTx).toEqual([expected]);
  }

  it.runIf(PGLITE_PASS)('on PGlite', async () => {
    const target = await createTestDatabase('lq-db-');
    const lite = await openDatabase({ dataDir: target.dataDir, pgliteMode: 'exclusive' });
    try {
      await check(lite);
    } finally {
      await lite.close();
      await target.remove();
    }
  });

  it.runIf(process.env.DATABASE_URL)('on PostgreSQL, named once per connection', async () => {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
    const pg = await openDatabase({ dataDir: tempDir(), databaseUrl: scratch.url, poolMax: 2 });
    try {
      await check(pg);
      const [named] = await queryPrepared<{ n: number }>(pg.db, 'db_test_count', `select count(*)::int as n from pg_prepared_statements where name = $1`, ['db_test_probe']);
      expect(named.n).toBe(1);
    } finally {
      await pg.close();
      await scratch.drop();
    }
  });
});

describe('isUniqueViolation', () => {
  it('reads SQLSTATE and constraint through drizzle’s wrapper, on PGlite and PostgreSQL', async () => {
    const target = await createTestDatabase('lq-db-');
    const handle = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, pgliteMode: 'exclusive' });
    try {
      const user = { mail: 'u@b.co', passwordHash: 'x', userCode: 'SAMECODE', country: 'TH' };
      await handle.db.insert(users).values(user);
      const error = await handle.db.insert(users).values({ ...user, mail: 'v@b.co' }).catch((e: unknown) => e);
      expect(isUniqueViolation(error, 'users_user_code_key')).toBe(true);
      expect(isUniqueViolation(error)).toBe(true);
      expect(isUniqueViolation(error, 'users_mail_key')).toBe(false);
      expect(isUniqueViolation(new Error('duplicate key value violates unique constraint "users_user_code_key"'))).toBe(false);
    } finally {
      await handle.close();
      await target.remove();
    }
  });
});

describe('test databases cloned from a migrated template', () => {
  // PGlite, and PostgreSQL when DATABASE_URL is set: every committed migration is already applied,
  // and each clone is a database of its own.
  it('are migrated to the last migration and independent of each other', async () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
    const targets: TestDatabase[] = [await createTestDatabase('lq-db-'), await createTestDatabase('lq-db-')];
    const handles = await Promise.all(targets.map((t) => openDatabase({ dataDir: t.dataDir, databaseUrl: t.databaseUrl, pgliteMode: 'exclusive' })));
    try {
      for (const h of handles) {
        expect(h.kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
        expect(await h.exec('select count(*)::int as n from drizzle.__drizzle_migrations')).toEqual([{ n: journal.entries.length }]);
      }
      await handles[0].db.insert(users).values({ mail: 'clone@b.co', passwordHash: 'x', userCode: 'CLONE1', country: 'TH' });
      expect(await handles[0].exec('select count(*)::int as n from users')).toEqual([{ n: 1 }]);
      expect(await handles[1].exec('select count(*)::int as n from users')).toEqual([{ n: 0 }]);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await Promise.all(targets.map((t) => t.remove()));
    }
    for (const t of targets) expect(existsSync(t.dataDir)).toBe(false);
  });
});

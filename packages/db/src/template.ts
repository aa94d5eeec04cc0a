// Test databases cloned from a template migrated once. A new PGlite directory costs an initdb and
// every migration (4–7 s on two busy cores); a copy of a migrated directory opens in under a
// second. On PostgreSQL the clone is `CREATE DATABASE … TEMPLATE`. Templates are keyed by the
// migrations' content and the PGlite version, so a changed migration builds a new one.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MIGRATIONS_DIR, openDatabase } from './open';
import { connectAdmin, createScratchDatabase, type ScratchDatabase } from './scratch';

const PGLITE_TEMPLATE_PREFIX = 'lq-pglite-template-';
const POSTGRES_TEMPLATE_PREFIX = 'lq_template_';
const TEMPLATE_LOCK = 7_421_118; // serializes template builders on one PostgreSQL server

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? filesUnder(full) : [full];
    });
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = path.dirname(entry);
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

let cachedKey: string | undefined;
/** Names the migrated schema: a hash of every migration file (and, for PGlite, its version). */
function migrationsKey(): string {
  if (cachedKey) return cachedKey;
  const hash = createHash('sha256');
  for (const file of filesUnder(MIGRATIONS_DIR)) {
    hash.update(path.relative(MIGRATIONS_DIR, file));
    hash.update(readFileSync(file));
  }
  hash.update(`pglite ${pgliteVersion()}`);
  cachedKey = hash.digest('hex').slice(0, 16);
  return cachedKey;
}

/** The migrated PGlite template directory, built once per key (by whichever process gets there first). */
async function pgliteTemplate(): Promise<string> {
  const root = tmpdir();
  const template = path.join(root, `${PGLITE_TEMPLATE_PREFIX}${migrationsKey()}`);
  if (existsSync(template)) return template;
  // Built aside, then renamed into place: a reader never sees a half-built template.
  const building = mkdtempSync(path.join(root, 'lq-pglite-building-'));
  try {
    const handle = await openDatabase({ dataDir: building, pgliteMode: 'exclusive' });
    await handle.close();
    try {
      renameSync(path.join(building, 'pglite'), template);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw err; // another process won the race
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  // Templates of other migrations are of no further use here, but another checkout on this machine
  // (a CI clone beside the project) may be copying from one right now: only hour-old ones go.
  for (const name of readdirSync(root)) {
    const other = path.join(root, name);
    if (!name.startsWith(PGLITE_TEMPLATE_PREFIX) || other === template || other === `${template}.tar`) continue;
    try {
      if (Date.now() - statSync(other).mtimeMs > 3_600_000) rmSync(other, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by another process.
    }
  }
  return template;
}

/**
 * The template as one image (PGlite's dumpDataDir, a tar) that a test database loads into memory:
 * a copy of the directory's 1,400 files took 0.25–0.45 s and its removal 0.1 s more, on top of
 * PGlite reading them; the image opens in about 0.35 s in all. Kept beside the template (built
 * aside and renamed, as the template is) and read once per process.
 */
let templateImage: Promise<Blob> | undefined;
function pgliteTemplateImage(): Promise<Blob> {
  templateImage ??= (async () => {
    const template = await pgliteTemplate();
    const image = `${template}.tar`;
    if (existsSync(image)) return new Blob([readFileSync(image)]);
    // Dumped from a copy: opening the template itself would write to it.
    const scratch = mkdtempSync(path.join(tmpdir(), 'lq-pglite-image-'));
    try {
      cpSync(template, path.join(scratch, 'pglite'), { recursive: true });
      const handle = await openDatabase({ dataDir: scratch, pgliteMode: 'exclusive', migrate: false });
      const pglite = (handle as { pglite?: { dumpDataDir(compression: 'none'): Promise<Blob> } }).pglite!;
      const dump = await pglite.dumpDataDir('none');
      await handle.close();
      // Written aside, then renamed over whatever another process wrote meanwhile (the same bytes).
      const building = path.join(scratch, 'image.tar');
      writeFileSync(building, Buffer.from(await dump.arrayBuffer()));
      renameSync(building, image);
      return dump;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  })();
  templateImage.catch(() => (templateImage = undefined));
  return templateImage;
}

/** Puts a migrated PGlite database at `<dataDir>/pglite`, where `openDatabase` looks for it. */
async function seedMigratedPglite(dataDir: string): Promise<void> {
  cpSync(await pgliteTemplate(), path.join(dataDir, 'pglite'), { recursive: true });
}

/** The migrated PostgreSQL template database on adminUrl's server, built once per key. */
async function buildPostgresTemplate(adminUrl: string): Promise<string> {
  const name = `${POSTGRES_TEMPLATE_PREFIX}${migrationsKey()}`;
  const admin = await connectAdmin(adminUrl);
  try {
    const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      if (await exists()) return name;
      // Migrated as a scratch database, then renamed: a clone never starts from a half-migrated one.
      const building = await createScratchDatabase(adminUrl);
      try {
        const handle = await openDatabase({ dataDir: tmpdir(), databaseUrl: building.url, poolMax: 1 });
        await handle.close();
        await admin.query(`alter database ${building.name} rename to ${name}`);
      } catch (err) {
        await building.drop();
        throw err;
      }
      const stale = await admin.query<{ datname: string }>(
        `select datname from pg_database where datname like '${POSTGRES_TEMPLATE_PREFIX}%' and datname <> $1`,
        [name],
      );
      for (const row of stale.rows) await admin.query(`drop database if exists ${row.datname}`).catch(() => undefined);
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  } finally {
    await admin.end();
  }
}

// Looked up (or built) once per process and server: each further test database is one CREATE DATABASE.
const postgresTemplates = new Map<string, Promise<string>>();
function postgresTemplate(adminUrl: string): Promise<string> {
  let template = postgresTemplates.get(adminUrl);
  if (!template) {
    template = buildPostgresTemplate(adminUrl);
    template.catch(() => postgresTemplates.delete(adminUrl));
    postgresTemplates.set(adminUrl, template);
  }
  return template;
}

export interface TestDatabase {
  /** DATA_DIR: holds the PGlite database (already migrated) and anything else the test writes. */
  dataDir: string;
  /** The scratch PostgreSQL database (already migrated) when a PostgreSQL URL was given. */
  databaseUrl: string | undefined;
  /** With `inMemory` on PGlite: the template's image, for `openDatabase`'s `pgliteImage`. */
  pgliteImage: Blob | undefined;
  /** Drops the scratch database and removes the folder. */
  remove(): Promise<void>;
}

/**
 * A migrated database of a test's own: PGlite in a new temporary folder, or, when `postgresUrl` is
 * set (tests: DATABASE_URL), a scratch database on that server. Both are clones of a template.
 * `inMemory` (PGlite): the folder stays empty and `pgliteImage` holds the template for PGlite to
 * run in memory — for a database only this process opens (no socket, no child, no reopening).
 */
export async function createTestDatabase(
  prefix: string,
  postgresUrl: string | undefined = process.env.DATABASE_URL,
  options: { inMemory?: boolean } = {},
): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  let scratch: ScratchDatabase | undefined;
  let pgliteImage: Blob | undefined;
  try {
    if (postgresUrl) scratch = await createScratchDatabase(postgresUrl, { template: await postgresTemplate(postgresUrl) });
    else if (options.inMemory) pgliteImage = await pgliteTemplateImage();
    else await seedMigratedPglite(dataDir);
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  return {
    dataDir,
    databaseUrl: scratch?.url,
    pgliteImage,
    async remove() {
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

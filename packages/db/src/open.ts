import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { allowNamedStatements } from './prepared';
import * as schema from './schema';

export type Schema = typeof schema;
/** Drizzle database over PGlite or node-postgres: the same query API either way. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type SqlParam = string | number | boolean | null | Date;

export interface DatabaseConfig {
  /** DATA_DIR: PGlite lives in `<dataDir>/pglite`, the owner record in `<dataDir>/server.json`. */
  dataDir: string;
  /** When set, PostgreSQL through a node-postgres pool; PGlite otherwise. */
  databaseUrl?: string | undefined;
  /**
   * PGlite only. `owner`: open the directory and share it on a 127.0.0.1 socket (the server).
   * `auto`: use a running owner's socket when there is one, else open directly (operator commands).
   * `exclusive`: open directly without a socket; refuse when someone else holds the directory.
   */
  pgliteMode?: 'owner' | 'auto' | 'exclusive';
  /**
   * PGlite only, for tests: a dump of a migrated database (`createTestDatabase`'s template image)
   * that PGlite runs in memory instead of `<dataDir>/pglite` — nothing to copy in, write or remove
   * (the owner record still goes to `<dataDir>`).
   */
  pgliteImage?: Blob | undefined;
  /** Apply the committed migrations (default true). */
  migrate?: boolean;
  poolMax?: number;
}

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  /** How this process reaches the data: its own PGlite, another process's PGlite socket, or a pool. */
  via: 'direct' | 'socket' | 'pool';
  db: Database;
  /** One SQL statement with $1… parameters; rows as objects. */
  exec<T = Record<string, unknown>>(sql: string, params?: SqlParam[]): Promise<T[]>;
  /** pg-boss `db` adapter: runs its SQL (multi-statement scripts included) on this database. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number }>;
  /** The shared socket when this process owns a PGlite directory in `owner` mode. */
  socket: { host: string; port: number } | undefined;
  /**
   * PGlite owner only: calls `listener` right after each statement another process (an operator
   * command) ran through the socket, before this process serves anything else. Elsewhere absent.
   */
  afterSocketStatement?: (listener: () => void) => void;
  close(): Promise<void>;
}

export interface OwnerRecord {
  pid: number;
  host?: string;
  port?: number;
  startedAt: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`the database in ${dir} is in use by process ${pid}; stop it first or let it finish`);
    this.name = 'DataDirBusyError';
  }
}

// drizzle-orm pins an older @types/pg than ours; the runtime objects are the same pg classes.
const pgDrizzle = (client: pg.Pool | pg.ClientBase) =>
  drizzlePg(client as never, { schema }) as unknown as Database;

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

export async function openDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  const handle = config.databaseUrl
    ? await openPostgres(config.databaseUrl, config.poolMax ?? 10)
    : await openPglite(config);
  if (config.migrate !== false && handle.via !== 'socket') {
    try {
      await runMigrations(handle);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }
  return handle;
}

// ---- PostgreSQL ----

async function openPostgres(url: string, max: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'lightning-quant' });
  // An idle client dropped by the server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  allowNamedStatements(pool);
  const db = pgDrizzle(pool);
  await pool.query('select 1');
  return {
    kind: 'postgres',
    via: 'pool',
    db,
    async exec<T>(sql: string, params?: SqlParam[]) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async executeSql(text, values) {
      const r = await pool.query(text, values);
      const last = Array.isArray(r) ? (r.at(-1) as pg.QueryResult) : r;
      return { rows: last.rows, rowCount: last.rowCount ?? 0 };
    },
    socket: undefined,
    pool,
    close: () => (pool.ended ? Promise.resolve() : pool.end()),
  } as DatabaseHandle;
}

// ---- PGlite ----

const ownerFile = (dataDir: string) => path.join(dataDir, 'server.json');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readOwner(dataDir: string): OwnerRecord | undefined {
  try {
    return JSON.parse(readFileSync(ownerFile(dataDir), 'utf8')) as OwnerRecord;
  } catch {
    return undefined;
  }
}

/** Takes the directory (atomic create of server.json), or returns the live owner holding it. */
async function acquireOrFindOwner(
  dataDir: string,
  waitForPortMs: number,
): Promise<OwnerRecord | 'acquired'> {
  const file = ownerFile(dataDir);
  const deadline = Date.now() + waitForPortMs;
  for (;;) {
    const owner = readOwner(dataDir);
    if (owner && isAlive(owner.pid)) {
      if (owner.port || Date.now() >= deadline) return owner;
      // The owner is still starting (or is a short operator command): wait for it.
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    if (owner) {
      try {
        unlinkSync(file); // stale: its process is gone
      } catch {
        /* someone else removed it first */
      }
    }
    try {
      writeFileSync(
        file,
        JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() }),
        { flag: 'wx' },
      );
      return 'acquired';
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // raced with another process: look again
    }
  }
}

function releaseOwner(dataDir: string) {
  const owner = readOwner(dataDir);
  if (owner?.pid === process.pid) {
    try {
      unlinkSync(ownerFile(dataDir));
    } catch {
      /* already gone */
    }
  }
}

async function openPglite(config: DatabaseConfig): Promise<DatabaseHandle> {
  const mode = config.pgliteMode ?? 'exclusive';
  mkdirSync(config.dataDir, { recursive: true });
  const got = await acquireOrFindOwner(config.dataDir, mode === 'auto' ? 10_000 : 0);
  if (got !== 'acquired') {
    if (mode === 'auto' && got.port) return openSocketClient(got.host ?? '127.0.0.1', got.port);
    throw new DataDirBusyError(config.dataDir, got.pid);
  }

  let pglite: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    pglite = config.pgliteImage ? await PGlite.create({ loadDataDir: config.pgliteImage }) : await PGlite.create(path.join(config.dataDir, 'pglite'));
    const shared = mode === 'owner' ? sharedOwner(pglite) : undefined;
    const client = pglite;
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    let socket: DatabaseHandle['socket'];
    if (shared) {
      server = new PGLiteSocketServer({
        db: shared.socketView,
        host: '127.0.0.1',
        port: 0,
        maxConnections: 8,
      });
      await server.start();
      const [host, port] = server.getServerConn().split(':');
      socket = { host, port: Number(port) };
      const record: OwnerRecord = {
        pid: process.pid,
        host,
        port: Number(port),
        startedAt: new Date().toISOString(),
      };
      writeFileSync(ownerFile(config.dataDir), JSON.stringify(record));
    }
    const socketServer = server;
    let closed = false;
    return {
      kind: 'pglite',
      via: 'direct',
      db,
      async exec<T>(sql: string, params?: SqlParam[]) {
        return (await client.query<T>(sql, params)).rows;
      },
      async executeSql(text, values) {
        if (values && values.length > 0) {
          const r = await client.query(text, values);
          return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
        }
        // pg-boss sends multi-statement scripts without parameters: those need the simple protocol.
        const results = await client.exec(text);
        const last = results.at(-1);
        return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
      },
      socket,
      ...(shared ? { afterSocketStatement: shared.afterSocketStatement } : {}),
      pglite: client,
      async close() {
        if (closed) return;
        closed = true;
        await socketServer?.stop();
        await client.close();
        releaseOwner(config.dataDir);
      },
    } as DatabaseHandle;
  } catch (err) {
    await server?.stop().catch(() => undefined);
    await pglite?.close().catch(() => undefined);
    releaseOwner(config.dataDir);
    throw err;
  }
}

/** How long a socket client may keep a transaction open before the owner stops waiting for it. */
const SOCKET_TRANSACTION_HOLD_MS = 60_000;

/**
 * PGlite has one session, shared by the owner and the processes on its socket (operator
 * commands). The socket server runs each wire message under PGlite's locks, but a client's
 * transaction spans several messages, and anything the owner ran between two of them ran inside
 * it: a pg-boss script's COMMIT committed an operator's half-done transaction (its next SAVEPOINT
 * then failed). So:
 * socket messages take PGlite's transaction lock — which the owner's own statements take too
 * (PGlite's query and exec do) — and when one leaves the session inside a transaction the lock
 * stays held until that client's transaction ends, so the owner's statements wait for it instead
 * of joining it (or until it has been idle for SOCKET_TRANSACTION_HOLD_MS: then the owner goes on).
 */
function sharedOwner(client: PGlite): { socketView: PGlite; afterSocketStatement: (listener: () => void) => void } {
  const listeners: (() => void)[] = [];
  const ran = () => listeners.forEach((listener) => listener());
  const internals = client as unknown as {
    _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
    _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  };
  let held: { release: () => void; timer: NodeJS.Timeout } | undefined;
  const settle = () => {
    if (held && !client.isInTransaction()) {
      clearTimeout(held.timer);
      held.release();
      held = undefined;
    }
  };
  const socketRun = <T>(fn: () => Promise<T>): Promise<T> => {
    if (held) return internals._runExclusiveQuery(fn).finally(() => (ran(), settle()));
    return new Promise<T>((resolve, reject) => {
      void internals._runExclusiveTransaction(async () => {
        let result: T;
        try {
          result = await internals._runExclusiveQuery(fn);
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
          return;
        } finally {
          ran();
        }
        if (!client.isInTransaction()) return resolve(result);
        // The client's transaction is open: keep the owner out until it ends.
        const ended = new Promise<void>((release) => {
          held = {
            release,
            timer: setTimeout(() => {
              held = undefined;
              release();
            }, SOCKET_TRANSACTION_HOLD_MS).unref(),
          };
        });
        resolve(result);
        await ended;
      });
    });
  };
  const socketView = {
    waitReady: client.waitReady,
    runExclusive: socketRun,
    execProtocolRawStream: client.execProtocolRawStream.bind(client),
    isInTransaction: client.isInTransaction.bind(client),
    // The server's ROLLBACK for a client that left inside a transaction: the hold ends first (exec
    // takes the transaction lock itself), then the rollback runs.
    exec: async (query: string) => {
      if (held) {
        clearTimeout(held.timer);
        held.release();
        held = undefined;
      }
      return client.exec(query);
    },
  } as unknown as PGlite;
  return { socketView, afterSocketStatement: (listener) => void listeners.push(listener) };
}

/**
 * Another process owns the PGlite directory: talk to it through its socket. Parameters are
 * inlined as escaped literals so every statement is a single simple-protocol message, which the
 * socket server runs atomically between the owner's own queries.
 */
async function openSocketClient(host: string, port: number): Promise<DatabaseHandle> {
  const client = new pg.Client({ host, port, user: 'postgres', database: 'postgres', ssl: false });
  await client.connect();
  client.on('error', () => undefined);
  const inline = (sql: string, params: SqlParam[] = []) =>
    sql.replace(/\$(\d+)/g, (_m, n: string) => literal(client, params[Number(n) - 1]));
  return {
    kind: 'pglite',
    via: 'socket',
    db: pgDrizzle(client),
    async exec<T>(sql: string, params?: SqlParam[]) {
      return (await client.query(inline(sql, params))).rows as T[];
    },
    async executeSql(text, values) {
      const r = await client.query(inline(text, (values ?? []) as SqlParam[]));
      const last = Array.isArray(r) ? (r.at(-1) as pg.QueryResult) : r;
      return { rows: last.rows, rowCount: last.rowCount ?? 0 };
    },
    socket: { host, port },
    close: () => client.end(),
  };
}

function literal(client: pg.Client, value: SqlParam | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('non-finite number parameter');
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return client.escapeLiteral(value.toISOString());
  return client.escapeLiteral(value);
}

// ---- migrations ----

const MIGRATION_LOCK = 7_421_117; // any constant: serializes concurrent migrators on PostgreSQL

export async function runMigrations(handle: DatabaseHandle): Promise<void> {
  const ext = handle as DatabaseHandle & { pglite?: PGlite; pool?: pg.Pool };
  if (ext.pglite) {
    await migratePglite(drizzlePglite(ext.pglite), { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  if (!ext.pool) throw new Error('migrations run in the process that owns the database');
  const client = await ext.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client as never), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}

// Hot statements by name. On a PostgreSQL pool a named statement is parsed and planned once per
// connection instead of on every call: for a ledger movement that halved the client's CPU and cut
// the server's by a fifth on two cores (issue 16's bench). Everywhere else (PGlite in process, a
// PGlite socket whose one backend all connections share, a caller's transaction) the same text
// runs as an ordinary parameterised statement.
import { sql, type SQL } from 'drizzle-orm';
import type pg from 'pg';
import type { Database } from './open';
import { rowsOf } from './results';

/** Pools of real PostgreSQL servers (each connection its own session): the only ones that name. */
const namingPools = new WeakSet<object>();
export const allowNamedStatements = (pool: pg.Pool): void => void namingPools.add(pool);

/** `text` with $1… placeholders as a drizzle statement, each value one parameter (arrays too). */
export function sqlOf(text: string, values: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  const chunks: SQL[] = [];
  parts.forEach((part, i) => chunks.push(i % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1])}`));
  return sql.join(chunks);
}

/**
 * Runs `text` with `values` on `db` (the root database or a transaction), as the named statement
 * `name` where the driver keeps one per connection. The same name must always carry the same text.
 */
export async function queryPrepared<T>(db: Database, name: string, text: string, values: readonly unknown[]): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client;
  if (client && namingPools.has(client)) {
    return (await (client as pg.Pool).query({ name, text, values: values as unknown[] })).rows as T[];
  }
  return rowsOf<T>(await db.execute(sqlOf(text, values)));
}

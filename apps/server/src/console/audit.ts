// Reading the audit log in the console: filtered, sorted and paged on the server; the same
// filters exported as CSV.
import type { AuditItem, AuditList, AuditQuery } from '@lq/contracts';
import { containsPattern, rowsOf, sql, type Database, type SQL } from '@lq/db';
import { csvLine } from '../platform/csv';

type Runner = Pick<Database, 'execute'>;
type Filters = Omit<AuditQuery, 'page' | 'size' | 'sort'> & { sort?: 'at' | '-at' };

interface Row {
  id: string;
  at: string;
  source: AuditItem['source'];
  actor: string;
  action: string;
  object_type: string | null;
  object_id: string | null;
  before: unknown;
  after: unknown;
  detail: unknown;
  outcome: AuditItem['outcome'];
}


function where(f: Filters): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.actor) parts.push(sql`actor ilike ${containsPattern(f.actor)}`);
  if (f.action) parts.push(sql`action ilike ${containsPattern(f.action)}`);
  if (f.objectType) parts.push(sql`object_type = ${f.objectType}`);
  if (f.objectId) parts.push(sql`object_id = ${f.objectId}`);
  if (f.source) parts.push(sql`source = ${f.source}`);
  if (f.outcome) parts.push(sql`outcome = ${f.outcome}`);
  if (f.from) parts.push(sql`at >= ${f.from}::timestamptz`);
  if (f.to) parts.push(sql`at < ${f.to}::timestamptz`);
  return sql.join(parts, sql` and `);
}

const order = (f: Filters) => (f.sort === 'at' ? sql`order by at, id` : sql`order by at desc, id desc`);
const columns = sql`id::text as id, at::text as at, source, actor, action, object_type, object_id, before, after, detail, outcome`;

const itemOf = (r: Row): AuditItem => ({
  id: Number(r.id),
  at: Date.parse(r.at),
  source: r.source,
  actor: r.actor,
  action: r.action,
  objectType: r.object_type,
  objectId: r.object_id,
  before: r.before,
  after: r.after,
  detail: r.detail,
  outcome: r.outcome,
});

export async function auditListOf(db: Runner, q: Filters & { page: number; size: number }): Promise<AuditList> {
  const rows = rowsOf<Row>(await db.execute(sql`select ${columns} from audit_log where ${where(q)} ${order(q)} limit ${q.size} offset ${(q.page - 1) * q.size}`));
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from audit_log where ${where(q)}`));
  return { list: rows.map(itemOf), total };
}

const EXPORT_PAGE = 1000;

/** The filtered log as CSV lines (header first), read a page at a time. */
export async function* auditCsvOf(db: Runner, f: Filters): AsyncGenerator<string> {
  yield csvLine(['id', 'at', 'source', 'actor', 'action', 'object_type', 'object_id', 'before', 'after', 'detail', 'outcome']);
  const asc = f.sort === 'at';
  let after: string | null = null;
  for (;;) {
    const cursor: SQL = after === null ? sql`true` : asc ? sql`id > ${after}` : sql`id < ${after}`;
    const rows: Row[] = rowsOf<Row>(
      await db.execute(sql`select ${columns} from audit_log where ${where(f)} and ${cursor} order by id ${asc ? sql`asc` : sql`desc`} limit ${EXPORT_PAGE}`),
    );
    for (const r of rows) {
      const j = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
      yield csvLine([r.id, new Date(r.at).toISOString(), r.source, r.actor, r.action, r.object_type ?? '', r.object_id ?? '', j(r.before), j(r.after), j(r.detail), r.outcome]);
    }
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

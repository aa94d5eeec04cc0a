// The audit log (migration 0039): one row per operator action — every `npm run ops` command (the
// dispatcher writes it, platform/ops.ts) and every console request that changes something
// (console/) — with who, when, what, the object and its values before and after. Append-only: the
// database refuses UPDATE, DELETE and TRUNCATE of its rows.
import { sql, type Database } from '@lq/db';

export type AuditSource = 'console' | 'ops';
export type AuditOutcome = 'done' | 'refused' | 'failed';

export interface AuditEntry {
  source: AuditSource;
  operatorId?: number | null;
  /** The operator's e-mail, or `ops:<system user>`. */
  actor: string;
  action: string;
  objectType?: string | null;
  objectId?: string | number | null;
  before?: unknown;
  after?: unknown;
  /** Arguments or body, secrets left out. */
  detail?: unknown;
  outcome?: AuditOutcome;
}

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)));

export async function recordAudit(db: Pick<Database, 'execute'>, e: AuditEntry): Promise<void> {
  await db.execute(sql`insert into audit_log (source, operator_id, actor, action, object_type, object_id, before, after, detail, outcome)
    values (${e.source}, ${e.operatorId ?? null}, ${e.actor}, ${e.action}, ${e.objectType ?? null}, ${e.objectId === undefined || e.objectId === null ? null : String(e.objectId)},
      ${json(e.before)}::jsonb, ${json(e.after)}::jsonb, ${json(e.detail)}::jsonb, ${e.outcome ?? 'done'})`);
}

/** What a command or a request tells the audit row about the object it changed. */
export class AuditNote {
  /** Who runs the command (LQ_OPERATOR or `ops:<system user>`), for records that keep a name. */
  constructor(readonly actor = 'ops') {}
  objectType: string | null = null;
  objectId: string | null = null;
  before: unknown = undefined;
  after: unknown = undefined;

  object(type: string, id: string | number): this {
    this.objectType = type;
    this.objectId = String(id);
    return this;
  }

  change(before: unknown, after: unknown): this {
    this.before = before;
    this.after = after;
    return this;
  }

  /** Writes the row (outcome done) with the values noted so far; set by whoever records the command. */
  writer: ((db: Pick<Database, 'execute'>) => Promise<void>) | null = null;
  /** Written by the command itself, in its movement's transaction: the dispatcher writes no second. */
  written = false;

  /**
   * The row of a money action in the movement's own transaction (issue 53 item 10): both commit or
   * neither. Call it last in the transaction, after `object` and `change`.
   */
  async commitWith(tx: Pick<Database, 'execute'>): Promise<void> {
    if (!this.writer) return;
    await this.writer(tx);
    this.written = true;
  }
}

/** Arguments as recorded: values of options that carry secrets are replaced. */
export function redactedArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    out.push(args[i]);
    if (/^--(password|secret|token)$/i.test(args[i]) && i + 1 < args.length) {
      out.push('[redacted]');
      i++;
    }
  }
  return out;
}

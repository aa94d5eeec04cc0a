// `npm run ops`: the command runner. Each area declares its commands (`<area>/ops.ts`); ops/ puts
// them together and dispatches here.
import { userInfo } from 'node:os';
import { openDatabase, rowsOf, sql, type DatabaseHandle } from '@lq/db';
import { AuditNote, recordAudit, redactedArgs } from './audit';
import { loadConfig, type Config } from './config';

export class OpsError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

export type OpsOut = (line: string) => void;

export interface OpsCommand {
  /** Exact number of arguments; -1: the command checks them itself. */
  args: number;
  /** `audit` is written to the audit log when the command ends (done, refused or failed): a command names the object it changed and its values before and after. */
  run(db: DatabaseHandle, args: string[], out: OpsOut, config: Config, audit?: AuditNote): Promise<void>;
}

/** Who runs a command: LQ_OPERATOR (an operator's e-mail) if set, else `ops:<system user>`. */
function opsActor(env: Record<string, string | undefined>): string {
  if (env.LQ_OPERATOR) return env.LQ_OPERATOR.trim().toLowerCase();
  let user = env.USER ?? 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (some containers): the environment's USER
  }
  return `ops:${user}`;
}

/** An area's commands and the usage lines that describe them. */
export interface OpsCommandSet {
  usage: string;
  commands: Record<string, OpsCommand>;
}

/** Runs one operator command against the configured database; returns the exit code. */
export async function dispatchOps(
  sets: readonly OpsCommandSet[],
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  out: OpsOut = (l) => console.log(l),
  err: OpsOut = (l) => console.error(l),
  /** A database already open (a test's child running many commands): used, and left open. */
  open?: DatabaseHandle,
): Promise<number> {
  const usage = `usage: npm run ops -- <command>
${sets.map((s) => s.usage).join('\n')}
Works on the same DATA_DIR / DATABASE_URL as the server, also while it runs.`;
  const commands: Record<string, OpsCommand> = {};
  for (const set of sets) {
    for (const [name, command] of Object.entries(set.commands)) {
      if (commands[name]) throw new Error(`ops command ${name} is declared twice`);
      commands[name] = command;
    }
  }
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    (name ? out : err)(usage);
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    err(`unknown command "${name}"\n${usage}`);
    return 2;
  }
  if (command.args >= 0 && args.length !== command.args) {
    err(`${name} takes ${command.args} argument(s)\n${usage}`);
    return 2;
  }
  let db: DatabaseHandle | undefined;
  const audit = new AuditNote(opsActor(env));
  // Every command is recorded, reads too (mail:last shows codes): who ran what, on what, with what result.
  const record = async (outcome: 'done' | 'refused' | 'failed', error?: string, runner?: Pick<DatabaseHandle['db'], 'execute'>) => {
    if (!db) return;
    const actor = opsActor(env);
    // Through the movement's transaction when there is one (PGlite has one connection: the handle would wait for it).
    const on = runner ?? db.db;
    const [op] = rowsOf<{ id: string }>(await on.execute(sql`select id::text as id from operators where mail = ${actor}`));
    await recordAudit(on, {
      source: 'ops',
      operatorId: op ? Number(op.id) : null,
      actor,
      action: name,
      objectType: audit.objectType,
      objectId: audit.objectId,
      before: audit.before,
      after: audit.after,
      detail: { args: redactedArgs(args), ...(error ? { error } : {}) },
      outcome,
    });
  };
  try {
    const config = loadConfig(env);
    db =
      open ??
      (await openDatabase({
        dataDir: config.dataDir,
        databaseUrl: config.DATABASE_URL,
        pgliteMode: 'auto',
      }));
    audit.writer = (tx) => record('done', undefined, tx);
    await command.run(db, args, out, config, audit);
    // A money command wrote its row in its movement's transaction (AuditNote.commitWith).
    if (!audit.written) await record('done');
    return 0;
  } catch (e) {
    // A failed query's own error (drizzle wraps it) says what the database refused.
    const cause = (e as Error).cause instanceof Error ? ` (${((e as Error).cause as Error).message})` : '';
    err(`${name}: ${(e as Error).message}${cause}`);
    await record(e instanceof OpsError ? 'refused' : 'failed', `${(e as Error).message}${cause}`.slice(0, 500)).catch((auditErr: unknown) =>
      err(`${name}: could not be written to the audit log: ${(auditErr as Error).message}`),
    );
    return e instanceof OpsError ? e.exitCode : 1;
  } finally {
    if (!open) await db?.close();
  }
}

/** Column-aligned rows (the first is the header). */
export function printTable(rows: string[][], out: OpsOut): void {
  const width = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) out(r.map((v, i) => v.padEnd(width[i])).join('  ').trimEnd());
}

/** The id of the user with this e-mail, or an OpsError. */
export async function userIdByMail(db: DatabaseHandle, email: string): Promise<number> {
  const users = await db.exec<{ id: number }>('select id from users where mail = $1', [email.trim().toLowerCase()]);
  if (users.length === 0) throw new OpsError(`no user with e-mail ${email}`);
  return users[0].id;
}

/** `--name value` pairs after the positional arguments. */
export function flags(args: string[], names: readonly string[]): { positional: string[]; values: Record<string, string> } {
  const positional: string[] = [];
  const values: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith('--') || /^--?\d/.test(a)) {
      positional.push(a);
      continue;
    }
    const name = a.slice(2);
    if (!names.includes(name)) throw new OpsError(`unknown option ${a}`, 2);
    const value = args[++i];
    if (value === undefined) throw new OpsError(`${a} needs a value`, 2);
    values[name] = value;
  }
  return { positional, values };
}

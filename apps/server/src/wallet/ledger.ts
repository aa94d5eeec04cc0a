// The wallet ledger: double entry in integer micro-units, TigerBeetle's model on PostgreSQL.
// - One entry per movement; its lines (+ credit, − debit) sum to zero. Nothing is ever updated but
//   the cached balances and a pending entry's status.
// - Every command carries an idempotency key: the same key with the same command answers the first
//   result and writes nothing; with another command it is refused (IdempotencyConflictError). A
//   refused command (insufficient funds) writes nothing either, so a retry may succeed later.
// - Accounts are locked in id order (no deadlocks between two transfers), balances updated in the
//   same transaction; user wallets may not overdraw (posted − pending_out ≥ 0), checked where the
//   write happens (ledger_post_entry, migration 0015; ledger_resolve_entry, 0017) and enforced by a
//   CHECK constraint.
// - Holds: a pending entry counts in pending_in / pending_out until it is posted or voided.
import { createHash } from 'node:crypto';
import { databaseErrorOf, isUniqueViolation, queryPrepared, rowsOf, sql, type Database, type SQL } from '@lq/db';

export const USER_WALLETS = ['balance', 'rebate'] as const;
export type UserWallet = (typeof USER_WALLETS)[number];

/** The platform's own accounts (seeded by the ledger migration). */
export const PLATFORM_ACCOUNTS = ['revenue', 'fees', 'deposit_clearing', 'withdrawal_holds', 'rebate_expense', 'adjustments'] as const;
export type PlatformAccount = (typeof PLATFORM_ACCOUNTS)[number];

export type AccountRef = { userId: number; wallet: UserWallet } | { platform: PlatformAccount };

export const accountCode = (a: AccountRef): string => ('platform' in a ? `platform:${a.platform}` : `user:${a.userId}:${a.wallet}`);

export interface LineSpec {
  account: AccountRef;
  /** Micro-units: + credits the account, − debits it. */
  amount: bigint;
}

export interface EntryCommand {
  /** Idempotency key, unique across all entries. */
  key: string;
  /** What moved: adjust, transfer, deposit, withdrawal, … (the records' type). */
  kind: string;
  /** Whose movement it is (their records); null for platform-only entries. */
  userId?: number | null;
  memo?: string | null;
  meta?: Record<string, string | number | boolean | null> | null;
  lines: readonly LineSpec[];
  /** A hold: reserved now, posted or voided later. */
  pending?: boolean;
}

export type EntryStatus = 'posted' | 'pending' | 'voided';

export interface EntryResult {
  id: number;
  status: EntryStatus;
  /** True when the key had been used with this very command: nothing was written. */
  replayed: boolean;
}

export class LedgerError extends Error {}

/** A user wallet would go below zero. */
export class InsufficientFundsError extends LedgerError {
  constructor(
    readonly account: string,
    readonly available: bigint,
    readonly needed: bigint,
  ) {
    super(`${account}: ${needed} needed, ${available} available`);
  }
}

/** The idempotency key was used with another command. */
export class IdempotencyConflictError extends LedgerError {
  constructor(readonly key: string) {
    super(`idempotency key ${key} was used with another command`);
  }
}

/** Posting or voiding an entry that is not (or no longer) pending. */
export class EntryStateError extends LedgerError {
  constructor(
    readonly entryId: number,
    readonly status: string,
  ) {
    super(`entry ${entryId} is ${status}, not pending`);
  }
}

type Tx = Pick<Database, 'execute'>;

const run = async <T>(db: Tx, query: SQL): Promise<T[]> => rowsOf<T>(await db.execute(query));

/** What ledger_post_entry needs to create the account (no overdraft follows from the owner). */
function accountRow(a: AccountRef): { code: string; kind: string; userId: number | null } {
  if ('platform' in a) return { code: accountCode(a), kind: a.platform, userId: null };
  return { code: accountCode(a), kind: a.wallet, userId: a.userId };
}

/** A command's fingerprint: what the idempotency key is bound to. */
export function requestHashOf(cmd: EntryCommand): string {
  const body = {
    kind: cmd.kind,
    userId: cmd.userId ?? null,
    memo: cmd.memo ?? null,
    meta: cmd.meta ?? null,
    pending: !!cmd.pending,
    lines: cmd.lines.map((l) => [accountCode(l.account), l.amount.toString()]),
  };
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

function checkLines(cmd: EntryCommand): void {
  if (cmd.lines.length < 2) throw new LedgerError(`entry ${cmd.key}: at least two lines`);
  const codes = new Set<string>();
  let sum = 0n;
  for (const l of cmd.lines) {
    if (l.amount === 0n) throw new LedgerError(`entry ${cmd.key}: a line of zero`);
    const code = accountCode(l.account);
    if (codes.has(code)) throw new LedgerError(`entry ${cmd.key}: account ${code} twice`);
    codes.add(code);
    sum += l.amount;
  }
  if (sum !== 0n) throw new LedgerError(`entry ${cmd.key}: lines sum to ${sum}, not zero`);
}

/**
 * Runs one of the ledger's SQL functions (`name`, a named statement on a pool) and answers its
 * rows; SQLSTATE LQ402 (a wallet short of funds) becomes InsufficientFundsError. Inside a caller's
 * transaction it runs in a savepoint, so a refusal leaves that transaction usable — unless
 * `savepoint` is false (PostOptions).
 */
async function callLedger<T>(db: Database, name: string, text: string, values: readonly unknown[], savepoint = true): Promise<T[]> {
  const inTransaction = 'rollback' in db; // drizzle's transaction object
  try {
    return inTransaction && savepoint ? await db.transaction((tx) => queryPrepared<T>(tx, name, text, values)) : await queryPrepared<T>(db, name, text, values);
  } catch (e) {
    const cause = databaseErrorOf(e);
    if (cause?.code !== 'LQ402') throw e;
    const [available, needed] = (cause.detail ?? '0 0').split(' ').map((x) => BigInt(x));
    throw new InsufficientFundsError(cause.message ?? '', available, needed);
  }
}

/** `callLedger` for a function that answers one row. */
async function callLedgerFunction<T>(db: Database, name: string, text: string, values: readonly unknown[], savepoint = true): Promise<T> {
  const [row] = await callLedger<T>(db, name, text, values, savepoint);
  if (!row) throw new LedgerError(`${name}: no answer`);
  return row;
}

// Arrays as one parameter each (amounts as decimal strings: exact, whatever their size): one
// statement text whatever the number of lines, so it is prepared once per connection.
const POST_ENTRY = `select entry_id::text as entry_id, entry_status, entry_hash, replayed
  from ledger_post_entry($1, $2, $3, $4, $5::bigint, $6, $7::jsonb, $8::text[], $9::text[], $10::bigint[], $11::bigint[])`;

interface PostedRow {
  entry_id: string;
  entry_status: EntryStatus;
  entry_hash: string;
  replayed: boolean;
}

export interface PostOptions {
  /**
   * Inside a caller's transaction, false runs without a savepoint (two round trips fewer): a
   * refusal then aborts that transaction, so only for a caller that rethrows every refusal.
   */
  savepoint?: boolean;
}

/**
 * Writes one entry (posted, or pending for a hold) with its lines and balances, or replays it: one
 * statement, `ledger_post_entry` (migration 0015), so the accounts stay locked for no client round
 * trip; named, so a pool connection prepares it once (`callLedgerFunction`).
 */
export async function postEntry(db: Database, cmd: EntryCommand, options: PostOptions = {}): Promise<EntryResult> {
  checkLines(cmd);
  const hash = requestHashOf(cmd);
  const specs = cmd.lines.map((l) => accountRow(l.account));
  const values = [
    cmd.key,
    hash,
    cmd.kind,
    !!cmd.pending,
    cmd.userId ?? null,
    cmd.memo ?? null,
    cmd.meta ? JSON.stringify(cmd.meta) : null,
    specs.map((s) => s.code),
    specs.map((s) => s.kind),
    specs.map((s) => s.userId),
    cmd.lines.map((l) => l.amount.toString()),
  ];
  const row = await callLedgerFunction<PostedRow>(db, 'ledger_post_entry', POST_ENTRY, values, options.savepoint ?? true);
  if (row.replayed && row.entry_hash !== hash) throw new IdempotencyConflictError(cmd.key);
  return { id: Number(row.entry_id), status: row.entry_status, replayed: row.replayed };
}

const POST_ENTRIES = `select n, entry_id::text as entry_id, entry_hash, replayed
  from ledger_post_entries($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::jsonb[],
    $7::integer[], $8::text[], $9::text[], $10::bigint[], $11::bigint[])`;

/**
 * Posts many entries in one statement (`ledger_post_entries`, migration 0025): every account moves
 * once per batch, so a pass over thousands of movements on one hot account (renewals into platform
 * revenue) is not thousands of updates of one row. All or nothing: one entry short of funds refuses
 * the batch (InsufficientFundsError) — callers check funds on locked accounts first. Replays answer
 * as postEntry does; no holds here.
 */
export async function postEntries(db: Database, cmds: readonly EntryCommand[]): Promise<EntryResult[]> {
  if (cmds.length === 0) return [];
  const keys = new Set<string>();
  const hashes: string[] = [];
  const lineEntries: number[] = [];
  const codes: string[] = [];
  const kinds: string[] = [];
  const owners: (number | null)[] = [];
  const amounts: string[] = [];
  cmds.forEach((cmd, i) => {
    if (cmd.pending) throw new LedgerError(`entry ${cmd.key}: holds are posted one by one (postEntry)`);
    if (keys.has(cmd.key)) throw new LedgerError(`entry ${cmd.key}: twice in one batch`);
    keys.add(cmd.key);
    checkLines(cmd);
    hashes.push(requestHashOf(cmd));
    for (const l of cmd.lines) {
      const spec = accountRow(l.account);
      lineEntries.push(i + 1);
      codes.push(spec.code);
      kinds.push(spec.kind);
      owners.push(spec.userId);
      amounts.push(l.amount.toString());
    }
  });
  const values = [
    cmds.map((c) => c.key),
    hashes,
    cmds.map((c) => c.kind),
    cmds.map((c) => c.userId ?? null),
    cmds.map((c) => c.memo ?? null),
    cmds.map((c) => (c.meta ? JSON.stringify(c.meta) : null)),
    lineEntries,
    codes,
    kinds,
    owners,
    amounts,
  ];
  const rows = await callLedger<PostedRow & { n: number }>(db, 'ledger_post_entries', POST_ENTRIES, values);
  return rows.map((row) => {
    const i = Number(row.n) - 1;
    if (row.replayed && row.entry_hash !== hashes[i]) throw new IdempotencyConflictError(cmds[i].key);
    return { id: Number(row.entry_id), status: 'posted' as const, replayed: row.replayed };
  });
}

/** The command moving `amount` from a user's rebate wallet to their balance wallet under `key`. */
export const rebateToBalance = (key: string, userId: number, amount: bigint): EntryCommand => ({
  key,
  kind: 'transfer',
  userId,
  lines: [
    { account: { userId, wallet: 'rebate' }, amount: -amount },
    { account: { userId, wallet: 'balance' }, amount },
  ],
});

const RESOLVE_ENTRY = `select entry_id::text as entry_id, entry_status, replayed from ledger_resolve_entry($1::bigint, $2, $3)`;

/**
 * Posts (`post`) or releases (`void`) a pending entry; `key` makes the command idempotent. One
 * statement, `ledger_resolve_entry` (migration 0017): the entry, then its accounts in id order, are
 * locked and moved inside the database, as `postEntry` does (`callLedgerFunction`).
 */
async function resolvePending(db: Database, entryId: number, key: string, to: 'posted' | 'voided'): Promise<EntryResult> {
  let row: Omit<PostedRow, 'entry_hash'>;
  try {
    row = await callLedgerFunction<Omit<PostedRow, 'entry_hash'>>(db, 'ledger_resolve_entry', RESOLVE_ENTRY, [entryId, key, to]);
  } catch (e) {
    const cause = databaseErrorOf(e);
    if (cause?.code === 'LQ409' || isUniqueViolation(e, 'ledger_entries_resolution_key')) throw new IdempotencyConflictError(key);
    if (cause?.code === 'LQ410') throw new EntryStateError(entryId, cause.message ?? 'missing');
    throw e;
  }
  return { id: Number(row.entry_id), status: row.entry_status, replayed: row.replayed };
}

export const postPending = (db: Database, entryId: number, key: string) => resolvePending(db, entryId, key, 'posted');
export const voidPending = (db: Database, entryId: number, key: string) => resolvePending(db, entryId, key, 'voided');

export interface AccountBalance {
  posted: bigint;
  pendingIn: bigint;
  pendingOut: bigint;
  /** What may be spent: posted − pending_out. */
  available: bigint;
}

/** Balances of a user's wallets (zero for a wallet that never moved). */
export async function userBalances(db: Tx, userId: number): Promise<Record<UserWallet, AccountBalance>> {
  const rows = await run<{ kind: UserWallet; posted: string; pending_in: string; pending_out: string }>(
    db,
    sql`select kind, posted::text as posted, pending_in::text as pending_in, pending_out::text as pending_out
          from ledger_accounts where user_id = ${userId}`,
  );
  const zero: AccountBalance = { posted: 0n, pendingIn: 0n, pendingOut: 0n, available: 0n };
  const out: Record<UserWallet, AccountBalance> = { balance: zero, rebate: zero };
  for (const r of rows) {
    const posted = BigInt(r.posted);
    const pendingOut = BigInt(r.pending_out);
    out[r.kind] = { posted, pendingIn: BigInt(r.pending_in), pendingOut, available: posted - pendingOut };
  }
  return out;
}

/**
 * Recomputes the ledger from its lines: every entry sums to zero, every cached balance equals its
 * lines, no user wallet below zero, balance-after set exactly on posted lines. Returns one line per
 * difference (empty: clean).
 */
export async function verifyLedger(db: Tx): Promise<string[]> {
  const problems: string[] = [];
  const unbalanced = await run<{ id: number | string; key: string; lines: number | string; total: string }>(
    db,
    sql`select e.id, e.idempotency_key as key, count(l.id) as lines, coalesce(sum(l.amount), 0)::text as total
          from ledger_entries e left join ledger_lines l on l.entry_id = e.id
         group by e.id having coalesce(sum(l.amount), 0) <> 0 or count(l.id) < 2`,
  );
  for (const e of unbalanced) problems.push(`entry ${e.id} (${e.key}): ${e.lines} line(s) summing to ${e.total}, not zero`);

  const accounts = await run<{
    code: string;
    no_overdraft: boolean;
    posted: string;
    pending_in: string;
    pending_out: string;
    lines_posted: string;
    lines_pending_in: string;
    lines_pending_out: string;
  }>(
    db,
    sql`select a.code, a.no_overdraft, a.posted::text as posted, a.pending_in::text as pending_in, a.pending_out::text as pending_out,
               coalesce(sum(l.amount) filter (where e.status = 'posted'), 0)::text as lines_posted,
               coalesce(sum(l.amount) filter (where e.status = 'pending' and l.amount > 0), 0)::text as lines_pending_in,
               coalesce(-sum(l.amount) filter (where e.status = 'pending' and l.amount < 0), 0)::text as lines_pending_out
          from ledger_accounts a
          left join ledger_lines l on l.account_id = a.id
          left join ledger_entries e on e.id = l.entry_id
         group by a.id order by a.id`,
  );
  for (const a of accounts) {
    for (const [name, cached, fromLines] of [
      ['posted', a.posted, a.lines_posted],
      ['pending_in', a.pending_in, a.lines_pending_in],
      ['pending_out', a.pending_out, a.lines_pending_out],
    ] as const) {
      if (BigInt(cached) !== BigInt(fromLines)) problems.push(`account ${a.code}: ${name} is ${cached}, its lines say ${fromLines}`);
    }
    if (a.no_overdraft && BigInt(a.lines_posted) - BigInt(a.lines_pending_out) < 0n) {
      problems.push(`account ${a.code}: below zero (${a.lines_posted} posted, ${a.lines_pending_out} held)`);
    }
  }

  const afterMismatch = await run<{ id: number | string; status: string }>(
    db,
    sql`select l.id, e.status from ledger_lines l join ledger_entries e on e.id = l.entry_id
         where (e.status = 'posted') <> (l.balance_after is not null) limit 100`,
  );
  const copies = await run<{ id: number | string }>(
    db,
    sql`select l.id from ledger_lines l join ledger_accounts a on a.id = l.account_id join ledger_entries e on e.id = l.entry_id
         where l.user_id is distinct from a.user_id or l.kind is distinct from e.kind limit 100`,
  );
  for (const l of copies) problems.push(`line ${l.id}: its user or kind differs from its account's or entry's`);
  for (const l of afterMismatch) problems.push(`line ${l.id}: balance-after ${l.status === 'posted' ? 'missing on a posted line' : `set on a ${l.status} line`}`);
  return problems;
}

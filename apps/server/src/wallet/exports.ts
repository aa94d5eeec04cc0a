// Wallet record exports: a request row, a pg-boss job that writes the file, a schedule that deletes
// files after WALLET_EXPORT_KEEP_DAYS. The job is safe to run twice and to kill at any line: it
// writes a temporary file from scratch, renames it into place, then marks the row exported in one
// UPDATE guarded by the status; a rerun after a kill starts over.
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql, type Database, rowsOf } from '@lq/db';
import { AppError, formatMoney, isMessageKey, resolveLocale, translate, WALLET_EXPORT_KEEP_DAYS, type Locale, type WalletExportBody, type WalletExportFormat, type WalletExportItem } from '@lq/contracts';
import { CSV_BOM, csvLine } from '../platform/csv';

type Runner = Pick<Database, 'execute'>;

export const EXPORT_QUEUE = 'wallet-export';
export const EXPORT_CLEANUP_QUEUE = 'wallet-export-cleanup';
const DAY_MS = 86_400_000;
const BATCH = 2000;
const HEADER = ['id', 'time', 'type', 'wallet', 'amount', 'balanceAfter', 'status', 'memo'] as const;
/** The columns that hold money (amount, balance after): numbers in XLSX, exact text in CSV. */
const MONEY_COLUMNS = new Set([4, 5]);
/** Column headers in the user's language. */
const headerOf = (locale: Locale) => HEADER.map((h) => translate(locale, `export.header.${h}`));

export const exportDir = (dataDir: string) => path.join(dataDir, 'exports');

interface ExportRow {
  id: number | string;
  user_id: number | string;
  format: WalletExportFormat;
  from_ms: number | string | null;
  to_ms: number | string | null;
  status: WalletExportItem['status'];
  rows: number | null;
  file: string | null;
  error: string | null;
  locale: string | null;
  created_at: Date | string;
  finished_at: Date | string | null;
}

const isoDay = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString().slice(0, 10));

/** The user reads why in their language; what failed inside (SQL, a disk) stays in the row and the log for operators. */
function itemOf(r: ExportRow, locale: Locale): WalletExportItem {
  const createdAt = new Date(r.created_at).getTime();
  return {
    id: Number(r.id),
    format: r.format,
    from: isoDay(r.from_ms),
    // to_ms is the exclusive end (the day after `to`).
    to: r.to_ms === null ? null : isoDay(Number(r.to_ms) - DAY_MS),
    status: r.status,
    rows: r.rows,
    error: r.status === 'failed' ? translate(locale, 'wallet.exportFailed') : null,
    createdAt,
    finishedAt: r.finished_at === null ? null : new Date(r.finished_at).getTime(),
    expiresAt: createdAt + WALLET_EXPORT_KEEP_DAYS * DAY_MS,
  };
}

/** Records the request; the caller queues the job with the id. */
export async function createExport(db: Runner, userId: number, body: WalletExportBody, locale?: Locale): Promise<number> {
  const from = body.from ? Date.parse(`${body.from}T00:00:00Z`) : null;
  const to = body.to ? Date.parse(`${body.to}T00:00:00Z`) + DAY_MS : null;
  const [row] = rowsOf<{ id: number | string }>(
    await db.execute(sql`insert into wallet_exports (user_id, format, from_ms, to_ms, status, locale)
                         values (${userId}, ${body.format}, ${from}, ${to}, 'exporting', ${locale ?? null}) returning id`),
  );
  return Number(row.id);
}

export async function listExports(db: Runner, userId: number, locale: Locale = 'en-US'): Promise<WalletExportItem[]> {
  const rows = rowsOf<ExportRow>(await db.execute(sql`select * from wallet_exports where user_id = ${userId} order by id desc limit 50`));
  return rows.map((r) => itemOf(r, locale));
}

/** The caller's exported file (404 for another user's id or a missing one, 409 while not exported). */
export async function exportFile(db: Runner, dataDir: string, userId: number, id: number): Promise<{ path: string; name: string; format: WalletExportFormat }> {
  const [row] = rowsOf<ExportRow>(await db.execute(sql`select * from wallet_exports where id = ${id} and user_id = ${userId}`));
  if (!row) throw new AppError('NOT_FOUND', {}, 'id');
  if (row.status !== 'exported' || !row.file) throw new AppError('CONFLICT', {}, 'id');
  return { path: path.join(exportDir(dataDir), row.file), name: `wallet-records-${row.id}.${row.format}`, format: row.format };
}

interface LineRow {
  id: number | string;
  created_at: Date | string;
  kind: string;
  wallet: string;
  amount: string;
  balance_after: string | null;
  status: string;
  memo: string | null;
}

/** A record's type, wallet or status in the reader's words ("Held", not `pending`); an unknown code as it is. */
function wordOf(locale: Locale, column: 'type' | 'wallet' | 'status', code: string): string {
  const key = `export.${column}.${code}`;
  return isMessageKey(key) ? translate(locale, key) : code;
}

/** The user's lines in the range, oldest first, a batch at a time (keyset on the line id), in the reader's words. */
async function* linesOf(db: Runner, userId: number, fromMs: number | null, toMs: number | null, locale: Locale): AsyncGenerator<string[]> {
  let after = 0;
  const from = fromMs === null ? sql`` : sql`and e.created_at >= ${new Date(fromMs).toISOString()}::timestamptz`;
  const to = toMs === null ? sql`` : sql`and e.created_at < ${new Date(toMs).toISOString()}::timestamptz`;
  for (;;) {
    const rows = rowsOf<LineRow>(
      await db.execute(sql`select l.id, e.created_at, e.kind, a.kind as wallet, l.amount::text as amount, l.balance_after::text as balance_after, e.status, e.memo
                             from ledger_lines l
                             join ledger_accounts a on a.id = l.account_id
                             join ledger_entries e on e.id = l.entry_id
                            where l.user_id = ${userId} and l.id > ${after} ${from} ${to}
                            order by l.id limit ${BATCH}`),
    );
    for (const r of rows) {
      yield [
        String(r.id),
        new Date(r.created_at).toISOString().replace('T', ' ').slice(0, 19),
        wordOf(locale, 'type', r.kind),
        wordOf(locale, 'wallet', r.wallet),
        formatMoney(BigInt(r.amount)),
        r.balance_after === null ? '' : formatMoney(BigInt(r.balance_after)),
        wordOf(locale, 'status', r.status),
        r.memo ?? '',
      ];
    }
    if (rows.length < BATCH) return;
    after = Number(rows[rows.length - 1].id);
  }
}

async function writeCsv(file: string, header: readonly string[], rows: AsyncIterable<string[]>): Promise<number> {
  const out = createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(line)) await once(out, 'drain');
  };
  let n = 0;
  try {
    await write(CSV_BOM + csvLine(header));
    for await (const r of rows) {
      await write(csvLine(r));
      n++;
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return n;
}

/**
 * A money text as a spreadsheet number when the number is exactly it (a double holds 15 significant
 * digits: every amount below a billion to the 6th decimal); larger ones stay exact text.
 */
function moneyCell(text: string): number | string {
  if (text === '') return text;
  const n = Number(text);
  return n.toFixed(6) === text ? n : text;
}

async function writeXlsx(file: string, header: readonly string[], rows: AsyncIterable<string[]>): Promise<number> {
  // Imported here: exceljs costs about a second to load, and only an XLSX export needs it.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet('records');
  // Money as numbers a spreadsheet can sum, shown with the ledger's 6 decimals.
  sheet.columns = header.map((h, i) => ({ header: h, width: i === 7 ? 40 : 20, ...(MONEY_COLUMNS.has(i) ? { style: { numFmt: '#,##0.000000' } } : {}) }));
  let n = 0;
  for await (const r of rows) {
    sheet.addRow(r.map((v, i) => (MONEY_COLUMNS.has(i) ? moneyCell(v) : v))).commit();
    n++;
  }
  sheet.commit();
  await workbook.commit();
  return n;
}

/** The job: writes the file of export `id` unless it is done already. */
export async function runExport(db: Database, dataDir: string, id: number): Promise<void> {
  const [row] = rowsOf<ExportRow>(await db.execute(sql`select * from wallet_exports where id = ${id}`));
  if (!row || row.status !== 'exporting') return;
  const dir = exportDir(dataDir);
  mkdirSync(dir, { recursive: true });
  const name = `${id}.${row.format}`;
  // A name of its own per run: two runs of one export (a retry beside a slow first) never share a file.
  const part = path.join(dir, `${name}.${randomUUID()}.part`);
  try {
    // The request's language; an export recorded before it was kept falls back to the profile's.
    const locale = resolveLocale(row.locale ?? rowsOf<{ locale: string }>(await db.execute(sql`select locale from users where id = ${Number(row.user_id)}`))[0]?.locale);
    const rows = linesOf(db, Number(row.user_id), row.from_ms === null ? null : Number(row.from_ms), row.to_ms === null ? null : Number(row.to_ms), locale);
    const header = headerOf(locale);
    const n = row.format === 'csv' ? await writeCsv(part, header, rows) : await writeXlsx(part, header, rows);
    renameSync(part, path.join(dir, name));
    await db.execute(sql`update wallet_exports set status = 'exported', rows = ${n}, file = ${name}, finished_at = now() where id = ${id} and status = 'exporting'`);
  } catch (e) {
    rmSync(part, { force: true });
    throw e;
  }
}

/** Marks an export failed once its job has used up its attempts (the user sees "export failed"). */
export async function failExport(db: Runner, id: number, error: string): Promise<void> {
  await db.execute(sql`update wallet_exports set status = 'failed', error = ${error.slice(0, 300)}, finished_at = now() where id = ${id} and status = 'exporting'`);
}

/** Deletes exports (files and rows) requested more than WALLET_EXPORT_KEEP_DAYS ago. */
export async function cleanupExports(db: Runner, dataDir: string, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - WALLET_EXPORT_KEEP_DAYS * DAY_MS).toISOString();
  const rows = rowsOf<{ id: number | string; file: string | null; format: string }>(
    await db.execute(sql`delete from wallet_exports where created_at < ${cutoff}::timestamptz returning id, file, format`),
  );
  const dir = exportDir(dataDir);
  for (const r of rows) rmSync(path.join(dir, `${r.id}.${r.format}`), { force: true });
  // Partial files of runs killed midway.
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return rows.length;
  }
  for (const f of names) {
    if (f.endsWith('.part') && statSync(path.join(dir, f)).mtimeMs < now - 3_600_000) rmSync(path.join(dir, f), { force: true });
  }
  return rows.length;
}

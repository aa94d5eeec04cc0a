// Wallet exports through the real app with pg-boss running: request → the job writes the file →
// exported → download (owner only), CSV and XLSX read back and compared with the records API;
// bad input; a rerun changes nothing; files deleted after 3 days. `verifyLedger` after each.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { translate } from '@lq/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { adjustWallet, cleanupExports, runExport, verifyLedger } from '.';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ jobs: true, env: { AUTH_CACHE_MS: '0' } });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(() => t?.close());

interface ExportItem {
  id: number;
  format: string;
  from: string | null;
  to: string | null;
  status: string;
  rows: number | null;
  error: string | null;
  createdAt: number;
  finishedAt: number | null;
  expiresAt: number;
}

async function userWithRecords(): Promise<{ u: RegisteredUser; id: number }> {
  const u = await registerUser(t);
  const [row] = await t.database.exec<{ id: number | string }>('select id from users where mail = $1', [u.mail]);
  const id = Number(row.id);
  await adjustWallet(t.database.db, { userId: id, wallet: 'rebate', amount: 50_000_000n, reason: 'bonus, "quoted"\nsecond line', source: 'shell', key: `ex1-${id}` });
  await adjustWallet(t.database.db, { userId: id, wallet: 'balance', amount: 1n, reason: '=HYPERLINK("x")', source: 'shell', key: `ex2-${id}` });
  const tr = await t.call('POST', '/user/api/wallet/transfer', { token: u.token, body: { amount: '12.345678', idempotencyKey: `ex-tr-${id}-xx` } });
  expect(tr.statusCode).toBe(200);
  return { u, id };
}

const list = async (u: RegisteredUser) => (await t.call('GET', '/user/api/wallet/export/list', { token: u.token })).json<Envelope<{ list: ExportItem[] }>>().data.list;

async function exported(u: RegisteredUser, body: Record<string, string>, lang = 'en_US'): Promise<ExportItem> {
  const res = await t.call('POST', '/user/api/wallet/export', { token: u.token, body, lang });
  expect(res.statusCode, res.body).toBe(200);
  const { id } = res.json<Envelope<{ id: number }>>().data;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const item = (await list(u)).find((x) => x.id === id)!;
    if (item.status !== 'exporting') return item;
    if (Date.now() > deadline) throw new Error('export still exporting after 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const recordsOf = async (u: RegisteredUser) =>
  (await t.call('GET', '/user/api/wallet/records?size=100', { token: u.token })).json<Envelope<{ list: { id: number; amount: string; balanceAfter: string | null; memo: string | null; type: string; wallet: string; status: string }[] }>>().data.list;

/** Minimal RFC 4180 reader (quoted fields with commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe('wallet exports', () => {
  it('CSV: every record, oldest first, exact amounts, quoting and formula guard; owner only', async () => {
    const { u } = await userWithRecords();
    const item = await exported(u, { format: 'csv' });
    expect(item).toMatchObject({ format: 'csv', status: 'exported', rows: 4, from: null, to: null, error: null });
    expect(item.expiresAt - item.createdAt).toBe(3 * 86_400_000);
    const file = await t.call('GET', `/user/api/wallet/export/${item.id}/file`, { token: u.token });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="wallet-records-${item.id}.csv"`);
    const rows = parseCsv(file.body.replace(/^\uFEFF/, ''));
    // Headers in the language of the request (en_US here); the amounts exact text.
    expect(rows[0]).toEqual(['ID', 'Time (UTC)', 'Type', 'Wallet', 'Amount', 'Balance after', 'Status', 'Memo']);
    const api = (await recordsOf(u)).reverse();
    // Type, wallet and status in words ("Adjustment", "Balance", "Completed"), never the API's codes.
    const say = (column: string, code: string) => translate('en-US', `export.${column}.${code}`);
    expect(rows.slice(1).map((r) => [Number(r[0]), r[2], r[3], r[4], r[5], r[6]])).toEqual(
      api.map((r) => [r.id, say('type', r.type), say('wallet', r.wallet), r.amount, r.balanceAfter ?? '', say('status', r.status)]),
    );
    expect(rows.slice(1).map((r) => r[2])).toEqual(['Adjustment', 'Adjustment', 'Transfer', 'Transfer']);
    expect(rows[1][7]).toBe('bonus, "quoted"\nsecond line');
    expect(rows[2][7]).toBe(`'=HYPERLINK("x")`);
    expect(rows.slice(1).map((r) => r[4])).toContain('-12.345678');

    const other = await registerUser(t);
    expect((await t.call('GET', `/user/api/wallet/export/${item.id}/file`, { token: other.token })).statusCode).toBe(404);
    expect(await list(other)).toEqual([]);
    expect((await t.call('GET', `/user/api/wallet/export/${item.id}/file`)).statusCode).toBe(401);
  });

  it('XLSX opens with every record, amounts as numbers equal to the ledger’s, headers in the user’s language; a date range selects UTC days', async () => {
    const { u } = await userWithRecords();
    const item = await exported(u, { format: 'xlsx' }, 'th_TH');
    expect(item).toMatchObject({ status: 'exported', rows: 4 });
    const file = await t.call('GET', `/user/api/wallet/export/${item.id}/file`, { token: u.token });
    expect(file.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('records')!;
    const values: string[][] = [];
    sheet.eachRow((row) => values.push((row.values as (string | number | null | undefined)[]).slice(1).map((v) => String(v ?? ''))));
    expect(values[0]).toEqual(['รหัส', 'เวลา (UTC)', 'ประเภท', 'กระเป๋า', 'จำนวนเงิน', 'ยอดคงเหลือหลังรายการ', 'สถานะ', 'บันทึก']);
    const api = (await recordsOf(u)).reverse();
    expect(values.slice(1).map((r) => [Number(r[0]), r[2], r[3]])).toEqual(api.map((r) => [r.id, translate('th-TH', `export.type.${r.type}`), translate('th-TH', `export.wallet.${r.wallet}`)]));
    expect(values.slice(1).map((r) => r[2])).toEqual(['ปรับยอด', 'ปรับยอด', 'โอน', 'โอน']);
    // Money cells are numbers a spreadsheet sums, equal to the ledger's exact values, shown with 6 decimals.
    const amounts: { value: unknown; numFmt: string | undefined }[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) amounts.push({ value: row.getCell(5).value, numFmt: row.getCell(5).numFmt });
    });
    expect(amounts.map((c) => c.value)).toEqual(api.map((r) => Number(r.amount)));
    expect(amounts.map((c) => (c.value as number).toFixed(6))).toEqual(api.map((r) => r.amount));
    expect(amounts.every((c) => c.numFmt === '#,##0.000000')).toBe(true);

    const today = new Date().toISOString().slice(0, 10);
    expect(await exported(u, { format: 'csv', from: today, to: today })).toMatchObject({ status: 'exported', rows: 4, from: today, to: today });
    expect(await exported(u, { format: 'csv', from: '2020-01-01', to: '2020-01-31' })).toMatchObject({ status: 'exported', rows: 0 });
  });

  it('refuses bad requests with the field named; a file not ready is 409', async () => {
    const { u, id } = await userWithRecords();
    for (const [body, field] of [
      [{ format: 'pdf' }, 'format'],
      [{}, 'format'],
      [{ format: 'csv', from: '2026-13-01' }, 'from'],
      [{ format: 'csv', from: '2026-02-01', to: '2026-01-01' }, 'from'],
      [{ format: 'csv', extra: 1 }, 'extra'],
    ] as const) {
      const res = await t.call('POST', '/user/api/wallet/export', { token: u.token, body, lang: 'en_US' });
      expect({ body, status: res.statusCode }).toEqual({ body, status: 422 });
      expect(res.json<Envelope<{ field: string }>>().data.field).toBe(field);
    }
    expect((await t.call('GET', '/user/api/wallet/export/abc/file', { token: u.token })).statusCode).toBe(422);
    expect((await t.call('GET', '/user/api/wallet/export/999999/file', { token: u.token })).statusCode).toBe(404);
    const [row] = await t.database.exec<{ id: number | string }>(
      `insert into wallet_exports (user_id, format, status, error) values ($1, 'csv', 'failed', 'Failed query: insert into wallet_export_lines … relation does not exist') returning id`,
      [id],
    );
    expect((await t.call('GET', `/user/api/wallet/export/${row.id}/file`, { token: u.token })).statusCode).toBe(409);
    // The user reads why in their language, never the internal text (kept in the row for operators).
    const failedIn = async (lang: string) =>
      (await t.call('GET', '/user/api/wallet/export/list', { token: u.token, lang })).json<Envelope<{ list: ExportItem[] }>>().data.list.find((x) => x.id === Number(row.id));
    expect(await failedIn('en_US')).toMatchObject({ status: 'failed', error: 'The export could not be written; please request a new one' });
    expect(await failedIn('ja_JP')).toMatchObject({ status: 'failed', error: 'エクスポートを作成できませんでした。もう一度リクエストしてください' });
  });

  it('a rerun of a finished export changes nothing; a killed run’s leftovers go with the cleanup after 3 days', async () => {
    const { u } = await userWithRecords();
    const item = await exported(u, { format: 'csv' });
    const dir = path.join(t.dataDir, 'exports');
    const before = readdirSync(dir).filter((f) => f.startsWith(`${item.id}.`));
    await runExport(t.database.db, t.dataDir, item.id);
    expect(readdirSync(dir).filter((f) => f.startsWith(`${item.id}.`))).toEqual(before);
    writeFileSync(path.join(dir, `${item.id}.csv.dead.part`), 'half');
    expect(await cleanupExports(t.database.db, t.dataDir)).toBe(0);
    expect(existsSync(path.join(dir, `${item.id}.csv`))).toBe(true);
    const fourDays = Date.now() + 4 * 86_400_000;
    expect(await cleanupExports(t.database.db, t.dataDir, fourDays)).toBeGreaterThanOrEqual(1);
    expect(existsSync(path.join(dir, `${item.id}.csv`))).toBe(false);
    expect(existsSync(path.join(dir, `${item.id}.csv.dead.part`))).toBe(false);
    expect((await list(u)).find((x) => x.id === item.id)).toBeUndefined();
  });
});

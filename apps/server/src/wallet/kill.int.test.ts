// SIGKILL safety of money and exports: a child process posting a fixed list of transfers, or
// writing an export, is killed at random moments (20 times each, more with WALLET_KILLS) and
// started again until it finishes. Every transfer exists once, the balances are exactly the sum
// of the list, `verifyLedger` is clean, and the export ends exported with every line, once.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@lq/db';
import { killDatabase, runChild as runKilledChild, type KillDatabase } from '../../test/kill-harness';
import { postEntry, userBalances, verifyLedger } from './ledger';

const KILLS = Number(process.env.WALLET_KILLS ?? 20);
const TRANSFERS = 1500;
const ADJUSTS = 60;
/** What the transfers test moved to the balance wallet (this test runs after it, on its user). */
const expectedTransfers = Array.from({ length: TRANSFERS }, (_, i) => BigInt((i % 7) + 1) * 1000n).reduce((a, b) => a + b, 0n);

let kdb: KillDatabase;
beforeAll(async () => {
  kdb = await killDatabase('lq-wallet-kill-');
});
afterAll(() => kdb?.cleanup());
const withDb = <T>(fn: (db: DatabaseHandle) => Promise<T>) => kdb.withDb(fn);

/** The child with this test's database; killed `killAfterMs` after it said ready (undefined: lets it finish). */
const runChild = (env: Record<string, string>, killAfterMs: number | undefined, output?: (out: string) => void) =>
  runKilledChild('src/wallet/kill-child.ts', { ...kdb.env, ...env }, killAfterMs, output);

describe('wallet under SIGKILL', () => {
  it(`${KILLS} kills while transfers post: each once, balances exact, ledger clean`, { timeout: 600_000 }, async () => {
    const expected = Array.from({ length: TRANSFERS }, (_, i) => BigInt((i % 7) + 1) * 1000n).reduce((a, b) => a + b, 0n);
    const userId = await withDb(async (db) => {
      const [row] = await db.exec<{ id: number | string }>(`insert into users (mail, password_hash, user_code, country) values ('kill@example.com', 'x', 'KILL1', 'SG') returning id`);
      const id = Number(row.id);
      await postEntry(db.db, {
        key: `kill-fund-${id}`,
        kind: 'adjust',
        userId: id,
        lines: [
          { account: { platform: 'adjustments' }, amount: -10_000_000_000n },
          { account: { userId: id, wallet: 'rebate' }, amount: 10_000_000_000n },
        ],
      });
      return id;
    });
    const env = { KILL_MODE: 'transfers', KILL_USER: String(userId), KILL_COUNT: String(TRANSFERS) };
    let inFlight = 0;
    for (let k = 0; k < KILLS; k++) {
      let output = '';
      const finished = await runChild(env, 5 + Math.floor(Math.random() * 150), (out) => (output = out));
      const before = Number(/posted (\d+)/.exec(output)?.[1] ?? TRANSFERS);
      if (!finished && before < TRANSFERS) inFlight++;
      if (finished) break;
    }
    expect(await runChild(env, undefined)).toBe(true);
    await withDb(async (db) => {
      const [counts] = await db.exec<{ entries: string; keys: string }>(
        `select count(*)::text as entries, count(distinct idempotency_key)::text as keys from ledger_entries where kind = 'transfer' and user_id = $1`,
        [userId],
      );
      expect(counts).toEqual({ entries: String(TRANSFERS), keys: String(TRANSFERS) });
      const b = await userBalances(db.db, userId);
      expect(b.balance.posted).toBe(expected);
      expect(b.rebate.posted).toBe(10_000_000_000n - expected);
      expect(await verifyLedger(db.db)).toEqual([]);
    });
    expect(inFlight).toBeGreaterThanOrEqual(Math.min(KILLS, 3)); // not vacuous: kills landed inside the work
  });

  it(`${KILLS} kills while the shell adjusts wallets: each movement with its audit row, both or neither`, { timeout: 600_000 }, async () => {
    const env = { KILL_MODE: 'adjust', KILL_COUNT: String(ADJUSTS) };
    // First killed exactly where a movement could outlive its audit row: the moment a command says
    // it moved the money (the child kills itself there), at five points of the list.
    for (const at of [0, 7, 19, 33, 48]) expect(await runChild({ ...env, KILL_SELF_AT: String(at) }, undefined)).toBe(false);
    let inFlight = 0;
    for (let k = 0; k < KILLS; k++) {
      let output = '';
      const finished = await runChild(env, 5 + Math.floor(Math.random() * 300), (out) => (output = out));
      const before = Number(/posted (\d+)/.exec(output)?.[1] ?? ADJUSTS);
      if (!finished && before < ADJUSTS) inFlight++;
      if (finished) break;
    }
    expect(await runChild(env, undefined)).toBe(true);
    await withDb(async (db) => {
      const [u] = await db.exec<{ id: number | string }>(`select id from users where mail = 'kill@example.com'`);
      const [counts] = await db.exec<{ entries: number; keys: number }>(
        `select count(*)::int as entries, count(distinct idempotency_key)::int as keys from ledger_entries where idempotency_key like 'adjust:shell:kill-adj-%'`,
      );
      expect(counts).toEqual({ entries: ADJUSTS, keys: ADJUSTS });
      // Every movement has the audit row written with it (not only a later "already done").
      const [unaudited] = await db.exec<{ n: number }>(
        `select count(*)::int as n from ledger_entries e where e.idempotency_key like 'adjust:shell:kill-adj-%'
           and not exists (select 1 from audit_log a where a.action = 'wallet:adjust' and a.outcome = 'done' and a.after->>'entry' = e.id::text and a.after->>'replayed' = 'false')`,
      );
      expect(unaudited.n).toBe(0);
      expect((await userBalances(db.db, Number(u.id))).balance.posted).toBe(BigInt(ADJUSTS) * 1_000_000n + expectedTransfers);
      expect(await verifyLedger(db.db)).toEqual([]);
    });
    expect(inFlight).toBeGreaterThanOrEqual(Math.min(KILLS, 3)); // not vacuous: kills landed inside the work
  });

  it(`${KILLS} kills while an export writes: it ends exported with every line, once`, { timeout: 600_000 }, async () => {
    const { exportId, lines } = await withDb(async (db) => {
      const [u] = await db.exec<{ id: number | string }>(`select id from users where mail = 'kill@example.com'`);
      const [row] = await db.exec<{ id: number | string }>(`insert into wallet_exports (user_id, format, status) values ($1, 'csv', 'exporting') returning id`, [u.id]);
      const [n] = await db.exec<{ n: string }>(`select count(*)::text as n from ledger_lines l join ledger_accounts a on a.id = l.account_id where a.user_id = $1`, [u.id]);
      return { exportId: Number(row.id), lines: Number(n.n) };
    });
    const env = { KILL_MODE: 'export', KILL_EXPORT: String(exportId) };
    for (let k = 0; k < KILLS; k++) {
      if (await runChild(env, Math.floor(Math.random() * 60))) break;
    }
    expect(await runChild(env, undefined)).toBe(true);
    await withDb(async (db) => {
      const [row] = await db.exec<{ status: string; rows: number; file: string }>(`select status, rows, file from wallet_exports where id = $1`, [exportId]);
      expect(row).toMatchObject({ status: 'exported', rows: lines, file: `${exportId}.csv` });
    });
    const csv = readFileSync(path.join(kdb.dir, 'exports', `${exportId}.csv`), 'utf8').trim().split('\r\n');
    expect(csv.length).toBe(lines + 1);
    expect(new Set(csv.slice(1).map((l) => l.split(',')[0])).size).toBe(lines);
    // Only leftovers of killed runs besides the file, all named *.part (the hourly cleanup removes them).
    expect(readdirSync(path.join(kdb.dir, 'exports')).filter((f) => f !== `${exportId}.csv` && !f.endsWith('.part'))).toEqual([]);
  });
});

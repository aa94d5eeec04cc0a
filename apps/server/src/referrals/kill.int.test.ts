// SIGKILL safety of rebate settlement: 60 payments by users under a chain of referrers at mixed
// levels, settled by a child killed at random moments (20 times, more with REBATE_KILLS) and
// started again until it finishes. Every payment is settled once (one rebate_payments row, one
// ledger entry), every referrer holds exactly what @lq/contracts `rebatesOf` says, and
// `verifyLedger` is clean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REBATE_RATES, rebatesOf } from '@lq/contracts';
import type { DatabaseHandle } from '@lq/db';
import { killDatabase, runChild as runKilledChild, type KillDatabase } from '../../test/kill-harness';
import { dayOf } from '../platform/windows';
import { postEntry, userBalances, verifyLedger } from '../wallet';

const KILLS = Number(process.env.REBATE_KILLS ?? 20);
const PAYMENTS = 60;
const TZ = 'Asia/Shanghai';
// Top first: R6 VIP3, R5 VIP2, R4 VIP2, R3 VIP1, R2 none, R1 VIP1; payers below R1 or R2.
const CHAIN = ['VIP3', 'VIP2', 'VIP2', 'VIP1', 'none', 'VIP1'];

let kdb: KillDatabase;
beforeAll(async () => {
  kdb = await killDatabase('lq-rebate-kill-');
});
afterAll(() => kdb?.cleanup());
const withDb = <T>(fn: (db: DatabaseHandle) => Promise<T>) => kdb.withDb(fn);

async function user(db: DatabaseHandle, tag: string, level: string, parent: number | null): Promise<number> {
  const [row] = await db.exec<{ id: string }>(
    `insert into users (mail, password_hash, user_code, country, referrer_id, user_level) values ($1, 'x', $2, 'SG', $3, $4) returning id::text as id`,
    [`${tag}@example.com`, tag.toUpperCase(), parent, level],
  );
  const id = Number(row.id);
  if (parent !== null) {
    await db.exec(`insert into user_tree (ancestor_id, descendant_id, depth) select ancestor_id, $2::bigint, depth + 1 from user_tree where descendant_id = $1::bigint union all select $1::bigint, $2::bigint, 1`, [parent, id]);
  }
  return id;
}

describe('rebate settlement under SIGKILL', () => {
  it(`${KILLS} kills while a day settles: each payment once, each referrer exact`, { timeout: 600_000 }, async () => {
    const expected = new Map<number, bigint>();
    await withDb(async (db) => {
      const chain: Array<{ userId: number; level: string }> = [];
      let parent: number | null = null;
      for (const [i, level] of CHAIN.entries()) {
        parent = await user(db, `rk-chain-${i}`, level, parent);
        chain.unshift({ userId: parent, level });
      }
      for (let n = 0; n < PAYMENTS; n++) {
        // Half below R1, half below R2 (skipping R1): different uplines, different shares.
        const upline = n % 2 === 0 ? chain : chain.slice(1);
        const payer = await user(db, `rk-payer-${n}`, 'none', upline[0].userId);
        const amount = BigInt(10_000_000 + n * 1_234_567);
        await postEntry(db.db, { key: `rk-fund-${n}`, kind: 'adjust', userId: payer, lines: [{ account: { platform: 'adjustments' }, amount: -amount }, { account: { userId: payer, wallet: 'balance' }, amount }] });
        await postEntry(db.db, { key: `rk-pay-${n}`, kind: 'purchase', userId: payer, lines: [{ account: { userId: payer, wallet: 'balance' }, amount: -amount }, { account: { platform: 'revenue' }, amount }] });
        for (const s of rebatesOf(amount, upline, DEFAULT_REBATE_RATES)) expected.set(s.userId, (expected.get(s.userId) ?? 0n) + s.amount);
      }
    });
    const env = { ...kdb.env, KILL_TIMEZONE: TZ, KILL_DAY: dayOf(new Date(), TZ) };
    const runChild = (killAfterMs: number | undefined, output?: (out: string) => void) => runKilledChild('src/referrals/kill-child.ts', env, killAfterMs, output);

    let landed = 0;
    for (let k = 0; k < KILLS; k++) {
      let output = '';
      const finished = await runChild(5 + Math.floor(Math.random() * 60), (out) => (output = out));
      if (!finished && Number(/due (\d+)/.exec(output)?.[1] ?? 0) > 0) landed++;
      if (finished) break;
    }
    expect(await runChild(undefined)).toBe(true);

    await withDb(async (db) => {
      const [settled] = await db.exec<{ n: number; entries: number }>(
        `select (select count(*)::int from rebate_payments) as n, (select count(*)::int from ledger_entries where idempotency_key like 'rebate:%') as entries`,
      );
      expect(settled).toEqual({ n: PAYMENTS, entries: PAYMENTS });
      for (const [userId, amount] of expected) expect((await userBalances(db.db, userId)).rebate.posted).toBe(amount);
      expect(await verifyLedger(db.db)).toEqual([]);
    });
    expect(landed).toBeGreaterThanOrEqual(Math.min(KILLS, 3)); // not vacuous: kills landed with payments still due
  });
});

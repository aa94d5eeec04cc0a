// SIGKILL safety of renewals and seat expiry: a child running seat passes over 80 auto-renewing
// packs that expired (60 users can pay, 20 cannot) and 8 users over their seats is killed at
// random moments (20 times, more with BENEFIT_KILLS) and started again until it finishes. Every
// period is charged at most once and exactly once where the balance allowed, failed ones charge
// nothing, exactly the excess accounts are frozen with no robot left running on them, and
// `verifyLedger` is clean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@lq/db';
import { killDatabase, runChild as runKilledChild, type KillDatabase } from '../../test/kill-harness';
import { postEntry, userBalances, verifyLedger } from '../wallet';

const KILLS = Number(process.env.BENEFIT_KILLS ?? 20);
const PAYING = 60;
const BROKE = 20;
const OVER = 8;

let kdb: KillDatabase;
beforeAll(async () => {
  kdb = await killDatabase('lq-benefit-kill-');
});
afterAll(() => kdb?.cleanup());
const withDb = <T>(fn: (db: DatabaseHandle) => Promise<T>) => kdb.withDb(fn);
const runChild = (killAfterMs: number | undefined, output?: (out: string) => void) => runKilledChild('src/benefits/kill-child.ts', kdb.env, killAfterMs, output);

async function user(db: DatabaseHandle, tag: string, balance: bigint): Promise<number> {
  const [row] = await db.exec<{ id: number | string }>(`insert into users (mail, password_hash, user_code, country) values ($1, 'x', $2, 'SG') returning id`, [`${tag}@example.com`, tag.toUpperCase().slice(0, 24)]);
  const id = Number(row.id);
  await db.exec(`insert into entitlement_grants (user_id, kind, quantity, origin, note) values ($1, 'unlock', 1, 'operator', 'kill test')`, [id]);
  if (balance > 0n) {
    await postEntry(db.db, { key: `bk-fund-${id}`, kind: 'adjust', userId: id, lines: [{ account: { platform: 'adjustments' }, amount: -balance }, { account: { userId: id, wallet: 'balance' }, amount: balance }] });
  }
  return id;
}
/** A pack bought 31 days ago for one month: expired a day ago. */
const expiredPack = (db: DatabaseHandle, userId: number, quantity: number, autoRenew: boolean) =>
  db.exec(
    `insert into benefit_purchases (user_id, idempotency_key, request_hash, item, market, quantity, months, amount, auto_renew, purchased_at, expires_at)
     values ($1, $2, 'x', 'seat', 'crypto', $3, 1, $4, $5, now() - interval '31 days', now() - interval '1 day')`,
    [userId, `bk-${userId}-${quantity}-${autoRenew}`, quantity, String(quantity * 10_000_000), autoRenew],
  );

describe('benefits under SIGKILL', () => {
  it(`${KILLS} kills while packs renew and accounts freeze: each period once, balances exact, no robot on a frozen account`, { timeout: 600_000 }, async () => {
    const ids = await withDb(async (db) => {
      const paying: number[] = [];
      const broke: number[] = [];
      const over: number[] = [];
      for (let i = 0; i < PAYING; i++) {
        const id = await user(db, `bkpay${i}`, 25_000_000n);
        await expiredPack(db, id, 2, true);
        paying.push(id);
      }
      for (let i = 0; i < BROKE; i++) {
        const id = await user(db, `bkbroke${i}`, 5_000_000n);
        await expiredPack(db, id, 1, true);
        broke.push(id);
      }
      for (let i = 0; i < OVER; i++) {
        // The unlock's seat and an expired 2-seat pack; robots on 3 accounts: 2 must freeze.
        const id = await user(db, `bkover${i}`, 0n);
        await expiredPack(db, id, 2, false);
        for (let a = 0; a < 3; a++) {
          const [acc] = await db.exec<{ id: number | string }>(
            `insert into trading_accounts (user_id, market, exchange, account_name, key_last4, created_at) values ($1, 'crypto', 'binance', $2, 'ab12', now() - make_interval(secs => $3)) returning id`,
            [id, `acc${a}`, 100 - a],
          );
          await db.exec(
            `insert into robots (user_id, account_id, market, strategy, symbol, interval, params, capital, leverage, status) values ($1, $2, 'crypto', 'grid', 'BTCUSDT', '1m', '{}', 1000, 5, 'running')`,
            [id, Number(acc.id)],
          );
        }
        over.push(id);
      }
      return { paying, broke, over };
    });

    let landed = 0;
    for (let k = 0; k < KILLS; k++) {
      let output = '';
      const finished = await runChild(5 + Math.floor(Math.random() * 80), (out) => (output = out));
      if (!finished && Number(/due (\d+)/.exec(output)?.[1] ?? 0) > 0) landed++;
      if (finished) break;
    }
    expect(await runChild(undefined)).toBe(true);

    await withDb(async (db) => {
      const renewals = await db.exec<{ status: string; n: number; periods: number }>(
        `select status, count(*)::int as n, count(distinct (purchase_id, period))::int as periods from benefit_renewals group by status order by status`,
      );
      expect(renewals).toEqual([
        { status: 'failed', n: BROKE, periods: BROKE },
        { status: 'renewed', n: PAYING, periods: PAYING },
      ]);
      const [entries] = await db.exec<{ n: number; keys: number }>(`select count(*)::int as n, count(distinct idempotency_key)::int as keys from ledger_entries where idempotency_key like 'benefit-renew:%'`);
      expect(entries).toEqual({ n: PAYING, keys: PAYING });
      for (const id of ids.paying.slice(0, 10)) expect((await userBalances(db.db, id)).balance.posted).toBe(5_000_000n);
      for (const id of ids.broke.slice(0, 10)) expect((await userBalances(db.db, id)).balance.posted).toBe(5_000_000n);
      const [frozen] = await db.exec<{ n: number }>(`select count(*)::int as n from trading_accounts where frozen and frozen_reason = 'seatExpired'`);
      expect(frozen.n).toBe(OVER * 2);
      // Exactly the two newest-bound accounts of each user, and nothing still running on a frozen account.
      const [wrong] = await db.exec<{ n: number }>(`select count(*)::int as n from trading_accounts where frozen and account_name = 'acc0'`);
      expect(wrong.n).toBe(0);
      const [running] = await db.exec<{ n: number }>(`select count(*)::int as n from robots r join trading_accounts a on a.id = r.account_id where a.frozen and r.status in ('running', 'paused')`);
      expect(running.n).toBe(0);
      const [untold] = await db.exec<{ n: number }>(
        `select (select count(*) from benefit_renewals where status = 'failed' and notified_at is null) + (select count(*) from trading_accounts where frozen and freeze_notified_at is null) as n`,
      );
      expect(Number(untold.n)).toBe(0);
      expect(await verifyLedger(db.db)).toEqual([]);
    });
    expect(landed).toBeGreaterThanOrEqual(Math.min(KILLS, 3)); // not vacuous: kills landed with renewals still due
  });
});

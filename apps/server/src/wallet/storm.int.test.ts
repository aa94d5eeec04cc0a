// Concurrency against the real database (in CI also PostgreSQL, where transactions truly overlap):
// storms of 200 simultaneous transfers against one rebate balance over several seeds never
// overdraw, and 10,000 replays of one key leave one entry. `verifyLedger` after each.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@lq/db';
import { openTestDatabase } from '../../test/helpers';
import { InsufficientFundsError, postEntry, rebateToBalance, userBalances, verifyLedger } from './ledger';
import { insertUser } from './test-helpers';

let database: DatabaseHandle;
let closeDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ database, close: closeDatabase } = await openTestDatabase('lq-storm-', { poolMax: 16 }));
});

afterAll(() => closeDatabase?.());

const newUser = () => insertUser(database, 'storm');

const transfer = rebateToBalance;

describe('storms', () => {
  it('200 simultaneous transfers against one rebate balance never overdraw it (several seeds)', async () => {
    const seeds = process.env.DATABASE_URL ? 8 : 3;
    for (let seed = 1; seed <= seeds; seed++) {
      const user = await newUser();
      const funded = 100_000_000n; // 100 Lightning
      await postEntry(database.db, {
        key: `storm-fund-${user}`,
        kind: 'adjust',
        userId: user,
        lines: [
          { account: { platform: 'adjustments' }, amount: -funded },
          { account: { userId: user, wallet: 'rebate' }, amount: funded },
        ],
      });
      // Amounts of 0.000001 to 1.5 Lightning: together far more than the 100 there are.
      const amounts = fc.sample(fc.bigInt({ min: 1n, max: 1_500_000n }), { numRuns: 200, seed });
      const results = await Promise.allSettled(amounts.map((a, i) => postEntry(database.db, transfer(`storm-${user}-${i}`, user, a))));
      let moved = 0n;
      results.forEach((r, i) => {
        if (r.status === 'fulfilled') moved += amounts[i];
        else expect(r.reason, `${String(r.reason)} ${String((r.reason as { cause?: unknown }).cause)}`).toBeInstanceOf(InsufficientFundsError);
      });
      const b = await userBalances(database.db, user);
      expect(b.rebate.posted).toBe(funded - moved);
      expect(b.balance.posted).toBe(moved);
      expect(b.rebate.posted >= 0n).toBe(true);
      // Whatever was refused was refused for want of money: no smaller amount could still have fitted.
      const refused = amounts.filter((_, i) => results[i].status === 'rejected');
      if (refused.length > 0) expect(refused.some((a) => a <= b.rebate.posted)).toBe(false);
      expect(await verifyLedger(database.db)).toEqual([]);
    }
  });

  it('10,000 replays of one key write one entry and all answer it', async () => {
    const user = await newUser();
    await postEntry(database.db, {
      key: `replay-fund-${user}`,
      kind: 'adjust',
      userId: user,
      lines: [
        { account: { platform: 'adjustments' }, amount: -5_000_000n },
        { account: { userId: user, wallet: 'rebate' }, amount: 5_000_000n },
      ],
    });
    const cmd = transfer(`replay-${user}`, user, 1_000_000n);
    const ids = new Set<number>();
    for (let batch = 0; batch < 100; batch++) {
      const results = await Promise.all(Array.from({ length: 100 }, () => postEntry(database.db, cmd)));
      for (const r of results) ids.add(r.id);
    }
    expect(ids.size).toBe(1);
    const [entries] = await database.exec<{ n: string }>(`select count(*)::text as n from ledger_entries where idempotency_key = $1`, [cmd.key]);
    expect(entries.n).toBe('1');
    const b = await userBalances(database.db, user);
    expect([b.rebate.posted, b.balance.posted]).toEqual([4_000_000n, 1_000_000n]);
    expect(await verifyLedger(database.db)).toEqual([]);
  });
});

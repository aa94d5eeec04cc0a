// SIGKILL safety of deposit credits: a watcher process scanning a real local chain (hardhat) that
// holds 200 USDT transfers to 40 deposit addresses — amounts above and below the minimum, 40 logs
// a transaction — is killed at random moments (20 times, DEPOSIT_KILLS for another count) and
// started again until it has read every confirmed block. Every transfer is recorded once and
// credited once, every balance is exactly what was sent, `verifyLedger` is clean.
import { randomBytes } from 'node:crypto';
import { getAddress, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@lq/db';
import { killDatabase, runChild as runKilledChild, type KillDatabase } from '../../test/kill-harness';
import { startChainWithUsdt, type LocalChain, type TestToken } from '../../test/local-chain';
import { userBalances, verifyLedger } from '../wallet';

const KILLS = Number(process.env.DEPOSIT_KILLS ?? 20);
const USERS = 40;
const CONFIRMATIONS = 3;
const USDT = 10n ** 18n;
/** Each user's five transfers, in this order: two below the minimum that only count together. */
const amountsOf = (u: number): bigint[] => [USDT + BigInt(u) * 10n ** 16n, 4n * 10n ** 16n, 6n * 10n ** 16n, USDT / 2n, 3n * USDT];

let kdb: KillDatabase;
let chain: LocalChain;
let token: TestToken;
let stopChain: (() => Promise<void>) | undefined;

beforeAll(async () => {
  kdb = await killDatabase('lq-deposit-kill-');
  ({ chain, token, stop: stopChain } = await startChainWithUsdt('lq-deposit-kill-chain-'));
});
afterAll(async () => {
  await stopChain?.();
  await kdb?.cleanup();
});
const withDb = <T>(fn: (db: DatabaseHandle) => Promise<T>) => kdb.withDb(fn);

const runChild = (killAfterMs: number | undefined) =>
  runKilledChild(
    'src/deposits/kill-child.ts',
    { ...kdb.env, KILL_CHAIN_URL: chain.url, KILL_TOKEN: token.address, KILL_CONFIRMATIONS: String(CONFIRMATIONS) },
    killAfterMs,
  );

describe('deposit watcher under SIGKILL', () => {
  it(`${KILLS} kills while it scans and credits: each transfer once, balances exact, ledger clean`, { timeout: 600_000 }, async () => {
    const users = await withDb(async (db) => {
      const out: { id: number; address: Address }[] = [];
      for (let u = 0; u < USERS; u++) {
        const [row] = await db.exec<{ id: number | string }>(`insert into users (mail, password_hash, user_code, country) values ($1, 'x', $2, 'SG') returning id`, [
          `deposit-kill-${u}@example.com`,
          `DK${u}`,
        ]);
        const hex = `0x${randomBytes(20).toString('hex')}`;
        await db.exec(`insert into deposit_addresses (user_id, network, derivation_index, address, address_hex, key_fingerprint) values ($1, 'BEP20', $1, $2, $3, 0)`, [
          Number(row.id),
          getAddress(hex),
          hex,
        ]);
        out.push({ id: Number(row.id), address: getAddress(hex) });
      }
      // The watcher starts below the first transfer.
      await db.exec(`insert into chain_cursors (network, next_block, chain_id) values ('BEP20', $1, 31337)`, [await chain.head()]);
      return out;
    });
    for (let round = 0; round < 5; round++) {
      await token.sendMany(
        users.map((u) => u.address),
        users.map((_, u) => amountsOf(u)[round]),
      );
      await chain.mine(2);
    }
    await chain.mine(CONFIRMATIONS);

    let killedMidway = 0;
    for (let k = 0; k < KILLS; k++) {
      const finished = await runChild(5 + Math.floor(Math.random() * 250));
      if (finished) break;
      killedMidway++;
    }
    expect(await runChild(undefined)).toBe(true);
    expect(killedMidway).toBeGreaterThanOrEqual(Math.min(KILLS, 3)); // not vacuous: kills landed inside the work

    await withDb(async (db) => {
      const [rows] = await db.exec<{ n: string; credited: string; keys: string }>(
        `select count(*)::text as n, count(*) filter (where status = 'credited')::text as credited, count(distinct (tx_hash, log_index))::text as keys from chain_deposits`,
      );
      expect(rows).toEqual({ n: String(USERS * 5), credited: String(USERS * 5), keys: String(USERS * 5) });
      for (const [u, user] of users.entries()) {
        const expected = amountsOf(u).reduce((a, b) => a + b, 0n) / 10n ** 12n;
        expect((await userBalances(db.db, user.id)).balance.posted, `user ${u}`).toBe(expected);
      }
      const [entries] = await db.exec<{ n: string; keys: string }>(`select count(*)::text as n, count(distinct idempotency_key)::text as keys from ledger_entries where kind = 'deposit'`);
      expect(entries.n).toBe(entries.keys);
      expect(await verifyLedger(db.db)).toEqual([]);
    });
  });
});

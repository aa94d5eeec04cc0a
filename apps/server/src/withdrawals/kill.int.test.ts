// SIGKILL safety of hot-wallet payouts: a payout process paying 20 approved withdrawals from the
// hot wallet on a real local chain (hardhat) is killed at random moments (20 times,
// WITHDRAW_KILLS for another count) and started again until none is processing. Never two
// transfers on chain for one withdrawal: each address received exactly its amount once, the hot
// wallet sent exactly one transaction per withdrawal, every hold is posted, `verifyLedger` clean.
import { randomBytes } from 'node:crypto';
import { createPublicClient, getAddress, http, parseAbiItem, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@lq/db';
import { bookAddress } from '../../test/helpers';
import { killDatabase, runChild as runKilledChild, type KillDatabase } from '../../test/kill-harness';
import { HOT_KEY, startChainWithUsdt, type LocalChain, type TestToken } from '../../test/local-chain';
import { adjustWallet, verifyLedger } from '../wallet';
import { approveWithdrawal, createWithdrawal } from './service';
import { hashPayPassword } from '../users';

const KILLS = Number(process.env.WITHDRAW_KILLS ?? 20);
const WITHDRAWALS = 20;
const CONFIRMATIONS = 1;
const USDT = 10n ** 18n;
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
/** Withdrawal i pays 10 + i USDT and a few millionths, so every amount is its own. */
const amountOf = (i: number) => `${10 + i}.00000${(i % 9) + 1}`;
const rawOf = (i: number) => BigInt(10 + i) * USDT + BigInt((i % 9) + 1) * 10n ** 12n;
/** The payees are plain addresses of the local chain: what this test kills is the payout, not the address check. */
const anyAddress = { check: () => Promise.resolve() };
const payeeOf = (i: number): Address => getAddress(`0x${`cafe${String(i).padStart(2, '0')}`.repeat(20).slice(0, 40)}`);

let kdb: KillDatabase;
let chain: LocalChain;
let token: TestToken;
let stopChain: (() => Promise<void>) | undefined;

beforeAll(async () => {
  kdb = await killDatabase('lq-payout-kill-');
  ({ chain, token, stop: stopChain } = await startChainWithUsdt('lq-payout-kill-chain-'));
});
afterAll(async () => {
  await stopChain?.();
  await kdb?.cleanup();
});
const withDb = <T>(fn: (db: DatabaseHandle) => Promise<T>) => kdb.withDb(fn);

const runChild = (killAfterMs: number | undefined) =>
  runKilledChild(
    'src/withdrawals/kill-child.ts',
    { ...kdb.env, KILL_CHAIN_URL: chain.url, KILL_TOKEN: token.address, KILL_HOT_KEY: HOT_KEY, KILL_CONFIRMATIONS: String(CONFIRMATIONS) },
    killAfterMs,
  );

describe('hot-wallet payouts under SIGKILL', () => {
  it(`${KILLS} kills while it signs, keeps and sends: one transfer per withdrawal, holds posted, ledger clean`, { timeout: 600_000 }, async () => {
    const hot = privateKeyToAccount(HOT_KEY).address;
    const client = createPublicClient({ transport: http(chain.url), cacheTime: 0 });
    const nonceBefore = await client.getTransactionCount({ address: hot });
    await token.send(hot, 1000n * USDT);
    await withDb(async (db) => {
      const pepper = randomBytes(32);
      const payPwd = await hashPayPassword('123456', pepper);
      for (let i = 0; i < WITHDRAWALS; i++) {
        const [row] = await db.exec<{ id: number | string }>(
          `insert into users (mail, password_hash, user_code, country, pay_pwd_hash) values ($1, 'x', $2, 'SG', $3) returning id`,
          [`payout-kill-${i}@example.com`, `PK${i}`, payPwd],
        );
        const userId = Number(row.id);
        await adjustWallet(db.db, { userId, wallet: 'balance', amount: 100_000_000n, reason: 'test funds', source: 'shell', key: `payout-kill-fund-${i}` });
        await bookAddress(db, userId, 'BEP20', payeeOf(i));
        const w = await createWithdrawal(db.db, userId, { network: 'BEP20', address: payeeOf(i), amount: amountOf(i), paidPwd: '123456', idempotencyKey: `payout-kill-${i}` }, anyAddress, pepper);
        await approveWithdrawal(db.db, w.id);
      }
    });

    let killedMidway = 0;
    for (let k = 0; k < KILLS; k++) {
      // Within 150 ms of "ready": a pass signs, keeps, sends and settles 20 payouts in about a
      // second on PostgreSQL, so most kills land inside the work (400 ms windows let it finish early).
      const finished = await runChild(5 + Math.floor(Math.random() * 150));
      if (finished) break;
      killedMidway++;
    }
    expect(await runChild(undefined)).toBe(true);
    expect(killedMidway).toBeGreaterThanOrEqual(Math.min(KILLS, 3)); // not vacuous: kills landed inside the work

    // On chain: each address got its amount exactly once; the hot wallet sent one transaction each.
    for (let i = 0; i < WITHDRAWALS; i++) {
      const logs = await client.getLogs({ address: token.address, event: TRANSFER, args: { to: payeeOf(i) }, fromBlock: 0n, toBlock: 'latest' });
      expect(logs.map((l) => l.args.value), `withdrawal ${i}`).toEqual([rawOf(i)]);
    }
    expect((await client.getTransactionCount({ address: hot })) - nonceBefore).toBe(WITHDRAWALS);

    await withDb(async (db) => {
      const [states] = await db.exec<{ completed: string; hashes: string }>(
        `select count(*) filter (where status = 'completed')::text as completed, count(distinct tx_hash)::text as hashes from withdrawals`,
      );
      expect(states).toEqual({ completed: String(WITHDRAWALS), hashes: String(WITHDRAWALS) });
      const [held] = await db.exec<{ posted: string }>(`select count(*)::text as posted from ledger_entries where kind = 'withdrawal' and status = 'posted'`);
      expect(held.posted).toBe(String(WITHDRAWALS));
      expect(await verifyLedger(db.db)).toEqual([]);
    });
  });
});

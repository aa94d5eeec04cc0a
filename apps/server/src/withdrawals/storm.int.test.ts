// Storms of 200 simultaneous withdrawals against one balance (in CI also on PostgreSQL, where the
// transactions truly overlap), over several seeds: amount + fee is held for exactly the requests
// that fit, every other one is refused as above the balance with nothing written, the balance
// never goes below zero and `verifyLedger` is clean. One storm goes through the HTTP API whole
// (payment password included); the others call the hold directly.
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@lq/contracts';
import { bookAddress, startTestApp, type Envelope, type TestApp } from '../../test/helpers';
import { userBalances, verifyLedger } from '../wallet';
import { holdWithdrawal, WITHDRAW_FEE_MICRO } from './service';
import { payingUser } from './test-helpers';

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const FUNDED = 1_000_000_000n; // 1,000 Lightning; 200 requests of 10–40 ask for far more

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ bookWithdrawAddresses: true, env: { AUTH_CACHE_MS: '0', USER_RATE_PER_MINUTE: '1000' } });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(() => t?.close());


/** 10.000000 to 40.999999 Lightning, from the seed. */
const amountsOf = (seed: number) => fc.sample(fc.bigInt({ min: 10_000_000n, max: 40_999_999n }), { numRuns: 200, seed });

async function expectNoOverdraft(userId: number, accepted: bigint[]): Promise<void> {
  const held = accepted.reduce((a, b) => a + b + WITHDRAW_FEE_MICRO, 0n);
  expect(held).toBeLessThanOrEqual(FUNDED);
  const { balance } = await userBalances(t.database.db, userId);
  expect(balance.posted).toBe(FUNDED);
  expect(balance.pendingOut).toBe(held);
  expect(balance.available).toBe(FUNDED - held);
  // One row per accepted request: a refused one wrote nothing.
  const [{ n }] = await t.database.exec<{ n: string }>('select count(*)::text as n from withdrawals where user_id = $1', [userId]);
  expect(Number(n)).toBe(accepted.length);
}

describe('withdrawal storms', () => {
  it('200 at once through the API: the ones that fit are held, the rest refused, no overdraft', async () => {
    const u = await payingUser(t, FUNDED);
    const amounts = amountsOf(1);
    const results = await Promise.all(
      amounts.map((a, i) =>
        t.call('POST', '/user/api/withdraw/create', {
          token: u.token,
          body: { network: 'BEP20', address: ADDRESS, amount: (Number(a) / 1e6).toFixed(6), paidPwd: '123456', idempotencyKey: `storm-api-${i}` },
        }),
      ),
    );
    const accepted: bigint[] = [];
    for (const [i, r] of results.entries()) {
      if (r.statusCode === 200) accepted.push(amounts[i]);
      else {
        expect(r.statusCode, r.body).toBe(409);
        expect(r.json<Envelope<unknown>>().code).toBe('A0310');
      }
    }
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThan(200);
    await expectNoOverdraft(u.id, accepted);
  });

  it('200 simultaneous holds against one balance never overdraw it (several seeds)', async () => {
    const seeds = process.env.DATABASE_URL ? 8 : 3;
    for (let seed = 2; seed < 2 + seeds; seed++) {
      const u = await payingUser(t, FUNDED);
      await bookAddress(t.database, u.id, 'BEP20', ADDRESS);
      const amounts = amountsOf(seed);
      const results = await Promise.allSettled(
        amounts.map((amount, i) => holdWithdrawal(t.database.db, u.id, { network: 'BEP20', address: ADDRESS, amount, idempotencyKey: `storm-${seed}-${i}` })),
      );
      const accepted: bigint[] = [];
      for (const [i, r] of results.entries()) {
        if (r.status === 'fulfilled') accepted.push(amounts[i]);
        else {
          expect(r.reason, String(r.reason)).toBeInstanceOf(AppError);
          expect((r.reason as AppError).errorName).toBe('INSUFFICIENT_BALANCE');
        }
      }
      await expectNoOverdraft(u.id, accepted);
      // What is left pays none of the refused: every refusal was real.
      const refused = amounts.filter((_, i) => results[i].status === 'rejected');
      const left = FUNDED - accepted.reduce((a, b) => a + b + WITHDRAW_FEE_MICRO, 0n);
      if (refused.length > 0) expect(left).toBeLessThan(refused.reduce((m, a) => (a < m ? a : m)) + WITHDRAW_FEE_MICRO);
    }
  });
});

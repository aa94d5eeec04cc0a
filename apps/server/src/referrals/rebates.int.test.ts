// Rebate settlement on a real app and database: the worked example of business.md through the real
// unlock (R1 none, R2 VIP1, R3 VIP1, R4 VIP3: 10, 10, 0.2, 20), by the level held when the payment
// was made (a raise afterwards changes nothing), settled once however often it runs, named in the
// wallet records, summed on the team page, listed and exported as CSV, moved to the balance wallet;
// then random trees with random level histories and payment streams (fast-check) against
// @lq/contracts `rebatesOf`, each settled twice. `verifyLedger` clean at the end of each.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REBATE_RATES, formatMoney, rebatesOf, type RebateList, type TeamSummary, type WalletRecords } from '@lq/contracts';
import { PAY_PASSWORD, payingUser, registeredUserWithId, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { dayOf } from '../platform/windows';
import { postEntry, userBalances, verifyLedger } from '../wallet';
import { settleRebates } from './rebates';
import { startAppWithOps, type AppWithOps } from '../../test/app-with-ops';

const TZ = 'Asia/Shanghai';
let t: TestApp;
let out: string[];
let ops: AppWithOps['ops'];
beforeAll(async () => {
  ({ t, out, ops } = await startAppWithOps(TZ));
});
afterAll(() => t?.close());

type User = RegisteredUser & { id: number };
const today = () => dayOf(new Date(), TZ);
const rebateWallet = async (u: User) => (await userBalances(t.database.db, u.id)).rebate.posted;
const get = async <T>(u: User, url: string) => (await t.call('GET', url, { token: u.token })).json<Envelope<T>>().data;

describe('rebate settlement', () => {
  it('the worked example through the real unlock: by the level held at payment time, once, named, summed, listed, exported, moved', async () => {
    const r4 = await registeredUserWithId(t);
    const r3 = await registeredUserWithId(t, r4.userCode);
    const r2 = await registeredUserWithId(t, r3.userCode);
    const r1 = await registeredUserWithId(t, r2.userCode);
    const payer = await payingUser(t, 150_000_000n, r1.userCode);
    for (const [u, level] of [[r2, 'VIP1'], [r3, 'VIP1'], [r4, 'VIP3']] as const) expect(await ops('user:set-level', u.mail, level)).toBe(0);

    const paid = await t.call('POST', '/user/api/equity/unlock', { token: payer.token, body: { paidPwd: PAY_PASSWORD, idempotencyKey: `rebate-unlock-${payer.id}` } });
    expect(paid.statusCode, paid.body).toBe(200);
    // Raised after the payment: R3 earns as the VIP1 it was.
    expect(await ops('user:set-level', r3.mail, 'VIP3')).toBe(0);
    // Rates changed after the payment (issue 53 item 7): it is settled at those it was made under.
    expect(await ops('rebates:rates', '--none', '5', '--VIP1', '15', '--VIP3', '25')).toBe(0);

    expect(await ops('rebates:settle', '--date', today())).toBe(0);
    expect(out.at(-1)).toMatch(new RegExp(`^${today()} \\(${TZ}\\): \\d+ payment\\(s\\) settled`));
    expect([await rebateWallet(r1), await rebateWallet(r2), await rebateWallet(r3), await rebateWallet(r4)]).toEqual([10_000_000n, 10_000_000n, 200_000n, 20_000_000n]);
    expect(await rebateWallet(payer)).toBe(0n);
    expect(await ops('rebates:rates', '--none', String(DEFAULT_REBATE_RATES.none / 100), '--VIP1', String(DEFAULT_REBATE_RATES.VIP1 / 100), '--VIP3', String(DEFAULT_REBATE_RATES.VIP3 / 100))).toBe(0);

    // Again, and a run for the same day from the job's function: nothing paid twice.
    expect(await ops('rebates:settle', '--date', today())).toBe(0);
    expect(out.at(-1)).toMatch(/: 0 payment\(s\) settled, 0 rebate\(s\), 0\.000000 Lightning$/);
    expect((await settleRebates(t.database.db, TZ, today())).payments).toBe(0);
    expect([await rebateWallet(r1), await rebateWallet(r4)]).toEqual([10_000_000n, 20_000_000n]);
    const [payment] = await t.database.exec<{ id: string }>(`select id::text as id from ledger_entries where idempotency_key = $1`, [`benefit:${(await t.database.exec<{ id: string }>('select id::text as id from benefit_purchases where user_id = $1', [payer.id]))[0].id}`]);
    const [entry] = await t.database.exec<{ n: number; kind: string; memo: string }>(`select count(*)::int as n, min(kind) as kind, min(memo) as memo from ledger_entries where idempotency_key = $1`, [`rebate:${payment.id}`]);
    expect(entry).toEqual({ n: 1, kind: 'rebate', memo: `payment #${payment.id}` });

    // The records name the payment; the team page sums today, this month, ever.
    const records = await get<WalletRecords>(r2, '/user/api/wallet/records?type=rebate');
    expect(records.list).toMatchObject([{ type: 'rebate', wallet: 'rebate', amount: '10.000000', memo: `payment #${payment.id}`, paymentId: Number(payment.id) }]);
    const summary = await get<TeamSummary>(r3, '/user/api/team/summary');
    expect(summary.rebate).toEqual({ today: '0.200000', month: '0.200000', total: '0.200000', timeZone: TZ });

    const list = await get<RebateList>(r3, '/user/api/rebate/list');
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ paymentId: Number(payment.id), depth: 3, level: 'VIP1', kind: 'share', rate: '2', paymentAmount: '100.000000', amount: '0.200000', payer: { userCode: payer.userCode } });
    expect((await get<RebateList>(r4, '/user/api/rebate/list')).list[0]).toMatchObject({ depth: 4, level: 'VIP3', kind: 'differential', rate: '20', amount: '20.000000' });
    // Only the caller's own: the payer has none, and no one reads another's.
    expect((await get<RebateList>(payer, '/user/api/rebate/list')).total).toBe(0);
    expect((await t.call('GET', '/user/api/rebate/list')).statusCode).toBe(401);
    expect((await t.call('GET', '/user/api/rebate/export')).statusCode).toBe(401);
    expect((await t.call('GET', '/user/api/rebate/list?size=51', { token: r4.token })).statusCode).toBe(422);

    const csv = await t.call('GET', '/user/api/rebate/export', { token: r1.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('credited_at,payment_id,paid_at,payer_code,payer_nickname,depth,level,kind,rate_percent,payment_amount,amount');
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(new RegExp(`,${payment.id},.*,${payer.userCode},,1,none,differential,10,100.000000,10.000000$`));

    // Into the balance wallet, as any rebate.
    const moved = await t.call('POST', '/user/api/wallet/transfer', { token: r1.token, body: { amount: '10', idempotencyKey: `rebate-move-${r1.id}` } });
    expect(moved.statusCode).toBe(200);
    expect((await userBalances(t.database.db, r1.id)).balance.posted).toBe(10_000_000n);
    expect(await verifyLedger(t.database.db)).toEqual([]);
  });

  it('random trees, level histories and payment streams: each referrer paid what rebatesOf says, settled twice, once', { timeout: 300_000 }, async () => {
    let run = 0;
    let paidOut = 0n;
    await fc.assert(
      fc.asyncProperty(
        // Each user's parent among those before (or none), a level history, and payments (payer, amount, when among the level changes).
        fc.array(fc.record({ parent: fc.nat(), root: fc.boolean(), levels: fc.array(fc.constantFrom('none', 'VIP1', 'VIP2', 'VIP3'), { minLength: 1, maxLength: 3 }) }), { minLength: 2, maxLength: 12 }),
        fc.array(fc.record({ payer: fc.nat(), amount: fc.bigInt({ min: 1n, max: 500_000_000n }), phase: fc.nat({ max: 2 }) }), { minLength: 1, maxLength: 15 }),
        async (shape, stream) => {
          run++;
          const db = t.database;
          const ids: number[] = [];
          const parent: Array<number | null> = [];
          for (const [i, s] of shape.entries()) {
            const p = i === 0 || s.root ? null : ids[s.parent % i];
            const [row] = await db.exec<{ id: string }>(
              `insert into users (mail, password_hash, user_code, country, referrer_id, user_level) values ($1, 'x', $2, 'SG', $3, $4) returning id::text as id`,
              [`rbfc${run}-${i}-${Date.now()}@example.com`, `RBFC${run}X${i}X${Date.now() % 100000}`.slice(0, 24), p, s.levels[0]],
            );
            const id = Number(row.id);
            if (p !== null) {
              await db.exec(`insert into user_tree (ancestor_id, descendant_id, depth) select ancestor_id, $2::bigint, depth + 1 from user_tree where descendant_id = $1::bigint union all select $1::bigint, $2::bigint, 1`, [p, id]);
            }
            ids.push(id);
            parent.push(p);
          }
          // Phases: payments of phase k are made after the k-th level change of everyone (as the clock goes).
          const levelAt = (i: number, phase: number) => shape[i].levels[Math.min(phase, shape[i].levels.length - 1)];
          const expected = new Map<number, bigint>();
          for (let phase = 0; phase <= 2; phase++) {
            if (phase > 0) {
              for (const [i, s] of shape.entries()) {
                if (s.levels.length <= phase) continue;
                await db.exec(`update users set user_level = $2 where id = $1`, [ids[i], s.levels[phase]]);
                await db.exec(`insert into user_level_changes (user_id, from_level, to_level, reason) values ($1, $2, $3, 'operator')`, [ids[i], s.levels[phase - 1], s.levels[phase]]);
              }
            }
            for (const [n, p] of stream.entries()) {
              if (p.phase !== phase) continue;
              const i = p.payer % ids.length;
              const payer = ids[i];
              const move = (key: string, kind: string, from: 'adjustments' | null, amount: bigint) =>
                postEntry(db.db, {
                  key,
                  kind,
                  userId: payer,
                  lines: from
                    ? [{ account: { platform: from }, amount: -amount }, { account: { userId: payer, wallet: 'balance' }, amount }]
                    : [{ account: { userId: payer, wallet: 'balance' }, amount: -amount }, { account: { platform: 'revenue' }, amount }],
                });
              await move(`rbfc-fund-${run}-${n}`, 'adjust', 'adjustments', p.amount);
              await move(`rbfc-${run}-${n}`, 'purchase', null, p.amount);
              const upline = [];
              for (let a = parent[i]; a !== null; a = parent[ids.indexOf(a)]) upline.push({ userId: a, level: levelAt(ids.indexOf(a), phase) });
              for (const s of rebatesOf(p.amount, upline, DEFAULT_REBATE_RATES)) expected.set(s.userId, (expected.get(s.userId) ?? 0n) + s.amount);
            }
          }
          await settleRebates(db.db, TZ, today(), { batch: 4 });
          expect((await settleRebates(db.db, TZ, today())).payments).toBe(0);
          for (const id of ids) expect(formatMoney((await userBalances(db.db, id)).rebate.posted)).toBe(formatMoney(expected.get(id) ?? 0n));
          for (const v of expected.values()) paidOut += v;
        },
      ),
      { numRuns: 12 },
    );
    expect(paidOut).toBeGreaterThan(0n); // not vacuous: referrers were paid
    expect(await verifyLedger(t.database.db)).toEqual([]);
  });
});

// Dividends on a real app and database: this month's purchases settled as if the month were over
// (the clock injected), shared equally by the users who were VIP5 at the month's end — one raised
// after it does not share — each share rounded down, paid once however often the settlement runs,
// shown as today's and total dividend in wallet info; the operator command refuses a month not over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WalletInfo } from '@lq/contracts';
import { PAY_PASSWORD, payingUser, registeredUserWithId, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { userBalances, verifyLedger } from '../wallet';
import { monthBounds, settleDividends, settleDueDividends } from './dividends';
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
const info = async (u: User) => (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<WalletInfo>>().data;

describe('dividends', () => {
  it('a month’s revenue share split equally among VIP5 at its end, rounded down, once', async () => {
    const now = new Date();
    const month = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit' }).format(now).slice(0, 7);
    const { to } = monthBounds(month, TZ);

    const vip5 = [await registeredUserWithId(t), await registeredUserWithId(t), await registeredUserWithId(t)];
    for (const u of vip5) expect(await ops('user:set-level', u.mail, 'VIP5')).toBe(0);
    const vip3 = await registeredUserWithId(t);
    expect(await ops('user:set-level', vip3.mail, 'VIP3')).toBe(0);
    // Raised to VIP5 only after the month ends: VIP3 at its end, so no share.
    const later = await registeredUserWithId(t);
    await t.database.exec(`update users set user_level = 'VIP5' where id = $1`, [later.id]);
    await t.database.exec(`insert into user_level_changes (user_id, from_level, to_level, reason, at) values ($1, 'VIP3', 'VIP5', 'operator', $2)`, [later.id, new Date(to.getTime() + 86_400_000).toISOString()]);

    for (let i = 0; i < 2; i++) {
      const payer = await payingUser(t, 100_000_000n);
      expect((await t.call('POST', '/user/api/equity/unlock', { token: payer.token, body: { paidPwd: PAY_PASSWORD, idempotencyKey: `div-unlock-${payer.id}` } })).statusCode).toBe(200);
    }

    // The month is not over: refused, nothing paid.
    expect(await ops('dividends:settle', '--month', month)).toBe(2);
    expect(out.at(-1)).toMatch(/is not over yet/);
    expect(await ops('dividends:settle', '--month', '2026-13')).toBe(2);
    expect(await ops('dividends:settle')).toBe(2);
    expect(await ops('dividends:rate')).toBe(0);
    expect(out.at(-1)).toMatch(/10 %/);

    // As if the month were over: revenue 200, 10 % → 20, three VIP5 → 6.666666 each.
    // Settled by the pass that finds the month over and not settled (as the job runs it, at start and daily).
    const afterMonth = new Date(to.getTime() + 3_600_000);
    const [run, ...more] = await settleDueDividends(t.database.db, TZ, afterMonth);
    expect(more).toEqual([]);
    expect(run).toMatchObject({ month, settledNow: true, revenue: 200_000_000n, rate: 1000, pool: 20_000_000n, recipients: 3, perUser: 6_666_666n });
    for (const u of vip5) expect((await userBalances(t.database.db, u.id)).rebate.posted).toBe(6_666_666n);
    expect((await userBalances(t.database.db, vip3.id)).rebate.posted).toBe(0n);
    expect((await userBalances(t.database.db, later.id)).rebate.posted).toBe(0n);
    expect(await info(vip5[0])).toMatchObject({ todayDividend: '6.666666', totalDividend: '6.666666', rebateWallet: '6.666666' });
    expect(await info(vip3)).toMatchObject({ todayDividend: '0.000000', totalDividend: '0.000000' });

    // Again: the same answer, nothing paid twice.
    const again = await settleDividends(t.database.db, TZ, month, afterMonth);
    expect(again).toMatchObject({ settledNow: false, perUser: 6_666_666n, recipients: 3 });
    expect((await userBalances(t.database.db, vip5[1].id)).rebate.posted).toBe(6_666_666n);
    const [entries] = await t.database.exec<{ n: number }>(`select count(*)::int as n from ledger_entries where idempotency_key = $1`, [`dividend:${month}`]);
    expect(entries.n).toBe(1);

    // A pass missed (issue 53 item 8: the monthly cron fell in a deploy): the next pass, weeks later,
    // settles the month after as well, and only it; one more pass settles nothing.
    const weeksLater = new Date(to.getTime() + 40 * 86_400_000);
    const caughtUp = await settleDueDividends(t.database.db, TZ, weeksLater);
    const nextMonth = new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit' }).format(new Date(to.getTime() + 86_400_000)).slice(0, 7);
    expect(caughtUp.map((r) => [r.month, r.settledNow])).toEqual([[nextMonth, true]]);
    expect(await settleDueDividends(t.database.db, TZ, weeksLater)).toEqual([]);
    expect(await verifyLedger(t.database.db)).toEqual([]);
  });
});

// The console's business settings on a real app and database (both): prices the users' catalogue
// shows once a second operator approved them, VIP thresholds, rebate and dividend rates (two keys
// too), the backtest maintenance switch the shell reads too — each saved with its reason and
// before/after in the audit log, each bad value refused with its field named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REBATE_RATES, DEFAULT_VIP_THRESHOLDS, type ConsoleBusinessSettings } from '@lq/contracts';
import { registerUser, startTestApp, type Envelope, type TestApp } from '../../test/helpers';
import { consoleTestKit } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true, env: { AUTH_CACHE_MS: '0' } });
});
afterAll(() => t?.close());

const { ops, signedIn, settingsApproved } = consoleTestKit(() => t);
const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;

describe('business settings', () => {
  it('sets prices, thresholds, rates and the maintenance switch, each with its reason and audit row; bad values named', async () => {
    const op = await signedIn();
    const call = (url: string, body?: unknown) => t.call(body === undefined ? 'GET' : 'POST', `/console/api${url}`, { token: op.token, body });
    const start = data<ConsoleBusinessSettings>(await call('/settings/business'));
    expect(start).toMatchObject({ prices: { unlock: '100.000000', seat: '10.000000', slot: '10.000000' }, vip: DEFAULT_VIP_THRESHOLDS, rebates: DEFAULT_REBATE_RATES, maintenance: false });

    // Prices (issue 53 item 2): asked by one operator, the catalogue keeps the old ones until another approves.
    const asked = data<ConsoleBusinessSettings>(await call('/settings/prices', { prices: { unlock: '120', seat: '12.5', slot: '9' }, reason: 'new year pricing' }));
    expect(asked.prices).toEqual(start.prices);
    expect(asked.pending.prices).toMatchObject({ mine: true, requestedBy: op.mail, reason: 'new year pricing' });
    expect(asked.pending.prices!.changes.map((c) => [c.key, c.before, c.after])).toEqual([
      ['prices.unlock', '100.000000', '120.000000'],
      ['prices.seat', '10.000000', '12.500000'],
      ['prices.slot', '10.000000', '9.000000'],
    ]);
    const user = await registerUser(t);
    const catalogue = async () => data<{ prices: Record<string, string> }>(await t.call('GET', '/user/api/equity/catalogue', { token: user.token })).prices;
    expect(await catalogue()).toEqual({ unlock: '100.000000', seat: '10.000000', slot: '10.000000' });
    const own = await call('/approvals/approve', { id: asked.pending.prices!.id });
    expect([own.statusCode, own.json<Envelope>().code]).toEqual([403, 'A0218']);
    const second = await signedIn();
    expect((await t.call('POST', '/console/api/approvals/approve', { token: second.token, body: { id: asked.pending.prices!.id } })).statusCode).toBe(200);
    expect(await catalogue()).toEqual({ unlock: '120.000000', seat: '12.500000', slot: '9.000000' });
    expect(data<ConsoleBusinessSettings>(await call('/settings/business')).pending.prices).toBeNull();

    // VIP: VIP1 by own volume alone.
    const vip = { ...DEFAULT_VIP_THRESHOLDS, VIP1: { match: 'any', conditions: [{ measure: 'ownVolume', min: '25000' }] } };
    expect(data<ConsoleBusinessSettings>(await call('/settings/vip', { thresholds: vip, reason: 'tighter entry tier' })).vip.VIP1).toEqual(vip.VIP1);

    // Rates: VIP1 25 %, dividends 1.5 %, once a second operator approved them.
    const rates = { ...DEFAULT_REBATE_RATES, VIP1: 2500 };
    const pendingRates = data<ConsoleBusinessSettings>(await call('/settings/rebates', { rates, dividendRate: 150, reason: 'partner push' }));
    expect([pendingRates.rebates.VIP1, pendingRates.dividendRate]).toEqual([DEFAULT_REBATE_RATES.VIP1, start.dividendRate]);
    expect(pendingRates.pending.rebates!.changes).toContainEqual({ key: 'rates.VIP1', unit: 'bp', before: String(DEFAULT_REBATE_RATES.VIP1), after: '2500' });
    expect((await t.call('POST', '/console/api/approvals/approve', { token: second.token, body: { id: pendingRates.pending.rebates!.id } })).statusCode).toBe(200);
    const rated = data<ConsoleBusinessSettings>(await call('/settings/business'));
    expect([rated.rebates.VIP1, rated.dividendRate]).toEqual([2500, 150]);

    // Maintenance: on for the console and the shell alike, then off.
    expect(data<ConsoleBusinessSettings>(await call('/settings/maintenance', { on: true, reason: 'database upgrade' })).maintenance).toBe(true);
    expect((await ops('backtest:maintenance')).out).toContain('backtest maintenance: on');
    expect(data<ConsoleBusinessSettings>(await call('/settings/maintenance', { on: false, reason: 'done' })).maintenance).toBe(false);

    const bad = async (url: string, body: unknown) => {
      const res = await call(url, body);
      return [res.statusCode, data<{ field?: string }>(res)?.field?.split('.')[0]];
    };
    expect(await bad('/settings/prices', { prices: { unlock: '0', seat: '1', slot: '1' }, reason: 'x' })).toEqual([422, 'prices']);
    expect(await bad('/settings/prices', { prices: { unlock: '1', seat: '1.1234567', slot: '1' }, reason: 'x' })).toEqual([422, 'prices']);
    expect(await bad('/settings/prices', { prices: { unlock: '1', seat: '1', slot: '1' }, reason: '' })).toEqual([422, 'reason']);
    expect(await bad('/settings/vip', { thresholds: { ...vip, VIP2: { match: 'all', conditions: [] } }, reason: 'x' })).toEqual([422, 'thresholds']);
    expect(await bad('/settings/vip', { thresholds: { ...vip, VIP3: { match: 'most', conditions: vip.VIP1.conditions } }, reason: 'x' })).toEqual([422, 'thresholds']);
    expect(await bad('/settings/rebates', { rates: { ...rates, VIP2: 10_001 }, dividendRate: 0, reason: 'x' })).toEqual([422, 'rates']);
    expect(await bad('/settings/rebates', { rates, dividendRate: 10_001, reason: 'x' })).toEqual([422, 'dividendRate']);
    // Rates that could pay more than came in (issue 53 item 3): VIP1 at 100 % with a 100 % same-level
    // share paid 200 for a payment of 100. The worst case (top rate + the share of it) is capped at 50 %.
    const overCap = await call('/settings/rebates', { rates: { ...rates, VIP1: 10_000, sameLevelShare: 10_000 }, dividendRate: 0, reason: 'x' });
    expect([overCap.statusCode, overCap.json<Envelope<{ field: string }>>().code, data<{ field: string }>(overCap).field]).toEqual([422, 'A0386', 'rates']);
    expect(overCap.json<Envelope<null>>().msg).toMatch(/200 %.*50 %/);
    // 49 % + 3 % of it is 50.47 %: refused; 45 % + 10 % of it is 49.5 %: taken.
    expect(await bad('/settings/rebates', { rates: { ...rates, VIP5: 4900, sameLevelShare: 300 }, dividendRate: 150, reason: 'x' })).toEqual([422, 'rates']);
    expect((await settingsApproved<ConsoleBusinessSettings>(op, '/settings/rebates', { rates: { ...rates, VIP5: 4500, sameLevelShare: 1000 }, dividendRate: 150, reason: 'at the cap' })).rebates.VIP5).toBe(4500);
    await settingsApproved(op, '/settings/rebates', { rates, dividendRate: 150, reason: 'back' });
    expect(await bad('/settings/maintenance', { on: 'yes', reason: 'x' })).toEqual([422, 'on']);
    // Nothing changed or asked by the refusals.
    expect(data<ConsoleBusinessSettings>(await call('/settings/business'))).toMatchObject({ prices: { unlock: '120.000000' }, rebates: { VIP2: DEFAULT_REBATE_RATES.VIP2 }, dividendRate: 150, pending: { prices: null, rebates: null } });

    const rows = await t.database.exec<{ action: string; before: unknown; after: unknown; detail: { reason: string } }>(
      `select action, before, after, detail from audit_log where object_type = 'settings' and actor = $1 order by id`,
      [op.mail],
    );
    expect(rows.map((r) => r.action)).toEqual(['settings.prices', 'settings.vip', 'settings.rebates', 'settings.maintenance', 'settings.maintenance', 'settings.rebates', 'settings.rebates']);
    expect(rows[0]).toMatchObject({ before: { 'prices.unlock': '100.000000' }, after: { status: 'pending', values: { 'prices.unlock': '120.000000' } }, detail: { reason: 'new year pricing' } });
    expect(rows[2]).toMatchObject({ before: { dividendRate: String(start.dividendRate) }, after: { status: 'pending', values: { dividendRate: '150' } } });
    expect(rows[3]).toMatchObject({ before: { on: false }, after: { on: true } });
    // The approvals under the second operator's name.
    const approvals = await t.database.exec<{ n: number }>(`select count(*)::int as n from audit_log where action = 'approvals.approve' and actor = $1 and outcome = 'done'`, [second.mail]);
    expect(approvals[0].n).toBe(2);
    // Back to the defaults for the other tests of this database.
    await settingsApproved(op, '/settings/prices', { prices: { unlock: '100', seat: '10', slot: '10' }, reason: 'reset' });
    await call('/settings/vip', { thresholds: DEFAULT_VIP_THRESHOLDS, reason: 'reset' });
    await settingsApproved(op, '/settings/rebates', { rates: DEFAULT_REBATE_RATES, dividendRate: start.dividendRate, reason: 'reset' });
  });
});

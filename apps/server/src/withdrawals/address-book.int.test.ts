// The withdrawal address book (issue 52 item 4) on the real app and database: an address is added
// with a step-up (an e-mail code, or a two-step code when on), waits WITHDRAW_NEW_ADDRESS_HOURS
// before withdrawals to it are accepted, is one entry however it is written, and can be removed;
// withdrawals go nowhere else; the security lock refuses additions. Nothing is held on a refusal.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../platform/totp';
import { freshCode, payingUser, PAY_PASSWORD, registerUser, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { verifyLedger } from '../wallet';

const EVM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const EVM2 = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { AUTH_CACHE_MS: '0' } });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(() => t?.close());

interface Entry {
  id: number;
  network: string;
  address: string;
  label: string;
  usableFrom: string;
  createdAt: string;
}

const add = (u: RegisteredUser, body: Record<string, unknown>) => t.call('POST', '/user/api/withdraw/addresses/add', { token: u.token, body, lang: 'en_US' });
const book = async (u: RegisteredUser) => (await t.call('GET', '/user/api/withdraw/addresses', { token: u.token })).json<Envelope<{ list: Entry[] }>>().data.list;
let seq = 0;
const withdraw = (u: RegisteredUser, address: string) =>
  t.call('POST', '/user/api/withdraw/create', { token: u.token, lang: 'en_US', body: { network: 'BEP20', address, amount: '20', paidPwd: PAY_PASSWORD, idempotencyKey: `book-wd-${++seq}-${Date.now()}` } });
const heldOf = async (id: number) => (await t.database.exec<{ n: string }>('select count(*)::text as n from withdrawals where user_id = $1', [id]))[0].n;

describe('the withdrawal address book', () => {
  it('adds an address with an e-mail code; it waits 24 hours, then takes withdrawals; nowhere else does', async () => {
    const u = await payingUser(t, 100_000_000n);
    expect((await add(u, { network: 'BEP20', address: EVM, label: 'Ledger' })).json()).toMatchObject({ code: 'A0246', data: { field: 'code' } });
    const code = await freshCode(t, u, 'WITHDRAW_ADDRESS');
    const added = (await add(u, { network: 'BEP20', address: EVM, label: ' Ledger ', code })).json<Envelope<Entry>>();
    expect(added.code, added.msg).toBe('00000');
    expect(added.data).toMatchObject({ network: 'BEP20', address: EVM, label: 'Ledger' });
    expect(Math.abs(new Date(added.data.usableFrom).getTime() - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
    expect(await book(u)).toEqual([added.data]);
    // The code was used up.
    expect((await add(u, { network: 'BEP20', address: EVM2, code })).json().code).toBe('A0220');

    // Too new: refused under the address with the time it becomes usable; nothing held.
    const early = await withdraw(u, EVM);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'A0354', data: { field: 'address' } });
    expect(early.json<Envelope>().msg).toMatch(/ UTC/);
    // Not in the book at all.
    expect((await withdraw(u, EVM2)).json()).toMatchObject({ code: 'A0353', data: { field: 'address' } });
    expect(await heldOf(u.id)).toBe('0');

    // A day later (the clock moved on): the withdrawal goes, also to the address written in lowercase.
    await t.database.exec(`update withdraw_addresses set usable_from = now() - interval '1 second' where user_id = $1`, [u.id]);
    const made = await withdraw(u, EVM.toLowerCase());
    expect(made.json().code, made.body).toBe('00000');
    // Both told in the centre (and by e-mail, security notices: notifications' tests).
    const told = await t.database.exec<{ kind: string; params: Record<string, unknown> }>(`select kind, params from notifications where user_id = $1 order by id`, [u.id]);
    expect(told.map((n) => n.kind)).toEqual(['security.addressAdded', 'security.withdrawRequested']);
    expect(told[0].params).toMatchObject({ address: EVM, network: 'BEP20', until: expect.stringMatching(/ UTC$/) });
    expect(told[1].params).toMatchObject({ amount: '20000000', network: 'BEP20' });
  });

  it('one entry per address however written; a bad address or a platform one is refused when added', async () => {
    const u = await payingUser(t, 0n);
    expect((await add(u, { network: 'BEP20', address: EVM, code: await freshCode(t, u, 'WITHDRAW_ADDRESS') })).json().code).toBe('00000');
    const again = await add(u, { network: 'BEP20', address: EVM.toLowerCase(), code: await freshCode(t, u, 'WITHDRAW_ADDRESS') });
    expect(again.json()).toMatchObject({ code: 'A0355', data: { field: 'address' } });
    // The refused addition did not use the code up: it adds another address.
    const code = await freshCode(t, u, 'WITHDRAW_ADDRESS');
    expect((await add(u, { network: 'BEP20', address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c9'.replace('c9', 'C9'), code })).json()).toMatchObject({ code: 'A0371', data: { field: 'address' } });
    expect((await add(u, { network: 'TRC20', address: EVM, code })).json().code).toBe('A0371');
    expect((await add(u, { network: 'BEP20', address: EVM2, code })).json().code).toBe('00000');
    expect((await book(u)).map((e) => e.address)).toEqual([EVM2, EVM]);
  });

  it('removes an entry (the owner’s only); withdrawals to it stop', async () => {
    const u = await payingUser(t, 100_000_000n);
    const other = await registerUser(t);
    const entry = (await add(u, { network: 'BEP20', address: EVM, code: await freshCode(t, u, 'WITHDRAW_ADDRESS') })).json<Envelope<Entry>>().data;
    await t.database.exec(`update withdraw_addresses set usable_from = now() where id = $1`, [entry.id]);
    expect((await t.call('POST', '/user/api/withdraw/addresses/remove', { token: other.token, body: { id: entry.id } })).statusCode).toBe(404);
    expect((await t.call('POST', '/user/api/withdraw/addresses/remove', { token: u.token, body: { id: entry.id } })).json().code).toBe('00000');
    expect(await book(u)).toEqual([]);
    expect((await withdraw(u, EVM)).json().code).toBe('A0353');
    expect((await t.call('POST', '/user/api/withdraw/addresses/remove', { token: u.token, body: { id: entry.id } })).statusCode).toBe(404);
    // Added again later: a new entry that waits again.
    const back = (await add(u, { network: 'BEP20', address: EVM, code: await freshCode(t, u, 'WITHDRAW_ADDRESS') })).json<Envelope<Entry>>();
    expect(back.code).toBe('00000');
    expect(back.data.id).not.toBe(entry.id);
    expect((await withdraw(u, EVM)).json().code).toBe('A0354');
  });

  it('with two-step on, a fresh two-step code; under the security lock, no addition', async () => {
    const u = await registerUser(t);
    const setup = (await t.call('POST', '/user/api/2fa/setup', { token: u.token })).json<Envelope<{ secret: string }>>().data;
    expect((await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code: totpCode(u.mail, setup.secret), password: u.password } })).json().code).toBe('00000');
    // Turning two-step on set the security lock (users' tests): lifted to see the step-up.
    expect((await add(u, { network: 'BEP20', address: EVM, twoFactorCode: totpCode(u.mail, setup.secret, Date.now() + 30_000) })).json().code).toBe('A0379');
    await t.database.exec(`update users set withdraw_locked_until = null where mail = $1`, [u.mail]);
    expect((await add(u, { network: 'BEP20', address: EVM, code: await freshCode(t, u, 'WITHDRAW_ADDRESS') })).json().code).toBe('A0224');
    const added = await add(u, { network: 'BEP20', address: EVM, twoFactorCode: totpCode(u.mail, setup.secret, Date.now() + 30_000) });
    expect(added.json().code, added.body).toBe('00000');

    const locked = await payingUser(t, 0n);
    await t.database.exec(`update users set withdraw_locked_until = now() + interval '5 hours' where id = $1`, [locked.id]);
    const refused = await add(locked, { network: 'BEP20', address: EVM, code: await freshCode(t, locked, 'WITHDRAW_ADDRESS') });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('A0379');
    expect(await book(locked)).toEqual([]);
  });
});

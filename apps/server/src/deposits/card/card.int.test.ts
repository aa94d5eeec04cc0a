// Card deposits on a real app listening on 127.0.0.1 and a real database: a checkout created at
// the simulated provider (over HTTP), paid on its hosted page, credited once by its signed
// webhook; bad and stale signatures, unknown checkouts, replays, a second event for the same
// session, wrong amounts and amounts outside the limits all credit nothing. `verifyLedger` after each.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../../test/helpers';
import { verifyLedger } from '../../wallet';
import { signWebhook } from './provider';

const SECRET = 'card-webhook-secret-for-tests-0123456789';
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startTestApp({ env: { CARD_WEBHOOK_SECRET: SECRET, CARD_DEPOSIT_MIN: '10', CARD_DEPOSIT_MAX: '5000' } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(() => t?.close());

interface Checkout {
  id: number;
  amount: string;
  state: string;
  checkoutUrl: string;
}
let keySeq = 0;
const create = (u: RegisteredUser, amount: unknown, key = `card-key-${Date.now()}-${++keySeq}`, lang = 'en_US') =>
  t.call('POST', '/user/api/recharge/card/create', { token: u.token, body: { amount, idempotencyKey: key }, lang });
const checkout = async (u: RegisteredUser, id: number) => (await t.call('GET', `/user/api/recharge/card/${id}`, { token: u.token })).json<Envelope<Checkout>>();
const balance = async (u: RegisteredUser) => (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<{ balanceWallet: string }>>().data.balanceWallet;
const sessionOf = (c: Checkout) => c.checkoutUrl.split('/').pop()!;

async function webhook(body: object, options: { secret?: string; at?: number; header?: string } = {}) {
  const raw = JSON.stringify(body);
  const header = options.header ?? signWebhook(options.secret ?? SECRET, raw, options.at ?? Math.floor(Date.now() / 1000));
  return fetch(`${base}/user/api/recharge/card/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'lq-signature': header, lang: 'en_US' }, body: raw });
}
const completed = (id: string, session: string, amount: string) => ({ id, type: 'checkout.completed', data: { session, amount, currency: 'USDT' } });

async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited 30 s for: ${check.toString().slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('card deposits (simulated provider)', () => {
  it('pays on the hosted page and is credited once by the webhook', async () => {
    const u = await registerUser(t);
    const limits = (await t.call('GET', '/user/api/recharge/card/limits', { token: u.token })).json<Envelope<object>>().data;
    expect(limits).toEqual({ open: true, min: '10.000000', max: '5000.000000', provider: 'simulated' });
    const res = await create(u, '25.5', 'card-pay-once-1');
    expect(res.statusCode).toBe(200);
    const c = res.json<Envelope<Checkout>>().data;
    expect(c).toMatchObject({ amount: '25.500000', state: 'open' });
    expect(c.checkoutUrl).toMatch(/\/sim-pay\/checkout\/cs_sim_[0-9a-f]{24}$/);
    // A retry with the same key answers the same checkout; another amount under it is refused.
    expect((await create(u, '25.5', 'card-pay-once-1')).json<Envelope<Checkout>>().data.id).toBe(c.id);
    const reused = await create(u, '30', 'card-pay-once-1');
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ code: 'A0350', data: { field: 'idempotencyKey' } });

    const page = await fetch(c.checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(await page.text()).toContain('25.500000 USDT');
    const paid = await fetch(`${c.checkoutUrl}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(paid.status).toBe(200);
    expect(await paid.text()).toContain('Payment complete');
    await until(async () => (await checkout(u, c.id)).data.state === 'paid');
    expect(await balance(u)).toBe('25.500000');
    // Paying again is refused by the provider; nothing more arrives.
    expect((await fetch(`${c.checkoutUrl}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' })).status).toBe(409);
    const records = (await t.call('GET', '/user/api/wallet/records?type=deposit', { token: u.token })).json<Envelope<{ list: { amount: string; memo: string }[] }>>().data.list;
    expect(records).toEqual([expect.objectContaining({ amount: '25.500000', memo: `Card simulated ${sessionOf(c)}` })]);
  });

  it('refuses amounts outside the limits, beyond cents or beyond what a wallet holds, naming the field; nothing is created', async () => {
    const u = await registerUser(t);
    for (const [amount, code, msg] of [
      ['9.99', 'A0361', 'Enter an amount from 10 to 5000 USDT'],
      ['5000.01', 'A0361', 'Enter an amount from 10 to 5000 USDT'],
      // A card is charged in cents: a third decimal is refused as the card network would refuse it.
      ['10.123', 'A0410', 'Amount can have at most 2 decimal places (a card is charged in cents)'],
      ['5000.000001', 'A0410', 'Amount can have at most 2 decimal places (a card is charged in cents)'],
      // More than a BIGINT of micro-units holds: a validation error, not a 500 from the database.
      ['999999999999999', 'A0410', 'Amount is larger than any wallet can hold'],
      ['12.1234567', 'A0410', undefined],
      ['-20', 'A0410', undefined],
      [20, 'A0410', undefined],
    ] as const) {
      const res = await create(u, amount);
      expect(res.statusCode, String(amount)).toBe(422);
      const body = res.json<Envelope<{ field: string }>>();
      expect(body.code).toBe(code);
      expect(body.data.field).toBe('amount');
      if (msg) expect(body.msg).toBe(msg);
    }
    const [{ n }] = await t.database.exec<{ n: string }>('select count(*)::text as n from card_checkouts where user_id = (select id from users where mail = $1)', [u.mail]);
    expect(n).toBe('0');
  });

  it('webhooks: a bad or stale signature, an unknown checkout and a wrong amount credit nothing; a replay is answered once', async () => {
    const u = await registerUser(t);
    const c = (await create(u, '40')).json<Envelope<Checkout>>().data;
    const session = sessionOf(c);
    const event = completed('evt_test_1', session, '40.000000');

    const bad = await webhook(event, { secret: 'another-secret-0123456789abcdef' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'A0363' });
    expect((await webhook(event, { header: 'garbage' })).status).toBe(400);
    const stale = await webhook(event, { at: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.status).toBe(400);
    expect(await stale.json()).toMatchObject({ code: 'A0364', msg: 'Webhook timestamp outside the tolerance window' });
    const unknown = await webhook(completed('evt_test_2', 'cs_sim_nope', '40.000000'));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'A0365' });
    const wrong = await webhook(completed('evt_test_3', session, '400.000000'));
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({ code: 'A0366' });
    expect(await balance(u)).toBe('0.000000');

    const first = await webhook(event);
    expect(await first.json()).toMatchObject({ code: '00000', data: { outcome: 'credited' } });
    const replay = await webhook(event);
    expect(await replay.json()).toMatchObject({ code: '00000', data: { outcome: 'duplicate' } });
    // Another event for the same paid session (a provider resending under a new id): still once.
    const again = await webhook(completed('evt_test_4', session, '40.000000'));
    expect(again.status).toBe(200);
    expect(await balance(u)).toBe('40.000000');
    expect((await checkout(u, c.id)).data.state).toBe('paid');
  });

  it('a cancelled checkout expires; another user sees none of it', async () => {
    const u = await registerUser(t);
    const stranger = await registerUser(t);
    const c = (await create(u, '15')).json<Envelope<Checkout>>().data;
    await fetch(`${c.checkoutUrl}/cancel`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    await until(async () => (await checkout(u, c.id)).data.state === 'expired');
    expect(await balance(u)).toBe('0.000000');
    const other = await t.call('GET', `/user/api/recharge/card/${c.id}`, { token: stranger.token });
    expect(other.statusCode).toBe(404);
  });
});

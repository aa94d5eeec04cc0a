// The backtest operator commands, run while the server holds the database (as `npm run ops` does).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotsOf } from './service';
import { registerUser, startTestApp, type TestApp } from '../../test/helpers';
import { opsRunner } from '../../test/ops-runner';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true, env: { AUTH_CACHE_MS: '0' } });
});
afterAll(() => t?.close());

const ops = opsRunner(() => t);

describe('npm run ops -- backtest:*', () => {
  it('grants extra backtest slots, idempotently', async () => {
    const u = await registerUser(t);
    const id = Number((await t.database.exec<{ id: number }>('select id from users where mail = $1', [u.mail]))[0].id);
    // Nothing is free: without the unlock a user owns no slot.
    expect(await slotsOf(t.database, id, 'crypto')).toBe(0);
    const r = await ops('backtest:slots', u.mail, '2');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('slots in total: forex 2, crypto 2');
    expect(await slotsOf(t.database, id, 'forex')).toBe(2);
    expect((await ops('backtest:slots', u.mail, '2')).out).toContain('forex 2, crypto 2');
    expect((await ops('benefit:unlock', u.mail, '--reason', 'test')).out).toContain('basic rights granted');
    expect((await ops('benefit:unlock', u.mail, '--reason', 'test')).out).toContain('unlocked already');
    expect((await ops('backtest:slots', u.mail, '0')).out).toContain('slots in total: forex 1, crypto 1');
    expect(await slotsOf(t.database, id, 'crypto')).toBe(1);
    const bad = await ops('backtest:slots', u.mail, '-1');
    expect(bad.code).toBe(2);
    const nobody = await ops('backtest:slots', 'nobody@example.com', '1');
    expect(nobody.code).toBe(1);
  });

  it('switches maintenance on and off, which the create call obeys', async () => {
    const u = await registerUser(t);
    await t.database.exec(`update users set user_level = 'VIP1' where mail = $1`, [u.mail]);
    expect((await ops('backtest:maintenance', 'on')).out).toContain('on');
    const body = { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', params: { capital: 10_000 } };
    const closed = await t.call('POST', '/order/api/backtest/create', { token: u.token, body, lang: 'en_US' });
    expect(closed.statusCode).toBe(503);
    expect((await ops('backtest:maintenance', 'off')).out).toContain('off');
    const open = await t.call('POST', '/order/api/backtest/create', { token: u.token, body, lang: 'en_US' });
    expect(open.statusCode).toBe(422); // past maintenance: now the parameters are checked
  });
});

import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSetting, SETTING_KEYS } from '@lq/db';
import { postEntry } from '../wallet';
import { totpCode } from '../platform/totp';
import { Mailer } from '../platform/mail';
import { registerUser, startTestApp, type Envelope, type TestApp } from '../../test/helpers';
import { opsRunner } from '../../test/ops-runner';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
let t: TestApp;
// The server holds the data directory and shares it on its socket, as `npm start` does.
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true, env: { AUTH_CACHE_MS: '0' } });
});
afterAll(() => t?.close());

const env = () => ({
  DATA_DIR: t.dataDir,
  ...(t.config.DATABASE_URL ? { DATABASE_URL: t.config.DATABASE_URL } : {}),
});
const ops = opsRunner(() => t);

describe('npm run ops while the server runs', () => {
  it('lists users and sets a level the API then reports', async () => {
    const u = await registerUser(t);
    const list = await ops('user:list');
    expect(list.code).toBe(0);
    expect(list.out).toContain(u.mail);
    expect(list.out).toContain(u.userCode);

    const set = await ops('user:set-level', u.mail.toUpperCase(), 'VIP2');
    expect(set).toMatchObject({ code: 0, out: `${u.mail}: level VIP2` });
    const info = (await t.call('GET', '/user/api/info', { token: u.token })).json<
      Envelope<{ userLevel: string; isVip: boolean }>
    >();
    expect(info.data).toMatchObject({ userLevel: 'VIP2', isVip: true });
    expect((await ops('user:set-level', u.mail, 'none')).code).toBe(0);
  });

  it('prints the last mail: without SMTP its code while it is good; a delivered one without its words', async () => {
    const u = await registerUser(t);
    // Delivered (this app has SMTP): the outbox kept no words.
    const delivered = await ops('mail:last', u.mail);
    expect(delivered.code).toBe(0);
    expect(delivered.out).toContain(`To: ${u.mail}`);
    expect(delivered.out).toContain('(delivered: its words are not kept)');
    expect(delivered.out).not.toMatch(/\b\d{6}\b/);
    // The embedded demo without SMTP: the code shows while it is good.
    const local = new Mailer(t.database.db, t.app.log, 'from@example.com', undefined);
    await local.send({ to: u.mail, subject: 'Your code 424242', text: 'Your code is 424242', secretUntil: new Date(Date.now() + 600_000) });
    const kept = await ops('mail:last', u.mail);
    expect(kept.out).toContain('Your code is 424242');
    await t.database.exec(`update mail_outbox set secret_until = now() - interval '1 second' where "to" = $1`, [u.mail]);
    const expired = await ops('mail:last', u.mail);
    expect(expired.out).toContain('(its code has expired: its words are not kept)');
    expect(expired.out).not.toContain('424242');
  });

  it('turns two-step off for a user who lost it: sessions end, the lock starts, the owner is told, audited', async () => {
    const u = await registerUser(t);
    const setup = (await t.call('POST', '/user/api/2fa/setup', { token: u.token })).json<Envelope<{ secret: string }>>().data;
    expect((await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code: totpCode(u.mail, setup.secret), password: u.password } })).statusCode).toBe(200);
    await t.database.exec(`update users set withdraw_locked_until = null where mail = $1`, [u.mail]);
    const reset = await ops('user:2fa-reset', u.mail.toUpperCase());
    expect(reset).toMatchObject({ code: 0, out: `${u.mail}: two-step turned off; sessions ended, withdrawals held for 24 hours, the owner told` });
    expect((await t.call('GET', '/user/api/info', { token: u.token })).statusCode).toBe(401);
    const login = (await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password } })).json<Envelope<{ token?: string; twoFactorRequired?: boolean }>>().data;
    expect(login.twoFactorRequired).toBeUndefined();
    const security = (await t.call('GET', '/user/api/security', { token: login.token })).json<Envelope<{ twoFactorEnabled: boolean; withdrawLockedUntil: string | null }>>().data;
    expect(security.twoFactorEnabled).toBe(false);
    expect(Date.parse(security.withdrawLockedUntil!)).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    const kinds = (await t.database.exec<{ kind: string }>(`select n.kind from notifications n join users u on u.id = n.user_id where u.mail = $1 and n.kind = 'security.twoFactorOff'`, [u.mail])).map((r) => r.kind);
    expect(kinds).toEqual(['security.twoFactorOff']);
    const [row] = await t.database.exec<{ action: string; before: unknown; after: unknown; outcome: string }>(`select action, before, after, outcome from audit_log where action = 'user:2fa-reset' order by id desc limit 1`);
    expect(row).toMatchObject({ outcome: 'done', before: { twoFactor: true }, after: { twoFactor: false } });
    expect((await ops('user:2fa-reset', 'nobody@example.com')).code).toBe(1);
  });

  it('switches backtest maintenance', async () => {
    expect((await ops('backtest:maintenance', 'on')).out).toBe('backtest maintenance: on');
    expect(await getSetting(t.database.db, SETTING_KEYS.backtestMaintenance)).toBe(true);
    expect((await ops('backtest:maintenance', 'off')).out).toBe('backtest maintenance: off');
    expect(await getSetting(t.database.db, SETTING_KEYS.backtestMaintenance)).toBe(false);
    expect((await ops('backtest:maintenance')).out).toBe('backtest maintenance: off');
  });

  it('fails clearly with a non-zero exit', async () => {
    expect(await ops('user:set-level', 'nobody@example.com', 'VIP1')).toMatchObject({
      code: 1,
      err: 'user:set-level: no user with e-mail nobody@example.com',
    });
    expect((await ops('user:set-level', 'a@b.co', 'VIP9')).code).toBe(2);
    expect((await ops('mail:last', 'nobody@example.com')).code).toBe(1);
    expect((await ops('user:frobnicate')).code).toBe(2);
    expect((await ops('user:list', 'extra')).code).toBe(2);
    expect((await ops()).code).toBe(2);
  });

  it('works as a separate process', async () => {
    const u = await registerUser(t);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'apps/server/src/ops/main.ts'), 'mail:last', u.mail],
      {
        cwd: repoRoot,
        env: { ...process.env, ...env() },
        timeout: 30_000,
      },
    );
    expect(stdout).toContain(`To: ${u.mail}`);
    const failed = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repoRoot, 'apps/server/src/ops/main.ts'),
        'mail:last',
        'nobody@example.com',
      ],
      {
        cwd: repoRoot,
        env: { ...process.env, ...env() },
        timeout: 30_000,
      },
    ).then(
      () => 0,
      (e: { code: number }) => e.code,
    );
    expect(failed).toBe(1);
  });

  it('ledger:verify: clean after real movements, names each difference and exits 1 when a balance is off', async () => {
    const u = await registerUser(t);
    const [user] = await t.database.exec<{ id: number | string }>('select id from users where mail = $1', [u.mail]);
    await postEntry(t.database.db, {
      key: `ops-verify-${user.id}`,
      kind: 'adjust',
      userId: Number(user.id),
      lines: [
        { account: { platform: 'adjustments' }, amount: -2_500_000n },
        { account: { userId: Number(user.id), wallet: 'rebate' }, amount: 2_500_000n },
      ],
    });
    const clean = await ops('ledger:verify');
    expect(clean.code).toBe(0);
    expect(clean.out).toMatch(/^ledger clean: \d+ entries, \d+ accounts/);
    await t.database.exec(`update ledger_accounts set posted = posted + 1 where user_id = $1 and kind = 'rebate'`, [user.id]);
    const off = await ops('ledger:verify');
    expect(off.code).toBe(1);
    expect(off.out).toContain(`account user:${user.id}:rebate: posted is 2500001, its lines say 2500000`);
    expect(off.err).toContain('1 difference(s) in the ledger');
    await t.database.exec(`update ledger_accounts set posted = posted - 1 where user_id = $1 and kind = 'rebate'`, [user.id]);
    expect((await ops('ledger:verify')).code).toBe(0);
  });

  it('wallet:adjust credits and debits with a reason, once per key, never below zero', async () => {
    const u = await registerUser(t);
    const credit = await ops('wallet:adjust', u.mail, '25.5', '--wallet', 'rebate', '--reason', 'launch bonus', '--key', `adj-${u.mail}`);
    expect(credit).toMatchObject({ code: 0 });
    expect(credit.out).toMatch(new RegExp(`^credited 25\\.500000 to ${u.mail.replace(/[.]/g, '\\.')}'s rebate wallet: entry \\d+; now 25\\.500000$`));
    const again = await ops('wallet:adjust', u.mail, '25.5', '--wallet', 'rebate', '--reason', 'launch bonus', '--key', `adj-${u.mail}`);
    expect(again.out).toMatch(/^already done: entry \d+/);
    const other = await ops('wallet:adjust', u.mail, '30', '--wallet', 'rebate', '--reason', 'launch bonus', '--key', `adj-${u.mail}`);
    expect(other).toMatchObject({ code: 1 });
    expect(other.err).toContain('was already used for another adjustment');
    const tooMuch = await ops('wallet:adjust', u.mail, '-25.500001', '--wallet', 'rebate', '--reason', 'fix', '--key', `adj2-${u.mail}`);
    expect(tooMuch).toMatchObject({ code: 1 });
    expect(tooMuch.err).toContain('the rebate wallet holds 25.500000');
    const debit = await ops('wallet:adjust', u.mail, '-0.5', '--wallet', 'rebate', '--reason', 'fix', '--key', `adj3-${u.mail}`);
    expect(debit.out).toMatch(/debited 0\.500000 from .*rebate wallet: entry \d+; now 25\.000000$/);
    const info = (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<{ rebateWallet: string }>>();
    expect(info.data.rebateWallet).toBe('25.000000');
    for (const bad of [
      ['wallet:adjust', u.mail, '1.0000001', '--wallet', 'rebate', '--reason', 'x', '--key', 'k1'],
      ['wallet:adjust', u.mail, '1', '--wallet', 'savings', '--reason', 'x', '--key', 'k1'],
      ['wallet:adjust', u.mail, '1', '--wallet', 'rebate', '--key', 'k1'],
      ['wallet:adjust', u.mail, '1', '--wallet', 'rebate', '--reason', 'x'],
    ]) {
      expect((await ops(...bad)).code).toBe(2);
    }
    expect((await ops('wallet:adjust', 'nobody@example.com', '1', '--wallet', 'rebate', '--reason', 'x', '--key', 'k9')).err).toContain('no user with e-mail');
    // A key the shell used before keys had sources (`adjust:<key>`) is refused, not posted again under the new one.
    const [{ id: userId }] = await t.database.exec<{ id: string }>('select id::text as id from users where mail = $1', [u.mail]);
    await postEntry(t.database.db, { key: `adjust:approval:old-${u.mail}`, kind: 'adjust', userId: Number(userId), memo: 'before sources', lines: [{ account: { platform: 'adjustments' }, amount: -1_000_000n }, { account: { userId: Number(userId), wallet: 'rebate' }, amount: 1_000_000n }] });
    const old = await ops('wallet:adjust', u.mail, '1', '--wallet', 'rebate', '--reason', 'before sources', '--key', `approval:old-${u.mail}`);
    expect([old.code, old.err.includes('was used before')]).toEqual([1, true]);
    expect((await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<{ rebateWallet: string }>>().data.rebateWallet).toBe('26.000000');
    expect((await ops('ledger:verify')).code).toBe(0);
  });
});

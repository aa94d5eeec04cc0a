// Two-step verification (issue 52, slice 1): enrolment, the sign-in's second step, recovery codes,
// and the step-up of the actions that move money or keys — on the real app and database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../platform/totp';
import { freshCode, payingUser, PAY_PASSWORD, randomIp, registerUser, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { verifyLedger } from '../wallet';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ bookWithdrawAddresses: true, env: { AUTH_CACHE_MS: '0', } });
});
afterAll(() => t?.close());

const STEP = 30_000;
/** An e-mail code of `type` for the signed-in `u` (the 60 s between sends is tested elsewhere). */
const mailCode = (u: RegisteredUser, type: string) => freshCode(t, u, type);
/** Lets the next code of the app be accepted again (a code is good once per time step). */
const forgetLastStep = (mail: string) => t.database.exec('update users set totp_last_step = 0 where mail = $1', [mail]);

/** Turns two-step on for `u` through the API: its secret and recovery codes. */
async function enrol(u: RegisteredUser): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = (await t.call('POST', '/user/api/2fa/setup', { token: u.token })).json<Envelope<{ secret: string; otpauthUrl: string }>>();
  expect(setup.code, setup.msg).toBe('00000');
  const enabled = (await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code: totpCode(u.mail, setup.data.secret), password: u.password } })).json<Envelope<{ recoveryCodes: string[] }>>();
  expect(enabled.code, enabled.msg).toBe('00000');
  await forgetLastStep(u.mail);
  // Turning it on sets the security lock, tested on its own ('the security lock'): lifted here.
  await t.database.exec('update users set withdraw_locked_until = null where mail = $1', [u.mail]);
  return { secret: setup.data.secret, recoveryCodes: enabled.data.recoveryCodes };
}

const login = (u: RegisteredUser, ip = randomIp()) =>
  t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password }, ip });

async function challengeOf(u: RegisteredUser, ip?: string): Promise<string> {
  const res = (await login(u, ip)).json<Envelope<{ twoFactorRequired: boolean; challenge: string; methods: string[] }>>();
  expect(res.code, res.msg).toBe('00000');
  expect(res.data).toMatchObject({ twoFactorRequired: true, methods: ['totp', 'recovery'] });
  expect(res.data).not.toHaveProperty('token');
  return res.data.challenge;
}

describe('enrolment', () => {
  it('sets up, proves the secret with a code, answers ten recovery codes once; info tells it is on', async () => {
    const u = await registerUser(t);
    const setup = (await t.call('POST', '/user/api/2fa/setup', { token: u.token })).json<Envelope<{ secret: string; otpauthUrl: string }>>();
    expect(setup.data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Lightning%20Quant:/);
    expect(setup.data.otpauthUrl).toContain(`secret=${setup.data.secret}`);
    // The secret is kept sealed, never in clear.
    const [row] = await t.database.exec<{ totp_pending_secret: string }>('select totp_pending_secret from users where mail = $1', [u.mail]);
    expect(row.totp_pending_secret).toMatch(/^v1:/);
    expect(row.totp_pending_secret).not.toContain(setup.data.secret);

    const wrong = await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code: '000000', password: u.password } });
    expect(wrong.json().code).toBe('A0225');
    const enabled = (await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code: totpCode(u.mail, setup.data.secret), password: u.password } })).json<Envelope<{ recoveryCodes: string[] }>>();
    expect(enabled.code).toBe('00000');
    expect(enabled.data.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.data.recoveryCodes).size).toBe(10);
    const stored = await t.database.exec<{ code_hash: string }>('select code_hash from user_recovery_codes r join users u on u.id = r.user_id where u.mail = $1', [u.mail]);
    expect(stored).toHaveLength(10);
    expect(stored.map((s) => s.code_hash)).not.toContain(enabled.data.recoveryCodes[0]);

    const info = (await t.call('GET', '/user/api/info', { token: u.token })).json<Envelope<{ twoFactorEnabled: boolean }>>();
    expect(info.data.twoFactorEnabled).toBe(true);
    expect((await t.call('POST', '/user/api/2fa/setup', { token: u.token })).json().code).toBe('A0228');
    expect((await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code: '123456', password: u.password } })).json().code).toBe('A0228');
  });

  it('a stolen session alone cannot turn it on (the password is asked); turning it on ends the other sessions', async () => {
    const u = await registerUser(t);
    const other = (await login(u)).json<Envelope<{ token: string }>>().data.token;
    const setup = (await t.call('POST', '/user/api/2fa/setup', { token: u.token })).json<Envelope<{ secret: string }>>();
    const code = totpCode(u.mail, setup.data.secret);
    const noPassword = await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code } });
    expect(noPassword.statusCode).toBe(422);
    const wrong = await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code, password: 'NotThePass1' } });
    expect(wrong.json()).toMatchObject({ code: 'A0212', data: { field: 'password' } });
    expect((await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code, password: u.password } })).json().code).toBe('00000');
    expect((await t.call('GET', '/user/api/info', { token: other })).statusCode).toBe(401);
    expect((await t.call('GET', '/user/api/info', { token: u.token })).statusCode).toBe(200);
  });

  it('refuses enable without a setup, and needs a login', async () => {
    const u = await registerUser(t);
    expect((await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code: '123456', password: u.password } })).json().code).toBe('A0245');
    expect((await t.call('POST', '/user/api/2fa/setup')).statusCode).toBe(401);
  });
});

describe('the sign-in with two-step on', () => {
  it('answers a challenge, not a token; the second step gives the session; a replayed code is refused', async () => {
    const u = await registerUser(t);
    const { secret } = await enrol(u);
    const challenge = await challengeOf(u);
    const code = totpCode(u.mail, secret);
    const done = (await t.call('POST', '/user/api/login/2fa', { body: { challenge, code } })).json<Envelope<{ token: string; user: { mail: string; twoFactorEnabled: boolean } }>>();
    expect(done.code, done.msg).toBe('00000');
    expect(done.data.user).toMatchObject({ mail: u.mail, twoFactorEnabled: true });
    expect((await t.call('GET', '/user/api/info', { token: done.data.token })).statusCode).toBe(200);
    // The challenge is used up, and the same code on a new challenge is refused (good once).
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge, code } })).json().code).toBe('A0227');
    const again = await challengeOf(u);
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: again, code } })).json().code).toBe('A0225');
  });

  it('two requests at once with one challenge and code: one session', async () => {
    const u = await registerUser(t);
    const { secret } = await enrol(u);
    const challenge = await challengeOf(u);
    const code = totpCode(u.mail, secret);
    const answers = await Promise.all([0, 1, 2].map(() => t.call('POST', '/user/api/login/2fa', { body: { challenge, code } })));
    expect(answers.filter((a) => a.json().code === '00000')).toHaveLength(1);
  });

  it('takes a recovery code once (dashes and case aside)', async () => {
    const u = await registerUser(t);
    const { recoveryCodes } = await enrol(u);
    const typed = recoveryCodes[3].replace(/-/g, '').toLowerCase();
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: await challengeOf(u), code: typed } })).json().code).toBe('00000');
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: await challengeOf(u), code: recoveryCodes[3] } })).json().code).toBe('A0225');
  });

  it('5 wrong codes void the challenge and pause the second step; each counts as a failed sign-in from that address', async () => {
    const u = await registerUser(t);
    const { secret } = await enrol(u);
    const ip = randomIp();
    const challenge = await challengeOf(u, ip);
    for (let i = 0; i < 4; i++) expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge, code: '000000' }, ip })).json().code).toBe('A0225');
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge, code: '000000' }, ip })).json().code).toBe('A0226');
    // Void: the right code no longer opens it.
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge, code: totpCode(u.mail, secret) }, ip })).json().code).toBe('A0227');
    // The five wrong codes lock sign-ins of this address from this IP (LOGIN_MAX_FAILURES = 5).
    expect((await login(u, ip)).json().code).toBe('A0211');
  });

  it('new challenges from other addresses share one budget of wrong codes, then the pause', async () => {
    const u = await registerUser(t);
    const { secret } = await enrol(u);
    const first = await challengeOf(u, randomIp());
    for (let i = 0; i < 3; i++) expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: first, code: '000000' }, ip: randomIp() })).json().code).toBe('A0225');
    const second = await challengeOf(u, randomIp());
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: second, code: '000000' }, ip: randomIp() })).json().code).toBe('A0225');
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: second, code: '000000' }, ip: randomIp() })).json().code).toBe('A0226');
    // Paused for the user: a fresh challenge from yet another address with the right code waits too.
    const third = await challengeOf(u, randomIp());
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: third, code: totpCode(u.mail, secret) }, ip: randomIp() })).json().code).toBe('A0226');
    await t.database.exec(`update users set two_factor_locked_until = now() - interval '1 second' where mail = $1`, [u.mail]);
    const fourth = await challengeOf(u, randomIp());
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: fourth, code: totpCode(u.mail, secret) }, ip: randomIp() })).json().code).toBe('00000');
  });

  it('a new challenge voids the one before: one open per user', async () => {
    const u = await registerUser(t);
    const { secret } = await enrol(u);
    const first = await challengeOf(u);
    const second = await challengeOf(u);
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: first, code: totpCode(u.mail, secret) } })).json().code).toBe('A0227');
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: second, code: totpCode(u.mail, secret) } })).json().code).toBe('00000');
  });

  it('a challenge lives 5 minutes', async () => {
    const u = await registerUser(t);
    const { secret } = await enrol(u);
    const challenge = await challengeOf(u);
    await t.database.exec(`update login_challenges set expires_at = now() - interval '1 second' where user_id = (select id from users where mail = $1)`, [u.mail]);
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge, code: totpCode(u.mail, secret) } })).json().code).toBe('A0227');
  });
});

describe('step-up', () => {
  it('withdraw/create with two-step on needs a fresh code; the same key answers the first result without one', async () => {
    const u = await payingUser(t, 100_000_000n);
    const { secret } = await enrol(u);
    const body = { network: 'BEP20', address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', amount: '20', paidPwd: PAY_PASSWORD, idempotencyKey: `w2fa-key-${u.id}` };
    const missing = (await t.call('POST', '/user/api/withdraw/create', { token: u.token, body })).json<Envelope<{ field: string }>>();
    expect(missing.code).toBe('A0224');
    expect((await t.call('POST', '/user/api/withdraw/create', { token: u.token, body: { ...body, twoFactorCode: '000000' } })).json().code).toBe('A0225');
    const code = totpCode(u.mail, secret);
    const made = (await t.call('POST', '/user/api/withdraw/create', { token: u.token, body: { ...body, twoFactorCode: code } })).json<Envelope<{ id: number }>>();
    expect(made.code, made.msg).toBe('00000');
    // A retry of the same request (its answer lost) is answered as the first, the used code aside.
    const retry = (await t.call('POST', '/user/api/withdraw/create', { token: u.token, body: { ...body, twoFactorCode: code } })).json<Envelope<{ id: number }>>();
    expect(retry.data.id).toBe(made.data.id);
    // Another withdrawal with the used code: refused.
    expect((await t.call('POST', '/user/api/withdraw/create', { token: u.token, body: { ...body, idempotencyKey: `w2fa-b-${u.id}`, twoFactorCode: code } })).json().code).toBe('A0225');
    expect(await verifyLedger(t.database.db)).toEqual([]);
  });

  it('5 wrong step-up codes pause step-up, the right code included', async () => {
    const u = await payingUser(t, 0n);
    const { secret } = await enrol(u);
    const bind = (twoFactorCode: string) => t.call('POST', '/user/api/apikey/bind', { token: u.token, body: { exchange: 'mt5', accountName: 'FX', twoFactorCode } });
    // Sent at once: no more than five are compared.
    const wrong = await Promise.all([0, 1, 2, 3, 4, 5, 6].map(() => bind('111111')));
    const codes = wrong.map((w) => w.json().code);
    expect(codes.filter((c) => c === 'A0225').length).toBeLessThanOrEqual(4);
    expect(codes).toContain('A0226');
    expect((await bind(totpCode(u.mail, secret))).json().code).toBe('A0226');
  });

  it('binding a trading account: a two-step code when on, else an API_KEY e-mail code used once', async () => {
    const u = await registerUser(t);
    const bind = (extra: Record<string, string>) => t.call('POST', '/user/api/apikey/bind', { token: u.token, body: { exchange: 'mt5', accountName: 'FX', ...extra } });
    expect((await bind({})).json().code).toBe('A0246');
    const code = await mailCode(u, 'API_KEY');
    expect((await bind({ code })).json().code).toBe('00000');
    const [told] = await t.database.exec<{ kind: string; params: Record<string, unknown> }>(`select n.kind, n.params from notifications n join users u on u.id = n.user_id where u.mail = $1 and n.kind = 'security.accountBound'`, [u.mail]);
    expect(told.params).toEqual({ accountName: 'FX', exchange: 'mt5' });
    expect((await bind({ code })).json().code).toBe('A0220');

    const { secret } = await enrol(u);
    expect((await bind({ code: await mailCode(u, 'API_KEY') })).json().code).toBe('A0224');
    expect((await bind({ twoFactorCode: totpCode(u.mail, secret, Date.now() + STEP) })).json().code).toBe('00000');
  });

  it('the own-address code types need a login and go to the own address', async () => {
    const u = await registerUser(t);
    const other = await registerUser(t);
    const anonymous = await t.call('POST', '/user/api/verify-code/send', { body: { userMail: u.mail, codeType: 'SECURITY' } });
    expect(anonymous.statusCode).toBe(401);
    await t.database.exec(`update verification_codes set created_at = created_at - interval '61 seconds' where mail = $1`, [u.mail]);
    const before = t.smtp.countTo(other.mail);
    expect((await t.call('POST', '/user/api/verify-code/send', { token: u.token, body: { userMail: other.mail, codeType: 'WITHDRAW_ADDRESS' } })).statusCode).toBe(200);
    await t.smtp.waitFor(u.mail);
    expect(t.smtp.countTo(other.mail)).toBe(before);
  });

  it('changing the payment password with two-step on needs the e-mail code and a two-step code', async () => {
    const u = await registerUser(t);
    const { secret } = await enrol(u);
    const code = await mailCode(u, 'MAIL_PAID_PWD_RESET');
    const body = { code, paidPwd: '246810', paidPwdAgain: '246810' };
    expect((await t.call('POST', '/user/api/paid-pwd/edit', { token: u.token, body })).json().code).toBe('A0224');
    expect((await t.call('POST', '/user/api/paid-pwd/edit', { token: u.token, body: { ...body, twoFactorCode: totpCode(u.mail, secret) } })).json().code).toBe('00000');
  });

  it('disabling needs a code and the password; afterwards sign-in gives a token again', async () => {
    const u = await registerUser(t);
    const { secret, recoveryCodes } = await enrol(u);
    expect((await t.call('POST', '/user/api/2fa/disable', { token: u.token, body: { code: totpCode(u.mail, secret), password: 'wrong-pass1' } })).json().code).toBe('A0212');
    expect((await t.call('POST', '/user/api/2fa/disable', { token: u.token, body: { code: '000000', password: u.password } })).json().code).toBe('A0225');
    expect((await t.call('POST', '/user/api/2fa/disable', { token: u.token, body: { code: recoveryCodes[0], password: u.password } })).json().code).toBe('00000');
    const res = (await login(u)).json<Envelope<{ token: string }>>();
    expect(res.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await t.database.exec('select 1 from user_recovery_codes r join users u on u.id = r.user_id where u.mail = $1', [u.mail])).length).toBe(0);
    expect((await t.call('POST', '/user/api/2fa/disable', { token: u.token, body: { code: '123456', password: u.password } })).json().code).toBe('A0229');
  });
});

describe('the security lock', () => {
  const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const withdraw = (u: RegisteredUser, key: string) =>
    t.call('POST', '/user/api/withdraw/create', { token: u.token, body: { network: 'BEP20', address: ADDRESS, amount: '20', paidPwd: PAY_PASSWORD, idempotencyKey: key } });
  const security = async (u: RegisteredUser) => (await t.call('GET', '/user/api/security', { token: u.token })).json<Envelope<{ twoFactorEnabled: boolean; withdrawLockedUntil: string | null }>>().data;
  const securityKinds = async (id: number) =>
    (await t.database.exec<{ kind: string }>(`select kind from notifications where user_id = $1 and kind like 'security.%' and kind <> 'security.signIn' order by id`, [id])).map((r) => r.kind);
  const heldOf = async (id: number) => (await t.database.exec<{ n: string }>('select count(*)::text as n from withdrawals where user_id = $1', [id]))[0].n;
  /** The lock holds for 24 hours from the change (a minute of slack either way). */
  const expectLockedFor24h = (until: string | null) => {
    expect(until).not.toBeNull();
    expect(Math.abs(new Date(until!).getTime() - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
  };

  it('the first payment password locks nothing; changing it refuses withdrawals for 24 hours, nothing held', async () => {
    const u = await registerUser(t);
    const [row] = await t.database.exec<{ id: string }>('select id::text as id from users where mail = $1', [u.mail]);
    const id = Number(row.id);
    const set = await t.call('POST', '/user/api/paid-pwd/edit', { token: u.token, body: { code: await mailCode(u, 'MAIL_PAID_PWD_RESET'), paidPwd: PAY_PASSWORD, paidPwdAgain: PAY_PASSWORD } });
    expect(set.json().code).toBe('00000');
    expect(await security(u)).toEqual({ twoFactorEnabled: false, withdrawLockedUntil: null, antiPhishingPhrase: null });
    expect(await securityKinds(id)).toEqual([]); // the first setting tells nothing

    const changed = await t.call('POST', '/user/api/paid-pwd/edit', { token: u.token, body: { code: await mailCode(u, 'MAIL_PAID_PWD_RESET'), paidPwd: '135790', paidPwdAgain: '135790' } });
    expect(changed.json().code).toBe('00000');
    expectLockedFor24h((await security(u)).withdrawLockedUntil);
    expect(await securityKinds(id)).toEqual(['security.payPasswordChanged']);
    const refused = await t.call('POST', '/user/api/withdraw/create', { token: u.token, body: { network: 'BEP20', address: ADDRESS, amount: '20', paidPwd: '135790', idempotencyKey: `lock-pay-${id}` } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'A0379' });
    expect(refused.json<Envelope>().msg).toMatch(/ UTC/);
    expect(await heldOf(id)).toBe('0');
    expect(await verifyLedger(t.database.db)).toEqual([]);
  });

  it('a login-password change, a reset and two-step turned off each set the lock; when it ends, withdrawals go again', async () => {
    const changer = await payingUser(t, 100_000_000n);
    expect((await withdraw(changer, `lock-before-${changer.id}`)).json().code).toBe('00000');
    const changed = await t.call('POST', '/user/api/password/change', { token: changer.token, body: { oldPassword: changer.password, password: 'NewPass2026x', passwordAgain: 'NewPass2026x' } });
    expect(changed.json().code, changed.body).toBe('00000');
    expectLockedFor24h((await security(changer)).withdrawLockedUntil);
    expect((await withdraw(changer, `lock-after-${changer.id}`)).json().code).toBe('A0379');
    // Ended (the clock moved on): withdrawals go again.
    await t.database.exec(`update users set withdraw_locked_until = now() - interval '1 second' where id = $1`, [changer.id]);
    expect((await security(changer)).withdrawLockedUntil).toBeNull();
    expect((await withdraw(changer, `lock-ended-${changer.id}`)).json().code).toBe('00000');

    const resetter = await payingUser(t, 0n);
    const code = await mailCode(resetter, 'LOGIN_PWD_RESET');
    const reset = await t.call('POST', '/user/api/password/reset', { body: { userMail: resetter.mail, code, password: 'Reset2026xx', passwordAgain: 'Reset2026xx' } });
    expect(reset.json().code, reset.body).toBe('00000');
    const again = (await t.call('POST', '/user/api/login', { body: { userMail: resetter.mail, password: 'Reset2026xx' }, ip: randomIp() })).json<Envelope<{ token: string }>>();
    expectLockedFor24h((await security({ ...resetter, token: again.data.token })).withdrawLockedUntil);

    const off = await payingUser(t, 0n);
    const setup = (await t.call('POST', '/user/api/2fa/setup', { token: off.token })).json<Envelope<{ secret: string }>>().data;
    const on = (await t.call('POST', '/user/api/2fa/enable', { token: off.token, body: { code: totpCode(off.mail, setup.secret), password: off.password } })).json<Envelope<{ recoveryCodes: string[] }>>();
    const { recoveryCodes } = on.data;
    // Turning it on sets the lock as well (a thief with the password turning it on withdraws nothing for a day).
    expectLockedFor24h((await security(off)).withdrawLockedUntil);
    await t.database.exec(`update users set withdraw_locked_until = null where id = $1`, [off.id]);
    expect((await t.call('POST', '/user/api/2fa/disable', { token: off.token, body: { code: recoveryCodes[0], password: off.password } })).json().code).toBe('00000');
    expect(await security(off)).toMatchObject({ twoFactorEnabled: false });
    expect(await securityKinds(off.id)).toEqual(['security.twoFactorOn', 'security.twoFactorOff']);
    expect(await securityKinds(changer.id)).toEqual(['security.withdrawRequested', 'security.passwordChanged', 'security.withdrawRequested']);
    expectLockedFor24h((await security(off)).withdrawLockedUntil);
    expect(await verifyLedger(t.database.db)).toEqual([]);
  });

  it('a lock never shortens one that ends later', async () => {
    const u = await payingUser(t, 0n);
    await t.database.exec(`update users set withdraw_locked_until = now() + interval '30 hours' where id = $1`, [u.id]);
    await t.call('POST', '/user/api/password/change', { token: u.token, body: { oldPassword: u.password, password: 'NewPass2026x', passwordAgain: 'NewPass2026x' } });
    const until = new Date((await security(u)).withdrawLockedUntil!).getTime();
    expect(until).toBeGreaterThan(Date.now() + 29 * 3600_000);
  });
});

describe('the anti-phishing phrase', () => {
  it('is set with a SECURITY e-mail code, shown in security, printed first in every mail; empty removes it', async () => {
    const u = await registerUser(t);
    const set = (body: Record<string, unknown>) => t.call('POST', '/user/api/security/anti-phishing', { token: u.token, body });
    expect((await set({ phrase: 'Blue heron 42' })).json().code).toBe('A0246');
    expect((await set({ phrase: 'Bad\nline', code: '123456' })).statusCode).toBe(422);
    expect((await set({ phrase: 'x'.repeat(33), code: '123456' })).statusCode).toBe(422);
    expect((await set({ phrase: ' Blue heron 42 ', code: await mailCode(u, 'SECURITY') })).json().code).toBe('00000');
    const info = (await t.call('GET', '/user/api/security', { token: u.token })).json<Envelope<{ antiPhishingPhrase: string | null }>>().data;
    expect(info.antiPhishingPhrase).toBe('Blue heron 42');
    // The next mail (a code) carries it on its first line.
    await mailCode(u, 'MAIL_PAID_PWD_RESET');
    const mails = t.smtp.mailsTo(u.mail);
    // First line, in the user's language (registration's), then a blank line.
    expect(mails.at(-1)!.text.split('\n').slice(0, 2)).toEqual([expect.stringContaining('Blue heron 42'), '']);
    expect((await set({ phrase: '', code: await mailCode(u, 'SECURITY') })).json().code).toBe('00000');
    await mailCode(u, 'MAIL_PAID_PWD_RESET');
    expect(t.smtp.mailsTo(u.mail).at(-1)!.text).not.toContain('Blue heron 42');
  });
});

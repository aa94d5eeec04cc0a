// Limits that hold against many addresses (issue 52 item 8): an address guessed at from a botnet
// needs a LOGIN e-mail code as well (its owner still signs in), and wrong e-mail codes are capped
// per address and type over 24 hours, across re-sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_DAILY_WRONG_MAX, LOGIN_GUARD_FAILURES } from '@lq/contracts';
import { randomIp, registerUser, requestCode, startTestApp, uniqueMail, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { totpCode } from '../platform/totp';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { MAIL_CODE_INTERVAL_SECONDS: '1' } });
});
afterAll(() => t?.close());

const login = (mail: string, password: string, extra: { code?: string } = {}, ip = randomIp()) =>
  t.call('POST', '/user/api/login', { body: { userMail: mail, password, ...extra }, ip, lang: 'en_US' });
const wrongFromMany = async (mail: string, n: number) => {
  for (let i = 0; i < n; i++) expect((await login(mail, 'Wrong-pass-1')).json<Envelope>().code).toBe('A0210');
};
/** A new code even within the resend interval (the last send is aged past it). */
const newCode = async (mail: string, type: string) => {
  await t.database.exec(`update verification_codes set created_at = created_at - interval '2 seconds' where mail = $1`, [mail]);
  return requestCode(t, mail, type);
};

describe('an address guessed at from many IPs', () => {
  it(`up to ${LOGIN_GUARD_FAILURES} failures in the hour: the password is enough`, async () => {
    const u = await registerUser(t);
    await wrongFromMany(u.mail, LOGIN_GUARD_FAILURES);
    expect((await login(u.mail, u.password)).statusCode).toBe(200);
  });

  it('over that: the code is asked before the password, so a guesser learns nothing of it', async () => {
    const u = await registerUser(t);
    await wrongFromMany(u.mail, LOGIN_GUARD_FAILURES + 1);
    // A wrong password and the right one get the same answer without the code.
    expect((await login(u.mail, 'Wrong-pass-1')).json<Envelope>().code).toBe('A0248');
    const bare = await login(u.mail, u.password);
    expect(bare.statusCode).toBe(422);
    expect(bare.json<Envelope<{ field: string }>>()).toMatchObject({ code: 'A0248', data: { field: 'code' } });
    expect(bare.json<Envelope>().msg).toMatch(/code we e-mail/);
    const code = await newCode(u.mail, 'LOGIN');
    expect((await login(u.mail, u.password, { code: '000000' })).json<Envelope>().code).toBe('A0220');
    // With the code, a wrong password is just that (and the code stays good for the right one).
    expect((await login(u.mail, 'Wrong-pass-1', { code })).json<Envelope>().code).toBe('A0210');
    const ok = await login(u.mail, u.password, { code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json<Envelope<{ token: string }>>().data.token).toBeTruthy();
    // The code is used up.
    expect((await login(u.mail, u.password, { code })).json<Envelope>().code).toBe('A0220');
    // A lapse of an hour lifts the guard.
    await t.database.exec(`update login_attempts set created_at = created_at - interval '61 minutes' where mail = $1`, [u.mail]);
    expect((await login(u.mail, u.password)).statusCode).toBe(200);
  });

  it('an address without an account is guarded the same way (nothing tells it has none)', async () => {
    const mail = uniqueMail('nobody');
    await wrongFromMany(mail, LOGIN_GUARD_FAILURES + 1);
    expect((await login(mail, 'Wrong-pass-1')).json<Envelope>().code).toBe('A0248');
    const res = await t.call('POST', '/user/api/verify-code/send', { body: { userMail: mail, codeType: 'LOGIN' }, ip: randomIp() });
    expect(res.json<Envelope>().code).toBe('00000');
    expect(t.smtp.countTo(mail)).toBe(0);
  });

  it('with two-step on, the code comes before the challenge', async () => {
    const u: RegisteredUser = await registerUser(t);
    const setup = (await t.call('POST', '/user/api/2fa/setup', { token: u.token })).json<Envelope<{ secret: string }>>().data;
    expect((await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code: totpCode(u.mail, setup.secret), password: u.password } })).statusCode).toBe(200);
    await wrongFromMany(u.mail, LOGIN_GUARD_FAILURES + 1);
    expect((await login(u.mail, u.password)).json<Envelope>().code).toBe('A0248');
    const answer = await login(u.mail, u.password, { code: await newCode(u.mail, 'LOGIN') });
    expect(answer.json<Envelope<{ twoFactorRequired: boolean }>>().data.twoFactorRequired).toBe(true);
  });
});

describe('a burst sent at once', () => {
  it('gets no more password tries than the same requests one after another', async () => {
    const u = await registerUser(t);
    const ip = randomIp();
    const codes = await Promise.all(Array.from({ length: 12 }, () => login(u.mail, 'Wrong-pass-1', {}, ip).then((r) => r.json<Envelope>().code)));
    expect(codes.filter((c) => c === 'A0210').length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c !== 'A0210' && c !== 'A0211')).toEqual([]);
    // However the burst fell, the address gets LOGIN_MAX_FAILURES (5) tries from this IP in all.
    let tries = codes.filter((c) => c === 'A0210').length;
    for (let i = 0; i < 6; i++) if ((await login(u.mail, 'Wrong-pass-1', {}, ip)).json<Envelope>().code === 'A0210') tries++;
    expect(tries).toBe(5);
    expect((await login(u.mail, u.password, {}, ip)).json<Envelope>().code).toBe('A0211');
  });
});

describe('wrong e-mail codes over a day', () => {
  it(`${CODE_DAILY_WRONG_MAX} wrong reset codes across re-sends: the next right one is refused too`, async () => {
    const u = await registerUser(t);
    const reset = (code: string) =>
      t.call('POST', '/user/api/password/reset', { body: { userMail: u.mail, code, password: 'NewPassw0rd!', passwordAgain: 'NewPassw0rd!' }, ip: randomIp(), lang: 'en_US' });
    for (let round = 0; round < CODE_DAILY_WRONG_MAX / 5; round++) {
      await newCode(u.mail, 'LOGIN_PWD_RESET');
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push((await reset('000000')).json<Envelope>().code);
      expect(codes).toEqual(['A0220', 'A0220', 'A0220', 'A0220', 'A0222']);
    }
    const right = await newCode(u.mail, 'LOGIN_PWD_RESET');
    const refused = await reset(right);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<Envelope<{ field: string }>>()).toMatchObject({ code: 'A0249', data: { field: 'code' } });
    expect(refused.json<Envelope>().msg).toMatch(/try again after \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect((await login(u.mail, u.password)).statusCode).toBe(200); // the password is unchanged
    // Other types of code to the address are their own count.
    const loginCode = await newCode(u.mail, 'LOGIN');
    await wrongFromMany(u.mail, LOGIN_GUARD_FAILURES + 1);
    expect((await login(u.mail, u.password)).json<Envelope>().code).toBe('A0248');
    expect((await login(u.mail, u.password, { code: loginCode })).statusCode).toBe(200);
    // A day later the tries have aged out.
    await t.database.exec(`update verification_codes set created_at = created_at - interval '25 hours', expires_at = now() + interval '10 minutes' where mail = $1 and type = 'LOGIN_PWD_RESET' and attempts > 0`, [u.mail]);
    expect((await reset(right)).statusCode).toBe(200);
  });
});

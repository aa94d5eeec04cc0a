import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetExpiredSecrets } from '../platform/mail';
import {
  randomIp,
  registerUser,
  requestCode,
  startTestApp,
  uniqueMail,
  type Envelope,
  type TestApp,
} from '../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { AUTH_CACHE_MS: '0' } });
});
afterAll(() => t?.close());

/** Lets a new code be sent to `mail` at once (the 60 s rule is tested on its own). */
const ageCodes = (mail: string) =>
  t.database.exec(
    `update verification_codes set created_at = created_at - interval '61 seconds' where mail = $1`,
    [mail],
  );

interface Info {
  userName: string;
  mail: string;
  userCode: string;
  nickname: string | null;
  userLevel: string;
  locale: string;
  isVip: boolean;
  hasPaidPwd: boolean;
  referrerCode: string | null;
}
const info = async (token: string) =>
  (await t.call('GET', '/user/api/info', { token })).json<Envelope<Info>>();

describe('registration', () => {
  it('registers with the code from the e-mail, binds the referrer, returns a session', async () => {
    const referrer = await registerUser(t);
    const mail = uniqueMail('reg');
    const code = await requestCode(t, mail, 'REGISTER');
    const received = t.smtp.mails.filter((m) => m.to.includes(mail)).at(-1)!;
    expect(received.subject).toBe(`Lightning Quant verification code: ${code}`);
    expect(received.text).toContain('10 minutes');

    const res = await t.call('POST', '/user/api/register', {
      body: {
        userMail: mail.toUpperCase(),
        password: 'abc12345',
        code,
        inviteCode: referrer.userCode.toLowerCase(),
        country: 'vn',
      },
      lang: 'vi_VN',
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<Envelope<{ token: string; expiresAt: string; user: Info }>>();
    expect(body.code).toBe('00000');
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.data.user).toMatchObject({
      mail,
      userName: mail,
      referrerCode: referrer.userCode,
      userLevel: 'none',
      isVip: false,
      locale: 'vi-VN',
      hasPaidPwd: false,
    });
    expect(body.data.user.userCode).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);

    const me = await info(body.data.token);
    expect(me.data).toMatchObject({ mail, referrerCode: referrer.userCode });

    // the code is single-use
    const again = await t.call('POST', '/user/api/register', {
      body: { userMail: mail, password: 'abc12345', code, country: 'VN' },
    });
    expect(again.json().code).toBe('A0220');
  });

  it('sends the code mail in the caller’s language', async () => {
    const mail = uniqueMail('zh');
    const before = t.smtp.countTo(mail);
    await t.call('POST', '/user/api/verify-code/send', {
      body: { userMail: mail, codeType: 'REGISTER' },
      lang: 'zh_TW',
    });
    const m = await t.smtp.waitFor(mail, before);
    expect(m.subject).toMatch(/^閃電量化驗證碼：\d{6}$/);
    expect(m.text).toContain('註冊');
  });

  it.each(['CN', 'JP', 'cn'])('refuses residents of %s with a clear message', async (country) => {
    const mail = uniqueMail('cc');
    const code = await requestCode(t, mail, 'REGISTER');
    const res = await t.call('POST', '/user/api/register', {
      body: { userMail: mail, password: 'abc12345', code, country },
      lang: 'en_US',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: 'A0230',
      msg: 'Registration is not available in your country or region',
      data: { field: 'country' },
    });
  });

  it('refuses an unknown invite code without burning the e-mail code', async () => {
    const mail = uniqueMail('inv');
    const code = await requestCode(t, mail, 'REGISTER');
    const bad = await t.call('POST', '/user/api/register', {
      body: { userMail: mail, password: 'abc12345', code, inviteCode: 'ZZZZZZZZ', country: 'TH' },
      lang: 'en_US',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'A0231', msg: 'The invite code does not exist' });
    const good = await t.call('POST', '/user/api/register', {
      body: { userMail: mail, password: 'abc12345', code, inviteCode: '', country: 'TH' },
    });
    expect(good.statusCode).toBe(200);
    expect(
      (await info(good.json<Envelope<{ token: string }>>().data.token)).data.referrerCode,
    ).toBeNull();
  });

  it('enforces the password rules', async () => {
    const res = await t.call('POST', '/user/api/register', {
      body: { userMail: uniqueMail(), password: 'abcdefgh', code: '123456', country: 'TH' },
      lang: 'en_US',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'A0214', data: { field: 'password' } });
  });

  it('does not tell whether an address is registered', async () => {
    const existing = await registerUser(t);
    const fresh = uniqueMail('fresh');
    await ageCodes(existing.mail);
    const a = await t.call('POST', '/user/api/verify-code/send', {
      body: { userMail: existing.mail, codeType: 'REGISTER' },
      ip: randomIp(),
    });
    const b = await t.call('POST', '/user/api/verify-code/send', {
      body: { userMail: fresh, codeType: 'REGISTER' },
      ip: randomIp(),
    });
    expect(a.statusCode).toBe(b.statusCode);
    expect(a.json()).toEqual(b.json());
    // the owner of the taken address is told by mail, without a code
    const notice = await t.smtp.waitFor(existing.mail, 1);
    expect(notice.text).not.toMatch(/\d{6}/);
    // registering a taken address fails exactly like a wrong code
    const reg = await t.call('POST', '/user/api/register', {
      body: { userMail: existing.mail, password: 'abc12345', code: '000000', country: 'TH' },
    });
    const wrong = await t.call('POST', '/user/api/register', {
      body: { userMail: fresh, password: 'abc12345', code: '000000', country: 'TH' },
    });
    expect(reg.json().msg).toBe(wrong.json().msg);
    expect(reg.statusCode).toBe(wrong.statusCode);

    const unknown = uniqueMail('ghost');
    const r1 = await t.call('POST', '/user/api/verify-code/send', {
      body: { userMail: unknown, codeType: 'LOGIN_PWD_RESET' },
      ip: randomIp(),
    });
    await ageCodes(existing.mail);
    const r2 = await t.call('POST', '/user/api/verify-code/send', {
      body: { userMail: existing.mail, codeType: 'LOGIN_PWD_RESET' },
      ip: randomIp(),
    });
    expect(r1.json()).toEqual(r2.json());
    expect(t.smtp.countTo(unknown)).toBe(0);
    // and the 60 s rule applies to unknown addresses too
    const r3 = await t.call('POST', '/user/api/verify-code/send', {
      body: { userMail: unknown, codeType: 'LOGIN_PWD_RESET' },
      ip: randomIp(),
    });
    expect(r3.statusCode).toBe(429);
  });
});

describe('verification codes', () => {
  it('allows one send per 60 s per address', async () => {
    const mail = uniqueMail('rate');
    await requestCode(t, mail, 'REGISTER');
    const res = await t.call('POST', '/user/api/verify-code/send', {
      body: { userMail: mail, codeType: 'LOGIN_PWD_RESET' },
      lang: 'en_US',
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('A0223');
    expect(res.json().msg).toMatch(/please wait (59|60) seconds/);
    await ageCodes(mail);
    await requestCode(t, mail, 'REGISTER');
  });

  it('expires codes after 10 minutes', async () => {
    const mail = uniqueMail('exp');
    const code = await requestCode(t, mail, 'REGISTER');
    await t.database.exec(
      `update verification_codes set expires_at = now() - interval '1 second' where mail = $1`,
      [mail],
    );
    const res = await t.call('POST', '/user/api/register', {
      body: { userMail: mail, password: 'abc12345', code, country: 'TH' },
    });
    expect(res.json().code).toBe('A0221');
  });

  it('gives up after 5 wrong attempts, even for the right code', async () => {
    const mail = uniqueMail('att');
    const code = await requestCode(t, mail, 'REGISTER');
    const wrong = code === '000000' ? '111111' : '000000';
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await t.call('POST', '/user/api/register', {
        body: { userMail: mail, password: 'abc12345', code: wrong, country: 'TH' },
      });
      codes.push(r.json().code);
    }
    expect(codes).toEqual(['A0220', 'A0220', 'A0220', 'A0220', 'A0222']);
    const right = await t.call('POST', '/user/api/register', {
      body: { userMail: mail, password: 'abc12345', code, country: 'TH' },
    });
    expect(right.json().code).toBe('A0222');
  });

  it('caps the code input at 8 characters', async () => {
    const res = await t.call('POST', '/user/api/register', {
      body: { userMail: uniqueMail(), password: 'abc12345', code: '123456789', country: 'TH' },
      lang: 'en_US',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      msg: 'Verification code must be at most 8 characters',
      data: { field: 'code' },
    });
  });

  it('limits code requests per IP', async () => {
    const strict = await startTestApp({
      env: { CODE_RATE_PER_MINUTE: '2', USER_RATE_PER_MINUTE: '2' },
    });
    try {
      const send = () =>
        strict.call('POST', '/user/api/verify-code/send', {
          body: { userMail: uniqueMail(), codeType: 'REGISTER' },
          ip: '10.9.9.9',
          lang: 'en_US',
        });
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(200);
      const third = await send();
      expect(third.statusCode).toBe(429);
      expect(third.json().code).toBe('A0429');

      // sensitive logged-in endpoints are limited per account, whatever the IP
      const u = await registerUser(strict);
      const change = () =>
        strict.call('POST', '/user/api/password/change', {
          token: u.token,
          body: { oldPassword: 'wrong-pass1', password: 'next12345', passwordAgain: 'next12345' },
          ip: randomIp(),
        });
      expect((await change()).json().code).toBe('A0212');
      expect((await change()).json().code).toBe('A0212');
      expect((await change()).statusCode).toBe(429);
    } finally {
      await strict.close();
    }
  });
});

describe('login and sessions', () => {
  it('logs in, reads info, logs out, and refuses the revoked token', async () => {
    const u = await registerUser(t);
    const res = await t.call('POST', '/user/api/login', {
      body: { userMail: u.mail, password: u.password },
    });
    expect(res.statusCode).toBe(200);
    const token = res.json<Envelope<{ token: string; user: Info }>>().data.token;
    expect((await info(token)).data.mail).toBe(u.mail);

    const out = await t.call('POST', '/user/api/logout', { token });
    expect(out.json().code).toBe('00000');
    const after = await t.call('GET', '/user/api/info', { token, lang: 'en_US' });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ code: 'A0200', msg: 'Please log in', data: null });
    // the other session is untouched
    expect((await info(u.token)).code).toBe('00000');
  });

  it('refuses missing, malformed and expired tokens with 401', async () => {
    expect((await t.call('GET', '/user/api/info')).statusCode).toBe(401);
    expect(
      (await t.call('GET', '/user/api/info', { headers: { authorization: 'Bearer nope' } }))
        .statusCode,
    ).toBe(401);
    const u = await registerUser(t);
    // the legacy client's bare token works too
    expect(
      (await t.call('GET', '/user/api/info', { headers: { authorization: u.token } })).statusCode,
    ).toBe(200);
    await t.database.exec(
      `update sessions set expires_at = now() - interval '1 second' where user_id = (select id from users where mail = $1)`,
      [u.mail],
    );
    expect((await t.call('GET', '/user/api/info', { token: u.token })).statusCode).toBe(401);
  });

  it('answers a wrong password and an unknown address identically', async () => {
    const u = await registerUser(t);
    const a = await t.call('POST', '/user/api/login', {
      body: { userMail: u.mail, password: 'wrong-pass1' },
      lang: 'en_US',
    });
    const b = await t.call('POST', '/user/api/login', {
      body: { userMail: uniqueMail('nobody'), password: 'wrong-pass1' },
      lang: 'en_US',
    });
    expect(a.statusCode).toBe(400);
    expect(a.json()).toEqual({ code: 'A0210', msg: 'E-mail or password is wrong', data: null });
    expect(b.json()).toEqual(a.json());
  });

  it('locks an address after 5 failures from one IP, for the right password too, and tells the owner', async () => {
    const u = await registerUser(t);
    const stranger = randomIp();
    for (let i = 0; i < 5; i++) {
      const r = await t.call('POST', '/user/api/login', {
        body: { userMail: u.mail, password: 'wrong-pass1' },
        ip: stranger,
      });
      expect(r.json().code).toBe('A0210');
    }
    const locked = await t.call('POST', '/user/api/login', {
      body: { userMail: u.mail, password: u.password },
      ip: stranger,
      lang: 'en_US',
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({
      code: 'A0211',
      msg: 'Too many failed logins, please try again in 15 minutes',
    });
    // The owner, from anywhere else, is not locked out — and signing in there does not give the
    // stranger five more tries.
    const owner = randomIp();
    expect((await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password }, ip: owner })).statusCode).toBe(200);
    expect((await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password }, ip: stranger })).json().code).toBe('A0211');
    // One mail to the owner, in the owner's language (zh-TW by default), naming the address.
    const mails = t.smtp.mailsTo(u.mail).filter((m) => m.subject.includes('登入'));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(stranger);
    expect(mails[0].text).toContain('15');
    // unknown addresses lock the same way (and nobody is mailed)
    const ghost = uniqueMail('ghost');
    const ghostIp = randomIp();
    for (let i = 0; i < 5; i++)
      await t.call('POST', '/user/api/login', {
        body: { userMail: ghost, password: 'x' },
        ip: ghostIp,
      });
    expect(
      (await t.call('POST', '/user/api/login', { body: { userMail: ghost, password: 'x' }, ip: ghostIp })).json()
        .code,
    ).toBe('A0211');
    expect(await t.database.exec(`select 1 from mail_outbox where "to" = $1`, [ghost])).toEqual([]);
  });

  it('locks an IP after many failures across accounts', async () => {
    const ip = '10.200.1.1';
    for (let i = 0; i < 50; i++)
      await t.call('POST', '/user/api/login', {
        body: { userMail: uniqueMail('spray'), password: 'x' },
        ip,
      });
    const u = await registerUser(t);
    const res = await t.call('POST', '/user/api/login', {
      body: { userMail: u.mail, password: u.password },
      ip,
    });
    expect(res.json().code).toBe('A0211');
    expect(
      (
        await t.call('POST', '/user/api/login', {
          body: { userMail: u.mail, password: u.password },
          ip: randomIp(),
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('passwords', () => {
  it('resets a forgotten password with a code and ends all sessions', async () => {
    const u = await registerUser(t);
    await ageCodes(u.mail);
    const code = await requestCode(t, u.mail, 'LOGIN_PWD_RESET');
    const differ = await t.call('POST', '/user/api/password/reset', {
      body: { userMail: u.mail, code, password: 'newpass123', passwordAgain: 'newpass124' },
      lang: 'en_US',
    });
    expect(differ.statusCode).toBe(422);
    expect(differ.json()).toEqual({
      code: 'A0213',
      msg: 'The two passwords differ',
      data: { field: 'passwordAgain' },
    });
    const ok = await t.call('POST', '/user/api/password/reset', {
      body: { userMail: u.mail, code, password: 'newpass123', passwordAgain: 'newpass123' },
    });
    expect(ok.json().code).toBe('00000');
    expect((await t.call('GET', '/user/api/info', { token: u.token })).statusCode).toBe(401);
    expect(
      (
        await t.call('POST', '/user/api/login', {
          body: { userMail: u.mail, password: u.password },
        })
      ).json().code,
    ).toBe('A0210');
    expect(
      (
        await t.call('POST', '/user/api/login', {
          body: { userMail: u.mail, password: 'newpass123' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('changes the password with the old one and keeps only the current session', async () => {
    const u = await registerUser(t);
    const other = (
      await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password } })
    ).json<Envelope<{ token: string }>>().data.token;
    const wrongOld = await t.call('POST', '/user/api/password/change', {
      token: u.token,
      body: { oldPassword: 'nope12345', password: 'next12345', passwordAgain: 'next12345' },
      lang: 'en_US',
    });
    expect(wrongOld.statusCode).toBe(422);
    expect(wrongOld.json().code).toBe('A0212');
    const ok = await t.call('POST', '/user/api/password/change', {
      token: u.token,
      body: { oldPassword: u.password, password: 'next12345', passwordAgain: 'next12345' },
    });
    expect(ok.json().code).toBe('00000');
    expect((await t.call('GET', '/user/api/info', { token: u.token })).statusCode).toBe(200);
    expect((await t.call('GET', '/user/api/info', { token: other })).statusCode).toBe(401);
    expect(
      (
        await t.call('POST', '/user/api/login', {
          body: { userMail: u.mail, password: 'next12345' },
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('profile', () => {
  it('sets a nickname of at most 8 characters', async () => {
    const u = await registerUser(t);
    expect(
      (
        await t.call('POST', '/user/api/nickname', {
          token: u.token,
          body: { nickname: '閃電量化交易高手' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await info(u.token)).data.nickname).toBe('閃電量化交易高手');
    const long = await t.call('POST', '/user/api/nickname', {
      token: u.token,
      body: { nickname: '123456789' },
      lang: 'en_US',
    });
    expect(long.statusCode).toBe(422);
    expect(long.json()).toEqual({
      code: 'A0240',
      msg: 'The nickname can have at most 8 characters',
      data: { field: 'nickname' },
    });
    // One limit in every message, whatever the length sent (it said 32 for 300 characters).
    const huge = await t.call('POST', '/user/api/nickname', { token: u.token, body: { nickname: 'x'.repeat(300) }, lang: 'en_US' });
    expect(huge.json()).toEqual(long.json());
    // Counted in graphemes: eight family emoji are eight characters, nine are too many.
    const family = '👨‍👩‍👧‍👦';
    const eight = await t.call('POST', '/user/api/nickname', { token: u.token, body: { nickname: family.repeat(8) } });
    expect(eight.statusCode, eight.body).toBe(200);
    expect((await info(u.token)).data.nickname).toBe(family.repeat(8));
    const nine = await t.call('POST', '/user/api/nickname', { token: u.token, body: { nickname: family.repeat(9) }, lang: 'en_US' });
    expect(nine.json()).toEqual(long.json());
    expect(
      (await t.call('POST', '/user/api/nickname', { body: { nickname: 'x' } })).statusCode,
    ).toBe(401);
  });

  it('stores the locale in canonical form', async () => {
    const u = await registerUser(t);
    expect(
      (await t.call('POST', '/user/api/locale', { token: u.token, body: { locale: 'ja_JP' } }))
        .statusCode,
    ).toBe(200);
    expect((await info(u.token)).data.locale).toBe('ja-JP');
    const bad = await t.call('POST', '/user/api/locale', {
      token: u.token,
      body: { locale: 'xx' },
      lang: 'en_US',
    });
    expect(bad.json()).toMatchObject({ code: 'A0410', msg: 'Language is not a supported language' });
  });

  it('sets the payment password with a mailed code', async () => {
    const u = await registerUser(t);
    const judge = async () =>
      (await t.call('GET', '/user/api/paid-pwd/judge', { token: u.token })).json<
        Envelope<boolean>
      >();
    expect(await judge()).toMatchObject({ code: '00000', data: false });

    // needs a login, and goes to the user's own address whatever the body says
    const anon = await t.call('POST', '/user/api/verify-code/send', {
      body: { userMail: u.mail, codeType: 'MAIL_PAID_PWD_RESET' },
    });
    expect(anon.statusCode).toBe(401);
    await ageCodes(u.mail);
    const before = t.smtp.countTo(u.mail);
    const sent = await t.call('POST', '/user/api/verify-code/send', {
      token: u.token,
      body: { userMail: 'someone.else@example.com', codeType: 'MAIL_PAID_PWD_RESET' },
      lang: 'en_US',
    });
    expect(sent.statusCode).toBe(200);
    const mail = await t.smtp.waitFor(u.mail, before);
    expect(t.smtp.countTo('someone.else@example.com')).toBe(0);
    const code = /\b(\d{6})\b/.exec(mail.text)![1];

    const format = await t.call('POST', '/user/api/paid-pwd/edit', {
      token: u.token,
      body: { code, paidPwd: '12345', paidPwdAgain: '12345' },
      lang: 'en_US',
    });
    expect(format.json()).toMatchObject({
      code: 'A0241',
      msg: 'The payment password must be exactly 6 digits',
    });
    const differ = await t.call('POST', '/user/api/paid-pwd/edit', {
      token: u.token,
      body: { code, paidPwd: '123456', paidPwdAgain: '654321' },
    });
    expect(differ.json().code).toBe('A0242');
    const ok = await t.call('POST', '/user/api/paid-pwd/edit', {
      token: u.token,
      body: { code, paidPwd: '１２３４５６', paidPwdAgain: '123456' },
    });
    expect(ok.json().code).toBe('00000');
    expect(await judge()).toMatchObject({ data: true });
    expect((await info(u.token)).data.hasPaidPwd).toBe(true);
    const reused = await t.call('POST', '/user/api/paid-pwd/edit', {
      token: u.token,
      body: { code, paidPwd: '222222', paidPwdAgain: '222222' },
    });
    expect(reused.json().code).toBe('A0220');
  });
});

describe('data sources', () => {
  it('lists localized sources with mt5 and binance open and a closed one', async () => {
    const res = await t.call('GET', '/user/api/index/datasouce-list', { lang: 'en_US' });
    expect(res.statusCode).toBe(200);
    const data = res.json<
      Envelope<{
        list: { type: string; isOpen: boolean; text: string; value: string; icon: string }[];
        selected: string | null;
      }>
    >().data;
    expect(data.selected).toBeNull();
    expect(data.list.find((s) => s.type === 'mt5')).toMatchObject({
      isOpen: true,
      text: 'Forex',
      value: 'forex',
    });
    expect(data.list.find((s) => s.type === 'binance')).toMatchObject({
      isOpen: true,
      text: 'Crypto',
      value: 'crypto',
    });
    expect(data.list.some((s) => !s.isOpen)).toBe(true);
    const zh = await t.call('GET', '/user/api/index/datasouce-list', { lang: 'zh_CN' });
    expect(zh.json<Envelope<{ list: { text: string }[] }>>().data.list[0].text).toBe('外汇');
  });

  it('persists the selection and refuses closed or unknown sources', async () => {
    const u = await registerUser(t);
    const select = (type: string) =>
      t.call('POST', '/user/api/index/datasouce-select', {
        token: u.token,
        body: { type },
        lang: 'en_US',
      });
    expect((await select('binance')).json().code).toBe('00000');
    const list = await t.call('GET', '/user/api/index/datasouce-list', { token: u.token });
    expect(list.json<Envelope<{ selected: string }>>().data.selected).toBe('binance');
    const closed = await select('okx');
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ code: 'A0250', msg: 'This market is not open yet' });
    expect((await select('nasdaq')).json().code).toBe('A0251');
    expect(
      (await t.call('POST', '/user/api/index/datasouce-select', { body: { type: 'mt5' } }))
        .statusCode,
    ).toBe(401);
  });
});

describe('mail failures', () => {
  it('answers C0001 when the SMTP server is down and lets the user retry at once', async () => {
    const down = await startTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:9' } });
    try {
      const mail = uniqueMail('down');
      const res = await down.call('POST', '/user/api/verify-code/send', {
        body: { userMail: mail, codeType: 'REGISTER' },
        lang: 'en_US',
      });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        code: 'C0001',
        msg: 'Sending the e-mail failed, please retry',
        data: null,
      });
      const outbox = await down.database.exec<{ error: string | null }>(
        'select error from mail_outbox where "to" = $1',
        [mail],
      );
      expect(outbox[0].error).toBeTruthy();
      // not counted against the 60 s rule
      const again = await down.call('POST', '/user/api/verify-code/send', {
        body: { userMail: mail, codeType: 'REGISTER' },
      });
      expect(again.json().code).toBe('C0001');
    } finally {
      await down.close();
    }
  });

  it('keeps mails in the outbox when no SMTP_URL is set', async () => {
    const local = await startTestApp({ env: { SMTP_URL: '' } });
    try {
      const mail = uniqueMail('outbox');
      const res = await local.call('POST', '/user/api/verify-code/send', {
        body: { userMail: mail, codeType: 'REGISTER' },
      });
      expect(res.json().code).toBe('00000');
      const rows = await local.database.exec<{ text: string; sent: boolean }>(
        'select text, sent_at is not null as sent from mail_outbox where "to" = $1',
        [mail],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].text).toMatch(/\d{6}/);
      expect(rows[0].sent).toBe(false);
      // Kept while the code is good, forgotten once it has expired (the every-minute job).
      expect(await forgetExpiredSecrets(local.database.db)).toBe(0);
      await local.database.exec(`update mail_outbox set secret_until = now() - interval '1 second' where "to" = $1`, [mail]);
      expect(await forgetExpiredSecrets(local.database.db)).toBe(1);
      const [gone] = await local.database.exec<{ subject: string | null; text: string | null }>('select subject, text from mail_outbox where "to" = $1', [mail]);
      expect(gone).toEqual({ subject: null, text: null });
    } finally {
      await local.close();
    }
  });

  it('forgets a delivered mail’s words: a code mail’s subject too, a notice’s subject stays', async () => {
    const u = await registerUser(t);
    const rows = await t.database.exec<{ subject: string | null; text: string | null; sent: boolean; secret: boolean }>(
      'select subject, text, sent_at is not null as sent, secret_until is not null as secret from mail_outbox where "to" = $1 order by id',
      [u.mail],
    );
    expect(rows[0]).toEqual({ subject: null, text: null, sent: true, secret: true }); // the REGISTER code
    expect(t.smtp.mailsTo(u.mail)[0].text).toMatch(/\d{6}/); // what the mailbox got
    // A mail without a code (the login lock notice) keeps its subject once delivered.
    for (let i = 0; i < 5; i++) await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: 'Wrong-pass-1' }, ip: '198.51.100.99' });
    const [notice] = await t.database.exec<{ subject: string | null; text: string | null; secret: boolean }>(
      'select subject, text, secret_until is not null as secret from mail_outbox where "to" = $1 order by id desc limit 1',
      [u.mail],
    );
    expect(notice.secret).toBe(false);
    expect(notice.subject).toBeTruthy();
    expect(notice.text).toBeNull();
  });
});

it('marks API answers as not cacheable', async () => {
  const res = await t.call('GET', '/user/api/index/datasouce-list');
  expect(res.headers['cache-control']).toBe('no-store');
});

describe('site information', () => {
  it('answers the configured support address and egress IPs to anyone, and nulls when unset', async () => {
    const configured = await startTestApp({ env: { SUPPORT_MAIL: 'help@lq.test', EGRESS_IPS: '203.0.113.7,198.51.100.2' } });
    try {
      const res = await configured.call('GET', '/user/api/site');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ code: '00000', data: { supportMail: 'help@lq.test', egressIps: ['203.0.113.7', '198.51.100.2'] } });
    } finally {
      await configured.close();
    }
    expect((await t.call('GET', '/user/api/site')).json()).toMatchObject({ data: { supportMail: null, egressIps: [] } });
  });
});

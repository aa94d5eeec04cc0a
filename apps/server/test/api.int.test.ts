import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldLabel } from '@lq/contracts';
import { BODY_LIMIT } from '../src';
import { registerUser, startTestApp, uniqueMail, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { CORS_ORIGINS: 'https://app.example.com' } });
});
afterAll(() => t?.close());

describe('conventions', () => {
  it('answers health and readiness in the envelope', async () => {
    const h = await t.call('GET', '/healthz');
    expect(h.statusCode).toBe(200);
    expect(h.json()).toEqual({ code: '00000', msg: '成功', data: { status: 'ok' } });
    const r = await t.call('GET', '/readyz', { lang: 'en_US' });
    expect(r.json()).toMatchObject({
      code: '00000',
      msg: 'Success',
      data: { status: 'ready', database: t.database.kind },
    });
  });

  it('answers unknown routes with 404 in the envelope, localized', async () => {
    const res = await t.call('GET', '/no/such/route', { lang: 'ja_JP' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'A0404', msg: '見つかりません', data: null });
    const post = await t.call('POST', '/user/api/nope', { body: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json().code).toBe('A0404');
  });

  it('defaults to zh_TW and accepts both spellings of every locale', async () => {
    const cases: [string | undefined, string][] = [
      [undefined, '找不到資源'],
      ['zh_CN', '未找到资源'],
      ['zh-CN', '未找到资源'],
      ['en_US', 'Not found'],
      ['th_TH', 'ไม่พบข้อมูล'],
      ['vi_VN', 'Không tìm thấy'],
      ['in_ID', 'Tidak ditemukan'],
      ['xx_YY', '找不到資源'],
    ];
    for (const [lang, msg] of cases)
      expect((await t.call('GET', '/x', { lang })).json().msg).toBe(msg);
  });

  it('rejects malformed JSON with 400, never 5xx', async () => {
    const res = await t.call('POST', '/user/api/login', {
      body: '{"userMail": "a@b.co", ',
      headers: { 'content-type': 'application/json' },
      lang: 'en_US',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      code: 'A0401',
      msg: 'The request body is not valid JSON',
      data: null,
    });
  });

  it('rejects an empty JSON body and a missing body with 4xx', async () => {
    const empty = await t.call('POST', '/user/api/login', {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
    const none = await t.call('POST', '/user/api/login', { lang: 'en_US' });
    expect(none.statusCode).toBe(422);
    expect(none.json().code).toBe('A0410');
  });

  it('rejects an oversize body with 413', async () => {
    const res = await t.call('POST', '/user/api/login', {
      body: { userMail: 'a@b.co', password: 'x'.repeat(BODY_LIMIT) },
      lang: 'en_US',
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'A0402', msg: 'The request body is too large' });
  });

  it('rejects other content types with 415', async () => {
    const res = await t.call('POST', '/user/api/login', {
      body: 'userMail=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('A0403');
  });

  it('rejects text/plain with 415 too (no string body for the schema to refuse)', async () => {
    const res = await t.call('POST', '/user/api/login', { body: 'userMail=a', headers: { 'content-type': 'text/plain' }, lang: 'en_US' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ code: 'A0403', msg: 'Unsupported content type, please send JSON', data: null });
  });

  it('refuses control characters (NUL …) in any string with 422 naming the field, before the database', async () => {
    const u = await registerUser(t);
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/user/api/verify-code/send', { userMail: 'a\u0000@b.co', codeType: 'MAIL_REGISTER' }, 'userMail'],
      ['POST', '/user/api/login', { userMail: uniqueMail(), password: 'Passw0rd!\u0000' }, 'password'],
      ['POST', '/user/api/register', { userMail: uniqueMail(), password: 'Passw0rd!x', passwordAgain: 'Passw0rd!x', code: '123456', country: 'TH', inviteCode: 'AB\u0000' }, 'inviteCode'],
      ['POST', '/user/api/apikey/bind', { exchange: 'mt5', accountName: 'x\u001bname' }, 'accountName'],
      ['POST', '/order/api/robot/create', { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', accountId: 1, tradingPair: 'BTC\u0000', params: {} }, 'tradingPair'],
      ['POST', '/order/api/robot/create', { strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', accountId: 1, params: { side: ['long\u007f'] } }, 'params.side.0'],
      ['GET', '/order/api/currency-list?dataSource=binance&exchangeType=bi%00nance', {}, 'exchangeType'],
    ];
    for (const [method, url, body, field] of cases) {
      const res = await t.call(method as 'GET' | 'POST', url, { token: u.token, lang: 'en_US', ...(method === 'POST' ? { body } : {}) });
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({
        url,
        status: 422,
        body: { code: 'A0410', msg: `${fieldLabel('en-US', field)} contains a control character (such as NUL), which is not allowed`, data: { field } },
      });
    }
    // tab, line feed and carriage return are text
    const ok = await t.call('POST', '/user/api/login', { body: { userMail: uniqueMail(), password: 'Pass\tw0rd!\r\n' }, lang: 'en_US' });
    expect(ok.json().code).not.toBe('A0410');
  });

  it('names unknown fields', async () => {
    const res = await t.call('POST', '/user/api/login', {
      body: { userMail: 'a@b.co', password: 'x', admin: true },
      lang: 'en_US',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 'A0411',
      msg: 'Unknown field: admin',
      data: { field: 'admin' },
    });
  });

  it('names the field of a wrong type or a missing field, in the caller’s language', async () => {
    const wrong = await t.call('POST', '/user/api/login', {
      body: { userMail: 42, password: 'x' },
      lang: 'en_US',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      code: 'A0410',
      msg: 'E-mail has the wrong type, expected string',
      data: { field: 'userMail' },
    });
    const missing = await t.call('POST', '/user/api/login', {
      body: { userMail: 'a@b.co' },
      lang: 'zh_CN',
    });
    expect(missing.json()).toEqual({
      code: 'A0410',
      msg: '密码 为必填项',
      data: { field: 'password' },
    });
    const badMail = await t.call('POST', '/user/api/login', {
      body: { userMail: 'nope', password: 'x' },
      lang: 'en_US',
    });
    expect(badMail.json().msg).toBe('E-mail is not a valid e-mail address');
    const badEnum = await t.call('POST', '/user/api/verify-code/send', {
      body: { userMail: 'a@b.co', codeType: 'X' },
      lang: 'en_US',
    });
    expect(badEnum.json().msg).toBe(
      'Code purpose must be one of: REGISTER, LOGIN, LOGIN_PWD_RESET, MAIL_PAID_PWD_RESET, WITHDRAW_ADDRESS, API_KEY, SECURITY',
    );
  });

  it('rejects prototype poisoning with 400', async () => {
    const res = await t.call('POST', '/user/api/login', {
      body: '{"userMail":"a@b.co","password":"x","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toMatch(/^A/);
  });

  it('normalizes full-width characters before validation', async () => {
    const mail = uniqueMail('fw');
    const user = await registerUser(t, { mail });
    const fullWidthMail = [...mail]
      .map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c))
      .join('');
    const password = [...user.password]
      .map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))
      .join('');
    const res = await t.call('POST', '/user/api/login', {
      body: { userMail: fullWidthMail, password },
    });
    expect(res.statusCode).toBe(200);
    const nick = await t.call('POST', '/user/api/nickname', {
      body: { nickname: 'ＡＢＣ１２３' },
      token: user.token,
    });
    expect(nick.statusCode).toBe(200);
    const info = await t.call('GET', '/user/api/info', { token: user.token });
    expect(info.json<{ data: { nickname: string } }>().data.nickname).toBe('ABC123');
  });

  it('sends security headers and a CSP fit for the SPA', async () => {
    const res = await t.call('GET', '/healthz');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('allows CORS only for configured origins', async () => {
    const allowed = await t.call('GET', '/healthz', {
      headers: { origin: 'https://app.example.com' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const other = await t.call('GET', '/healthz', {
      headers: { origin: 'https://evil.example.com' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves the OpenAPI document and the docs UI with its assets', async () => {
    const doc = await t.call('GET', '/docs/json');
    expect(doc.statusCode).toBe(200);
    const spec = doc.json<{ paths: Record<string, unknown> }>();
    for (const p of [
      '/user/api/login',
      '/user/api/register',
      '/user/api/index/datasouce-list',
      '/user/api/paid-pwd/edit',
    ])
      expect(spec.paths).toHaveProperty(p);
    const ui = await t.call('GET', '/docs/');
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
    expect(String(ui.headers['content-security-policy'])).not.toContain(
      'upgrade-insecure-requests',
    );
    const css = await t.call('GET', '/docs/static/swagger-ui.css');
    expect(css.statusCode).toBe(200);
    const js = await t.call('GET', '/docs/static/swagger-ui-bundle.js');
    expect(js.statusCode).toBe(200);
  });

  it('shows a hint at / when the web app is not built', async () => {
    const res = await t.call('GET', '/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('npm run build');
  });
});

describe('what the HTTP parser refuses', () => {
  let origin: string | undefined;
  /** A raw request on a socket: inject() never goes through Node's parser. */
  async function raw(request: string): Promise<{ status: number; body: unknown }> {
    origin ??= await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = new URL(origin);
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(address.port), '127.0.0.1', () => socket.end(request));
      let data = '';
      socket.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    const [head, body] = text.split('\r\n\r\n');
    return { status: Number(head.split(' ')[1]), body: JSON.parse(body) as unknown };
  }

  it('answers a malformed header with 400 and headers over 16 KB with 431, in the envelope', async () => {
    expect(await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n')).toEqual({ status: 400, body: { code: 'A0400', msg: expect.any(String), data: null } });
    expect(await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).toEqual({
      status: 431,
      body: { code: 'A0405', msg: '請求標頭過大', data: null },
    });
  });
});

describe('readiness', () => {
  it('answers 503 when the database is gone', async () => {
    const lost = await startTestApp();
    try {
      await lost.database.close();
      const res = await lost.call('GET', '/readyz', { lang: 'en_US' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'B0002' });
      expect((await lost.call('GET', '/healthz')).statusCode).toBe(200);
    } finally {
      await lost.close();
    }
  });
});

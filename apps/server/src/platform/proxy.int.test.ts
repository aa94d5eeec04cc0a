// TRUST_PROXY (issue 52 item 8): the client's X-Forwarded-For counts only as far as it passed
// through a trusted proxy, so rotating it changes neither the IP the limits see nor the lock-out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionInfo } from '@lq/contracts';
import { registerUser, startTestApp, type Envelope, type TestApp } from '../../test/helpers';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});

async function appTrusting(trustProxy: string) {
  const t = await startTestApp({ env: { TRUST_PROXY: trustProxy, LOGIN_MAX_FAILURES: '3' } });
  apps.push(t);
  return t;
}

async function wrongLogins(t: TestApp, mail: string, forwardedFor: (i: number) => string, n: number) {
  const codes: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.call('POST', '/user/api/login', { body: { userMail: mail, password: 'Wrong-pass-1' }, headers: { 'x-forwarded-for': forwardedFor(i) }, ip: '127.0.0.1' });
    codes.push(res.json<Envelope>().code);
  }
  return codes;
}
const ipSeen = async (t: TestApp, mail: string, password: string, forwardedFor: string) => {
  const login = await t.call('POST', '/user/api/login', { body: { userMail: mail, password }, headers: { 'x-forwarded-for': forwardedFor } });
  const token = login.json<Envelope<{ token: string }>>().data.token;
  const list = (await t.call('GET', '/user/api/sessions', { token })).json<Envelope<SessionInfo[]>>().data;
  return list.find((s) => s.current)!.ip;
};

describe('TRUST_PROXY', () => {
  let other: TestApp;
  let own: TestApp;
  beforeAll(async () => {
    other = await appTrusting('10.9.9.9');
    own = await appTrusting('127.0.0.1');
  });

  it('set to another address: X-Forwarded-For from the client is ignored, rotating it does not escape the lock-out', async () => {
    const u = await registerUser(other);
    expect(await ipSeen(other, u.mail, u.password, '203.0.113.50')).toBe('127.0.0.1');
    const codes = await wrongLogins(other, u.mail, (i) => `198.51.100.${i + 1}`, 4);
    expect(codes).toEqual(['A0210', 'A0210', 'A0210', 'A0211']);
    // The right password from the same client, under yet another forwarded address: still paused.
    const right = await other.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password }, headers: { 'x-forwarded-for': '192.0.2.99' }, ip: '127.0.0.1' });
    expect(right.json<Envelope>().code).toBe('A0211');
    // The owner at their own address is not locked out by someone naming it.
    const owner = await other.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password }, ip: '10.20.30.40' });
    expect(owner.statusCode).toBe(200);
  });

  it('set to the proxy: the address the proxy appended counts, the entries before it are the client’s words', async () => {
    const u = await registerUser(own);
    expect(await ipSeen(own, u.mail, u.password, '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
    const codes = await wrongLogins(own, u.mail, (i) => `198.51.100.${i + 1}, 203.0.113.8`, 4);
    expect(codes).toEqual(['A0210', 'A0210', 'A0210', 'A0211']);
    // A client naming the owner's address in front of its own does not lock the owner out.
    const victim = await registerUser(own);
    expect(await wrongLogins(own, victim.mail, () => '203.0.113.9, 203.0.113.66', 4)).toContain('A0211');
    const owner = await own.call('POST', '/user/api/login', { body: { userMail: victim.mail, password: victim.password }, headers: { 'x-forwarded-for': '203.0.113.9' }, ip: '127.0.0.1' });
    expect(owner.statusCode).toBe(200);
  });
});

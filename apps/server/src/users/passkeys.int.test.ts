// Passkeys' server side (issue 52 item 2): what can be checked without an authenticator — the
// ceremony options, their preconditions, a made-up answer refused and the challenge used up. The
// whole ceremony with Chromium's virtual authenticator is the end-to-end part.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { totpCode } from '../platform/totp';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { AUTH_CACHE_MS: '0' } });
});
afterAll(() => t?.close());

async function withTwoStep(): Promise<RegisteredUser & { secret: string; recovery: string[] }> {
  const u = await registerUser(t);
  const { secret } = (await t.call('POST', '/user/api/2fa/setup', { token: u.token })).json<Envelope<{ secret: string }>>().data;
  const enabled = await t.call('POST', '/user/api/2fa/enable', { token: u.token, body: { code: totpCode(u.mail, secret), password: u.password } });
  expect(enabled.statusCode).toBe(200);
  return { ...u, secret, recovery: enabled.json<Envelope<{ recoveryCodes: string[] }>>().data.recoveryCodes };
}
const fakeResponse = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' }, clientExtensionResults: {} };

describe('passkeys', () => {
  it('registration options need two-step on; they name this relying party and the account', async () => {
    const plain = await registerUser(t);
    const refused = await t.call('POST', '/user/api/passkeys/options', { token: plain.token });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<Envelope>().code).toBe('A0229');
    const u = await withTwoStep();
    const options = (await t.call('POST', '/user/api/passkeys/options', { token: u.token })).json<Envelope<{ challenge: string; rp: { id: string }; user: { name: string } }>>();
    expect(options.code).toBe('00000');
    expect(options.data.rp.id).toBe('localhost');
    expect(options.data.user.name).toBe(u.mail);
    expect(options.data.challenge.length).toBeGreaterThan(20);
    expect((await t.call('GET', '/user/api/passkeys', { token: u.token })).json<Envelope<unknown[]>>().data).toEqual([]);
  });

  it('adding asks a fresh two-step code; a made-up answer is refused and uses the challenge up', async () => {
    const u = await withTwoStep();
    await t.call('POST', '/user/api/passkeys/options', { token: u.token });
    const noCode = await t.call('POST', '/user/api/passkeys/add', { token: u.token, body: { name: 'Phone', response: fakeResponse } });
    expect(noCode.json<Envelope<{ field: string }>>()).toMatchObject({ code: 'A0224', data: { field: 'twoFactorCode' } });
    const made = await t.call('POST', '/user/api/passkeys/add', { token: u.token, body: { name: 'Phone', response: fakeResponse, twoFactorCode: u.recovery[0] } });
    expect(made.statusCode).toBe(422);
    expect(made.json<Envelope<{ field: string }>>()).toMatchObject({ code: 'A0234', data: { field: 'response' } });
    // The ceremony's challenge went with it: a second try needs new options.
    const again = await t.call('POST', '/user/api/passkeys/add', { token: u.token, body: { name: 'Phone', response: fakeResponse, twoFactorCode: u.recovery[1] } });
    expect(again.json<Envelope>().code).toBe('A0235');
  });

  it('the sign-in offers a passkey only to accounts with one; the second step takes a code or a passkey, not both', async () => {
    const u = await withTwoStep();
    const answer = (await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password } })).json<Envelope<{ challenge: string; methods: string[] }>>().data;
    expect(answer.methods).toEqual(['totp', 'recovery']);
    const options = await t.call('POST', '/user/api/login/2fa/passkey', { body: { challenge: answer.challenge } });
    expect(options.json<Envelope>().code).toBe('A0234');
    for (const body of [{ challenge: answer.challenge }, { challenge: answer.challenge, code: '123456', passkey: fakeResponse }]) {
      expect((await t.call('POST', '/user/api/login/2fa', { body })).statusCode).toBe(422);
    }
    // A passkey answer where none is registered counts as a wrong try.
    const wrong = await t.call('POST', '/user/api/login/2fa', { body: { challenge: answer.challenge, passkey: fakeResponse } });
    expect(wrong.json<Envelope<{ field: string }>>()).toMatchObject({ code: 'A0234', data: { field: 'passkey' } });
    expect((await t.call('POST', '/user/api/login/2fa', { body: { challenge: answer.challenge, code: totpCode(u.mail, u.secret, Date.now() + 30_000) } })).statusCode).toBe(200);
  });
});

// Passkeys' server side (issue 52 items 2 and 3): the ceremony options and their preconditions, a
// made-up answer refused and the challenge used up; then whole ceremonies with a software
// authenticator (test/soft-authenticator.ts): registered, the sign-in's second step signed, the
// step-up of an action proved, each challenge good once, a cloned key's counter refused. Chromium's
// virtual authenticator drives the screens in e2e/passkey.spec.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { SoftAuthenticator } from '../../test/soft-authenticator';
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

  it('a whole ceremony: registered with a code, the sign-in signed by it, an action proved by it; each challenge once, a cloned key refused', async () => {
    const u = await withTwoStep();
    const key = new SoftAuthenticator('localhost', `http://localhost:${t.config.PORT}`);
    const created = (await t.call('POST', '/user/api/passkeys/options', { token: u.token })).json<Envelope<{ challenge: string }>>().data;
    const added = await t.call('POST', '/user/api/passkeys/add', { token: u.token, body: { name: 'Soft key', response: key.register(created), twoFactorCode: u.recovery[0] } });
    expect(added.json<Envelope>().code, added.body).toBe('00000');
    const notices = (await t.call('GET', '/user/api/notification/list?page=1&size=5', { token: u.token })).body;
    expect(notices).toContain('Soft key');

    // The sign-in's second step, signed; the same assertion again is refused (its challenge is gone).
    const answer = (await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password } })).json<Envelope<{ challenge: string; methods: string[] }>>().data;
    expect(answer.methods).toEqual(['totp', 'recovery', 'passkey']);
    const getOptions = (await t.call('POST', '/user/api/login/2fa/passkey', { body: { challenge: answer.challenge } })).json<Envelope<{ challenge: string; allowCredentials: { id: string }[] }>>().data;
    expect(getOptions.allowCredentials.map((c) => c.id)).toEqual([key.id]);
    const signed = key.assert(getOptions);
    const session = await t.call('POST', '/user/api/login/2fa', { body: { challenge: answer.challenge, passkey: signed } });
    expect(session.json<Envelope<{ token: string }>>().code, session.body).toBe('00000');
    const token = session.json<Envelope<{ token: string }>>().data.token;
    const list = (await t.call('GET', '/user/api/passkeys', { token })).json<Envelope<{ name: string; lastUsedAt: string | null }[]>>().data;
    expect(list).toMatchObject([{ name: 'Soft key' }]);
    expect(list[0].lastUsedAt).not.toBeNull();

    // The step-up of an action (the anti-phishing phrase) proved by the passkey instead of a code.
    const wrongOrigin = key.assert((await t.call('POST', '/user/api/2fa/passkey', { token })).json<Envelope<{ challenge: string }>>().data, { origin: 'https://evil.example' });
    const phished = await t.call('POST', '/user/api/security/anti-phishing', { token, body: { phrase: 'heron', passkey: wrongOrigin } });
    expect(phished.json<Envelope<{ field: string }>>()).toMatchObject({ code: 'A0234', data: { field: 'passkey' } });
    const stepUp = (await t.call('POST', '/user/api/2fa/passkey', { token })).json<Envelope<{ challenge: string }>>().data;
    const proof = key.assert(stepUp);
    const set = await t.call('POST', '/user/api/security/anti-phishing', { token, body: { phrase: 'heron', passkey: proof } });
    expect(set.json<Envelope>().code, set.body).toBe('00000');
    expect((await t.call('GET', '/user/api/security', { token })).json<Envelope<{ antiPhishingPhrase: string }>>().data.antiPhishingPhrase).toBe('heron');
    // Replayed: the challenge went with the first use.
    const replay = await t.call('POST', '/user/api/security/anti-phishing', { token, body: { phrase: 'egret', passkey: proof } });
    expect(replay.json<Envelope>().code).toBe('A0234');

    // A copy of the key whose counter stands still is a clone: refused even with a fresh challenge.
    const again = (await t.call('POST', '/user/api/2fa/passkey', { token })).json<Envelope<{ challenge: string }>>().data;
    const cloned = await t.call('POST', '/user/api/security/anti-phishing', { token, body: { phrase: 'egret', passkey: key.assert(again, { keepCounter: true }) } });
    expect(cloned.json<Envelope>().code).toBe('A0234');
    expect((await t.call('GET', '/user/api/security', { token })).json<Envelope<{ antiPhishingPhrase: string }>>().data.antiPhishingPhrase).toBe('heron');

    // Removed with a passkey's proof: the next sign-in offers codes only.
    const removeProof = key.assert((await t.call('POST', '/user/api/2fa/passkey', { token })).json<Envelope<{ challenge: string }>>().data);
    const id = (await t.call('GET', '/user/api/passkeys', { token })).json<Envelope<{ id: number }[]>>().data[0].id;
    expect((await t.call('POST', '/user/api/passkeys/remove', { token, body: { id, passkey: removeProof } })).json<Envelope>().code).toBe('00000');
    const next = (await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password } })).json<Envelope<{ methods: string[] }>>().data;
    expect(next.methods).toEqual(['totp', 'recovery']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@lq/db';
import { buildApp } from '../app';
import { freshCode, registerUser, type Envelope, type RegisteredUser, type TestApp, startTestApp } from '../../test/helpers';
import type { SessionInfo } from '@lq/contracts';

let t: TestApp;
// The auth cache on (its default), and the database shared on a socket as `npm start` does: a
// revocation must reach every reader at once, cache or not.
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true });
});
afterAll(() => t?.close());

const PHONE = 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36';

async function signIn(u: RegisteredUser, userAgent: string, ip: string) {
  const res = await t.call('POST', '/user/api/login', { body: { userMail: u.mail, password: u.password }, headers: { 'user-agent': userAgent }, ip });
  expect(res.statusCode).toBe(200);
  return res.json<Envelope<{ token: string }>>().data.token;
}
const sessionsOf = async (token: string) => {
  const res = await t.call('GET', '/user/api/sessions', { token });
  expect(res.statusCode).toBe(200);
  return res.json<Envelope<SessionInfo[]>>().data;
};
const infoStatus = async (token: string) => (await t.call('GET', '/user/api/info', { token })).statusCode;
const endedNotices = async (mail: string) =>
  (await t.database.exec<{ params: { count: number } }>(`select n.params from notifications n join users u on u.id = n.user_id where u.mail = $1 and n.kind = 'security.sessionsEnded' order by n.id`, [mail])).map((r) => r.params.count);

describe('sessions', () => {
  it('lists the live sessions with the current one marked, newest used first', async () => {
    const u = await registerUser(t);
    const phone = await signIn(u, PHONE, '10.1.0.1');
    const desktop = await signIn(u, DESKTOP, '10.1.0.2');
    const list = await sessionsOf(desktop);
    expect(list).toHaveLength(3);
    const current = list.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]).toMatchObject({ ip: '10.1.0.2', userAgent: DESKTOP });
    expect(list.find((s) => s.userAgent === PHONE)).toMatchObject({ ip: '10.1.0.1', current: false });
    for (const s of list) expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt) - 1000);
    // Ended sessions are not listed.
    await t.call('POST', '/user/api/logout', { token: phone });
    expect((await sessionsOf(desktop)).map((s) => s.userAgent)).not.toContain(PHONE);
    // Without a token: 401.
    expect((await t.call('GET', '/user/api/sessions')).statusCode).toBe(401);
  });

  it('ends another session with the step-up only, at once, and tells the owner', async () => {
    const u = await registerUser(t);
    const thief = await signIn(u, PHONE, '10.2.0.1');
    expect(await infoStatus(thief)).toBe(200); // cached now
    const thiefId = (await sessionsOf(u.token)).find((s) => s.userAgent === PHONE)!.id;

    const bare = await t.call('POST', '/user/api/sessions/revoke', { token: u.token, body: { id: thiefId } });
    expect(bare.statusCode).toBe(422);
    expect(bare.json<Envelope>().code).toBe('A0246');
    const wrong = await t.call('POST', '/user/api/sessions/revoke', { token: u.token, body: { id: thiefId, code: '000000' } });
    expect(wrong.statusCode).toBe(422);
    expect(await infoStatus(thief)).toBe(200);

    const code = await freshCode(t, u, 'SECURITY');
    const ended = await t.call('POST', '/user/api/sessions/revoke', { token: u.token, body: { id: thiefId, code } });
    expect(ended.statusCode).toBe(200);
    expect(await infoStatus(thief)).toBe(401);
    expect(await infoStatus(u.token)).toBe(200);
    expect(await endedNotices(u.mail)).toEqual([1]);

    // Gone already, unknown, or someone else's: 404 naming the field; the code was used up.
    for (const id of [thiefId, 99_999_999]) {
      const again = await t.call('POST', '/user/api/sessions/revoke', { token: u.token, body: { id, code: await freshCode(t, u, 'SECURITY') } });
      expect(again.statusCode).toBe(404);
      expect(again.json<Envelope>().code).toBe('A0247');
    }
    const other = await registerUser(t);
    const otherId = (await sessionsOf(other.token))[0].id;
    const theirs = await t.call('POST', '/user/api/sessions/revoke', { token: u.token, body: { id: otherId, code: await freshCode(t, u, 'SECURITY') } });
    expect(theirs.statusCode).toBe(404);
    expect(await infoStatus(other.token)).toBe(200);
  });

  it('ends the current session without a code (a sign-out)', async () => {
    const u = await registerUser(t);
    const [me] = await sessionsOf(u.token);
    expect((await t.call('POST', '/user/api/sessions/revoke', { token: u.token, body: { id: me.id } })).statusCode).toBe(200);
    expect(await infoStatus(u.token)).toBe(401);
  });

  it('ends every other session with the step-up, keeping this one', async () => {
    const u = await registerUser(t);
    const others = [await signIn(u, PHONE, '10.3.0.1'), await signIn(u, DESKTOP, '10.3.0.2')];
    for (const o of others) expect(await infoStatus(o)).toBe(200);
    expect((await t.call('POST', '/user/api/sessions/revoke-others', { token: u.token, body: {} })).statusCode).toBe(422);
    const res = await t.call('POST', '/user/api/sessions/revoke-others', { token: u.token, body: { code: await freshCode(t, u, 'SECURITY') } });
    expect(res.statusCode).toBe(200);
    expect(res.json<Envelope<{ ended: number }>>().data).toEqual({ ended: 2 });
    for (const o of others) expect(await infoStatus(o)).toBe(401);
    expect(await infoStatus(u.token)).toBe(200);
    expect((await sessionsOf(u.token)).map((s) => s.current)).toEqual([true]);
    expect(await endedNotices(u.mail)).toEqual([2]);
  });

  it('a token revoked by another process answers 401 at once, with the cache warm', async () => {
    const u = await registerUser(t);
    expect(await infoStatus(u.token)).toBe(200);
    expect(await infoStatus(u.token)).toBe(200);
    if (t.database.kind === 'postgres') {
      // A second API process on the same PostgreSQL: it revokes, the first must not serve the token.
      const second = await openDatabase({ dataDir: t.dataDir, databaseUrl: t.config.DATABASE_URL });
      const app2 = await buildApp(t.config, { database: second, jobs: false, logger: false });
      try {
        const other = await signIn(u, PHONE, '10.4.0.1');
        const me = (await app2.inject({ method: 'GET', url: '/user/api/sessions', headers: { authorization: `Bearer ${other}` } }));
        expect(me.statusCode).toBe(200);
        expect(await infoStatus(other)).toBe(200); // warm on the first process
        const otherId = (JSON.parse(me.body) as Envelope<SessionInfo[]>).data.find((s) => s.current)!.id;
        const ended = await app2.inject({ method: 'POST', url: '/user/api/sessions/revoke', headers: { authorization: `Bearer ${other}` }, payload: { id: otherId } });
        expect(ended.statusCode).toBe(200);
        expect(await infoStatus(other)).toBe(401);
      } finally {
        await app2.close();
        await second.close();
      }
    }
    // An operator command on the database (the socket on PGlite, a connection on PostgreSQL).
    const ops = await openDatabase({ dataDir: t.dataDir, databaseUrl: t.config.DATABASE_URL, pgliteMode: 'auto' });
    try {
      await ops.exec(`update sessions set revoked_at = now() where user_id = (select id from users where mail = $1)`, [u.mail]);
    } finally {
      await ops.close();
    }
    expect(await infoStatus(u.token)).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { housekeeping } from './jobs';
import { registerUser, startTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ jobs: true });
});
afterAll(() => t?.close());

describe('pg-boss on our database', () => {
  it('sends a job and a worker processes it', async () => {
    const boss = t.app.boss!;
    expect(boss).toBeDefined();
    await boss.createQueue('test.echo');
    const done = new Promise<unknown>((resolve) => {
      void boss.work<{ n: number }>('test.echo', { pollingIntervalSeconds: 0.5 }, async ([job]) => {
        resolve(job.data);
        return Promise.resolve();
      });
    });
    const id = await boss.send('test.echo', { n: 42 });
    expect(id).toBeTruthy();
    expect(await done).toEqual({ n: 42 });
    // the job row lives in our database
    const rows = await t.database.exec<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'test.echo'`,
    );
    expect(rows[0].n).toBe(1);
  });

  it('housekeeping removes expired sessions and codes', async () => {
    const u = await registerUser(t);
    await t.database.exec(
      `update sessions set expires_at = now() - interval '2 days' where user_id = (select id from users where mail = $1)`,
      [u.mail],
    );
    await t.database.exec(
      `update verification_codes set expires_at = now() - interval '2 days' where mail = $1`,
      [u.mail],
    );
    const removed = await housekeeping(t.database);
    expect(removed.sessions).toBeGreaterThanOrEqual(1);
    expect(removed.codes).toBeGreaterThanOrEqual(1);
    expect((await t.call('GET', '/user/api/info', { token: u.token })).statusCode).toBe(401);
  });
});

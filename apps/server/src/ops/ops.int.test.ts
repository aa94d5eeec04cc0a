import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSetting, SETTING_KEYS } from '@lq/db';
import { runOps } from '.';
import { registerUser, startTestApp, type Envelope, type TestApp } from '../../test/helpers';

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
async function ops(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOps(
    argv,
    env(),
    (l) => out.push(l),
    (l) => err.push(l),
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

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

  it('prints the last mail with its code', async () => {
    const u = await registerUser(t);
    const last = await ops('mail:last', u.mail);
    expect(last.code).toBe(0);
    const sent = t.smtp.mails.filter((m) => m.to.includes(u.mail)).at(-1)!;
    const code = /\d{6}/.exec(sent.text)![0];
    expect(last.out).toContain(`To: ${u.mail}`);
    expect(last.out).toContain(code);
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
});

// Rate limits shared through Redis (issue 52 item 8): two API processes on one Redis give one
// budget; a Redis that can't be reached stops start-up, and one lost later fails closed (503).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, loadConfig } from '../src';
import { startTestApp, uniqueMail, type Envelope, type TestApp } from './helpers';

const REDIS = 'redis://127.0.0.1:6379';
const apps: TestApp[] = [];
afterAll(async () => {
  for (const a of apps) await a.close();
});

const prefix = () => `lq-test:${process.pid}:${Date.now()}:${Math.random().toString(36).slice(2)}:`;
async function twoProcesses(env: Record<string, string>) {
  const limits = { LOGIN_RATE_PER_MINUTE: '4', LOGIN_MAX_FAILURES: '100', ...env };
  const a = await startTestApp({ env: limits });
  const b = await startTestApp({ env: limits });
  apps.push(a, b);
  return [a, b] as const;
}
const loginCodes = async (targets: readonly TestApp[], n: number) => {
  const mail = uniqueMail('limits');
  const codes: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await targets[i % targets.length].call('POST', '/user/api/login', { body: { userMail: mail, password: 'Wrong-pass-1' }, ip: '203.0.113.77' });
    codes.push(res.json<Envelope>().code);
  }
  return codes;
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('rate limits across processes', () => {
  it('in memory (no REDIS_URL) each process has its own budget', async () => {
    const pair = await twoProcesses({});
    expect(await loginCodes(pair, 6)).toEqual(Array(6).fill('A0210'));
  });

  it('with REDIS_URL two processes share one budget', async () => {
    const pair = await twoProcesses({ REDIS_URL: REDIS, REDIS_KEY_PREFIX: prefix() });
    expect(await loginCodes(pair, 6)).toEqual(['A0210', 'A0210', 'A0210', 'A0210', 'A0429', 'A0429']);
  });

  it('a Redis that cannot be reached stops start-up, naming REDIS_URL without its password', async () => {
    const port = await freePort();
    const config = loadConfig({ DATA_DIR: '/tmp/lq-no-redis', REDIS_URL: `redis://lq:s3cret-pass@127.0.0.1:${port}`, LOG_LEVEL: 'silent' });
    const failed = await buildApp(config, { jobs: false, logger: false }).then(
      async (app) => {
        await app.close();
        return undefined;
      },
      (err: Error) => err.message,
    );
    expect(failed).toMatch(new RegExp(`^REDIS_URL: cannot reach redis://127\\.0\\.0\\.1:${port}`));
    expect(failed).not.toContain('s3cret');
  });

  it('Redis lost while running: limited routes answer 503 B0003, then work again once it is back', async () => {
    const port = await freePort();
    const start = () => spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const ready = async () => {
      for (let i = 0; i < 50; i++) {
        const up = await new Promise<boolean>((resolve) => {
          const s = createServer();
          s.once('error', () => resolve(true)).listen(port, '127.0.0.1', () => s.close(() => resolve(false)));
        });
        if (up) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('redis-server did not start');
    };
    let redis: ChildProcess = start();
    await ready();
    try {
      const [t] = await twoProcesses({ REDIS_URL: `redis://127.0.0.1:${port}`, LOGIN_RATE_PER_MINUTE: '100' });
      expect((await loginCodes([t], 1))[0]).toBe('A0210');
      redis.kill('SIGKILL');
      await new Promise((r) => redis.once('exit', r));
      const down = await t.call('POST', '/user/api/login', { body: { userMail: uniqueMail(), password: 'Wrong-pass-1' } });
      expect(down.statusCode).toBe(503);
      expect(down.json<Envelope>().code).toBe('B0003');
      // Routes without a limit are not held up.
      expect((await t.call('GET', '/user/api/site')).statusCode).toBe(200);
      redis = start();
      await ready();
      let back = '';
      for (let i = 0; i < 40 && back !== 'A0210'; i++) {
        await new Promise((r) => setTimeout(r, 150));
        back = (await loginCodes([t], 1))[0];
      }
      expect(back).toBe('A0210');
    } finally {
      redis.kill('SIGKILL');
    }
  });
});

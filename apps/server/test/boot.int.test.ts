import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Writable } from 'node:stream';
import { brotliCompressSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/platform/logger';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const main = path.join(repoRoot, 'apps/server/src/main.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'lq-boot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: '', ...env },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('main.ts', () => {
  it('refuses a bad configuration, naming the keys, with a non-zero exit', async () => {
    const p = start({ PORT: 'x', ROLE: 'nope', DATA_DIR: dir });
    expect(await p.exited).toBe(2);
    expect(p.output()).toMatch(/PORT/);
    expect(p.output()).toMatch(/ROLE/);
  });

  // PGlite whatever the pass (DATABASE_URL is cleared for the child): once, in the PGlite pass.
  it.runIf(!process.env.DATABASE_URL)('boots on PGlite, serves the SPA and the API, shares the database, and stops cleanly', async () => {
    const dataDir = path.join(dir, 'data');
    const web = path.join(dir, 'web');
    mkdirSync(path.join(web, 'assets'), { recursive: true });
    writeFileSync(
      path.join(web, 'index.html'),
      '<!doctype html><title>LQ</title><div id="root"></div>',
    );
    writeFileSync(path.join(web, 'assets', 'app-abc123.js'), 'console.log(1)');
    // The build's manifest: index.html's response names the login page and the visitor's texts.
    mkdirSync(path.join(web, '.vite'));
    writeFileSync(
      path.join(web, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/app-abc123.js' },
        'src/features/auth/LoginPage.tsx': {
          file: 'assets/LoginPage-abc.js',
          imports: ['index.html'],
        },
        'src/i18n/locales/ja-JP.json': { file: 'assets/ja-JP-abc.js' },
      }),
    );
    writeFileSync(
      path.join(web, 'assets', 'app-abc123.js.br'),
      brotliCompressSync('console.log(1)'),
    );
    const p = start({ PORT: '0', DATA_DIR: dataDir, WEB_DIST: web, LOG_LEVEL: 'info' });
    // A fresh data directory (initdb, every migration) through tsx: 5–10 s alone, 30 s and more
    // beside the browser tests and the other test worker on two cores.
    const deadline = Date.now() + 100_000;
    let base: string | undefined;
    while (!base && Date.now() < deadline) {
      base = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(p.output())?.[1];
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(base, p.output()).toBeDefined();
    try {
      const ready = (await (await fetch(`${base}/readyz`)).json()) as {
        data: { database: string };
      };
      expect(ready.data.database).toBe('pglite');

      const index = await fetch(`${base}/`);
      expect(index.status).toBe(200);
      expect(await index.text()).toContain('id="root"');
      expect(index.headers.get('cache-control')).toBe('no-cache');
      const japanese = await fetch(`${base}/`, {
        headers: { 'accept-language': 'ja,en;q=0.5', 'accept-encoding': 'br' },
      });
      expect(japanese.headers.get('link')).toBe(
        '</assets/ja-JP-abc.js>; rel=preload; as=script; crossorigin, </assets/LoginPage-abc.js>; rel=preload; as=script; crossorigin',
      );
      expect(japanese.headers.get('vary')).toBe('accept-encoding');
      expect(index.headers.get('link')).toBe(
        '</assets/LoginPage-abc.js>; rel=preload; as=script; crossorigin',
      );
      const asset = await fetch(`${base}/assets/app-abc123.js`);
      expect(asset.headers.get('cache-control')).toContain('immutable');
      expect(asset.headers.get('link')).toBeNull();
      const plain = await fetch(`${base}/assets/app-abc123.js`, {
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe('console.log(1)');
      const br = await fetch(`${base}/assets/app-abc123.js`, {
        headers: { 'accept-encoding': 'br' },
      });
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('vary')).toContain('accept-encoding');
      expect(await br.text()).toBe('console.log(1)'); // fetch decodes it
      const deep = await fetch(`${base}/pages/login/login`);
      expect(deep.status).toBe(404);
      expect(((await deep.json()) as { code: string }).code).toBe('A0404');

      const owner = JSON.parse(
        (await import('node:fs')).readFileSync(path.join(dataDir, 'server.json'), 'utf8'),
      ) as { pid: number; port: number };
      expect(owner.pid).toBe(p.child.pid);
      expect(owner.port).toBeGreaterThan(0);
    } finally {
      p.child.kill('SIGTERM');
    }
    expect(await p.exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'server.json'))).toBe(false);
  });
});

describe('logs', () => {
  it('never contain secrets', () => {
    let line = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        line += chunk.toString();
        cb();
      },
    });
    const log = pino(loggerOptions('info'), sink);
    log.info(
      {
        req: { headers: { authorization: 'Bearer s3cret-token' } },
        body: { password: 'hunter22', code: '123456', paidPwd: '654321' },
        account: { apiKey: 'k', secretKey: 's', passphrase: 'p' },
      },
      'x',
    );
    for (const secret of ['s3cret-token', 'hunter22', '123456', '654321', '"k"', '"s"', '"p"'])
      expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });
});

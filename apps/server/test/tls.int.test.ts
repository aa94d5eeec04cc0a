// HTTPS with HTTP/2 (TLS_CERT_FILE, TLS_KEY_FILE) on a real 127.0.0.1 socket: the same app answers
// over HTTP/2 and over HTTP/1.1 on one port, and the MT5 bridge's WebSocket upgrades over TLS.
// The certificate is made for this run by openssl (self-signed for 127.0.0.1) and trusted as the CA.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BRIDGE_PATH } from '@lq/contracts';
import { eq, tradingAccounts, users } from '@lq/db';
import { tokenHash } from '../src/bridge/hub';
import { loadConfig } from '../src/platform/config';
import { registerUser, startTestApp, type TestApp } from './helpers';

const dir = mkdtempSync(path.join(tmpdir(), 'lq-tls-'));
const certFile = path.join(dir, 'cert.pem');
const keyFile = path.join(dir, 'key.pem');
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
const ca = readFileSync(certFile);

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await startTestApp({ env: { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile } });
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

function getHttp2(url: string): Promise<{ status: number; protocol: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(origin, { ca });
    session.on('error', reject);
    const req = session.request({ ':path': new URL(url).pathname });
    let status = 0;
    let body = '';
    req.on('response', (headers) => (status = Number(headers[':status'])));
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      const protocol = session.alpnProtocol;
      session.close();
      resolve({ status, protocol, body });
    });
    req.on('error', reject);
    req.end();
  });
}

function getHttp1(url: string): Promise<{ status: number; version: string; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, version: res.httpVersion, body }));
      })
      .on('error', reject);
  });
}

describe('HTTPS', () => {
  it('answers over HTTP/2 and over HTTP/1.1 on the same port', async () => {
    expect(origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const h2 = await getHttp2(`${origin}/user/api/index/datasouce-list`);
    expect([h2.status, h2.protocol]).toEqual([200, 'h2']);
    expect((JSON.parse(h2.body) as { code: string }).code).toBe('00000');
    const h1 = await getHttp1(`${origin}/readyz`);
    expect([h1.status, h1.version]).toEqual([200, '1.1']);
  });

  it('lets the MT5 bridge upgrade to a WebSocket over TLS, and refuses a bad token', async () => {
    const user = await registerUser(t);
    const [u] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.mail, user.mail));
    const token = randomBytes(32).toString('base64url');
    await t.database.db.insert(tradingAccounts).values({ userId: u.id, market: 'forex', exchange: 'mt5', accountName: 'MT5 over TLS', bridgeTokenHash: tokenHash(token) });
    const wss = `${origin.replace('https', 'wss')}${BRIDGE_PATH}`;
    const open = (bearer: string) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(wss, { ca, headers: { authorization: `Bearer ${bearer}` } });
        ws.on('open', () => {
          ws.close();
          resolve('open');
        });
        ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
        ws.on('error', (err) => resolve(err.message));
      });
    expect(await open(token)).toBe('open');
    expect(await open('not-a-token')).toBe('401');
  });

  it('needs both files, each readable, named in the error', () => {
    expect(() => loadConfig({ TLS_CERT_FILE: certFile })).toThrow(/TLS_CERT_FILE, TLS_KEY_FILE: set both or neither/);
    expect(() => loadConfig({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: path.join(dir, 'missing.pem') })).toThrow(/TLS_KEY_FILE: .*missing\.pem is not a readable file/);
    expect(loadConfig({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile }).TLS_KEY_FILE).toBe(keyFile);
  });
});

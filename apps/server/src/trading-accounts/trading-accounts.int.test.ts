// Trading accounts (user/api/apikey/...): the real app through inject(), a real database, and the
// fake Binance / OKX servers in-process on 127.0.0.1 checking keys as the exchanges do.
import { webcrypto } from 'node:crypto';
import { chmodSync, statSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openDatabase, type DatabaseHandle, type TestDatabase } from '@lq/db';
import { FakeBinance, FakeOkx } from '@lq/venues/fake';
import { buildApp, loadConfig, type Config } from '..';
import { readCredentials } from './credentials';
import { SecretBox, sha256Hex } from './secrets';
import { loggerOptions } from '../platform/logger';
import { freshCode, registerUser, SmtpSink, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';

// Canaries: must never appear in any answer or log line.
const CANARY_SECRET = 'CANARYsecret0b5e7d1f9a2c4e6f8a0b1c3d5e7f9';
const CANARY_PASS = 'CANARYpass4d1c';
const BINANCE_KEY = 'binanceKeyAAAA0000zz1234';
const BINANCE_KEY2 = 'binanceKeyBBBB1111yy5678';
const OKX_KEY = 'okxKeyCCCC2222xx9abc';

interface Item {
  id: number;
  market: string;
  exchange: string;
  accountName: string;
  remark: string | null;
  apiKeyMasked: string | null;
  leverage: number;
  frozen: boolean;
  warnings: string[];
  robotsRunning: number;
  keyCheck: { canTrade: boolean; oneWay: boolean; crossMargin: boolean | null } | null;
  bridge: { status: string } | null;
}
interface Err {
  code: string;
  msg: string;
  data: { field?: string } | null;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

let app: FastifyInstance;
let config: Config;
let database: DatabaseHandle;
let smtp: SmtpSink;
let dataDir: string;
let target: TestDatabase | undefined;
let binance: FakeBinance;
let okx: FakeOkx;
let box: SecretBox;
const logText: string[] = [];
const answers: string[] = [];
let alice: RegisteredUser;
let bob: RegisteredUser;

let testApp: TestApp;

/**
 * Binding, new keys and a new bridge token need a step-up: such a call by a user without two-step
 * and without a code of its own gets a fresh API_KEY e-mail code (the resend interval aged away),
 * as the form's "send code" would.
 */
async function withBindCode(url: string, o: { body?: unknown; token?: string }): Promise<unknown> {
  const body = o.body as Record<string, unknown> | undefined;
  const stepUpUrl = url.startsWith('/user/api/apikey/bind') || url.startsWith('/user/api/apikey/rotate-token') || (url.startsWith('/user/api/apikey/edit') && !!body && ('secretKey' in body || 'apiKey' in body || 'passphrase' in body));
  if (!stepUpUrl || !o.token || !body || typeof body !== 'object' || 'code' in body || 'twoFactorCode' in body) return o.body;
  const owner = [alice, bob].find((u) => u.token === o.token);
  if (!owner) return o.body;
  return { ...body, code: await freshCode(testApp, owner, 'API_KEY') };
}

async function call(method: Method, url: string, o: { body?: unknown; token?: string; lang?: string } = {}) {
  if (method === 'POST' || method === 'PUT') o = { ...o, body: await withBindCode(url, o) };
  const headers: Record<string, string> = { lang: o.lang ?? 'en_US' };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  const req: InjectOptions = { method, url, headers, remoteAddress: '127.0.0.1' };
  if (o.body !== undefined) req.payload = o.body as InjectOptions['payload'];
  const res = await app.inject(req);
  answers.push(res.body);
  return Object.assign(res, { json: <T = Envelope>() => JSON.parse(res.body) as T });
}

/** What the web client does with Web Crypto: RSA-OAEP (SHA-256) with the served SPKI key, base64. */
async function seal(text: string): Promise<string> {
  const res = await call('GET', '/user/api/apikey/public-key');
  const { spki } = res.json<Envelope<{ spki: string }>>().data;
  const key = await webcrypto.subtle.importKey('spki', Buffer.from(spki, 'base64'), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const sealed = await webcrypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(text));
  return Buffer.from(sealed).toString('base64');
}

async function bindBinance(token: string, over: Record<string, unknown> = {}, secret = CANARY_SECRET) {
  return call('POST', '/user/api/apikey/bind', {
    token,
    body: { exchange: 'binance', accountName: 'Main', remark: 'note', apiKey: BINANCE_KEY, secretKey: await seal(secret), leverage: 20, ...over },
  });
}

const itemOf = (res: { json<T>(): T }) => res.json<Envelope<{ account: Item; bridgeToken: string | null }>>().data;

beforeAll(async () => {
  binance = new FakeBinance({ keys: { [BINANCE_KEY]: CANARY_SECRET, [BINANCE_KEY2]: CANARY_SECRET } });
  okx = new FakeOkx({ keys: { [OKX_KEY]: CANARY_SECRET }, passphrases: { [OKX_KEY]: CANARY_PASS } } as ConstructorParameters<typeof FakeOkx>[0]);
  const [b, o] = [await binance.listen(), await okx.listen()];
  target = await createTestDatabase('lq-accounts-');
  dataDir = target.dataDir;
  smtp = await SmtpSink.start();
  config = loadConfig({
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    WEB_DIST: path.join(dataDir, 'no-web'),
    LOGIN_RATE_PER_MINUTE: '1000',
    CODE_RATE_PER_MINUTE: '1000',
    USER_RATE_PER_MINUTE: '1000',
    AUTH_CACHE_MS: '0',
    EXCHANGE_BINANCE_URL: b,
    EXCHANGE_OKX_URL: o,
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
  });
  database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL, pgliteMode: 'exclusive' });
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logText.push(chunk.toString('utf8'));
      cb();
    },
  });
  app = await buildApp(config, { database, jobs: false, logger: { ...loggerOptions('trace'), stream } });
  box = SecretBox.fromConfig(config);
  testApp = { app, config, smtp, database, dataDir, call: (m: 'GET' | 'POST', u: string, o?: { body?: unknown; token?: string }) => call(m, u, o) } as unknown as TestApp;
  alice = await registerUser(testApp);
  bob = await registerUser(testApp);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
  await smtp?.close();
  await binance?.close();
  await okx?.close();
  await target?.remove();
});

afterEach(() => {
  binance.clearFaults();
  binance.seed({ account: { enableWithdrawals: false, enableFutures: true, ipRestrict: false, dualSidePosition: false, marginType: 'CROSSED' } });
  okx.seed({ account: { perm: 'read_only,trade', acctLv: '2', ip: '', posMode: 'net_mode' } });
});

async function unbindAll(token: string) {
  const list = (await call('GET', '/user/api/apikey/list', { token })).json<Envelope<{ list: Item[] }>>().data.list;
  for (const a of list) await database.exec(`update robots set status = 'stopped' where account_id = $1`, [a.id]);
  for (const a of list) expect((await call('DELETE', `/user/api/apikey/unbind?id=${a.id}`, { token })).statusCode).toBe(200);
}

describe('key files and the public key', () => {
  it('creates the master key and the transport key with mode 0600', () => {
    for (const f of ['secrets.key', 'transport-rsa.pem']) expect(statSync(path.join(dataDir, f)).mode & 0o777).toBe(0o600);
  });

  it('serves the public key without a login', async () => {
    const res = await call('GET', '/user/api/apikey/public-key');
    expect(res.statusCode).toBe(200);
    const data = res.json<Envelope<{ spki: string; pem: string; algorithm: string }>>().data;
    expect(data.algorithm).toBe('RSA-OAEP-256');
    expect(data.pem).toContain('BEGIN PUBLIC KEY');
  });

  it('refuses to start when the master key file is readable by others', async () => {
    const file = path.join(dataDir, 'secrets.key');
    chmodSync(file, 0o644);
    try {
      await expect(buildApp(config, { database, jobs: false, logger: false })).rejects.toThrow(/secrets\.key has mode 0644/);
    } finally {
      chmodSync(file, 0o600);
    }
  });

  it('lists the routes in the OpenAPI document', async () => {
    const paths = Object.keys((await call('GET', '/docs/json')).json<{ paths: Record<string, unknown> }>().paths);
    for (const p of ['public-key', 'overview', 'list', 'detail', 'bind', 'edit', 'unbind', 'check', 'rotate-token']) expect(paths).toContain(`/user/api/apikey/${p}`);
  });

  it('needs a login for everything else', async () => {
    expect((await call('GET', '/user/api/apikey/list')).statusCode).toBe(401);
    expect((await call('POST', '/user/api/apikey/bind', { body: { exchange: 'mt5', accountName: 'FX' } })).statusCode).toBe(401);
    expect((await call('DELETE', '/user/api/apikey/unbind?id=1')).statusCode).toBe(401);
  });
});

describe('binding a crypto account', () => {
  afterEach(() => unbindAll(alice.token));

  it('binds a Binance key checked with the exchange; stores it encrypted, shows it masked', async () => {
    const res = await bindBinance(alice.token);
    expect(res.statusCode, res.body).toBe(200);
    const { account, bridgeToken } = itemOf(res);
    expect(bridgeToken).toBeNull();
    expect(account).toMatchObject({ market: 'crypto', exchange: 'binance', accountName: 'Main', remark: 'note', apiKeyMasked: '****1234', leverage: 20, frozen: false, robotsRunning: 0, warnings: ['noIpRestriction'] });
    expect(account.keyCheck).toMatchObject({ canTrade: true, oneWay: true, crossMargin: true });
    expect(binance.journal.map((j) => j.path)).toContain('/sapi/v1/account/apiRestrictions');

    const [row] = await database.exec<Record<string, Uint8Array | string | null>>(`select * from trading_accounts where id = $1`, [account.id]);
    for (const col of ['wrapped_key', 'api_key_enc', 'secret_key_enc']) {
      const text = Buffer.from(row[col] as Uint8Array).toString('latin1');
      expect(text).not.toContain(CANARY_SECRET);
      expect(text).not.toContain(BINANCE_KEY);
    }
    expect(row.passphrase_enc).toBeNull();
    expect(row.key_last4).toBe('1234');
    expect(row.api_key_hash).toBe(sha256Hex(BINANCE_KEY));
    expect(await readCredentials(database.db, box, account.id)).toEqual({ exchange: 'binance', apiKey: BINANCE_KEY, secret: CANARY_SECRET, passphrase: null });
  });

  it('binds an OKX key with its passphrase; the passphrase is required', async () => {
    const missing = await call('POST', '/user/api/apikey/bind', {
      token: alice.token,
      body: { exchange: 'okx', accountName: 'OKX', apiKey: OKX_KEY, secretKey: await seal(CANARY_SECRET), leverage: 5 },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json<Err>().data?.field).toBe('passphrase');

    const res = await call('POST', '/user/api/apikey/bind', {
      token: alice.token,
      body: { exchange: 'okx', accountName: 'OKX', apiKey: OKX_KEY, secretKey: await seal(CANARY_SECRET), passphrase: await seal(CANARY_PASS), leverage: 5 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { account } = itemOf(res);
    expect(account).toMatchObject({ exchange: 'okx', apiKeyMasked: '****9abc', leverage: 5 });
    expect(account.keyCheck?.crossMargin).toBeNull();
    expect(await readCredentials(database.db, box, account.id)).toEqual({ exchange: 'okx', apiKey: OKX_KEY, secret: CANARY_SECRET, passphrase: CANARY_PASS });
  });

  it('refuses a key the exchange rejects (wrong secret, wrong passphrase), with its reason', async () => {
    const res = await bindBinance(alice.token, {}, 'not-the-right-secret');
    expect(res.statusCode).toBe(422);
    const e = res.json<Err>();
    expect(e.code).toBe('A0330');
    expect(e.msg).toMatch(/refused this API key: .+/);
    // The form shows it under the field at fault.
    expect(e.data).toEqual({ field: 'secretKey' });
    const o = await call('POST', '/user/api/apikey/bind', {
      token: alice.token,
      body: { exchange: 'okx', accountName: 'OKX', apiKey: OKX_KEY, secretKey: await seal(CANARY_SECRET), passphrase: await seal('wrong-pass'), leverage: 5 },
    });
    expect(o.json<Err>().code).toBe('A0330');
    expect(o.json<Err>().msg).toMatch(/PASSPHRASE/i);
    expect(o.json<Err>().data).toEqual({ field: 'passphrase' });
  });

  it('refuses a key that can withdraw, telling the user to remove the permission', async () => {
    binance.seed({ account: { enableWithdrawals: true } });
    const res = await bindBinance(alice.token);
    expect(res.statusCode).toBe(422);
    expect(res.json<Err>().code).toBe('A0331');
    expect(res.json<Err>().msg).toMatch(/Remove the withdrawal permission/);
    okx.seed({ account: { perm: 'read_only,trade,withdraw' } });
    const o = await call('POST', '/user/api/apikey/bind', {
      token: alice.token,
      body: { exchange: 'okx', accountName: 'OKX', apiKey: OKX_KEY, secretKey: await seal(CANARY_SECRET), passphrase: await seal(CANARY_PASS), leverage: 5 },
    });
    expect(o.json<Err>().code).toBe('A0331');
  });

  it('refuses a key that cannot trade futures', async () => {
    binance.seed({ account: { enableFutures: false } });
    const res = await bindBinance(alice.token);
    expect(res.json<Err>().code).toBe('A0332');
  });

  it('binds in hedge mode or isolated margin, with the position-mode warning', async () => {
    binance.seed({ account: { dualSidePosition: true, marginType: 'ISOLATED', ipRestrict: true } });
    const res = await bindBinance(alice.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(itemOf(res).account.warnings).toEqual(['positionMode']);
    expect(itemOf(res).account.keyCheck).toMatchObject({ oneWay: false, crossMargin: false });
  });

  it('OKX: long/short position mode warns, an account level that cannot trade swaps is refused', async () => {
    const bindOkx = async () =>
      call('POST', '/user/api/apikey/bind', {
        token: alice.token,
        body: { exchange: 'okx', accountName: 'OKX', apiKey: OKX_KEY, secretKey: await seal(CANARY_SECRET), passphrase: await seal(CANARY_PASS), leverage: 5 },
      });
    okx.seed({ account: { acctLv: '1' } });
    expect((await bindOkx()).json<Err>().code).toBe('A0332');
    okx.seed({ account: { acctLv: '2', posMode: 'long_short_mode', ip: '10.0.0.1' } });
    const res = await bindOkx();
    expect(res.statusCode, res.body).toBe(200);
    expect(itemOf(res).account.warnings).toEqual(['positionMode']);
  });

  it('refuses the same key twice', async () => {
    expect((await bindBinance(alice.token)).statusCode).toBe(200);
    const again = await bindBinance(alice.token, { accountName: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json<Err>().code).toBe('A0335');
  });

  it('answers EXCHANGE_UNREACHABLE when the exchange fails', async () => {
    binance.addFault({ path: '/fapi/v1/exchangeInfo', times: 0, action: { type: 'http', status: 502, body: 'bad gateway' } });
    const res = await bindBinance(alice.token);
    expect(res.statusCode).toBe(502);
    expect(res.json<Err>().code).toBe('C0101');
  });

  it('refuses a secret that was not encrypted with the public key, and bad fields', async () => {
    const plain = await call('POST', '/user/api/apikey/bind', {
      token: alice.token,
      body: { exchange: 'binance', accountName: 'X', apiKey: BINANCE_KEY, secretKey: Buffer.from('a'.repeat(40)).toString('base64'), leverage: 10 },
    });
    expect(plain.statusCode).toBe(422);
    expect(plain.json<Err>()).toMatchObject({ code: 'A0336', data: { field: 'secretKey' } });
    const lev = await bindBinance(alice.token, { leverage: 200 });
    expect(lev.json<Err>().data?.field).toBe('leverage');
    expect(lev.json<Err>().msg).toMatch(/125/);
    const name = await bindBinance(alice.token, { accountName: '' });
    expect(name.json<Err>().data?.field).toBe('accountName');
    const extra = await bindBinance(alice.token, { passphrase: 'x' });
    expect(extra.statusCode).toBe(422);
    const ex = await call('POST', '/user/api/apikey/bind', { token: alice.token, body: { exchange: 'kraken', accountName: 'K' } });
    expect(ex.statusCode).toBe(422);
  });
});

describe('MT5 accounts', () => {
  afterEach(() => unbindAll(alice.token));

  it('binds with a bridge token shown once (only its hash stored) and rotates it', async () => {
    const res = await call('POST', '/user/api/apikey/bind', { token: alice.token, body: { exchange: 'mt5', accountName: 'FX', remark: 'demo' } });
    expect(res.statusCode, res.body).toBe(200);
    const { account, bridgeToken } = itemOf(res);
    expect(bridgeToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(account).toMatchObject({ market: 'forex', exchange: 'mt5', apiKeyMasked: null, leverage: 100, bridge: { status: 'never' } });
    const [row] = await database.exec<{ bridge_token_hash: string }>(`select bridge_token_hash from trading_accounts where id = $1`, [account.id]);
    expect(row.bridge_token_hash).toBe(sha256Hex(bridgeToken!));
    const detail = await call('GET', `/user/api/apikey/detail?id=${account.id}`, { token: alice.token });
    expect(detail.body).not.toContain(bridgeToken!);
    const list = await call('GET', '/user/api/apikey/list?market=forex', { token: alice.token });
    expect(list.body).not.toContain(bridgeToken!);
    expect(list.json<Envelope<{ list: Item[] }>>().data.list.map((i) => i.id)).toEqual([account.id]);

    // A new token is a step-up, as binding is: a wrong code changes nothing.
    const refused = await call('POST', '/user/api/apikey/rotate-token', { token: alice.token, body: { id: account.id, code: '000000' } });
    expect(refused.json().code).toBe('A0220');
    const [kept] = await database.exec<{ bridge_token_hash: string }>(`select bridge_token_hash from trading_accounts where id = $1`, [account.id]);
    expect(kept.bridge_token_hash).toBe(sha256Hex(bridgeToken!));
    const rot = await call('POST', '/user/api/apikey/rotate-token', { token: alice.token, body: { id: account.id } });
    const fresh = itemOf(rot).bridgeToken!;
    expect(fresh).not.toBe(bridgeToken);
    const [after] = await database.exec<{ bridge_token_hash: string }>(`select bridge_token_hash from trading_accounts where id = $1`, [account.id]);
    expect(after.bridge_token_hash).toBe(sha256Hex(fresh));
  });

  it('shows the bridge online after a recent heartbeat', async () => {
    const { account } = itemOf(await call('POST', '/user/api/apikey/bind', { token: alice.token, body: { exchange: 'mt5', accountName: 'FX', leverage: 200 } }));
    await database.exec(`update trading_accounts set bridge_seen_at = now(), bridge_state = '{"balance":"1000.5","equity":990}'::jsonb, mt5_login = '123', mt5_server = 'Demo' where id = $1`, [account.id]);
    const d = (await call('GET', `/user/api/apikey/detail?id=${account.id}`, { token: alice.token })).json<Envelope<Item>>().data;
    expect(d.bridge).toEqual({ status: 'online', seenAt: expect.any(String), login: '123', server: 'Demo', balance: 1000.5, equity: 990 });
    expect(d.leverage).toBe(200);
  });
});

describe('edit, check, unbind', () => {
  let id: number;
  beforeAll(async () => {
    id = itemOf(await bindBinance(alice.token)).account.id;
  });
  afterAll(() => unbindAll(alice.token));

  it('edits name, remark and leverage (leverage within the market maximum)', async () => {
    const res = await call('PUT', '/user/api/apikey/edit', { token: alice.token, body: { id, accountName: 'Renamed', remark: '', leverage: 50 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Envelope<Item>>().data).toMatchObject({ accountName: 'Renamed', remark: null, leverage: 50 });
    const over = await call('PUT', '/user/api/apikey/edit', { token: alice.token, body: { id, leverage: 300 } });
    expect(over.statusCode).toBe(422);
    expect(over.json<Err>().data?.field).toBe('leverage');
  });

  it('new keys need the step-up of a bind (a name change does not): a wrong code changes nothing', async () => {
    const refused = await call('PUT', '/user/api/apikey/edit', { token: alice.token, body: { id, apiKey: BINANCE_KEY2, secretKey: await seal(CANARY_SECRET), code: '000000' } });
    expect(refused.json<Err>()).toMatchObject({ code: 'A0220', data: { field: 'code' } });
    expect((await readCredentials(database.db, box, id)).apiKey).toBe(BINANCE_KEY);
  });

  it('re-checks new secrets: a wrong one is refused and the old key stays', async () => {
    const bad = await call('PUT', '/user/api/apikey/edit', { token: alice.token, body: { id, secretKey: await seal('wrong-secret-value') } });
    expect(bad.json<Err>().code).toBe('A0330');
    expect((await readCredentials(database.db, box, id)).secret).toBe(CANARY_SECRET);
    const good = await call('PUT', '/user/api/apikey/edit', { token: alice.token, body: { id, apiKey: BINANCE_KEY2, secretKey: await seal(CANARY_SECRET) } });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json<Envelope<Item>>().data.apiKeyMasked).toBe('****5678');
    expect((await readCredentials(database.db, box, id)).apiKey).toBe(BINANCE_KEY2);
  });

  it('re-runs the key check on demand', async () => {
    binance.seed({ account: { dualSidePosition: true } });
    const res = await call('POST', '/user/api/apikey/check', { token: alice.token, body: { id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Envelope<Item>>().data.warnings).toContain('positionMode');
  });

  it('refuses to unbind while a robot runs on it, counts it, then unbinds and erases the secrets', async () => {
    const userId = (await database.exec<{ user_id: number }>(`select user_id from trading_accounts where id = $1`, [id]))[0].user_id;
    await database.exec(
      `insert into robots (user_id, account_id, market, strategy, symbol, interval, params, capital, leverage, status)
       values ($1, $2, 'crypto', 'grid', 'BTCUSDT', '1m', '{}'::jsonb, 1000, 10, 'running')`,
      [userId, id],
    );
    const detail = (await call('GET', `/user/api/apikey/detail?id=${id}`, { token: alice.token })).json<Envelope<Item>>().data;
    expect(detail.robotsRunning).toBe(1);
    const overview = (await call('GET', '/user/api/apikey/overview', { token: alice.token })).json<Envelope<{ markets: { market: string; accounts: number; robotsRunning: number }[] }>>().data;
    expect(overview.markets.find((m) => m.market === 'crypto')).toMatchObject({ accounts: 1, robotsRunning: 1 });
    for (const status of ['running', 'paused', 'stopping']) {
      await database.exec(`update robots set status = $1 where account_id = $2`, [status, id]);
      const res = await call('DELETE', `/user/api/apikey/unbind?id=${id}`, { token: alice.token });
      expect(res.statusCode).toBe(409);
      expect(res.json<Err>().code).toBe('A0333');
    }
    await database.exec(`update robots set status = 'stopped' where account_id = $1`, [id]);
    expect((await call('DELETE', `/user/api/apikey/unbind?id=${id}`, { token: alice.token })).statusCode).toBe(200);
    expect((await call('GET', `/user/api/apikey/detail?id=${id}`, { token: alice.token })).statusCode).toBe(404);
    const [row] = await database.exec<Record<string, unknown>>(`select wrapped_key, secret_key_enc, unbound_at from trading_accounts where id = $1`, [id]);
    expect(row.wrapped_key).toBeNull();
    expect(row.secret_key_enc).toBeNull();
    expect(row.unbound_at).not.toBeNull();
    // the same key may be bound again once unbound
    expect((await bindBinance(alice.token, { apiKey: BINANCE_KEY2 })).statusCode).toBe(200);
  });
});

describe('another user can never reach an account', () => {
  let id: number;
  let mt5Id: number;
  beforeAll(async () => {
    id = itemOf(await bindBinance(alice.token)).account.id;
    mt5Id = itemOf(await call('POST', '/user/api/apikey/bind', { token: alice.token, body: { exchange: 'mt5', accountName: 'FX' } })).account.id;
  });
  afterAll(() => unbindAll(alice.token));

  it('list and overview show only the caller’s accounts', async () => {
    const list = await call('GET', '/user/api/apikey/list', { token: bob.token });
    expect(list.json<Envelope<{ list: Item[] }>>().data.list).toEqual([]);
    const ov = (await call('GET', '/user/api/apikey/overview', { token: bob.token })).json<Envelope<{ markets: { accounts: number }[] }>>().data;
    expect(ov.markets.every((m) => m.accounts === 0)).toBe(true);
  });

  const cases: [string, Method, (id: number) => string, (id: number) => unknown][] = [
    ['detail', 'GET', (i) => `/user/api/apikey/detail?id=${i}`, () => undefined],
    ['edit', 'PUT', () => '/user/api/apikey/edit', (i) => ({ id: i, accountName: 'Mine now' })],
    ['unbind', 'DELETE', (i) => `/user/api/apikey/unbind?id=${i}`, () => undefined],
    ['check', 'POST', () => '/user/api/apikey/check', (i) => ({ id: i })],
    ['rotate-token', 'POST', () => '/user/api/apikey/rotate-token', (i) => ({ id: i })],
  ];
  for (const [name, method, url, body] of cases) {
    it(`${name}: 404 like a missing account, nothing changed`, async () => {
      for (const target of [id, mt5Id]) {
        const res = await call(method, url(target), { token: bob.token, body: body(target) });
        expect(res.statusCode, res.body).toBe(404);
        expect(res.json<Err>().code).toBe('A0404');
      }
      const mine = await call('GET', `/user/api/apikey/detail?id=${id}`, { token: alice.token });
      expect(mine.json<Envelope<Item>>().data.accountName).toBe('Main');
    });
  }
});

describe('secrets never leave', () => {
  it('no answer and no log line contains a secret, a passphrase or a whole API key', async () => {
    // something was bound and answered by now; make sure at least one error path logged too
    await bindBinance(alice.token, {}, 'wrong-secret-for-the-log');
    expect(answers.length).toBeGreaterThan(30);
    expect(logText.length).toBeGreaterThan(30);
    for (const text of [answers.join('\n'), logText.join('')]) {
      expect(text).not.toContain(CANARY_SECRET);
      expect(text).not.toContain(CANARY_PASS);
      expect(text).not.toContain(BINANCE_KEY);
      expect(text).not.toContain(OKX_KEY);
    }
  });

  it('a ciphertext moved to another row does not decrypt (associated data binds user, account, field)', async () => {
    const a = itemOf(await bindBinance(alice.token)).account.id;
    const b = itemOf(await bindBinance(bob.token)).account.id;
    try {
      // bob's row gets alice's data key and secret: same master key, other (user, account)
      await database.exec(
        `update trading_accounts t set wrapped_key = s.wrapped_key, secret_key_enc = s.secret_key_enc, api_key_enc = s.api_key_enc
           from trading_accounts s where s.id = $1 and t.id = $2`,
        [a, b],
      );
      await expect(readCredentials(database.db, box, b)).rejects.toMatchObject({ errorName: 'SECRET_UNREADABLE' });
      const check = await call('POST', '/user/api/apikey/check', { token: bob.token, body: { id: b } });
      expect(check.json<Err>().code).toBe('A0336');
      // alice's own row still opens
      expect((await readCredentials(database.db, box, a)).secret).toBe(CANARY_SECRET);
    } finally {
      await unbindAll(alice.token);
      await unbindAll(bob.token);
    }
  });
});

// Shared by every server integration test (and reusable by later ones): a real app on a real
// database (PGlite in a temp dir, or a scratch PostgreSQL database when DATABASE_URL is set),
// and a real SMTP sink on 127.0.0.1 that the app sends its mails to.
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { createTestDatabase, openDatabase, type DatabaseHandle } from '@lq/db';
import { buildApp, loadConfig, type Config } from '../src';
import { hashPayPassword } from '../src/users';
import { derivedKey } from '../src/platform/key-files';
import { PAY_PEPPER_LABEL } from '../src/platform/deps';
import { adjustWallet } from '../src/wallet';
import { bytesOf, isWithdrawAddress } from '../src/withdrawals/addresses';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** A real SMTP server on 127.0.0.1 (random port) collecting what it receives. */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  /** Mails still to be refused with a 451 (an outage of the mail service). */
  refusals = 0;
  private waiters: (() => void)[] = [];
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpSink> {
    const box: { sink?: SmtpSink } = {};
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          if (box.sink!.refusals > 0) {
            box.sink!.refusals--;
            return callback(Object.assign(new Error('service unavailable, try again later'), { responseCode: 451 }));
          }
          box.sink!.receive(
            session.envelope.rcptTo.map((r) => r.address),
            Buffer.concat(chunks).toString('utf8'),
          );
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = (
      server as unknown as { server: { address(): { port: number } } }
    ).server.address();
    box.sink = new SmtpSink(server, address.port);
    return box.sink;
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  private receive(to: string[], raw: string) {
    this.mails.push({ to, ...parseMail(raw) });
    this.waiters.splice(0).forEach((w) => w());
  }

  /** The newest mail to `address`, waiting up to `timeoutMs` for one to arrive after `afterCount` mails. */
  async waitFor(address: string, afterCount = 0, timeoutMs = 5_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.mails.filter((m) => m.to.includes(address));
      if (found.length > afterCount) return found[found.length - 1];
      if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  countTo(address: string) {
    return this.mails.filter((m) => m.to.includes(address)).length;
  }

  /** Every mail to `address` so far, oldest first. */
  mailsTo(address: string): ReceivedMail[] {
    return this.mails.filter((m) => m.to.includes(address));
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Minimal MIME reading for the single-part text mails nodemailer sends. */
export function parseMail(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const decodeWords = (s: string) =>
    s.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
      enc.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text: string;
  if (encoding === 'base64')
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (encoding === 'quoted-printable')
    text = Buffer.from(
      body
        .replace(/=\r\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  else text = body;
  return { subject: decodeWords(header('Subject')), text: text.replace(/\r\n/g, '\n').trimEnd() };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  smtp: SmtpSink;
  database: DatabaseHandle;
  dataDir: string;
  /** inject() with JSON and optional token / lang / client IP. */
  call(
    method: 'GET' | 'POST',
    url: string,
    options?: {
      body?: unknown;
      token?: string;
      lang?: string;
      ip?: string;
      headers?: Record<string, string>;
    },
  ): Promise<Omit<LightMyRequestResponse, 'json'> & { json<T = Envelope>(): T }>;
  close(): Promise<void>;
}

export interface Envelope<T = unknown> {
  code: string;
  msg: string;
  data: T;
}

export interface StartOptions {
  /** Extra environment for loadConfig (e.g. rate limits). */
  env?: Record<string, string>;
  /** Start pg-boss (off by default: most tests do not need it). */
  jobs?: boolean;
  /** PGlite in owner mode, shared through its socket (as `npm start` does). */
  shareSocket?: boolean;
  /**
   * Puts a withdrawal's address in the caller's address book, usable at once, before each
   * withdraw/create: for tests of what comes after the book (the book has tests of its own).
   */
  bookWithdrawAddresses?: boolean;
}

/** An address in a user's withdrawal book, usable at once (as if added WITHDRAW_NEW_ADDRESS_HOURS ago). */
export async function bookAddress(database: DatabaseHandle, userId: number, network: 'BEP20' | 'TRC20', address: string): Promise<void> {
  await database.exec(
    `insert into withdraw_addresses (user_id, network, address, address_hex, usable_from) values ($1, $2, $3, $4, now()) on conflict do nothing`,
    [userId, network, address, bytesOf(network, address)],
  );
}

/**
 * A database of a test's own, without the app: PGlite in a temporary folder, or a scratch database
 * on DATABASE_URL's PostgreSQL; `close()` closes it and removes the folder or drops the database.
 */
export async function openTestDatabase(prefix: string, options: { poolMax?: number } = {}): Promise<{ database: DatabaseHandle; close: () => Promise<void> }> {
  const target = await createTestDatabase(prefix, process.env.DATABASE_URL, { inMemory: true });
  const database = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl, pgliteImage: target.pgliteImage, pgliteMode: 'exclusive', poolMax: options.poolMax });
  return {
    database,
    close: async () => {
      await database.close();
      await target.remove();
    },
  };
}

export async function startTestApp(options: StartOptions = {}): Promise<TestApp> {
  // PGlite in memory unless shared through its socket (other processes open the folder's database).
  const target = await createTestDatabase('lq-server-', process.env.DATABASE_URL, { inMemory: !options.shareSocket });
  const dataDir = target.dataDir;
  const smtp = await SmtpSink.start();
  const config = loadConfig({
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    LOGIN_RATE_PER_MINUTE: '1000',
    CODE_RATE_PER_MINUTE: '1000',
    USER_RATE_PER_MINUTE: '1000',
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    ...options.env,
  });
  const database = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.DATABASE_URL,
    pgliteImage: target.pgliteImage,
    pgliteMode: options.shareSocket ? 'owner' : 'exclusive',
  });
  const app = await buildApp(config, { database, jobs: options.jobs ?? false, logger: false });
  const userIdOfToken = new Map<string, number>();
  async function bookFor(token: string, body: unknown): Promise<void> {
    const { network, address } = (body ?? {}) as { network?: unknown; address?: unknown };
    if ((network !== 'BEP20' && network !== 'TRC20') || typeof address !== 'string' || !isWithdrawAddress(network, address.trim())) return;
    let userId = userIdOfToken.get(token);
    if (userId === undefined) {
      const me = await app.inject({ method: 'GET', url: '/user/api/info', headers: { authorization: `Bearer ${token}` } });
      if (me.statusCode !== 200) return;
      const mail = (JSON.parse(me.body) as Envelope<{ mail: string }>).data.mail;
      const [row] = await database.exec<{ id: string | number }>('select id from users where mail = $1', [mail]);
      userId = Number(row.id);
      userIdOfToken.set(token, userId);
    }
    await bookAddress(database, userId, network, address.trim());
  }
  return {
    app,
    config,
    smtp,
    database,
    dataDir,
    async call(method, url, o = {}) {
      const headers: Record<string, string> = { ...o.headers };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      if (o.lang) headers.lang = o.lang;
      const req: InjectOptions = { method, url, headers, remoteAddress: o.ip ?? '127.0.0.1' };
      if (o.body !== undefined) req.payload = o.body as InjectOptions['payload'];
      if (options.bookWithdrawAddresses && method === 'POST' && url === '/user/api/withdraw/create' && o.token) await bookFor(o.token, o.body);
      const res = await app.inject(req);
      return Object.assign(res, { json: <T>() => JSON.parse(res.body) as T });
    },
    async close() {
      await app.close();
      await database.close();
      await smtp.close();
      await target.remove();
    },
  };
}

let mailCounter = 0;
/** A fresh, unique address. */
export const uniqueMail = (prefix = 'user') =>
  `${prefix}.${process.pid}.${Date.now().toString(36)}.${mailCounter++}@example.com`;

/** Requests a code of `codeType` for `mail` and reads it from the mail the SMTP sink received. */
export async function requestCode(
  t: TestApp,
  mail: string,
  codeType: string,
  token?: string,
): Promise<string> {
  const before = t.smtp.countTo(mail);
  const res = await t.call('POST', '/user/api/verify-code/send', {
    body: { userMail: mail, codeType },
    token,
    lang: 'en_US',
    ip: randomIp(),
  });
  if (res.statusCode !== 200) throw new Error(`send code failed: ${res.body}`);
  const received = await t.smtp.waitFor(mail, before);
  const code = /\b(\d{6})\b/.exec(received.text)?.[1];
  if (!code) throw new Error(`no code in mail: ${received.text}`);
  return code;
}

/**
 * A new code of `codeType` for a signed-in user even when one was sent within the resend interval
 * (that one's send time is aged past it): what "send code" on a form gives a patient user.
 */
export async function freshCode(t: TestApp, user: { mail: string; token: string }, codeType: string): Promise<string> {
  await t.database.exec(`update verification_codes set created_at = created_at - interval '61 seconds' where mail = $1`, [user.mail]);
  return requestCode(t, user.mail, codeType, user.token);
}

export const randomIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

export interface RegisteredUser {
  mail: string;
  password: string;
  token: string;
  userCode: string;
}

/** Registers a user through the real flow (code read from the SMTP sink) and returns its session. */
export async function registerUser(
  t: TestApp,
  options: { mail?: string; password?: string; inviteCode?: string; country?: string } = {},
): Promise<RegisteredUser> {
  const mail = options.mail ?? uniqueMail();
  const password = options.password ?? 'Passw0rd!x';
  const code = await requestCode(t, mail, 'REGISTER');
  const res = await t.call('POST', '/user/api/register', {
    body: {
      userMail: mail,
      password,
      code,
      country: options.country ?? 'TH',
      ...(options.inviteCode ? { inviteCode: options.inviteCode } : {}),
    },
    ip: randomIp(),
  });
  const body = res.json<Envelope<{ token: string; user: { userCode: string } }>>();
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`);
  return { mail, password, token: body.data.token, userCode: body.data.user.userCode };
}

/** A user registered through the real flow (with `inviteCode` when given), with their id. */
export async function registeredUserWithId(t: TestApp, inviteCode?: string): Promise<RegisteredUser & { id: number }> {
  const u = await registerUser(t, inviteCode ? { inviteCode } : {});
  const [row] = await t.database.exec<{ id: number | string }>('select id from users where mail = $1', [u.mail]);
  return { ...u, id: Number(row.id) };
}

/**
 * The basic rights (1 account seat and 1 backtest slot per market) as an operator grants them
 * (`npm run ops -- benefit:unlock`): what a test needs before it runs a robot or a backtest.
 */
export async function grantUnlock(t: Pick<TestApp, 'database'>, mail: string): Promise<void> {
  await t.database.exec(
    `insert into entitlement_grants (user_id, kind, quantity, origin, note) select id, 'unlock', 1, 'operator', 'test' from users where mail = $1`,
    [mail.toLowerCase()],
  );
}

/** The payment password `payingUser` sets. */
export const PAY_PASSWORD = '123456';

/**
 * A registered user with the payment password PAY_PASSWORD and `balance` micro-Lightning in the
 * balance wallet (an operator adjustment), invited by `inviteCode` when given: what the money tests
 * (withdrawals, benefits, rebates) start from.
 */
export async function payingUser(t: TestApp, balance: bigint, inviteCode?: string): Promise<RegisteredUser & { id: number }> {
  const u = await registerUser(t, inviteCode ? { inviteCode } : {});
  const [row] = await t.database.exec<{ id: number | string }>('select id from users where mail = $1', [u.mail]);
  const id = Number(row.id);
  await t.database.exec('update users set pay_pwd_hash = $2 where id = $1', [id, await hashPayPassword(PAY_PASSWORD, derivedKey(t.app.config, PAY_PEPPER_LABEL))]);
  if (balance > 0n) await adjustWallet(t.database.db, { userId: id, wallet: 'balance', amount: balance, reason: 'test funds', source: 'shell', key: `test-fund-${id}` });
  return { ...u, id };
}

/** A running live grid robot of `userId` on a Binance account of its own, written straight to the tables (no venue involved). */
export async function runningRobot(t: TestApp, userId: number, symbol = 'BTCUSDT'): Promise<number> {
  const [acc] = await t.database.exec<{ id: string }>(`insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, 'crypto', 'binance', 'main', 'abcd') returning id::text as id`, [userId]);
  const [r] = await t.database.exec<{ id: string }>(
    `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status) values ($1, $2, 'crypto', 'live', 'grid', $3, '1m', '{}', 1000, 5, 'running') returning id::text as id`,
    [userId, Number(acc.id), symbol],
  );
  return Number(r.id);
}

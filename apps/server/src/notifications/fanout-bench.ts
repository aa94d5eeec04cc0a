// Fan-out figures (issue 31): one notice published to 100,000 users who switched new notices on
// (e-mail), on the real app in one process as deployed (API and jobs: the delivery job runs as it
// does in production, a pass then NOTIFY_POLL_SECONDS). Measured: the time from publishing to every
// user's notification row (the goal: < 10 s), how long until all are in the mail outbox, and the
// API's p99 (GET user/api/info, a session and a user read) at a steady rate from a separate process
// (autocannon) with nothing to deliver — the baseline, timed in the same run — and while the
// fan-out and delivery run (the goal: within 20 % of the baseline). Without SMTP_URL the mails stay
// in the outbox, which is where the figure stops. On PGlite, and on PostgreSQL with a server URL.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createScratchDatabase, openDatabase, users, type DatabaseHandle } from '@lq/db';
import { buildApp } from '../app';
import { createNotice, publishNotice } from '../notices';
import { loadConfig } from '../platform/config';

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

interface Cannon {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
}

/** autocannon in a child process (so the load does not run on the server's event loop). */
function cannon(url: string, token: string, seconds: number, rate: number): Promise<Cannon> {
  const args = [autocannonCli, '-j', '-c', '10', '-d', String(seconds), '-R', String(rate), '-H', `authorization=Bearer ${token}`, url];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 2 ** 20 }, (err, stdout) => {
      if (err) return reject(new Error(`autocannon: ${err.message}`));
      const r = JSON.parse(stdout) as { requests: { total: number }; latency: { p50: number; p99: number; max: number }; non2xx: number; errors: number };
      resolve({ requests: r.requests.total, p50Ms: r.latency.p50, p99Ms: r.latency.p99, maxMs: r.latency.max, non2xx: r.non2xx, errors: r.errors });
    });
  });
}

async function count(db: DatabaseHandle, query: string): Promise<number> {
  const [row] = await db.exec<{ n: number }>(query);
  return row.n;
}

async function benchOn(dir: string, databaseUrl: string | undefined, audience: number, rate: number, windowSeconds: number, waitMinutes: number) {
  const config = loadConfig({
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dir, 'no-web'),
    USER_RATE_PER_MINUTE: '1000000',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.DATABASE_URL, pgliteMode: 'exclusive' });
  const app = await buildApp(config, { database, jobs: true, logger: false });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/user/api/info`;
    let t = performance.now();
    await database.exec(
      `with u as (
         insert into users (mail, password_hash, user_code, country, locale)
         select 'fanout' || g || '@example.com', 'x', 'FO-' || g, 'SG', (array['en-US','zh-TW','th-TH','ja-JP','vi-VN','zh-CN','in_ID'])[1 + g % 7]
         from generate_series(1, $1::int) g returning id)
       insert into notification_prefs (user_id, kind, channel, enabled) select id, 'notice.published', 'email', true from u`,
      [audience],
    );
    // What the hourly upkeep (PGlite) or autovacuum (PostgreSQL) does after a bulk load.
    await database.exec('vacuum analyze users');
    const seedSeconds = (performance.now() - t) / 1000;
    const [user] = await database.db.insert(users).values({ mail: `fanout.reader@example.com`, passwordHash: '-', userCode: 'FO-READER', country: 'TH' }).returning();
    const { token } = await app.sessions.issue(user.id, '127.0.0.1', 'bench');

    await cannon(url, token, 3, rate); // warm-up
    // The server's event loop stalls in each window (on PGlite a statement runs on it).
    const loop = monitorEventLoopDelay({ resolution: 5 });
    const stalls = () => {
      const r = { p99Ms: round(loop.percentile(99) / 1e6), maxMs: round(loop.max / 1e6) };
      loop.reset();
      return r;
    };
    loop.enable();
    const baseline = { ...(await cannon(url, token, windowSeconds, rate)), eventLoopDelay: stalls() };

    const id = await createNotice(database.db, { category: 'notice', text: { locale: 'en-US', title: 'Maintenance on Sunday 02:00 UTC', body: 'Robots keep running; the app is read-only for 20 minutes.' } });
    const during = cannon(url, token, windowSeconds, rate);
    t = performance.now();
    await publishNotice(database.db, id);
    let enqueueSeconds = 0;
    while (!enqueueSeconds) {
      await sleep(100);
      if ((await count(database, `select count(*)::int as n from notices where id = ${id} and fanned_out_at is not null`)) === 1) enqueueSeconds = (performance.now() - t) / 1000;
    }
    const api = { ...(await during), eventLoopDelay: stalls() };
    loop.disable();
    const outboxAtWindow = await count(database, `select count(*)::int as n from mail_outbox where subject like '%Maintenance%'`);
    let outboxSeconds = 0;
    const deadline = performance.now() + waitMinutes * 60_000;
    while (!outboxSeconds && performance.now() < deadline) {
      await sleep(1000);
      if ((await count(database, `select count(*)::int as n from mail_outbox where subject like '%Maintenance%'`)) >= audience) outboxSeconds = (performance.now() - t) / 1000;
    }
    const written = await count(database, `select count(*)::int as n from notifications where kind = 'notice.published'`);
    return {
      database: database.kind,
      audience,
      seedSeconds: round(seedSeconds),
      enqueue: { seconds: round(enqueueSeconds, 2), rows: written, goalSeconds: 10 },
      delivery: { allInOutboxSeconds: outboxSeconds ? round(outboxSeconds) : `not within ${waitMinutes} min`, inOutboxAfterWindow: outboxAtWindow, windowSeconds },
      api: {
        requestsPerSecond: rate,
        baseline,
        duringFanOut: api,
        p99Moved: round(((api.p99Ms - baseline.p99Ms) / Math.max(baseline.p99Ms, 1)) * 100),
        goal: 'p99 moved by at most 20 %',
      },
    };
  } finally {
    await app.close();
    await database.close();
  }
}

export async function benchFanOut(options: { postgresUrl?: string; audience?: number; rate?: number; windowSeconds?: number; waitMinutes?: number } = {}) {
  const waitMinutes = options.waitMinutes ?? 15;
  const audience = options.audience ?? 100_000;
  const rate = options.rate ?? 200;
  const windowSeconds = options.windowSeconds ?? 20;
  const dir = mkdtempSync(path.join(tmpdir(), 'lq-bench-fanout-'));
  const out: Record<string, unknown> = {};
  try {
    out.pglite = await benchOn(path.join(dir, 'lite'), undefined, audience, rate, windowSeconds, waitMinutes);
    if (options.postgresUrl) {
      const scratch = await createScratchDatabase(options.postgresUrl);
      try {
        out.postgres = await benchOn(path.join(dir, 'pg'), scratch.url, audience, rate, windowSeconds, waitMinutes);
      } finally {
        await scratch.drop();
      }
    } else out.postgres = 'skipped: set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

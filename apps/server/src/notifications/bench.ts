// Notification figures (issue 31): robot events at a steady rate — robots paused by a venue's
// refusal, each pause raising its notification in the same statement (the trigger) — handed on and
// e-mailed by the delivery pass running as the job runs it (a pass, then NOTIFY_POLL_SECONDS), and
// the time from each event to its mail_outbox row: p50, p99, max. Baseline timed in the same run on
// the same database: a one-row insert in its own transaction. On PGlite, and on PostgreSQL with
// BENCH_DATABASE_URL (or DATABASE_URL). `npm run bench -- --only=notices`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { createScratchDatabase, openDatabase, rowsOf, sql, type DatabaseHandle } from '@lq/db';
import { Mailer } from '../platform/mail';
import { load } from '../platform/bench-load';
import { deliverNotifications } from './delivery';

const ROBOTS = 1000;
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as unknown as FastifyBaseLogger;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function robotsOf(db: DatabaseHandle): Promise<number[]> {
  const users = await db.exec<{ id: string }>(
    `insert into users (mail, password_hash, user_code, country, locale)
     select 'ntbench' || g || '.' || $2 || '@example.com', 'x', 'NT' || $2 || '-' || g, 'SG', (array['en-US','zh-TW','th-TH','ja-JP'])[1 + g % 4]
     from generate_series(1, $1::int) g returning id::text as id`,
    [ROBOTS, process.pid],
  );
  const robots: number[] = [];
  for (const u of users) {
    const [acc] = await db.exec<{ id: string }>(`insert into trading_accounts (user_id, market, exchange, account_name, key_last4) values ($1, 'crypto', 'binance', 'main', 'abcd') returning id::text as id`, [Number(u.id)]);
    const [r] = await db.exec<{ id: string }>(
      `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status) values ($1, $2, 'crypto', 'live', 'grid', 'BTCUSDT', '1m', '{}', 1000, 5, 'running') returning id::text as id`,
      [Number(u.id), Number(acc.id)],
    );
    robots.push(Number(r.id));
  }
  return robots;
}

async function benchOn(db: DatabaseHandle, events: number, seconds: number) {
  await db.exec(`create table if not exists bench_floor (id bigint generated always as identity primary key, v bigint not null)`);
  let v = 0;
  const floor = await load(2000, 8, () => db.db.transaction((tx) => tx.execute(sql`insert into bench_floor (v) values (${v++})`)));
  const robots = await robotsOf(db);
  const mailer = new Mailer(db.db, silent, 'bench@lightning-quant.local', undefined);
  const channels = { mailer, telegram: undefined, push: undefined, publicUrl: 'https://app.example' };

  // The delivery job: a pass, then the poll interval (1 s), until every event is in the outbox.
  let raising = true;
  let passes = 0;
  const job = (async () => {
    for (;;) {
      const r = await deliverNotifications(db.db, channels);
      passes++;
      if (!raising && r.handed === 0 && r.sent === 0) {
        const [{ left }] = await db.exec<{ left: number }>(`select count(*)::int as left from notification_deliveries where status = 'pending'`);
        const [{ undelivered }] = await db.exec<{ undelivered: number }>(`select count(*)::int as undelivered from notifications where delivered_at is null`);
        if (left === 0 && undelivered === 0) return;
      }
      await sleep(1000);
    }
  })();

  // Events at a steady rate: every 100 ms a slice of robots paused by a refusal (and run again).
  const perTick = Math.max(1, Math.round(events / (seconds * 10)));
  const started = performance.now();
  let raised = 0;
  for (let tick = 0; raised < events; tick++) {
    const due = started + tick * 100;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const n = Math.min(perTick, events - raised);
    for (let i = 0; i < n; i++) {
      const robot = robots[(raised + i) % robots.length];
      await db.exec(`update robots set status = 'paused', pause_reason = 'insufficientFunds: Margin is insufficient.' where id = $1`, [robot]);
      await db.exec(`update robots set status = 'running', pause_reason = null where id = $1`, [robot]);
    }
    raised += n;
  }
  const raisingSeconds = (performance.now() - started) / 1000;
  raising = false;
  await job;

  const lat = rowsOf<{ ms: number }>(
    await db.db.execute(sql`select extract(epoch from (m.created_at - n.created_at)) * 1000 as ms
      from notification_deliveries d join notifications n on n.id = d.notification_id join mail_outbox m on m.id = d.mail_id
      where n.kind = 'robot.error' order by ms`),
  ).map((r) => Number(r.ms));
  const at = (q: number) => round(lat[Math.min(lat.length - 1, Math.floor(lat.length * q))] ?? 0);
  return {
    events,
    eventsPerMinute: Math.round((events / raisingSeconds) * 60),
    mailed: lat.length,
    passes,
    eventToOutboxMs: { p50: at(0.5), p99: at(0.99), max: at(1) },
    baselineInsertMs: { p50: floor.p50Ms, p99: floor.p99Ms },
    p99OverBaseline: round(at(0.99) / Math.max(floor.p99Ms, 0.01)),
  };
}

export async function benchNotices(options: { postgresUrl?: string; events?: number; seconds?: number } = {}) {
  const events = options.events ?? 10_000;
  const seconds = options.seconds ?? 60;
  const out: Record<string, unknown> = { goals: { robotEvents: '10,000 robot events a minute, p99 < 5 s from event to the mail outbox' } };
  const dir = mkdtempSync(path.join(tmpdir(), 'lq-bench-notices-'));
  try {
    const lite = await openDatabase({ dataDir: path.join(dir, 'lite'), pgliteMode: 'exclusive' });
    try {
      out.pglite = await benchOn(lite, events, seconds);
    } finally {
      await lite.close();
    }
    if (options.postgresUrl) {
      const scratch = await createScratchDatabase(options.postgresUrl);
      const pg = await openDatabase({ dataDir: path.join(dir, 'pg'), databaseUrl: scratch.url });
      try {
        out.postgres = await benchOn(pg, events, seconds);
      } finally {
        await pg.close();
        await scratch.drop();
      }
    } else out.postgres = 'skipped: set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

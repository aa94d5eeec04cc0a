// Referral figures (issue 30, "How fast"), PostgreSQL only (scratch databases):
// `npm run bench -- --only=referrals` with BENCH_DATABASE_URL or DATABASE_URL.
// 1. Settlement: `users` users (default 1,000,000) in chains of depth up to 20, a level mix, and
//    `payments` purchases (default 100,000) in one day by 20,000 payers; one settlement of the day
//    (goal < 60 s), then the three leaderboards (goal < 30 s).
// 2. VIP and the team page: `vipUsers` users (default 100,000) all below one top user, 1,000,000
//    live fills in the window; the VIP computation (goal < 60 s), then the top user's team summary
//    (the day's figures, read as computed) and first list page, p99 over 50 reads each (goal < 100 ms).
// Each timed against a baseline of the same run on the same database: inserting as many rows as the
// timed step wrote into a bare table in one statement.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createScratchDatabase, openDatabase, type DatabaseHandle } from '@lq/db';
import { dayAfter, dayOf, statsWindow } from '../platform/windows';
import { teamListOf, teamSummaryOf } from '../team';
import { postEntries, type EntryCommand } from '../wallet';
import { computeRankings } from './rankings';
import { settleRebates } from './rebates';
import { computeVip } from './vip';

const TZ = 'Asia/Shanghai';
const DEPTH = 20;
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const seconds = (t0: number) => round((performance.now() - t0) / 1000);

/** `n` users in chains of DEPTH (user g's referrer is g − n/DEPTH), with the closure rows; answers the first id. */
async function tree(db: DatabaseHandle, n: number, tag: string, top: number | null): Promise<number> {
  const [{ base }] = await db.exec<{ base: string }>(`select coalesce(max(id), 0)::text as base from users`);
  const b = Number(base);
  const chains = Math.ceil(n / DEPTH);
  await db.exec(
    `insert into users (id, mail, password_hash, user_code, country, user_level, referrer_id) overriding system value
     select $1::bigint + g, $3 || g || '@bench.example', 'x', upper($3) || g, 'SG',
            case abs(hashtext(g::text)) % 100 when 0 then 'VIP3' when 1 then 'VIP3' when 2 then 'VIP2' when 3 then 'VIP2' when 4 then 'VIP2'
              when 5 then 'VIP1' when 6 then 'VIP1' when 7 then 'VIP1' when 8 then 'VIP1' when 9 then 'VIP1' else 'none' end,
            case when g > $4::bigint then $1::bigint + g - $4::bigint else $5::bigint end
       from generate_series(1, $2::bigint) g`,
    [b, n, tag, chains, top],
  );
  await db.exec(`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`);
  await db.exec(
    `insert into user_tree (ancestor_id, descendant_id, depth)
     select $1::bigint + g - k * $3::bigint, $1::bigint + g, k from generate_series(1, $2::bigint) g, generate_series(1, ${DEPTH - 1}) k
      where k <= (g - 1) / $3::bigint`,
    [b, n, chains],
  );
  if (top !== null) {
    await db.exec(`insert into user_tree (ancestor_id, descendant_id, depth) select $1::bigint, $2::bigint + g, 1 + (g - 1) / $3::bigint from generate_series(1, $4::bigint) g`, [top, b, chains, n]);
  }
  // What autovacuum does after a bulk load: statistics, and the visibility map index-only scans need.
  await db.exec('vacuum analyze users');
  await db.exec('vacuum analyze user_tree');
  return b + 1;
}

/** Seconds to insert `rows` rows into a bare table in one statement: the run's baseline. */
async function baseline(db: DatabaseHandle, rows: number): Promise<number> {
  await db.exec(`create table if not exists bench_floor (id bigint generated always as identity primary key, v bigint not null)`);
  const t0 = performance.now();
  await db.exec(`insert into bench_floor (v) select g from generate_series(1, $1::int) g`, [rows]);
  return Math.max(0.001, seconds(t0));
}

async function settlementOn(db: DatabaseHandle, users: number, payments: number) {
  const t0 = performance.now();
  const first = await tree(db, users, 'rb', null);
  const payers = Math.min(20_000, users);
  const payerIds = Array.from({ length: payers }, (_, i) => first + ((i * 48_271) % users));
  const batches: EntryCommand[][] = [];
  for (let i = 0; i < payers; i += 1000) {
    batches.push(
      payerIds.slice(i, i + 1000).map((id) => ({ key: `rbb-fund-${id}`, kind: 'adjust', userId: id, lines: [{ account: { platform: 'adjustments' as const }, amount: -1_000_000_000n }, { account: { userId: id, wallet: 'balance' as const }, amount: 1_000_000_000n }] })),
    );
  }
  for (let i = 0; i < payments; i += 1000) {
    batches.push(
      Array.from({ length: Math.min(1000, payments - i) }, (_, j) => {
        const n = i + j;
        const id = payerIds[n % payers];
        const amount = BigInt(10_000_000 * (1 + (n % 10)));
        return { key: `rbb-pay-${n}`, kind: 'purchase', userId: id, lines: [{ account: { userId: id, wallet: 'balance' as const }, amount: -amount }, { account: { platform: 'revenue' as const }, amount }] };
      }),
    );
  }
  for (const batch of batches) await postEntries(db.db, batch);
  await db.exec('analyze ledger_entries');
  await db.exec('analyze ledger_lines');
  const seedSeconds = seconds(t0);

  const t1 = performance.now();
  const run = await settleRebates(db.db, TZ, dayOf(new Date(), TZ));
  const settleSeconds = seconds(t1);
  const settleFloor = await baseline(db, run.rebates);

  const t2 = performance.now();
  // As of tomorrow: today's new members and rebates are in that window.
  const ranked = await computeRankings(db.db, TZ, dayAfter(dayOf(new Date(), TZ)));
  const rankingSeconds = seconds(t2);
  const [{ rows }] = await db.exec<{ rows: number }>(`select count(*)::int as rows from ranking_entries`);
  const rankingFloor = await baseline(db, rows);
  const [{ closure }] = await db.exec<{ closure: string }>(`select count(*)::text as closure from user_tree`);
  return {
    users,
    closureRows: Number(closure),
    payments: run.payments,
    seedSeconds,
    settle: { seconds: settleSeconds, rebates: run.rebates, total: run.total.toString(), perSecond: Math.round(run.payments / Math.max(0.001, settleSeconds)), baselineInsertSeconds: settleFloor, ratioToBaseline: round(settleSeconds / settleFloor, 1) },
    rankings: { seconds: rankingSeconds, ranked: ranked.ranked, baselineInsertSeconds: rankingFloor, ratioToBaseline: round(rankingSeconds / rankingFloor, 1) },
  };
}

async function vipOn(db: DatabaseHandle, users: number, fills: number) {
  const t0 = performance.now();
  const [{ id: topId }] = await db.exec<{ id: string }>(`insert into users (mail, password_hash, user_code, country) values ('vbtop@bench.example', 'x', 'VBTOP', 'SG') returning id::text as id`);
  const top = Number(topId);
  const first = await tree(db, users, 'vb', top);
  // Live robots of 10,000 users (one account each), `fills` fills spread over them in the window.
  const traders = Math.min(10_000, users);
  await db.exec(
    `insert into trading_accounts (user_id, market, exchange, account_name, key_last4) select $1::bigint + g * 7 % $2::bigint, 'crypto', 'binance', 'b', 'abcd' from generate_series(0, $3::int - 1) g`,
    [first, users, traders],
  );
  await db.exec(
    `insert into robots (user_id, account_id, market, mode, strategy, symbol, interval, params, capital, leverage, status, created_at)
     select a.user_id, a.id, 'crypto', 'live', 'grid', 'BTCUSDT', '1m', '{}', 1000, 5, 'running', now() - interval '20 days' from trading_accounts a where a.account_name = 'b'`,
  );
  await db.exec(
    `insert into robot_fills (robot_id, client_order_id, fill_key, action, position_side, qty, price, notional, filled_at)
     select r.id, 'c', 'f' || g, 'open', 'long', 0.01, 50000 + g % 1000, 0.01 * 0.01 * (50000 + g % 1000), now() - make_interval(days => 1 + g % 25)
       from generate_series(1, $1::int) g join (select id, row_number() over (order by id) - 1 as n from robots) r on r.n = g % $2::int`,
    [fills, traders],
  );
  await db.exec('analyze robot_fills');
  await db.exec('analyze robots');
  const seedSeconds = seconds(t0);

  const t1 = performance.now();
  const run = await computeVip(db.db, TZ);
  const vipSeconds = seconds(t1);
  const vipFloor = await baseline(db, run.users);

  const w = statsWindow(TZ);
  const timings = async (fn: () => Promise<unknown>) => {
    const ms: number[] = [];
    for (let i = 0; i < 50; i++) {
      const s = performance.now();
      await fn();
      ms.push(performance.now() - s);
    }
    ms.sort((a, b) => a - b);
    return { p50: round(ms[24], 1), p99: round(ms[49], 1) };
  };
  const summary = await timings(() => teamSummaryOf(db.db, top, w));
  const list = await timings(() => teamListOf(db.db, top, { page: 1, size: 20 }, w));
  const [{ team }] = await db.exec<{ team: number }>(`select count(*)::int as team from user_tree where ancestor_id = $1`, [top]);
  return {
    users: run.users,
    fills,
    seedSeconds,
    vip: { seconds: vipSeconds, raised: run.raised, baselineInsertSeconds: vipFloor, ratioToBaseline: round(vipSeconds / vipFloor, 1) },
    teamPage: { descendants: team, summaryMs: summary, listMs: list },
  };
}

export async function benchReferrals(options: { postgresUrl?: string; users?: number; payments?: number; vipUsers?: number; fills?: number } = {}) {
  const out: Record<string, unknown> = {
    goals: { settle: '1,000,000 users, 100,000 payments in a day < 60 s', rankings: '1,000,000 users < 30 s', vip: '100,000 users, 1,000,000 fills < 60 s', teamPage: '100,000 descendants, p99 < 100 ms' },
  };
  if (!options.postgresUrl) return { ...out, postgres: 'skipped: set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server' };
  const dir = mkdtempSync(path.join(tmpdir(), 'lq-bench-referrals-'));
  try {
    for (const [name, fn] of [
      ['settlement', (db: DatabaseHandle) => settlementOn(db, options.users ?? 1_000_000, options.payments ?? 100_000)],
      ['vipAndTeam', (db: DatabaseHandle) => vipOn(db, options.vipUsers ?? 100_000, options.fills ?? 1_000_000)],
    ] as const) {
      const scratch = await createScratchDatabase(options.postgresUrl);
      const pg = await openDatabase({ dataDir: path.join(dir, name), databaseUrl: scratch.url });
      try {
        out[name] = await fn(pg);
      } finally {
        await pg.close();
        await scratch.drop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

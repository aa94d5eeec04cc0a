// Ledger figures (issue 16): posted transfers per second and their p99 at 32 concurrent clients,
// against a baseline measured in the same run on the same database (a one-row insert in its own
// transaction: the floor of any money movement), and the records page of a user with 100,000
// lines. PGlite in a temporary directory, and PostgreSQL too when `postgresUrl` is given (a
// scratch database). `npm run bench -- --only=ledger` (BENCH_DATABASE_URL or DATABASE_URL for
// PostgreSQL).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createScratchDatabase, openDatabase, sql, type DatabaseHandle } from '@lq/db';
import { postEntry, rebateToBalance, verifyLedger } from './ledger';
import { walletRecordsOf } from './service';
import { load, type Load } from '../platform/bench-load';
import { vacuumTables } from '../platform/maintenance';
import { insertUser } from './test-helpers';

const CLIENTS = 32;
/** Baseline and ledger loads alternate this many times, so a stall of the host falls on both. */
const ROUNDS = 3;

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const percentile = (sorted: number[], q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))], 2);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Every round, and the median round's rate and p99. */
const summary = (rounds: Load[]) => ({ perSecond: median(rounds.map((r) => r.perSecond)), p99Ms: median(rounds.map((r) => r.p99Ms)), rounds });

const newUser = (db: DatabaseHandle, tag: string) => insertUser(db, `bench${tag}`);

async function fund(db: DatabaseHandle, userId: number, micro: bigint) {
  await postEntry(db.db, {
    key: `bench-fund-${userId}`,
    kind: 'adjust',
    userId,
    lines: [
      { account: { platform: 'adjustments' }, amount: -micro },
      { account: { userId, wallet: 'rebate' }, amount: micro },
    ],
  });
}

/** 100,000 lines for one user written in bulk SQL (50,000 transfers), balances set to match. */
async function seedLines(db: DatabaseHandle, userId: number, transfers: number): Promise<void> {
  await fund(db, userId, BigInt(transfers) * 1_000_000n);
  const [acc] = await db.exec<{ rebate: string; balance: string }>(
    `select (select id from ledger_accounts where user_id = $1 and kind = 'rebate')::text as rebate,
            (select id from ledger_accounts where user_id = $1 and kind = 'balance')::text as balance`,
    [userId],
  );
  let balanceId = acc.balance;
  if (balanceId === null) {
    const [b] = await db.exec<{ id: string }>(`insert into ledger_accounts (code, kind, user_id, no_overdraft) values ($1, 'balance', $2, true) returning id::text as id`, [`user:${userId}:balance`, userId]);
    balanceId = b.id;
  }
  await db.db.execute(sql`with e as (
      insert into ledger_entries (idempotency_key, request_hash, kind, status, user_id)
      select 'bench-seed-' || ${userId} || '-' || g, 'seed', 'transfer', 'posted', ${userId} from generate_series(1, ${transfers}) g
      returning id)
    insert into ledger_lines (entry_id, account_id, amount, balance_after, user_id, kind)
    select id, a, amt, 0, ${userId}, 'transfer' from e, lateral (values (${acc.rebate}::bigint, -1000000::bigint), (${balanceId}::bigint, 1000000::bigint)) v(a, amt)`);
  // Balances after each line, in line order, as the ledger would have written them.
  await db.db.execute(sql`update ledger_lines l set balance_after = s.after from (
      select l2.id, sum(l2.amount) over (partition by l2.account_id order by l2.id) as after
        from ledger_lines l2 where l2.account_id in (${acc.rebate}::bigint, ${balanceId}::bigint)) s
     where l.id = s.id`);
  await db.db.execute(sql`update ledger_accounts a set posted = (select coalesce(sum(amount), 0) from ledger_lines where account_id = a.id)
     where a.id in (${acc.rebate}::bigint, ${balanceId}::bigint)`);
  // As the tables are once PostgreSQL's autovacuum or PGlite's hourly maintenance job has been by.
  await vacuumTables(db);
}

async function benchOn(db: DatabaseHandle, transfers: number) {
  await db.exec(`create table if not exists bench_floor (id bigint generated always as identity primary key, v bigint not null)`);
  let floorRows = 0;
  const floorLoad = () => load(transfers, CLIENTS, () => db.db.transaction((tx) => tx.execute(sql`insert into bench_floor (v) values (${floorRows++})`)));

  // Many users at once (the rate the goal names): no one hot pair of accounts. Rounds alternate
  // with the baseline's.
  const users = await Promise.all(Array.from({ length: CLIENTS }, (_, k) => newUser(db, `m${k}`)));
  for (const u of users) await fund(db, u, 1_000_000_000n);
  const floorRounds: Load[] = [];
  const spreadRounds: Load[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    floorRounds.push(await floorLoad());
    spreadRounds.push(
      await load(transfers, CLIENTS, (i) => {
        const u = users[i % users.length];
        return postEntry(db.db, rebateToBalance(`bench-spread-${r}-${u}-${i}`, u, 1_000n));
      }),
    );
  }
  const floor = summary(floorRounds);
  const spread = summary(spreadRounds);

  // One user's two wallets for every transfer: each waits for the one before to commit.
  const user = await newUser(db, 't');
  await fund(db, user, 1_000_000_000_000n);
  const posted = await load(transfers, CLIENTS, (i) => postEntry(db.db, rebateToBalance(`bench-${user}-${i}`, user, 1_000n)));

  const heavy = await newUser(db, 'r');
  const seedStart = performance.now();
  await seedLines(db, heavy, 50_000);
  const seedSeconds = round((performance.now() - seedStart) / 1000);
  // The screen walks forward from page 1 (infinite scroll); page 2,500 is the last of 100,000 lines.
  const timePages = async (pages: number[], runs: number) => {
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await walletRecordsOf(db.db, heavy, { page: pages[i % pages.length], size: 20, type: i % 2 ? 'transfer' : undefined });
      ms.push(performance.now() - t0);
    }
    return percentile(ms.sort((a, b) => a - b), 0.99);
  };
  const firstPagesP99 = await timePages([1, 2, 3], 200);
  const deepPageP99 = await timePages([2500], 50);
  const problems = await verifyLedger(db.db);
  return {
    clients: CLIENTS,
    transfers,
    baselineOneRowTx: floor,
    manyUsers: {
      ...spread,
      ratioToBaseline: round(floor.perSecond / Math.max(1, spread.perSecond), 2),
      p99RatioToBaseline: round(spread.p99Ms / Math.max(0.01, floor.p99Ms), 2),
    },
    oneHotUser: { ...posted, ratioToBaseline: round(floor.perSecond / Math.max(1, posted.perSecond), 2) },
    recordsPage100kLines: { firstPagesP99Ms: firstPagesP99, lastPageP99Ms: deepPageP99, seedSeconds },
    ledgerVerify: problems.length === 0 ? 'clean' : problems.slice(0, 5),
  };
}

export async function benchLedger(options: { postgresUrl?: string } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'lq-bench-ledger-'));
  const out: Record<string, unknown> = { goals: { postgres: '≥ 2,000 transfers/s, p99 < 20 ms at 32 clients', pglite: '≥ 500/s', recordsPage: 'p99 < 50 ms with 100,000 lines' } };
  try {
    // PostgreSQL first, as a server process would run it: without PGlite's WebAssembly heap (it
    // stays in this process once used) in the same process.
    if (options.postgresUrl) {
      const scratch = await createScratchDatabase(options.postgresUrl);
      // The server's own pool (openDatabase's default, 10 connections): 32 clients queue for it as
      // 32 requests would. A connection per client (32 backends on two cores) made even the one-row
      // baseline's p99 25 ms here.
      const pg = await openDatabase({ dataDir: path.join(dir, 'pg'), databaseUrl: scratch.url });
      try {
        out.postgres = await benchOn(pg, 20_000);
      } finally {
        await pg.close();
        await scratch.drop();
      }
    } else out.postgres = 'skipped: set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server';
    const lite = await openDatabase({ dataDir: path.join(dir, 'pglite'), pgliteMode: 'exclusive' });
    try {
      out.pglite = await benchOn(lite, 2000);
    } finally {
      await lite.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

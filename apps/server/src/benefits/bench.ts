// Benefits figures (issue 29): the pay step's `buy` at 32 clients with distinct users (payment
// password checked, one ledger entry per purchase), the password check alone (as hashed now, and
// as before the pepper), and one seat pass (renewals due + freezes) over `packs` auto-renewing
// packs that expired, each against a baseline timed in the same run on the same database (a
// one-row insert in its own transaction). PostgreSQL only (a scratch database):
// `npm run bench -- --only=benefits` with BENCH_DATABASE_URL or DATABASE_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { load } from '../platform/bench-load';
import { createScratchDatabase, openDatabase, sql, type DatabaseHandle } from '@lq/db';
import { randomBytes } from 'node:crypto';
import { hashPayPassword, hashSecret, verifyPayPassword } from '../users';
import { postEntries, postEntry, verifyLedger } from '../wallet';
import { enforceSeats } from '../robots';
import { buy } from './service';

const CLIENTS = 32;
/** Owners of the packs of the seat pass (packs spread evenly over them), each able to pay. */
const PACK_OWNERS = 10_000;
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** Users with funds, the unlock granted, the monthly agreement accepted and `payHash` as payment password hash. */
async function buyers(db: DatabaseHandle, n: number, tag: string, payHash: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const [row] = await db.exec<{ id: number | string }>(`insert into users (mail, password_hash, user_code, country) values ($1, 'x', $2, 'SG') returning id`, [
      `bfbench-${tag}${i}.${process.pid}@example.com`,
      `B${tag}${process.pid}${i}`.slice(0, 24),
    ]);
    const id = Number(row.id);
    await db.exec('update users set pay_pwd_hash = $2 where id = $1', [id, payHash]);
    await db.exec(`insert into entitlement_grants (user_id, kind, quantity, origin, note) values ($1, 'unlock', 1, 'operator', 'bench')`, [id]);
    await db.exec(`insert into agreement_acceptances (user_id, agreement, version) select $1, 'monthEquity', '2026-11-27'`, [id]);
    await postEntry(db.db, { key: `bfbench-fund-${id}`, kind: 'adjust', userId: id, lines: [{ account: { platform: 'adjustments' }, amount: -1_000_000_000_000n }, { account: { userId: id, wallet: 'balance' }, amount: 1_000_000_000_000n }] });
    ids.push(id);
  }
  return ids;
}

/** `n` users funded with 1,000 Lightning each, written set-based (funding through the batch ledger post). */
async function packOwners(db: DatabaseHandle, n: number): Promise<number[]> {
  const rows = await db.exec<{ id: number | string }>(
    `insert into users (mail, password_hash, user_code, country)
     select 'bfowner' || g || '.' || $2 || '@example.com', 'x', 'BO' || $2 || '-' || g, 'SG' from generate_series(1, $1::int) g returning id`,
    [n, process.pid],
  );
  const ids = rows.map((r) => Number(r.id));
  for (let i = 0; i < ids.length; i += 1000) {
    await postEntries(
      db.db,
      ids.slice(i, i + 1000).map((id) => ({
        key: `bfowner-fund-${id}`,
        kind: 'adjust',
        userId: id,
        lines: [
          { account: { platform: 'adjustments' as const }, amount: -1_000_000_000n },
          { account: { userId: id, wallet: 'balance' as const }, amount: 1_000_000_000n },
        ],
      })),
    );
  }
  return ids;
}

async function benchOn(db: DatabaseHandle, purchases: number, packs: number) {
  await db.exec(`create table if not exists bench_floor (id bigint generated always as identity primary key, v bigint not null)`);
  let v = 0;
  const floor = await load(purchases, CLIENTS, () => db.db.transaction((tx) => tx.execute(sql`insert into bench_floor (v) values (${v++})`)));

  // The payment password as the product hashes it (users/pay-password.ts: peppered argon2id, 4 MiB,
  // 1 pass), alone, and as it was hashed before the pepper (argon2id at the library's defaults,
  // 19 MiB, 2 passes): the ceiling each puts on any paying request on this machine.
  const pepper = randomBytes(32);
  const payHash = await hashPayPassword('123456', pepper);
  const checks = Math.min(purchases, 1000);
  const passwordCheck = await load(checks, CLIENTS, () => verifyPayPassword(payHash, '123456', pepper));
  const legacyHash = await hashSecret('123456');
  const legacyCheck = await load(Math.min(checks, 300), CLIENTS, () => verifyPayPassword(legacyHash, '123456', pepper));
  const users = await buyers(db, CLIENTS, 'p', payHash);
  const bought = await load(purchases, CLIENTS, (i) =>
    buy(db.db, users[i % CLIENTS], { kind: 'seat', market: 'crypto', quantity: 1, months: 1, autoRenew: false, paidPwd: '123456', idempotencyKey: `bfbench-${i}` }, pepper),
  );

  // `packs` auto-renewing packs that ended a day ago, spread over PACK_OWNERS users (all can pay).
  const seedStart = performance.now();
  const owners = await packOwners(db, Math.min(PACK_OWNERS, packs));
  await db.db.execute(sql`insert into benefit_purchases (user_id, idempotency_key, request_hash, item, market, quantity, months, amount, auto_renew, purchased_at, expires_at)
    select (${`{${owners.join(',')}}`}::bigint[])[1 + (g % ${owners.length})], 'bfbench-pack-' || g, 'x', 'seat', 'crypto', 1, 1, 10000000, true, now() - interval '31 days', now() - interval '1 day'
      from generate_series(1, ${packs}) g`);
  await db.exec('analyze benefit_purchases');
  await db.exec('analyze ledger_accounts');
  const seedSeconds = round((performance.now() - seedStart) / 1000);
  const t0 = performance.now();
  const pass = await enforceSeats(db.db, () => Promise.resolve());
  const passSeconds = round((performance.now() - t0) / 1000, 2);
  const problems = await verifyLedger(db.db);
  return {
    clients: CLIENTS,
    baselineOneRowTx: floor,
    payPasswordCheckAlone: passwordCheck,
    unpepperedDefaultsCheckAlone: legacyCheck,
    buy: { ...bought, ratioToBaseline: round(floor.perSecond / Math.max(1, bought.perSecond), 2) },
    seatPass: { packs, owners: owners.length, renewed: pass.renewed, seconds: passSeconds, perSecond: Math.round(pass.renewed / Math.max(0.001, passSeconds)), seedSeconds },
    ledgerVerify: problems.length === 0 ? 'clean' : problems.slice(0, 5),
  };
}

export async function benchBenefits(options: { postgresUrl?: string; packs?: number; purchases?: number } = {}) {
  const out: Record<string, unknown> = { goals: { buy: '≥ 500 purchases/s on PostgreSQL, 32 clients, distinct users', seatPass: '100,000 packs expiry + renewal < 30 s on PostgreSQL' } };
  if (!options.postgresUrl) return { ...out, postgres: 'skipped: set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server' };
  const dir = mkdtempSync(path.join(tmpdir(), 'lq-bench-benefits-'));
  const scratch = await createScratchDatabase(options.postgresUrl);
  const pg = await openDatabase({ dataDir: path.join(dir, 'pg'), databaseUrl: scratch.url });
  try {
    out.postgres = await benchOn(pg, options.purchases ?? 3000, options.packs ?? 100_000);
  } finally {
    await pg.close();
    await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

// `npm run bench -- --only=deposits`: the BEP20 watcher scanning 10,000 blocks of a real local
// chain (hardhat) that hold 1,000 transfers to watched addresses and 1,000 to strangers, in one
// scan on PGlite, with 100,000 watched addresses (the 1,000 funded ones among them). Goal: < 10 s,
// memory flat (the heap a scan adds does not grow with the addresses watched: the same scan with
// only the 1,000 funded addresses watched is run first and reported beside it). Baseline of the
// same run: the node's own eth_getLogs of every Transfer of the token over the same blocks (no
// address filter, no database).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createPublicClient, getAddress, http, type Address } from 'viem';
import { openDatabase } from '@lq/db';
import { deployTestToken, startLocalChain } from '../../test/local-chain';
import { verifyLedger } from '../wallet';
import { bscChain, TRANSFER } from './bsc';
import { scanDeposits } from './watcher';

const BLOCKS = 10_000;
const ADDRESSES = 1_000;
const WATCHED = 100_000;
const PER_TX = 50;
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** Runs one scan, timing it and sampling the heap every 5 ms: the most it grew above where it started. */
async function measuredScan<T>(scan: () => Promise<T>): Promise<{ result: T; seconds: number; peakHeapAddedMb: number }> {
  global.gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const t0 = performance.now();
  try {
    const result = await scan();
    const seconds = (performance.now() - t0) / 1000;
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { result, seconds, peakHeapAddedMb: round((peak - base) / 2 ** 20, 1) };
  } finally {
    clearInterval(sampler);
  }
}

export async function benchDeposits() {
  const dir = mkdtempSync(path.join(tmpdir(), 'lq-bench-deposits-'));
  const chain = await startLocalChain({ stateDir: dir });
  try {
    const token = await deployTestToken(chain, 18);
    const db = await openDatabase({ dataDir: path.join(dir, 'pglite'), pgliteMode: 'exclusive' });
    try {
      const watched: Address[] = [];
      for (let i = 0; i < ADDRESSES; i++) {
        const [row] = await db.exec<{ id: number | string }>(`insert into users (mail, password_hash, user_code, country) values ($1, 'x', $2, 'SG') returning id`, [`bench-deposit-${i}@example.com`, `BD${i}`]);
        const hex = `0x${randomBytes(20).toString('hex')}`;
        await db.exec(`insert into deposit_addresses (user_id, network, derivation_index, address, address_hex, key_fingerprint) values ($1, 'BEP20', $1, $2, $3, 0)`, [Number(row.id), getAddress(hex), hex]);
        watched.push(getAddress(hex));
      }
      const start = (await chain.head()) + 1;
      await db.exec(`insert into chain_cursors (network, next_block, chain_id) values ('BEP20', $1, 31337)`, [start]);
      // 1,000 transfers to the watched addresses and 1,000 to strangers, 50 a transaction, spread over 10,000 blocks.
      const targets = [...watched, ...Array.from({ length: ADDRESSES }, () => getAddress(`0x${randomBytes(20).toString('hex')}`))].sort(() => Math.random() - 0.5);
      const txs = targets.length / PER_TX;
      for (let i = 0; i < txs; i++) {
        const to = targets.slice(i * PER_TX, (i + 1) * PER_TX);
        await token.sendMany(to, to.map(() => 10n ** 18n));
        await chain.mine(Math.floor(BLOCKS / txs) - 2);
      }
      const end = await chain.head();
      await chain.mine(15);
      const deposits = bscChain({ url: chain.url, token: token.address });

      // The same scan with only the funded addresses watched, for the memory comparison; then it is undone.
      const small = await measuredScan(() => scanDeposits(db.db, deposits, { confirmations: 15 }));
      for (const table of ['chain_deposits', 'ledger_lines', 'ledger_entries', 'ledger_accounts']) await db.exec(`delete from ${table}`);
      await db.exec(`update chain_cursors set next_block = $1 where network = 'BEP20'`, [start]);
      // 99,000 more watched addresses that receive nothing (one user each), in one statement.
      await db.exec(`with u as (
          insert into users (mail, password_hash, user_code, country)
          select 'bench-watch-' || g || '@example.com', 'x', 'BW' || g, 'SG' from generate_series(1, ${WATCHED - ADDRESSES}) g returning id)
        insert into deposit_addresses (user_id, network, derivation_index, address, address_hex, key_fingerprint)
        select id, 'BEP20', id, h, h, 0 from (select id, '0x' || substr(md5(id::text || 'a') || md5(id::text || 'b'), 1, 40) as h from u) x`);

      const client = createPublicClient({ transport: http(chain.url), cacheTime: 0 });
      const t0 = performance.now();
      const raw = await client.getLogs({ address: token.address, event: TRANSFER, fromBlock: BigInt(start), toBlock: BigInt(end) });
      const baselineSeconds = (performance.now() - t0) / 1000;

      const [count] = await db.exec<{ n: string }>(`select count(*)::text as n from deposit_addresses where network = 'BEP20'`);
      const big = await measuredScan(() => scanDeposits(db.db, deposits, { confirmations: 15 }));
      const { result, seconds: scanSeconds } = big;
      const [credited] = await db.exec<{ n: string }>(`select count(*)::text as n from chain_deposits where status = 'credited'`);
      const problems = await verifyLedger(db.db);
      return {
        goal: 'scan 10,000 blocks with 100,000 watched addresses in < 10 s, memory flat',
        blocks: end - start + 1,
        watchedAddresses: Number(count.n),
        transfersInRange: raw.length,
        watcher: {
          seconds: round(scanSeconds),
          blocksPerSecond: Math.round((end - start + 1) / scanSeconds),
          seen: result.seen,
          credited: Number(credited.n),
          peakHeapAddedMb: big.peakHeapAddedMb,
        },
        sameScanWith1000Watched: { seconds: round(small.seconds), seen: small.result.seen, peakHeapAddedMb: small.peakHeapAddedMb },
        baselineRawGetLogs: { seconds: round(baselineSeconds, 3), logs: raw.length },
        ratioToBaseline: round(scanSeconds / Math.max(baselineSeconds, 0.001), 1),
        ledgerVerify: problems.length === 0 ? 'clean' : problems.slice(0, 5),
      };
    } finally {
      await db.close();
    }
  } finally {
    await chain.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

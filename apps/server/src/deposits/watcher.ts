// The deposit watcher of one network: scans the chain from its cursor, records every USDT transfer
// to a deposit address (pending while unconfirmed, dropped if a reorganisation removes it), moves
// the cursor only past blocks with all their confirmations, and credits confirmed transfers once.
// - The cursor, the transfers and their states move in one transaction: a crash before it leaves
//   everything as it was, after it the scan resumes at the cursor. Blocks not yet final are read
//   again on every scan, so a transfer a reorganisation removed is seen gone.
// - A credit is one ledger entry whose idempotency key is stored on its transfers before it is
//   posted: a crash between the two posts the same entry again (a replay), never a second one.
// - Transfers below the minimum wait, confirmed, until the address's waiting total reaches it;
//   then they are credited together.
import { sql, type Database, rowsOf } from '@lq/db';
import { formatMoney, type DepositNetwork } from '@lq/contracts';
import { postEntry } from '../wallet';
import type { Hex } from 'viem';
import type { ChainTransfer, DepositChain } from './chain';
import { DEPOSIT_MIN_MICRO } from './addresses';

type Runner = Pick<Database, 'execute'>;
const query = async <T>(db: Runner, q: ReturnType<typeof sql>): Promise<T[]> => rowsOf<T>(await db.execute(q));

export interface ScanOptions {
  /** Blocks on top of a transfer's block before it is credited (its own block counts as one). */
  confirmations: number;
  /** Blocks per `eth_getLogs` (or per page of the Tron API). */
  blocksPerQuery?: number;
  /** Blocks one scan reads at most; the next scan goes on from the cursor. */
  maxBlocksPerScan?: number;
  /** Smallest credit, micro-USDT (default: the spec's 0.1). */
  minimum?: bigint;
}

export interface ScanResult {
  head: number;
  from: number;
  /** Last block read (from − 1 when nothing was read). */
  to: number;
  /** The cursor after the scan. */
  nextBlock: number;
  seen: number;
  dropped: number;
  credited: number;
}

export class ChainMismatchError extends Error {}

/** Micro-USDT of a raw token amount, rounded down. */
export function microOf(raw: bigint, decimals: number): bigint {
  return decimals >= 6 ? raw / 10n ** BigInt(decimals - 6) : raw * 10n ** BigInt(6 - decimals);
}

interface Cursor {
  next_block: string | number;
  chain_id: string | number | null;
}

async function cursorOf(db: Database, chain: DepositChain, head: number, confirmations: number): Promise<{ nextBlock: number }> {
  const chainId = await chain.chainId();
  // A new network starts its first scan one confirmation window below the head it first sees.
  // (A row written by a failure before any good scan has no block yet: −1.)
  await db.execute(sql`insert into chain_cursors (network, next_block, chain_id)
    values (${chain.network}, ${Math.max(0, head - confirmations)}, ${chainId})
    on conflict (network) do update set next_block = excluded.next_block, chain_id = excluded.chain_id where chain_cursors.next_block < 0`);
  const [cursor] = await query<Cursor>(db, sql`select next_block, chain_id from chain_cursors where network = ${chain.network}`);
  if (cursor.chain_id !== null && Number(cursor.chain_id) !== chainId) {
    throw new ChainMismatchError(`${chain.network}: the endpoint serves chain ${chainId}, the deposits so far came from chain ${cursor.chain_id}`);
  }
  return { nextBlock: Number(cursor.next_block) };
}

/** Owners of deposit addresses by their hex: of these (one parameter whatever their number), or all of them. */
async function ownersOf(db: Runner, network: DepositNetwork, hexes: readonly string[] | null): Promise<Map<string, number>> {
  const rows = await query<{ address_hex: string; user_id: string | number }>(
    db,
    hexes === null
      ? sql`select address_hex, user_id from deposit_addresses where network = ${network}`
      : sql`select address_hex, user_id from deposit_addresses where network = ${network} and address_hex = any(string_to_array(${hexes.join(',')}, ','))`,
  );
  return new Map(rows.map((r) => [r.address_hex, Number(r.user_id)]));
}

/** One scan of `chain`: read, record, confirm, move the cursor, then credit what is due. */
export async function scanDeposits(db: Database, chain: DepositChain, options: ScanOptions): Promise<ScanResult> {
  const network = chain.network;
  const blocksPerQuery = options.blocksPerQuery ?? 2_000;
  const head = await chain.head();
  const { nextBlock: from } = await cursorOf(db, chain, head, options.confirmations);
  const to = Math.min(head, from + (options.maxBlocksPerScan ?? 50_000) - 1);
  const safe = head - options.confirmations + 1; // blocks up to here have all their confirmations

  // Few addresses: the endpoint filters by them (one read per range). Many: every transfer of the
  // token is read page by page and only its recipients are looked up, so a scan never holds all
  // the watched addresses (memory and reads stay flat as users grow).
  const [{ n: watchedCount }] = await query<{ n: string | number }>(db, sql`select count(*) as n from deposit_addresses where network = ${network}`);
  const filtered = Number(watchedCount) <= chain.recipientFilterLimit;
  const everyOwner = filtered ? await ownersOf(db, network, null) : null;
  const recipients = everyOwner === null ? null : ([...everyOwner.keys()] as Hex[]);
  const read = new Map<string, { transfer: ChainTransfer; userId: number }>();
  if (Number(watchedCount) > 0) {
    for (let start = from; start <= to; start += blocksPerQuery) {
      for await (const page of chain.transfers(start, Math.min(to, start + blocksPerQuery - 1), recipients)) {
        if (page.length === 0) continue;
        const owners = everyOwner ?? (await ownersOf(db, network, [...new Set(page.map((t) => t.toHex))]));
        // A provider may answer one event twice (pages that overlap): one row per (tx hash, log
        // index), the last answer kept — twice in one upsert is refused by the database and would
        // stall the network.
        for (const transfer of page) {
          const userId = owners.get(transfer.toHex);
          if (userId !== undefined) read.set(`${transfer.txHash}:${transfer.logIndex}`, { transfer, userId });
        }
      }
    }
  }
  const kept = [...read.values()];
  const transfers = kept.map((r) => r.transfer);
  const decimals = transfers.length > 0 ? await chain.decimals() : 6;
  const nextBlock = Math.max(from, Math.min(to, safe) + 1);

  let dropped = 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < transfers.length; i += 200) {
      const values = kept.slice(i, i + 200).map(
        ({ transfer: t, userId }) =>
          sql`(${network}, ${t.txHash}, ${t.logIndex}, ${t.blockNumber}, ${t.blockHash}, ${t.from}, ${t.toHex}, ${userId}, ${t.raw.toString()}::numeric, ${microOf(t.raw, decimals).toString()}::bigint, 'pending')`,
      );
      // Seen again (the unconfirmed window is read on every scan): its block may have changed in a
      // reorganisation; a transfer that had been dropped and is back is pending again.
      await tx.execute(sql`insert into chain_deposits (network, tx_hash, log_index, block_number, block_hash, from_address, to_hex, user_id, raw_amount, amount, status)
        values ${sql.join(values, sql`, `)}
        on conflict (network, tx_hash, log_index) do update set block_number = excluded.block_number, block_hash = excluded.block_hash,
          status = case when chain_deposits.status = 'dropped' then 'pending' else chain_deposits.status end`);
    }
    // Pending transfers in the range read that the chain no longer has: removed by a reorganisation.
    const seenKeys = new Set(transfers.map((t) => `${t.txHash}:${t.logIndex}`));
    const open = await query<{ id: string | number; tx_hash: string; log_index: number }>(
      tx,
      sql`select id, tx_hash, log_index from chain_deposits
           where network = ${network} and status = 'pending' and block_number between ${from} and ${to}`,
    );
    const gone = open.filter((r) => !seenKeys.has(`${r.tx_hash}:${r.log_index}`)).map((r) => Number(r.id));
    if (gone.length > 0) {
      await tx.execute(sql`update chain_deposits set status = 'dropped' where id in (${sql.join(gone.map((g) => sql`${g}`), sql`, `)})`);
      dropped = gone.length;
    }
    await tx.execute(sql`update chain_deposits set status = 'confirmed', confirmed_at = now()
      where network = ${network} and status = 'pending' and block_number <= ${Math.min(safe, to)}`);
    await tx.execute(sql`update chain_cursors set next_block = ${nextBlock}, last_head = ${head}, scanned_at = now(), failures = 0, last_error = null
      where network = ${network}`);
  });

  const credited = await creditDeposits(db, network, options.minimum ?? DEPOSIT_MIN_MICRO);
  return { head, from, to, nextBlock, seen: transfers.length, dropped, credited };
}

/** Notes a failed scan (the cursor stays); answers the count of failures in a row, for the back-off. */
export async function recordScanFailure(db: Database, network: DepositNetwork, error: Error): Promise<number> {
  const [row] = await query<{ failures: number }>(
    db,
    sql`update chain_cursors set failures = failures + 1, last_error = ${error.message.slice(0, 500)}, last_error_at = now()
         where network = ${network} returning failures`,
  );
  if (row) return Number(row.failures);
  // It failed before its first cursor: keep the error anyway (the cursor starts at the first good scan).
  await db.execute(sql`insert into chain_cursors (network, next_block, failures, last_error, last_error_at)
    values (${network}, -1, 1, ${error.message.slice(0, 500)}, now()) on conflict (network) do nothing`);
  return 1;
}

/**
 * Credits confirmed transfers: per deposit address, once its waiting transfers reach the minimum,
 * they become one batch (the key is stored first) and one ledger entry. Answers the entries posted.
 */
export async function creditDeposits(db: Database, network: DepositNetwork, minimum: bigint): Promise<number> {
  // One transaction for every address: lock the waiting transfers (a concurrent credit waits here,
  // then finds them keyed), then key each address's transfers whose total reaches the minimum. The
  // second statement reads afresh, so it never keys a transfer another run keyed meanwhile.
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from chain_deposits
      where network = ${network} and status = 'confirmed' and batch_key is null order by id for update`);
    await tx.execute(sql`with waiting as (
        select id, user_id, tx_hash, log_index, sum(amount) over (partition by user_id) as total,
               row_number() over (partition by user_id order by block_number desc, log_index desc, id desc) as from_last
          from chain_deposits where network = ${network} and status = 'confirmed' and batch_key is null),
      keyed as (
        select w.id, 'deposit:' || ${network}::text || ':' || last.tx_hash || ':' || last.log_index as key
          from waiting w join waiting last on last.user_id = w.user_id and last.from_last = 1
         where w.total >= ${minimum.toString()}::bigint)
      update chain_deposits d set batch_key = keyed.key from keyed where d.id = keyed.id and d.batch_key is null`);
  });

  const batches = await query<{ batch_key: string; user_id: string | number; total: string; transfers: number | string }>(
    db,
    sql`select batch_key, min(user_id) as user_id, sum(amount)::text as total, count(*) as transfers
          from chain_deposits where network = ${network} and status = 'confirmed' and batch_key is not null
         group by batch_key order by min(id)`,
  );
  for (const b of batches) {
    const userId = Number(b.user_id);
    const amount = BigInt(b.total);
    const count = Number(b.transfers);
    const txHash = b.batch_key.split(':')[2]; // deposit:<network>:<tx hash>:<log index> of the batch's last transfer
    const entry = await postEntry(db, {
      key: b.batch_key,
      kind: 'deposit',
      userId,
      memo: `USDT ${network} ${txHash}${count > 1 ? ` (+${count - 1})` : ''}`,
      meta: { network, txHash, transfers: count, amount: formatMoney(amount) },
      lines: [
        { account: { userId, wallet: 'balance' }, amount },
        { account: { platform: 'deposit_clearing' }, amount: -amount },
      ],
    });
    await db.execute(sql`update chain_deposits set status = 'credited', entry_id = ${entry.id}, credited_at = now()
      where batch_key = ${b.batch_key} and status = 'confirmed'`);
  }
  return batches.length;
}

// Payouts checked on chain. A withdrawal in `processing` with a transaction hash is completed only
// when that transaction, with its confirmations, moves exactly the amount of USDT to exactly the
// withdrawal's address: then the hold is posted (the money leaves the platform's books) in the same
// transaction as the state. A manual transaction that pays something else is refused and its hash
// cleared, so the operator can enter the right one; the withdrawal stays held meanwhile. A
// hot-wallet transaction that reverted moved nothing: with its confirmations, the withdrawal fails
// and the hold is voided. Nothing is concluded before the confirmations from a revert or from an
// answer without transfers (an events API indexes late): those wait.
import { isUniqueViolation, rowsOf, sql, type Database } from '@lq/db';
import { AppError, formatMoney, MONEY_DECIMALS, type DepositNetwork } from '@lq/contracts';
import type { Hex } from 'viem';
import { ChainUnavailableError, type DepositChain } from '../deposits';
import { tronAddressBytes } from '../platform/chain-address';
import { postPending, voidPending } from '../wallet';

export type PayoutCheck =
  | { verdict: 'confirmed'; detail: string }
  | { verdict: 'waiting'; detail: string; /** Not on chain at all (yet): for a hot-wallet payout, the pass that keeps it says more. */ missing?: true }
  | { verdict: 'mismatch'; detail: string };

/** A payout's chain and how many confirmations it needs, per network (absent: no endpoint configured). */
export type PayoutChains = Partial<Record<DepositNetwork, { chain: DepositChain; confirmations: number }>>;

/** The hash as it is kept: lowercase, `0x` on BSC, bare hex on Tron; undefined if it is not a hash. */
export function normalTxHash(network: DepositNetwork, text: string): string | undefined {
  const hex = text.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return undefined;
  return network === 'BEP20' ? `0x${hex.toLowerCase()}` : hex.toLowerCase();
}

const addressHexOf = (network: DepositNetwork, address: string): Hex | undefined =>
  network === 'BEP20' ? (address.toLowerCase() as Hex) : tronAddressBytes(address);

/** The token's units for micro-Lightning (1:1 USDT): 10^(decimals − 6) per micro. */
export function rawOf(micro: bigint, decimals: number): bigint {
  return decimals >= MONEY_DECIMALS ? micro * 10n ** BigInt(decimals - MONEY_DECIMALS) : micro / 10n ** BigInt(MONEY_DECIMALS - decimals);
}
export const usdtOf = (raw: bigint, decimals: number) =>
  formatMoney(decimals >= MONEY_DECIMALS ? raw / 10n ** BigInt(decimals - MONEY_DECIMALS) : raw * 10n ** BigInt(MONEY_DECIMALS - decimals));

/** Whether `txHash` pays `amount` (micro) of the token to `address`, with `confirmations`. */
export async function checkPayout(
  network: DepositNetwork,
  on: { chain: DepositChain; confirmations: number },
  w: { address: string; amount: bigint; txHash: string },
): Promise<PayoutCheck> {
  // The head first: when the transaction (and its events) are read after it, a transaction past its
  // confirmations at that head was read as final.
  const head = await on.chain.head();
  const tx = await on.chain.transaction(w.txHash);
  if (!tx) return { verdict: 'waiting', detail: `transaction ${w.txHash} not on chain yet`, missing: true };
  const seen = Math.max(head - tx.blockNumber + 1, 0);
  const final = seen >= on.confirmations;
  // A revert is a verdict only with its confirmations: a reorganisation may still take it out.
  if (!tx.succeeded) {
    if (!final) return { verdict: 'waiting', detail: `transaction ${w.txHash} reverted at ${seen}/${on.confirmations} confirmations; failed if it stays so` };
    return { verdict: 'mismatch', detail: `transaction ${w.txHash} failed on chain: it moved nothing` };
  }
  const decimals = await on.chain.decimals();
  const to = addressHexOf(network, w.address);
  const want = rawOf(w.amount, decimals);
  if (!tx.transfers.some((t) => t.toHex === to && t.raw === want)) {
    // No events yet is not "pays nothing": an events API (TronGrid) indexes a block after the node
    // has it. Only past its confirmations, read again, is an empty answer a verdict.
    if (tx.transfers.length === 0 && !final) return { verdict: 'waiting', detail: `transaction ${w.txHash}: no USDT transfer seen yet (${seen}/${on.confirmations} confirmations)` };
    const paid = tx.transfers.map((t) => `${usdtOf(t.raw, decimals)} USDT to ${t.toHex}`).join('; ') || 'no USDT at all';
    return { verdict: 'mismatch', detail: `transaction ${w.txHash} pays ${paid}, not ${formatMoney(w.amount)} USDT to ${w.address}` };
  }
  if (!final) return { verdict: 'waiting', detail: `${seen}/${on.confirmations} confirmations` };
  return { verdict: 'confirmed', detail: `${seen} confirmations` };
}

interface PayoutRow {
  id: string | number;
  network: DepositNetwork;
  address: string;
  amount: string;
  status: string;
  tx_hash: string | null;
  hold_entry_id: string | number | null;
  payout: 'manual' | 'hot-wallet' | null;
}
const PAYOUT_COLUMNS = sql`id, network, address, amount::text as amount, status, tx_hash, hold_entry_id, payout`;

/** Kept as the reason of a withdrawal whose hot-wallet transaction failed on chain (the user reads `withdraw.payoutFailed` in their language). */
export const PAYOUT_FAILED_REASON = 'The payout transaction failed on chain; the amount and fee are back in your balance wallet.';

/**
 * Ends a processing payout in one transaction with its hold: `completed` posts it; `failed` (only
 * a payout that moved nothing) voids it. A second call, or one for a hash no longer kept, does nothing.
 */
async function endPayout(db: Database, id: number, txHash: string, to: 'completed' | 'failed', detail: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = rowsOf<PayoutRow>(await tx.execute(sql`select ${PAYOUT_COLUMNS} from withdrawals where id = ${id} for update`));
    if (!row || row.status !== 'processing' || row.tx_hash !== txHash) return false;
    if (row.hold_entry_id !== null) {
      const hold = Number(row.hold_entry_id);
      await (to === 'completed' ? postPending(tx, hold, `withdraw:${id}:post`) : voidPending(tx, hold, `withdraw:${id}:void`));
    }
    await tx.execute(
      to === 'completed'
        ? sql`update withdrawals set status = 'completed', payout_check = ${detail}, checked_at = now(), completed_at = now(), updated_at = now() where id = ${id}`
        : sql`update withdrawals set status = 'failed', reason = ${PAYOUT_FAILED_REASON}, payout_check = ${`failed: ${detail}`}, checked_at = now(), updated_at = now() where id = ${id}`,
    );
    return true;
  });
}

/**
 * The operator paid a withdrawal outside (`manual`) and gives the transaction: it is checked on
 * chain now — one paying something else is refused and nothing is kept; one not yet seen or not
 * yet confirmed is kept and checked again by the settle job.
 */
export async function recordManualPayout(
  db: Database,
  chains: PayoutChains,
  id: number,
  hashText: string,
  /** The audit row, written in the transaction that keeps the hash (and completes the withdrawal). */
  audit?: (tx: Database, r: { state: 'completed' | 'processing'; detail: string }) => Promise<unknown>,
): Promise<{ state: 'completed' | 'processing'; detail: string }> {
  const [row] = rowsOf<PayoutRow>(await db.execute(sql`select ${PAYOUT_COLUMNS} from withdrawals where id = ${id}`));
  if (!row) throw new AppError('NOT_FOUND');
  if (row.status !== 'processing') throw new AppError('WITHDRAW_STATE', { state: row.status }, 'id');
  const txHash = normalTxHash(row.network, hashText);
  if (!txHash) throw new AppError('WITHDRAW_TX_INVALID', { network: row.network }, 'txHash');
  const on = chains[row.network];
  if (!on) throw new AppError('DEPOSIT_NETWORK_CLOSED', { network: row.network }, 'network');
  const check = await checkPayout(row.network, on, { address: row.address, amount: BigInt(row.amount), txHash });
  if (check.verdict === 'mismatch') throw new AppError('WITHDRAW_TX_MISMATCH', { detail: check.detail }, 'txHash');
  try {
    // The hash kept, the withdrawal completed if confirmed, and the audit row: one transaction.
    return await db.transaction(async (tx) => {
      const [kept] = rowsOf<{ id: string | number }>(
        await tx.execute(sql`update withdrawals set tx_hash = ${txHash}, payout = 'manual', payout_check = ${check.detail}, checked_at = now(), updated_at = now()
            where id = ${id} and status = 'processing' and (tx_hash is null or payout = 'manual') returning id`),
      );
      if (!kept) throw new AppError('WITHDRAW_STATE', { state: 'processing' }, 'id');
      const r = { state: check.verdict === 'confirmed' && (await endPayout(tx, id, txHash, 'completed', check.detail)) ? ('completed' as const) : ('processing' as const), detail: check.detail };
      await audit?.(tx, r);
      return r;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'withdrawals_tx_key')) {
      throw new AppError('WITHDRAW_TX_USED', { txHash }, 'txHash');
    }
    throw e;
  }
}

export interface SettleResult {
  checked: number;
  completed: number;
  /** Manual payouts whose transaction pays something else: the hash is cleared. */
  refused: number;
  /** Hot-wallet payouts that failed on chain: the withdrawal failed, the hold voided. */
  failed: number;
  /** Networks whose endpoint failed this pass (their payouts wait for the next). */
  unreachable: DepositNetwork[];
}

/**
 * One pass of the settle job: every processing withdrawal with a transaction on an open network
 * is looked at on chain; confirmed ones complete, ones paying something else lose their hash (the
 * operator sees why in `withdraw:list`), the rest wait.
 */
export async function settlePayouts(db: Database, chains: PayoutChains, limit = 200): Promise<SettleResult> {
  const rows = rowsOf<PayoutRow>(
    await db.execute(sql`select ${PAYOUT_COLUMNS} from withdrawals where status = 'processing' and tx_hash is not null order by checked_at nulls first, id limit ${limit}`),
  );
  const result: SettleResult = { checked: 0, completed: 0, refused: 0, failed: 0, unreachable: [] };
  for (const row of rows) {
    const on = chains[row.network];
    // A network whose endpoint failed this pass is left until the next; the others settle.
    if (!on || !row.tx_hash || result.unreachable.includes(row.network)) continue;
    const id = Number(row.id);
    let check: PayoutCheck;
    try {
      check = await checkPayout(row.network, on, { address: row.address, amount: BigInt(row.amount), txHash: row.tx_hash });
    } catch (e) {
      if (!(e instanceof ChainUnavailableError)) throw e;
      result.unreachable.push(row.network);
      continue;
    }
    result.checked++;
    if (check.verdict === 'confirmed') {
      if (await endPayout(db, id, row.tx_hash, 'completed', check.detail)) result.completed++;
    } else if (check.verdict === 'mismatch' && row.payout === 'hot-wallet') {
      // Our own signed transfer cannot pay another amount or address: it reverted and moved nothing.
      if (await endPayout(db, id, row.tx_hash, 'failed', check.detail)) result.failed++;
    } else if (check.verdict === 'mismatch') {
      await db.execute(sql`update withdrawals set tx_hash = null, payout_check = ${`refused: ${check.detail}`}, checked_at = now(), updated_at = now()
          where id = ${id} and status = 'processing' and tx_hash = ${row.tx_hash}`);
      result.refused++;
    } else if (!(row.payout === 'hot-wallet' && check.missing)) {
      // A hot-wallet payout not on chain yet is the hot-wallet pass's to describe (re-sent, replaced, missing).
      await db.execute(sql`update withdrawals set payout_check = ${check.detail}, checked_at = now() where id = ${id} and tx_hash = ${row.tx_hash}`);
    }
  }
  return result;
}

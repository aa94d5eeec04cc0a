// Hot-wallet payouts on BSC (WITHDRAW_PAYOUT=hot-wallet): the server signs a USDT transfer with the
// key from config and pays approved BEP20 withdrawals itself. Crash safety comes from the order:
// the signed transaction (its hash, nonce and raw bytes) is committed with the withdrawal BEFORE it
// is sent, so a process killed anywhere either signed nothing (nothing is kept, nothing was sent)
// or left a kept transaction that the next pass sends again, byte for byte — the same hash, the
// same nonce: it can land once at most. Nothing else ever signs for that withdrawal — unless that
// nonce was spent by another transaction of the same key (someone used it outside the platform):
// then the kept one can never land, and once the other has its confirmations the withdrawal is
// signed again with a fresh nonce. "Spent by another" is never concluded from one "not found": a
// lagging or load-balanced node answers that for our own mined payout. The kept transaction must be
// missing on several passes over minutes, and no USDT transfer from the hot wallet to that address
// for that amount may exist since the first signing; otherwise the pass waits and says why.
import { sql, type Database, rowsOf } from '@lq/db';
import { formatMoney } from '@lq/contracts';
import {
  createPublicClient,
  encodeFunctionData,
  http,
  keccak256,
  parseAbi,
  type Address,
  type Hex,
  type PublicClient,
  type Transport,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { ChainUnavailableError, TRANSFER_EVENT as TRANSFER } from '../deposits';
import { rawOf, usdtOf } from './payout';
import { withoutUrlSecrets } from '../platform/urls';

const ERC20 = parseAbi(['function transfer(address to, uint256 value) returns (bool)', 'function balanceOf(address owner) view returns (uint256)', 'function decimals() view returns (uint8)']);
/** A token transfer's gas, with room (USDT's transfer uses ~35–52k). */
const TRANSFER_GAS = 100_000n;

export interface HotWallet {
  readonly address: Address;
  /** The next nonce the node would give a new transaction of the wallet (pending ones counted). */
  pendingNonce(): Promise<number>;
  /**
   * Nonces spent on chain: `mined` counts every mined transaction of the wallet, `settled` those
   * with at least `confirmations` (a nonce below it can never be used again, reorganisations
   * included).
   */
  spentNonces(confirmations: number): Promise<{ mined: number; settled: number }>;
  /** The wallet's USDT, in the token's units, and the token's decimals. */
  tokenBalance(): Promise<{ raw: bigint; decimals: number }>;
  /** A signed USDT transfer at the node's gas price, or `minGasPrice` if higher: its bytes, hash and gas price (nothing is sent). */
  sign(to: Address, raw: bigint, nonce: number, minGasPrice?: bigint): Promise<{ raw: Hex; hash: Hex; gasPrice: bigint }>;
  /** Sends signed bytes; a node that already has them is fine. */
  send(raw: Hex, hash: Hex): Promise<void>;
  /** The newest block number. */
  head(): Promise<number>;
  /** Hashes of the wallet's USDT transfers of exactly `raw` to `to` in blocks from `fromBlock` on. */
  transfersTo(to: Address, raw: bigint, fromBlock: number): Promise<string[]>;
}

export interface HotWalletOptions {
  url?: string;
  transport?: Transport;
  token: Address;
  /** 0x + 64 hex digits: from config, never logged. */
  privateKey: Hex;
}

export function hotWalletOf(options: HotWalletOptions): HotWallet {
  const account: PrivateKeyAccount = privateKeyToAccount(options.privateKey);
  const client: PublicClient = createPublicClient({ transport: options.transport ?? http(options.url, { timeout: 15_000, retryCount: 1 }), cacheTime: 0 });
  let chainId: number | undefined;
  let decimals: number | undefined;
  const guarded = async <T>(what: string, call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (e) {
      throw new ChainUnavailableError(`BSC ${what}: ${withoutUrlSecrets((e as Error).message.split('\n')[0])}`);
    }
  };
  return {
    address: account.address,
    pendingNonce: () => guarded('eth_getTransactionCount', () => client.getTransactionCount({ address: account.address, blockTag: 'pending' })),
    spentNonces: (confirmations) =>
      guarded('eth_getTransactionCount', async () => {
        const latest = await client.getBlockNumber({ cacheTime: 0 });
        const settledAt = latest - BigInt(Math.max(0, confirmations - 1));
        const [mined, settled] = await Promise.all([
          client.getTransactionCount({ address: account.address, blockNumber: latest }),
          settledAt < 0n ? 0 : client.getTransactionCount({ address: account.address, blockNumber: settledAt }),
        ]);
        return { mined, settled };
      }),
    async tokenBalance() {
      decimals ??= await guarded('decimals()', async () => Number(await client.readContract({ address: options.token, abi: ERC20, functionName: 'decimals' })));
      const raw = await guarded('balanceOf()', () => client.readContract({ address: options.token, abi: ERC20, functionName: 'balanceOf', args: [account.address] }));
      return { raw, decimals };
    },
    async sign(to, raw, nonce, minGasPrice = 0n) {
      chainId ??= await guarded('eth_chainId', () => client.getChainId());
      const nodePrice = await guarded('eth_gasPrice', () => client.getGasPrice());
      const gasPrice = nodePrice > minGasPrice ? nodePrice : minGasPrice;
      const data = encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [to, raw] });
      const signed = await account.signTransaction({ type: 'legacy', chainId, nonce, to: options.token, data, gas: TRANSFER_GAS, gasPrice, value: 0n });
      return { raw: signed, hash: keccak256(signed), gasPrice };
    },
    head: () => guarded('eth_blockNumber', async () => Number(await client.getBlockNumber({ cacheTime: 0 }))),
    transfersTo: (to, raw, fromBlock) =>
      guarded('eth_getLogs', async () => {
        const logs = await client.getLogs({ address: options.token, event: TRANSFER, args: { from: account.address, to }, fromBlock: BigInt(fromBlock), toBlock: 'latest', strict: true });
        return logs.filter((l) => !l.removed && l.args.value === raw && l.transactionHash !== null).map((l) => l.transactionHash.toLowerCase());
      }),
    async send(raw, hash) {
      try {
        await client.sendRawTransaction({ serializedTransaction: raw });
      } catch (e) {
        // Sent before (a restart re-sends): the node knows it, or it is already mined.
        const known = await client.getTransaction({ hash }).then(
          () => true,
          () => false,
        );
        if (known) return;
        throw new ChainUnavailableError(`BSC eth_sendRawTransaction: ${withoutUrlSecrets((e as Error).message.split('\n')[0])}`);
      }
    },
  };
}

export interface HotPayoutResult {
  signed: number;
  resent: number;
  /** Kept transactions whose nonce another transaction of the wallet spent: signed again. */
  resigned: number;
  /** Waiting for the wallet to hold enough USDT. */
  short: number;
  /** Kept transactions the node does not find although a transfer of theirs may have been paid: left for the operator. */
  doubtful: number;
  /** Stuck unmined: replaced at the same nonce with a higher gas price. */
  replaced: number;
}

/** When a kept transaction still unmined is replaced, and how high its gas price may go. */
export interface ReplaceRule {
  afterMs: number;
  maxGasPrice: bigint;
}
export const REPLACE_RULE: ReplaceRule = { afterMs: 180_000, maxGasPrice: 20_000_000_000n };
/** A node takes a replacement at the same nonce only for a higher price (geth: +10 %); 12.5 % clears it. */
const raised = (price: bigint) => price + (price + 7n) / 8n;

/** When a kept transaction missing from the node may be taken for never landing (see the file's comment). */
export interface LetGoRule {
  /** Passes in a row that found it nowhere. */
  absentReads: number;
  /** Over at least this long. */
  absentForMs: number;
}
export const LET_GO_RULE: LetGoRule = { absentReads: 3, absentForMs: 120_000 };

interface SendRow {
  id: string | number;
  address: string;
  amount: string;
  tx_hash: string | null;
  payout_raw: string | null;
  payout_nonce: string | number | null;
  payout_signed_block: string | number | null;
  payout_gas_price: string | null;
  payout_signed_at: Date | string | null;
  payout_earlier_hashes: string[] | string | null;
}

/** A text[] as the drivers give it: an array (PostgreSQL) or its text form (`{a,b}`). */
const hashesOf = (v: string[] | string | null): string[] =>
  Array.isArray(v) ? v : typeof v === 'string' ? v.replace(/^\{|\}$/g, '').split(',').filter(Boolean) : [];

/**
 * One pass: first every kept transaction not yet on chain is sent again (a crash between commit and
 * send, a node that dropped it), in nonce order — or, when another transaction of the wallet spent
 * its nonce, let go once that one has `confirmations`; then approved BEP20 withdrawals nobody paid
 * yet (those let go included) are signed, kept, and sent, one by one.
 */
export async function payFromHotWallet(
  db: Database,
  wallet: HotWallet,
  isOnChain: (hash: string) => Promise<boolean>,
  confirmations: number,
  options: { limit?: number; letGo?: LetGoRule; replace?: ReplaceRule; log?: (detail: string) => void } = {},
): Promise<HotPayoutResult> {
  const { limit = 50, letGo = LET_GO_RULE, replace = REPLACE_RULE } = options;
  const result: HotPayoutResult = { signed: 0, resent: 0, resigned: 0, short: 0, doubtful: 0, replaced: 0 };
  const kept = rowsOf<SendRow>(
    await db.execute(sql`select id, address, amount::text as amount, tx_hash, payout_raw, payout_nonce, payout_signed_block,
          payout_gas_price, payout_signed_at, payout_earlier_hashes from withdrawals
        where status = 'processing' and payout = 'hot-wallet' and payout_from = ${wallet.address} and payout_raw is not null
        order by payout_nonce`),
  );
  let spent: { mined: number; settled: number } | undefined;
  for (const row of kept) {
    const id = Number(row.id);
    const txHash = row.tx_hash!;
    if (await isOnChain(txHash)) {
      await db.execute(sql`update withdrawals set payout_absent_reads = 0, payout_absent_since = null where id = ${id} and tx_hash = ${txHash} and payout_absent_reads > 0`);
      continue;
    }
    const nonce = Number(row.payout_nonce);
    spent ??= await wallet.spentNonces(confirmations);
    if (nonce >= spent.mined) {
      // Unmined: sent again as it is, or, stuck for long, replaced at the same nonce for a higher price.
      const signedAt = row.payout_signed_at ? new Date(row.payout_signed_at).getTime() : 0;
      if (Date.now() - signedAt >= replace.afterMs && (await replaceStuck(db, wallet, row, replace, options.log))) {
        result.replaced++;
        continue;
      }
      await wallet.send(row.payout_raw as Hex, txHash as Hex);
      result.resent++;
      continue;
    }
    // Mined at that nonce, but not the latest of ours: one it replaced may be the one that landed.
    let landed: string | undefined;
    for (const earlier of hashesOf(row.payout_earlier_hashes)) if (!landed && (await isOnChain(earlier))) landed = earlier;
    if (landed) {
      await db.execute(sql`update withdrawals set tx_hash = ${landed}, payout_check = ${`${landed}, which ${txHash} was to replace, was mined`}, checked_at = now(), updated_at = now(),
            payout_absent_reads = 0, payout_absent_since = null
          where id = ${id} and tx_hash = ${txHash}`);
      continue;
    }
    // Not found, yet its nonce is spent: another transaction of this key took it — or the node is
    // lagging behind our own mined payout. Counted, and decided only on several reads over time.
    const [absent] = rowsOf<{ reads: number; since: Date | string }>(
      await db.execute(sql`update withdrawals set payout_absent_reads = payout_absent_reads + 1, payout_absent_since = coalesce(payout_absent_since, now())
          where id = ${id} and tx_hash = ${txHash} returning payout_absent_reads as reads, payout_absent_since as since`),
    );
    if (!absent) continue;
    const absentMs = Date.now() - new Date(absent.since).getTime();
    const note = (text: string) => db.execute(sql`update withdrawals set payout_check = ${text}, checked_at = now() where id = ${id} and tx_hash = ${txHash}`);
    if (nonce >= spent.settled || absent.reads < letGo.absentReads || absentMs < letGo.absentForMs) {
      await note(`${txHash} not found (${absent.reads} reads); nonce ${nonce} is spent on chain: waiting, signed again only if it stays missing and nothing paid ${row.address}`);
      continue;
    }
    // Before anything is signed again: did any transfer of the hot wallet pay this address this amount?
    const { decimals } = await wallet.tokenBalance();
    const paid = await wallet.transfersTo(row.address as Address, rawOf(BigInt(row.amount), decimals), Number(row.payout_signed_block ?? 0));
    if (paid.length > 0) {
      const detail = `${txHash} not found, but ${paid.join(', ')} moved ${formatMoney(BigInt(row.amount))} USDT from the hot wallet to ${row.address}: not signed again; check it and enter the hash that pays it`;
      await note(detail);
      options.log?.(`withdrawal ${id}: ${detail}`);
      result.doubtful++;
      continue;
    }
    if (await letGoOfSpentNonce(db, id, txHash, nonce)) result.resigned++;
  }

  const due = rowsOf<SendRow>(
    await db.execute(sql`select id, address, amount::text as amount, tx_hash, payout_raw from withdrawals
        where status = 'processing' and network = 'BEP20' and tx_hash is null and payout is null order by id limit ${limit}`),
  );
  for (const row of due) {
    const id = Number(row.id);
    const amount = BigInt(row.amount);
    const { raw: holds, decimals } = await wallet.tokenBalance();
    const raw = rawOf(amount, decimals);
    if (holds < raw) {
      const short = `hot wallet ${wallet.address} holds ${usdtOf(holds, decimals)} USDT; this payout needs ${formatMoney(amount)}`;
      await db.execute(sql`update withdrawals set payout_check = ${short}, checked_at = now() where id = ${id} and tx_hash is null`);
      result.short++;
      break; // the rest wait too, in order, until the operator tops the wallet up
    }
    const nodeNonce = await wallet.pendingNonce();
    const head = await wallet.head();
    const signed = await db.transaction(async (tx) => {
      const [still] = rowsOf<{ id: string | number }>(
        await tx.execute(sql`select id from withdrawals where id = ${id} and status = 'processing' and tx_hash is null and payout is null for update`),
      );
      if (!still) return undefined; // rejected, or paid by hand, meanwhile
      const [last] = rowsOf<{ n: string | null }>(await tx.execute(sql`select max(payout_nonce)::text as n from withdrawals where payout_from = ${wallet.address}`));
      const nonce = Math.max(nodeNonce, last.n === null ? 0 : Number(last.n) + 1);
      const s = await wallet.sign(row.address as Address, raw, nonce);
      await tx.execute(sql`update withdrawals set payout = 'hot-wallet', payout_from = ${wallet.address}, payout_nonce = ${nonce}, payout_raw = ${s.raw},
            tx_hash = ${s.hash.toLowerCase()}, payout_check = ${`signed with nonce ${nonce}, sending`}, checked_at = now(), updated_at = now(),
            payout_signed_block = coalesce(payout_signed_block, ${head}), payout_absent_reads = 0, payout_absent_since = null,
            payout_gas_price = ${s.gasPrice.toString()}, payout_signed_at = now(), payout_earlier_hashes = '{}'
          where id = ${id}`);
      return s;
    });
    if (!signed) continue;
    result.signed++;
    await wallet.send(signed.raw, signed.hash);
  }
  return result;
}

/**
 * Replaces a kept transaction stuck unmined: the same transfer at the same nonce for 12.5 % more gas
 * (or the node's price if higher), kept before it is sent like the first; the replaced hash is kept
 * too, since either may be the one mined. Above the configured ceiling it is not replaced: the
 * operator is told. Answers whether it replaced.
 */
async function replaceStuck(db: Database, wallet: HotWallet, row: SendRow, rule: ReplaceRule, log?: (detail: string) => void): Promise<boolean> {
  // Kept before replacements existed, its price unknown: a replacement might offer no more, so it is only re-sent.
  if (row.payout_gas_price === null) return false;
  const id = Number(row.id);
  const oldHash = row.tx_hash!;
  const price = BigInt(row.payout_gas_price);
  const want = raised(price);
  if (want > rule.maxGasPrice) {
    const detail = `${oldHash} unmined at ${price} wei gas; a replacement would need ${want}, above the ceiling ${rule.maxGasPrice} (HOT_WALLET_MAX_GAS_GWEI): sent again as it is`;
    await db.execute(sql`update withdrawals set payout_check = ${detail}, checked_at = now() where id = ${id} and tx_hash = ${oldHash}`);
    log?.(`withdrawal ${id}: ${detail}`);
    return false;
  }
  const { decimals } = await wallet.tokenBalance();
  const s = await wallet.sign(row.address as Address, rawOf(BigInt(row.amount), decimals), Number(row.payout_nonce), want);
  if (s.gasPrice > rule.maxGasPrice) return false; // the node's own price is above the ceiling: keep what is kept
  const detail = `${oldHash} unmined at ${price} wei gas: replaced by ${s.hash.toLowerCase()} at ${s.gasPrice} wei, nonce ${Number(row.payout_nonce)}`;
  const [kept] = rowsOf<{ id: string | number }>(
    await db.execute(sql`update withdrawals set payout_raw = ${s.raw}, tx_hash = ${s.hash.toLowerCase()}, payout_gas_price = ${s.gasPrice.toString()}, payout_signed_at = now(),
          payout_earlier_hashes = array_append(payout_earlier_hashes, ${oldHash}::text), payout_check = ${detail}, checked_at = now(), updated_at = now()
        where id = ${id} and status = 'processing' and tx_hash = ${oldHash} returning id`),
  );
  if (!kept) return false;
  log?.(`withdrawal ${id}: ${detail}`);
  await wallet.send(s.raw, s.hash);
  return true;
}

/**
 * Forgets a kept transaction that can never land (its nonce spent, with confirmations, by another
 * transaction), so the pass signs the withdrawal again; only while that transaction is still the
 * withdrawal's.
 */
async function letGoOfSpentNonce(db: Database, id: number, txHash: string, nonce: number): Promise<boolean> {
  const note = `nonce ${nonce} was spent by another transaction of the hot wallet; ${txHash} can never land, signing again`;
  // payout_signed_block stays: a later search for what was paid starts at the first signing.
  const [row] = rowsOf<{ id: string | number }>(
    await db.execute(sql`update withdrawals set payout = null, payout_from = null, payout_nonce = null, payout_raw = null, tx_hash = null,
          payout_check = ${note}, checked_at = now(), updated_at = now()
        where id = ${id} and status = 'processing' and payout = 'hot-wallet' and tx_hash = ${txHash} returning id`),
  );
  return row !== undefined;
}

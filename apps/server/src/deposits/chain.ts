// What the deposit watcher needs from a chain: its head, the token's decimals and the token's
// transfers to a set of addresses in a block range; and, for withdrawals paid out, the token
// transfers of one transaction. One implementation per network (bsc.ts, tron.ts); tests run them
// against a real local node and a TronGrid stand-in.
import type { Hex } from 'viem';
import type { DepositNetwork } from '@lq/contracts';

export interface ChainTransfer {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  /** The sender, as the chain writes it. */
  from: string;
  /** The receiving address's 20 bytes, lowercase 0x hex (how deposit addresses are kept). */
  toHex: Hex;
  /** In the token's own units. */
  raw: bigint;
}

export interface DepositChain {
  readonly network: DepositNetwork;
  /** The newest block number. */
  head(): Promise<number>;
  /** The chain id (read from the node, never configured). */
  chainId(): Promise<number>;
  /** The token's decimals (18 for BSC's USDT, 6 for Tron's). */
  decimals(): Promise<number>;
  /**
   * Transfers of the token in blocks from..to (both included), page by page in chain order: to any
   * of `recipients`, or to anyone when it is null (the watcher then keeps its own). A page is one
   * answer of the endpoint, so memory holds one page whatever the range.
   */
  transfers(from: number, to: number, recipients: readonly Hex[] | null): AsyncIterable<ChainTransfer[]>;
  /**
   * Most recipients one read can filter by on the endpoint (an OR list that providers cap). With
   * more addresses watched the watcher reads every transfer of the token and matches them itself,
   * never loading its addresses: 0 when the endpoint has no recipient filter.
   */
  readonly recipientFilterLimit: number;
  /** One transaction's transfers of the token; null while it is unknown to the chain (not sent, or not yet in a block). */
  transaction(txHash: string): Promise<ChainTransaction | null>;
  /** Whether a contract lives at this address (USDT sent to most contracts is lost). */
  isContract(address: string): Promise<boolean>;
}

export interface ChainTransaction {
  blockNumber: number;
  /** False: it is in a block but reverted (it moved nothing). */
  succeeded: boolean;
  transfers: ChainTransfer[];
}

/** A chain endpoint that failed or answered something unusable: the scan is retried later, the cursor stays. */
export class ChainUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChainUnavailableError';
  }
}

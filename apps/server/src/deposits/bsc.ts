// BEP20 deposits: BNB Smart Chain through JSON-RPC (`eth_getLogs` for USDT's Transfer events to
// the watched addresses), with viem. The same code reads a local EVM node in tests.
import { BaseError, createPublicClient, http, LimitExceededRpcError, parseAbiItem, parseEventLogs, TransactionReceiptNotFoundError, type Address, type Hex, type PublicClient, type Transport } from 'viem';
import { ChainUnavailableError, type ChainTransaction, type ChainTransfer, type DepositChain } from './chain';
import { withoutUrlSecrets } from '../platform/urls';

/** USDT's (any ERC-20's) Transfer event; the hot wallet searches its own payouts with it too. */
export const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const DECIMALS = [{ type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] }] as const;
/** Watched addresses one `eth_getLogs` filters by (an OR list in the `to` topic; providers cap its length). */
const ADDRESSES_PER_QUERY = 500;

/**
 * A provider refusing a range for the size of its answer: "query returned more than 10000 results"
 * (-32005, Infura, BSC nodes), "Log response size exceeded" (Alchemy), "exceed maximum block range".
 * Anything else (the node down, a timeout) is not retried in halves, which would only multiply calls.
 */
function tooManyLogs(e: unknown): boolean {
  const codes: unknown[] = [];
  for (let c: unknown = e; c instanceof Error && codes.length < 5; c = c.cause) codes.push((c as { code?: unknown }).code);
  if (codes.includes(-32005) || e instanceof LimitExceededRpcError) return true;
  const text = e instanceof BaseError ? e.details + ' ' + e.shortMessage : String((e as Error)?.message);
  return /more than \d+ (results|logs)|response size|too many (results|logs)|maximum block range|block range (is )?too (large|wide)|limit exceeded/i.test(text);
}

export interface BscChainOptions {
  url?: string;
  /** Instead of `url`: another viem transport (a node in the same process in tests). */
  transport?: Transport;
  token: Address;
  timeoutMs?: number;
  /** Most recipients one `eth_getLogs` filters by (default 500; tests set it low). */
  recipientFilterLimit?: number;
}

async function guarded<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw new ChainUnavailableError(`BSC ${what}: ${withoutUrlSecrets((e as Error).message.split('\n')[0])}`);
  }
}

export function bscChain(options: BscChainOptions): DepositChain {
  // cacheTime 0: every head is read afresh (a scan must never count confirmations from a stale head).
  const client: PublicClient = createPublicClient({
    transport: options.transport ?? http(options.url, { timeout: options.timeoutMs ?? 15_000, retryCount: 1 }),
    cacheTime: 0,
  });
  let decimals: number | undefined;
  const filterLimit = options.recipientFilterLimit ?? ADDRESSES_PER_QUERY;
  return {
    network: 'BEP20',
    head: () => guarded('eth_blockNumber', async () => Number(await client.getBlockNumber({ cacheTime: 0 }))),
    chainId: () => guarded('eth_chainId', () => client.getChainId()),
    async decimals() {
      decimals ??= await guarded('decimals()', async () => Number(await client.readContract({ address: options.token, abi: DECIMALS, functionName: 'decimals' })));
      return decimals;
    },
    async isContract(address) {
      const code = await guarded('eth_getCode', () => client.getCode({ address: address as Address }));
      return code !== undefined && code !== '0x';
    },
    recipientFilterLimit: filterLimit,
    async *transfers(from, to, recipients) {
      if (recipients !== null && recipients.length > filterLimit) {
        throw new Error(`BSC transfers: ${recipients.length} recipients in one filter, at most ${filterLimit}`);
      }
      // A range whose logs are more than the provider answers at once is read again in halves.
      const ranges: Array<[number, number]> = [[from, to]];
      while (ranges.length > 0) {
        const [a, b] = ranges.shift()!;
        let logs;
        try {
          logs = await client.getLogs({
            address: options.token,
            event: TRANSFER,
            args: recipients === null ? undefined : { to: [...recipients] },
            fromBlock: BigInt(a),
            toBlock: BigInt(b),
            strict: true,
          });
        } catch (e) {
          if (a < b && tooManyLogs(e)) {
            const mid = Math.floor((a + b) / 2);
            ranges.unshift([a, mid], [mid + 1, b]);
            continue;
          }
          throw new ChainUnavailableError(`BSC eth_getLogs ${a}–${b}: ${withoutUrlSecrets((e as Error).message.split('\n')[0])}`);
        }
        const page: ChainTransfer[] = [];
        for (const log of logs) {
          if (log.removed || log.blockNumber === null || log.transactionHash === null || log.logIndex === null || log.blockHash === null) continue;
          page.push({
            txHash: log.transactionHash.toLowerCase(),
            logIndex: log.logIndex,
            blockNumber: Number(log.blockNumber),
            blockHash: log.blockHash.toLowerCase(),
            from: log.args.from,
            toHex: log.args.to.toLowerCase() as Hex,
            raw: log.args.value,
          });
        }
        yield page.sort((x, y) => x.blockNumber - y.blockNumber || x.logIndex - y.logIndex);
      }
    },
    async transaction(txHash): Promise<ChainTransaction | null> {
      let receipt;
      try {
        receipt = await client.getTransactionReceipt({ hash: txHash as Hex });
      } catch (e) {
        if (e instanceof TransactionReceiptNotFoundError) return null;
        throw new ChainUnavailableError(`BSC eth_getTransactionReceipt: ${withoutUrlSecrets((e as Error).message.split('\n')[0])}`);
      }
      const token = options.token.toLowerCase();
      const logs = parseEventLogs({ abi: [TRANSFER], logs: receipt.logs, strict: true }).filter((l) => l.address.toLowerCase() === token);
      return {
        blockNumber: Number(receipt.blockNumber),
        succeeded: receipt.status === 'success',
        transfers: logs.map((log) => ({
          txHash: receipt.transactionHash.toLowerCase(),
          logIndex: log.logIndex,
          blockNumber: Number(receipt.blockNumber),
          blockHash: receipt.blockHash.toLowerCase(),
          from: log.args.from,
          toHex: log.args.to.toLowerCase() as Hex,
          raw: log.args.value,
        })),
      };
    },
  };
}

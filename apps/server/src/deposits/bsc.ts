// BEP20 deposits: BNB Smart Chain through JSON-RPC (`eth_getLogs` for USDT's Transfer events to
// the watched addresses), with viem. The same code reads a local EVM node in tests.
import { createPublicClient, http, parseAbiItem, parseEventLogs, TransactionReceiptNotFoundError, type Address, type Hex, type PublicClient, type Transport } from 'viem';
import { ChainUnavailableError, type ChainTransaction, type ChainTransfer, type DepositChain } from './chain';
import { withoutUrlSecrets } from '../platform/urls';

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const DECIMALS = [{ type: 'function', name: 'decimals', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint8' }] }] as const;
/** Watched addresses per `eth_getLogs` (an OR list in the `to` topic; providers cap its length). */
const ADDRESSES_PER_QUERY = 500;

export interface BscChainOptions {
  url?: string;
  /** Instead of `url`: another viem transport (a node in the same process in tests). */
  transport?: Transport;
  token: Address;
  timeoutMs?: number;
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
    async transfers(from, to, toAddresses) {
      const out: ChainTransfer[] = [];
      for (let i = 0; i < toAddresses.length; i += ADDRESSES_PER_QUERY) {
        const chunk = toAddresses.slice(i, i + ADDRESSES_PER_QUERY);
        const logs = await guarded(`eth_getLogs ${from}–${to}`, () =>
          client.getLogs({ address: options.token, event: TRANSFER, args: { to: chunk }, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true }),
        );
        for (const log of logs) {
          if (log.removed || log.blockNumber === null || log.transactionHash === null || log.logIndex === null || log.blockHash === null) continue;
          out.push({
            txHash: log.transactionHash.toLowerCase(),
            logIndex: log.logIndex,
            blockNumber: Number(log.blockNumber),
            blockHash: log.blockHash.toLowerCase(),
            from: log.args.from,
            toHex: log.args.to.toLowerCase() as Hex,
            raw: log.args.value,
          });
        }
      }
      return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
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

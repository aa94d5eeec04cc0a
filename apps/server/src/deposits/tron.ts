// TRC20 deposits: Tron through the TronGrid HTTP API — the head (`/wallet/getnowblock`), blocks by
// number (`/wallet/getblockbynum`: the range's timestamps, the genesis id as the chain id), the
// token's decimals (`/wallet/triggerconstantcontract`) and USDT's Transfer events in a time range
// (`/v1/contracts/{token}/events`, paged by fingerprint), kept to the block range and the watched
// addresses; one transaction's result (`/wallet/gettransactioninfobyid`) and its events
// (`/v1/transactions/{id}/events`) for withdrawals paid out. Tests run it against a local stand-in of these endpoints (test/tron-standin.ts).
import type { Hex } from 'viem';
import { ChainUnavailableError, type ChainTransaction, type ChainTransfer, type DepositChain } from './chain';
import { withoutUrlSecrets } from '../platform/urls';

export interface TronChainOptions {
  url: string;
  /** USDT's contract, base58 (T…). */
  token: string;
  /** TronGrid's `TRON-PRO-API-KEY` (never logged). */
  apiKey?: string;
  timeoutMs?: number;
  /** Events per page (TronGrid allows up to 200). */
  pageSize?: number;
}

interface Block {
  blockID?: string;
  block_header?: { raw_data?: { number?: number; timestamp?: number } };
}
interface TransferEvent {
  transaction_id?: string;
  event_index?: number;
  block_number?: number;
  event_name?: string;
  result?: { from?: string; to?: string; value?: string };
}
interface TransactionInfo {
  id?: string;
  blockNumber?: number;
  /** Present (FAILED, REVERT, …) when the contract call did not succeed. */
  result?: string;
  receipt?: { result?: string };
}
interface EventsPage {
  data?: TransferEvent[];
  success?: boolean;
  meta?: { fingerprint?: string };
}

const isHex40 = (v: unknown): v is string => typeof v === 'string' && /^(0x)?[0-9a-fA-F]{40}$/.test(v);
const hex20 = (v: string): Hex => `0x${v.replace(/^0x/, '').toLowerCase()}`;

export function tronChain(options: TronChainOptions): DepositChain {
  const base = options.url.replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (options.apiKey) headers['TRON-PRO-API-KEY'] = options.apiKey;
  let decimals: number | undefined;

  async function call<T>(path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
      });
    } catch (e) {
      throw new ChainUnavailableError(`Tron ${path.split('?')[0]}: ${withoutUrlSecrets((e as Error).message)}`);
    }
    if (!res.ok) throw new ChainUnavailableError(`Tron ${path.split('?')[0]}: HTTP ${res.status}`);
    try {
      return (await res.json()) as T;
    } catch (e) {
      throw new ChainUnavailableError(`Tron ${path.split('?')[0]}: not JSON (${withoutUrlSecrets((e as Error).message)})`);
    }
  }

  async function block(num: number | 'now'): Promise<{ number: number; timestamp: number; id: string }> {
    const b = num === 'now' ? await call<Block>('/wallet/getnowblock', {}) : await call<Block>('/wallet/getblockbynum', { num });
    const raw = b.block_header?.raw_data;
    const number = raw?.number ?? (num === 0 ? 0 : undefined); // the genesis header omits zero fields
    if (typeof number !== 'number' || typeof raw?.timestamp !== 'number' || typeof b.blockID !== 'string' || !/^[0-9a-f]{64}$/i.test(b.blockID)) {
      throw new ChainUnavailableError(`Tron block ${num}: an answer without number, timestamp or id`);
    }
    return { number, timestamp: raw.timestamp, id: b.blockID.toLowerCase() };
  }

  return {
    network: 'TRC20',
    head: async () => (await block('now')).number,
    // The TVM's chain id: the last 4 bytes of the genesis block's id.
    chainId: async () => parseInt((await block(0)).id.slice(-8), 16),
    async decimals() {
      if (decimals !== undefined) return decimals;
      const r = await call<{ constant_result?: string[] }>('/wallet/triggerconstantcontract', {
        owner_address: options.token,
        contract_address: options.token,
        function_selector: 'decimals()',
        visible: true,
      });
      const value = r.constant_result?.[0];
      if (typeof value !== 'string' || !/^[0-9a-f]{1,64}$/i.test(value)) throw new ChainUnavailableError('Tron decimals(): no constant result');
      decimals = parseInt(value, 16);
      return decimals;
    },
    // The events API filters by contract and time, not by recipient: every transfer is read, page by page.
    recipientFilterLimit: 0,
    async *transfers(from, to, recipients) {
      const watched = recipients === null ? null : new Set(recipients.map((a) => a.toLowerCase()));
      const [first, last] = await Promise.all([block(from), block(to)]);
      let fingerprint: string | undefined;
      for (;;) {
        const out: ChainTransfer[] = [];
        const q = new URLSearchParams({
          event_name: 'Transfer',
          min_block_timestamp: String(first.timestamp),
          max_block_timestamp: String(last.timestamp),
          order_by: 'block_timestamp,asc',
          limit: String(options.pageSize ?? 200),
        });
        if (fingerprint) q.set('fingerprint', fingerprint);
        const page = await call<EventsPage>(`/v1/contracts/${encodeURIComponent(options.token)}/events?${q.toString()}`);
        if (page.success === false || !Array.isArray(page.data)) throw new ChainUnavailableError('Tron events: an answer without data');
        for (const e of page.data) {
          const r = e.result;
          if (e.event_name !== 'Transfer' || !r || !isHex40(r.to) || !isHex40(r.from) || typeof r.value !== 'string' || !/^\d+$/.test(r.value)) continue;
          if (typeof e.block_number !== 'number' || e.block_number < from || e.block_number > to) continue;
          if (typeof e.transaction_id !== 'string' || typeof e.event_index !== 'number') continue;
          const toHex = hex20(r.to);
          if (watched !== null && !watched.has(toHex)) continue;
          out.push({
            txHash: e.transaction_id.toLowerCase(),
            logIndex: e.event_index,
            blockNumber: e.block_number,
            blockHash: '', // the events API gives none; the cursor logic needs block numbers only
            from: hex20(r.from),
            toHex,
            raw: BigInt(r.value),
          });
        }
        yield out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
        fingerprint = page.meta?.fingerprint;
        if (!fingerprint || page.data.length === 0) break;
      }
    },
    async isContract(address) {
      // An address without a contract answers `{}`.
      const c = await call<{ contract_address?: string; bytecode?: string }>('/wallet/getcontract', { value: address, visible: true });
      return Boolean(c.contract_address ?? c.bytecode);
    },
    async transaction(txHash): Promise<ChainTransaction | null> {
      const id = txHash.replace(/^0x/, '').toLowerCase();
      // An unknown or not yet confirmed transaction answers `{}`.
      const info = await call<TransactionInfo>('/wallet/gettransactioninfobyid', { value: id });
      if (typeof info.blockNumber !== 'number') return null;
      const succeeded = info.result === undefined && (info.receipt?.result === undefined || info.receipt.result === 'SUCCESS');
      const page = await call<EventsPage & { data?: (TransferEvent & { contract_address?: string })[] }>(`/v1/transactions/${id}/events`);
      if (page.success === false || !Array.isArray(page.data)) throw new ChainUnavailableError('Tron transaction events: an answer without data');
      const transfers: ChainTransfer[] = [];
      for (const e of page.data) {
        const r = e.result;
        if (e.contract_address !== options.token || e.event_name !== 'Transfer' || !r || !isHex40(r.to) || !isHex40(r.from)) continue;
        if (typeof r.value !== 'string' || !/^\d+$/.test(r.value) || typeof e.event_index !== 'number') continue;
        transfers.push({ txHash: id, logIndex: e.event_index, blockNumber: info.blockNumber, blockHash: '', from: hex20(r.from), toHex: hex20(r.to), raw: BigInt(r.value) });
      }
      return { blockNumber: info.blockNumber, succeeded, transfers: succeeded ? transfers : [] };
    },
  };
}

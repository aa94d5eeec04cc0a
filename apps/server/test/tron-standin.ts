// A local stand-in of the TronGrid endpoints the TRC20 deposit watcher calls (deposits/tron.ts),
// on 127.0.0.1: blocks every 3 s of chain time, one TRC20 token, Transfer events with their block
// numbers and event indexes, paged by fingerprint as TronGrid pages them; one transaction's info
// and events; whether an address holds a contract. The tests drive it in process: transfers (each in a new block, as a node mines), empty blocks, reorganisations.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

interface Block {
  number: number;
  timestamp: number;
  id: string;
}
interface Event {
  transaction_id: string;
  event_index: number;
  block_number: number;
  block_timestamp: number;
  from: string;
  to: string;
  value: bigint;
}

export interface TronStandIn {
  url: string;
  /** USDT's contract address on the stand-in (base58). */
  token: string;
  /** Transfers in a new block; answers the transaction id. `to` / `from`: 20 bytes as 0x hex. */
  transfer(to: string, value: bigint, from?: string): string;
  /** Several transfers in one transaction (event indexes 0, 1, …) in a new block. */
  transferMany(to: readonly string[], values: readonly bigint[], from?: string): string;
  /** Pages that overlap: each next page starts again at the previous page's last event (seen twice). */
  overlapPages(on: boolean): void;
  /** Until `indexEvents`, this transaction's events answer an empty list (TronGrid indexes a block after the node has it). */
  hideEvents(txId: string): void;
  indexEvents(txId: string): void;
  mine(blocks: number): void;
  head(): number;
  /** Removes the newest `depth` blocks and their events (a reorganisation; mine again after). */
  reorg(depth: number): void;
  /** API keys seen on requests (the watcher must send the configured one). */
  readonly apiKeys: string[];
  stop(): Promise<void>;
}

const GENESIS_TIME = Date.UTC(2026, 0, 1);
const id64 = (text: string) => createHash('sha256').update(text).digest('hex');

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = '';
  for await (const chunk of req) raw += String(chunk);
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

export async function startTronStandIn(options: { token?: string; decimals?: number; apiKey?: string } = {}): Promise<TronStandIn> {
  const token = options.token ?? 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const decimals = options.decimals ?? 6;
  const salt = id64(String(Math.random()));
  const blocks: Block[] = [{ number: 0, timestamp: GENESIS_TIME, id: id64(`genesis`) }];
  const events: Event[] = [];
  const unindexed = new Set<string>();
  let overlap = false;
  const apiKeys: string[] = [];
  let txSeq = 0;

  const newBlock = (): Block => {
    const prev = blocks[blocks.length - 1];
    const b = { number: prev.number + 1, timestamp: prev.timestamp + 3000, id: id64(`${salt}:${prev.number + 1}:${prev.id}`) };
    blocks.push(b);
    return b;
  };
  const blockJson = (b: Block) => ({ blockID: b.id, block_header: { raw_data: b.number === 0 ? { timestamp: b.timestamp } : { number: b.number, timestamp: b.timestamp } } });
  const eventJson = (e: Event) => ({
    block_number: e.block_number,
    block_timestamp: e.block_timestamp,
    caller_contract_address: token,
    contract_address: token,
    event_index: e.event_index,
    event_name: 'Transfer',
    result: { 0: e.from, 1: e.to, 2: e.value.toString(), from: e.from, to: e.to, value: e.value.toString() },
    result_type: { from: 'address', to: 'address', value: 'uint256' },
    event: 'Transfer(address indexed from, address indexed to, uint256 value)',
    transaction_id: e.transaction_id,
  });
  const senderOf = (from?: string) => (from ?? `0x${'11'.repeat(20)}`).toLowerCase();

  const server: Server = createServer((req, res) => {
    void (async () => {
      const key = req.headers['tron-pro-api-key'];
      if (typeof key === 'string') apiKeys.push(key);
      if (options.apiKey && key !== options.apiKey) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"Error":"ApiKey not exists"}');
        return;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method === 'POST' && url.pathname === '/wallet/getnowblock') return json(200, blockJson(blocks[blocks.length - 1]));
      if (req.method === 'POST' && url.pathname === '/wallet/getblockbynum') {
        const { num } = await bodyOf(req);
        const b = blocks.find((x) => x.number === Number(num));
        return json(200, b ? blockJson(b) : {});
      }
      if (req.method === 'POST' && url.pathname === '/wallet/triggerconstantcontract') {
        const body = await bodyOf(req);
        if (body.contract_address !== token || body.function_selector !== 'decimals()') return json(200, { result: { code: 'CONTRACT_VALIDATE_ERROR' } });
        return json(200, { result: { result: true }, constant_result: [decimals.toString(16).padStart(64, '0')] });
      }
      if (req.method === 'POST' && url.pathname === '/wallet/getcontract') {
        // The one contract on the stand-in is the token (visible: base58 addresses).
        const { value } = await bodyOf(req);
        return json(200, value === token ? { contract_address: token, bytecode: '6080604052' } : {});
      }
      if (req.method === 'POST' && url.pathname === '/wallet/gettransactioninfobyid') {
        const { value } = await bodyOf(req);
        const id = typeof value === 'string' ? value : '';
        const mined = events.find((e) => e.transaction_id === id);
        if (!mined) return json(200, {});
        const b = blocks.find((x) => x.number === mined.block_number)!;
        return json(200, { id, blockNumber: b.number, blockTimeStamp: b.timestamp, contract_address: token, receipt: { result: 'SUCCESS' } });
      }
      const txEvents = /^\/v1\/transactions\/([0-9a-fA-F]{64})\/events$/.exec(url.pathname);
      if (req.method === 'GET' && txEvents) {
        const id = txEvents[1].toLowerCase();
        const data = unindexed.has(id) ? [] : events.filter((e) => e.transaction_id === id).map(eventJson);
        return json(200, { data, success: true, meta: { at: Date.now(), page_size: data.length } });
      }
      const m = /^\/v1\/contracts\/([^/]+)\/events$/.exec(url.pathname);
      if (req.method === 'GET' && m) {
        if (decodeURIComponent(m[1]) !== token) return json(200, { data: [], success: true, meta: { at: Date.now(), page_size: 0 } });
        const min = Number(url.searchParams.get('min_block_timestamp') ?? 0);
        const max = Number(url.searchParams.get('max_block_timestamp') ?? Number.MAX_SAFE_INTEGER);
        const limit = Math.min(200, Number(url.searchParams.get('limit') ?? 20));
        const offset = Number(Buffer.from(url.searchParams.get('fingerprint') ?? '', 'base64url').toString() || 0);
        const matching = events
          .filter((e) => e.block_timestamp >= min && e.block_timestamp <= max)
          .sort((a, b) => a.block_timestamp - b.block_timestamp || a.event_index - b.event_index);
        const page = matching.slice(offset, offset + limit);
        const more = offset + limit < matching.length;
        const next = overlap ? offset + limit - 1 : offset + limit;
        return json(200, {
          data: page.map(eventJson),
          success: true,
          meta: { at: Date.now(), page_size: page.length, ...(more ? { fingerprint: Buffer.from(String(next)).toString('base64url') } : {}) },
        });
      }
      json(404, { Error: `no ${req.method} ${url.pathname} on the stand-in` });
    })().catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };

  const transferMany = (to: readonly string[], values: readonly bigint[], from?: string) => {
    const b = newBlock();
    const tx = id64(`${salt}:tx:${++txSeq}`);
    to.forEach((addr, i) => events.push({ transaction_id: tx, event_index: i, block_number: b.number, block_timestamp: b.timestamp, from: senderOf(from), to: addr.toLowerCase(), value: values[i] }));
    return tx;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    transfer: (to, value, from) => transferMany([to], [value], from),
    overlapPages: (on) => {
      overlap = on;
    },
    hideEvents: (txId) => unindexed.add(txId.replace(/^0x/, '').toLowerCase()),
    indexEvents: (txId) => unindexed.delete(txId.replace(/^0x/, '').toLowerCase()),
    transferMany,
    mine(n) {
      for (let i = 0; i < n; i++) newBlock();
    },
    head: () => blocks[blocks.length - 1].number,
    reorg(depth) {
      const keepTo = blocks[blocks.length - 1].number - depth;
      blocks.splice(keepTo + 1);
      for (let i = events.length - 1; i >= 0; i--) if (events[i].block_number > keepTo) events.splice(i, 1);
    },
    apiKeys,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

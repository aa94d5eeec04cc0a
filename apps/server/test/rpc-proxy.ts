// A JSON-RPC stand-in on 127.0.0.1 in front of the local EVM node, with the faults a real provider
// has: a lagging or load-balanced node that answers "not found" for a mined transaction (its
// receipt and the transaction itself), a node that refuses a raw transaction, and a provider that
// refuses an eth_getLogs answer of more than so many logs. Everything else is passed to the node as
// it is.
import { createServer, type IncomingMessage, type Server } from 'node:http';

interface RpcRequest {
  jsonrpc: '2.0';
  id: number | string | null;
  method: string;
  params?: unknown[];
}

export interface RpcProxy {
  url: string;
  /** The next `times` reads of this transaction (receipt or body) answer "not found". */
  hideTransaction(hash: string, times: number): void;
  /** How many reads of hidden transactions were answered "not found" so far. */
  readonly hiddenAnswers: number;
  /** The next `times` eth_sendRawTransaction calls are refused with `message`. */
  refuseSends(times: number, message: string): void;
  /** From now on an eth_getLogs answer of more than `logs` logs is refused as providers do (-32005). */
  capLogs(logs: number): void;
  /** Every eth_getLogs so far: its range, whether it filtered by recipient (the `to` topic), whether it was refused. */
  readonly getLogsCalls: readonly { from: number; to: number; byRecipient: boolean; refused: boolean }[];
  stop(): Promise<void>;
}

const bodyOf = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const hidden = new Map<string, number>();
  let hiddenAnswers = 0;
  let refusals = { times: 0, message: '' };
  let logCap = Infinity;
  const getLogsCalls: { from: number; to: number; byRecipient: boolean; refused: boolean }[] = [];

  async function answer(request: RpcRequest): Promise<unknown> {
    const [first] = request.params ?? [];
    if ((request.method === 'eth_getTransactionReceipt' || request.method === 'eth_getTransactionByHash') && typeof first === 'string') {
      const left = hidden.get(first.toLowerCase()) ?? 0;
      if (left > 0) {
        hidden.set(first.toLowerCase(), left - 1);
        hiddenAnswers++;
        return { jsonrpc: '2.0', id: request.id, result: null };
      }
    }
    if (request.method === 'eth_sendRawTransaction' && refusals.times > 0) {
      refusals = { ...refusals, times: refusals.times - 1 };
      return { jsonrpc: '2.0', id: request.id, error: { code: -32000, message: refusals.message } };
    }
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
    const body = (await res.json()) as { result?: unknown };
    if (request.method === 'eth_getLogs') {
      const filter = first as { fromBlock: string; toBlock: string; topics?: unknown[] };
      const refused = Array.isArray(body.result) && body.result.length > logCap;
      getLogsCalls.push({ from: Number(filter.fromBlock), to: Number(filter.toBlock), byRecipient: filter.topics?.[2] != null, refused });
      if (refused) return { jsonrpc: '2.0', id: request.id, error: { code: -32005, message: `query returned more than ${logCap} results` } };
    }
    return body;
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const parsed = JSON.parse(await bodyOf(req)) as RpcRequest | RpcRequest[];
      const out = Array.isArray(parsed) ? await Promise.all(parsed.map(answer)) : await answer(parsed);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    })().catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hideTransaction: (hash, times) => hidden.set(hash.toLowerCase(), times),
    get hiddenAnswers() {
      return hiddenAnswers;
    },
    refuseSends: (times, message) => (refusals = { times, message }),
    capLogs: (logs) => (logCap = logs),
    getLogsCalls,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

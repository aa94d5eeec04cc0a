// A real local EVM chain for the deposit tests and the e2e run: `hardhat node` as a child process
// on 127.0.0.1 (stopped by its pid), the test token compiled with solc-js (offline; `hardhat
// compile` would download a compiler) and deployed from the node's first development account.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytesToHex, createPublicClient, createWalletClient, http, type Abi, type Address, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Hardhat's development accounts (public knowledge): #0 deploys and funds, the rest send. */
export const DEV_ACCOUNTS: readonly Address[] = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
];

/** Hardhat's development mnemonic (public knowledge): its account #3 is the tests' hot wallet, funded with ETH for gas. */
export const HOT_KEY = bytesToHex(mnemonicToAccount('test test test test test test test test test test test junk', { addressIndex: 3 }).getHdKey().privateKey!);

export interface LocalChain {
  url: string;
  port: number;
  pid: number;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Mines `blocks` empty blocks at once. */
  mine(blocks: number): Promise<void>;
  head(): Promise<number>;
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `hardhat node` (chain id 31337, automine) on `port` (a free one by default). */
export async function startLocalChain(options: { port?: number; stateDir: string; log?: (line: string) => void }): Promise<LocalChain> {
  const port = options.port ?? (await freePort());
  const xdg = path.join(options.stateDir, 'hardhat-xdg');
  mkdirSync(xdg, { recursive: true });
  const cli = require.resolve('hardhat/internal/cli/cli.js');
  const child: ChildProcess = spawn(process.execPath, [cli, 'node', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: path.join(here, 'chain'),
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', XDG_CONFIG_HOME: xdg, XDG_CACHE_HOME: xdg, XDG_DATA_HOME: xdg },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
    options.log?.(d.toString());
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const url = `http://127.0.0.1:${port}`;
  let id = 0;
  const post = (method: string, params: unknown[]) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    let res: Response;
    try {
      res = await post(method, params);
    } catch (e) {
      // A kept-alive socket the node closed as we reused it (its idle timeout, on a loaded machine):
      // a read is asked again on a fresh one.
      const isRead = method.startsWith('eth_') && !method.startsWith('eth_send');
      if (!isRead || (e as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw e;
      res = await post(method, params);
    }
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited (${child.exitCode}): ${output}`);
    try {
      await rpc('eth_chainId');
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`hardhat node did not answer on ${url}: ${output}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    port,
    pid: child.pid!,
    rpc,
    mine: async (blocks) => {
      if (blocks > 0) await rpc('hardhat_mine', [`0x${blocks.toString(16)}`]);
    },
    head: async () => Number(BigInt(await rpc<string>('eth_blockNumber'))),
    snapshot: () => rpc<string>('evm_snapshot'),
    revert: async (snap) => {
      if (!(await rpc<boolean>('evm_revert', [snap]))) throw new Error(`evm_revert ${snap} refused`);
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

let compiled: { abi: Abi; bytecode: Hex } | undefined;

/** The test token (test/chain/TestUSDT.sol) compiled with solc-js. */
export function testTokenArtifact(): { abi: Abi; bytecode: Hex } {
  if (compiled) return compiled;
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'TestUSDT.sol': { content: readFileSync(path.join(here, 'chain/TestUSDT.sol'), 'utf8') } },
    settings: { optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { TestUSDT: ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = out.contracts['TestUSDT.sol'].TestUSDT;
  compiled = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  return compiled;
}

export interface TestToken {
  address: Address;
  /** Mints to `from` (if needed) and transfers `raw` units to `to`; answers the tx hash once mined. */
  send(to: Address, raw: bigint, from?: Address): Promise<Hex>;
  /** Several transfers in one transaction (one log each). */
  sendMany(to: readonly Address[], raw: readonly bigint[], from?: Address): Promise<Hex>;
}

const LOCAL_CHAIN = (url: string) =>
  ({ id: 31337, name: 'local', nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [url] } } }) as const;

/** Deploys the test token with `decimals` from development account #0 (on a fresh node: 0x5FbDB2315678afecb367f032d93F642f64180aa3). */
export async function deployTestToken(chain: { url: string }, decimals: number): Promise<TestToken> {
  const { abi, bytecode } = testTokenArtifact();
  const transport = http(chain.url);
  const wallet = createWalletClient({ transport });
  const reader = createPublicClient({ transport, cacheTime: 0 });
  const deployHash = await wallet.deployContract({ abi, bytecode, args: [decimals], account: DEV_ACCOUNTS[0], chain: LOCAL_CHAIN(chain.url) });
  const receipt = await reader.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 50 });
  return attachTestToken(chain, receipt.contractAddress!);
}

/** The test token already deployed at `address`. */
export function attachTestToken(chain: { url: string }, address: Address): TestToken {
  const { abi } = testTokenArtifact();
  const transport = http(chain.url);
  const wallet = createWalletClient({ transport });
  const reader = createPublicClient({ transport, cacheTime: 0 });
  const write = async (functionName: string, args: unknown[], from: Address): Promise<Hex> => {
    const hash = await wallet.writeContract({ address, abi, functionName, args, account: from, chain: LOCAL_CHAIN(chain.url) });
    const r = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (r.status !== 'success') throw new Error(`${functionName} reverted`);
    return hash;
  };
  return {
    address,
    async send(to, raw, from = DEV_ACCOUNTS[1]) {
      await write('mint', [from, raw], DEV_ACCOUNTS[0]);
      return write('transfer', [to, raw], from);
    },
    async sendMany(to, raw, from = DEV_ACCOUNTS[1]) {
      await write('mint', [from, raw.reduce((a, b) => a + b, 0n)], DEV_ACCOUNTS[0]);
      return write('transferMany', [to, raw], from);
    },
  };
}

/**
 * A chain in a fresh temporary folder with an 18-decimal test USDT deployed (BSC's), for the
 * watcher and payout tests; `stop()` stops the node and removes the folder.
 */
export async function startChainWithUsdt(prefix: string): Promise<{ chain: LocalChain; token: TestToken; stop: () => Promise<void> }> {
  const stateDir = mkdtempSync(path.join(tmpdir(), prefix));
  const chain = await startLocalChain({ stateDir });
  const token = await deployTestToken(chain, 18);
  return {
    chain,
    token,
    stop: async () => {
      await chain.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

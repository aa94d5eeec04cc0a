// The BEP20 deposit watcher against a real local EVM node (hardhat) and a real database: a
// transfer is pending with its confirmations, then credited once; transfers below the minimum are
// summed, then credited together; a reorganisation drops an unconfirmed transfer for good; a scan
// resumes at its cursor; a broken endpoint leaves the cursor where it was; past one filter's worth
// of addresses every transfer is read and matched by the watcher, in halves where a provider caps
// its answer. `verifyLedger` after each.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { HDKey } from '@scure/bip32';
import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { startRpcProxy } from '../../test/rpc-proxy';
import { startChainWithUsdt, type LocalChain, type TestToken } from '../../test/local-chain';
import { verifyLedger } from '../wallet';
import { bscChain } from './bsc';
import { DEPOSIT_OPS } from './ops';
import { scanDeposits, recordScanFailure } from './watcher';

const CONFIRMATIONS = 15;
const USDT = 10n ** 18n; // BSC's USDT has 18 decimals

let chain: LocalChain;
let token: TestToken;
let t: TestApp;
let stopChain: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ chain, token, stop: stopChain } = await startChainWithUsdt('lq-chain-'));
  const xpub = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'").publicExtendedKey;
  t = await startTestApp({ env: { DEPOSIT_XPUB: xpub, BSC_RPC_URL: chain.url, BSC_USDT_CONTRACT: token.address, BSC_CONFIRMATIONS: String(CONFIRMATIONS) } });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(async () => {
  await t?.close();
  await stopChain?.();
});

const watcher = () => bscChain({ url: chain.url, token: token.address });
const scan = (options: { maxBlocksPerScan?: number; blocksPerQuery?: number } = {}) => scanDeposits(t.database.db, watcher(), { confirmations: CONFIRMATIONS, ...options });

async function depositAddress(u: RegisteredUser): Promise<Address> {
  const res = await t.call('GET', '/user/api/recharge/address?network=BEP20', { token: u.token });
  return res.json<Envelope<{ address: Address }>>().data.address;
}
interface Item {
  txHash: string;
  amount: string;
  state: string;
  confirmations: number;
  confirmationsNeeded: number;
}
const deposits = async (u: RegisteredUser) => (await t.call('GET', '/user/api/recharge/list', { token: u.token })).json<Envelope<{ list: Item[]; total: number }>>().data;
const balance = async (u: RegisteredUser) => (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<{ balanceWallet: string; totalDeposit: string }>>().data;

describe('BEP20 deposit watcher', () => {
  it('shows a transfer pending with its confirmations, then credits it once after 15', async () => {
    await scan(); // the cursor starts below the current head
    const u = await registerUser(t);
    const to = await depositAddress(u);
    const tx = await token.send(to, 25n * USDT + USDT / 2n);
    await scan();
    let list = await deposits(u);
    expect(list.list).toEqual([expect.objectContaining({ txHash: tx, amount: '25.500000', state: 'pending', confirmations: 1, confirmationsNeeded: 15 })]);
    await chain.mine(CONFIRMATIONS - 2);
    await scan();
    list = await deposits(u);
    expect(list.list[0]).toMatchObject({ state: 'pending', confirmations: 14 });
    expect((await balance(u)).balanceWallet).toBe('0.000000');
    await chain.mine(1);
    const r = await scan();
    expect(r.credited).toBe(1);
    list = await deposits(u);
    expect(list.list[0]).toMatchObject({ state: 'credited', confirmations: 15 });
    expect(await balance(u)).toMatchObject({ balanceWallet: '25.500000', totalDeposit: '25.500000' });
    const records = (await t.call('GET', '/user/api/wallet/records?type=deposit', { token: u.token })).json<Envelope<{ list: { amount: string; memo: string }[] }>>().data.list;
    expect(records).toEqual([expect.objectContaining({ amount: '25.500000', memo: `USDT BEP20 ${tx}` })]);
    // More scans (and more blocks) credit nothing twice.
    await chain.mine(5);
    await scan();
    await scan();
    expect((await balance(u)).balanceWallet).toBe('25.500000');
    const [row] = await t.database.exec<{ raw_amount: string }>('select raw_amount::text as raw_amount from chain_deposits where tx_hash = $1', [tx]);
    expect(row.raw_amount).toBe((25n * USDT + USDT / 2n).toString());
  });

  it('rounds 18 decimals down to 6, keeps the raw amount, and sums transfers below 0.1 until they reach it', async () => {
    const u = await registerUser(t);
    const to = await depositAddress(u);
    await token.send(to, 4n * 10n ** 16n + 999n); // 0.040000000000000999
    await token.send(to, 5n * 10n ** 16n); // 0.05
    await chain.mine(CONFIRMATIONS);
    await scan();
    let list = await deposits(u);
    expect(list.list.map((d) => [d.amount, d.state])).toEqual([
      ['0.050000', 'waiting'],
      ['0.040000', 'waiting'],
    ]);
    expect((await balance(u)).balanceWallet).toBe('0.000000');
    const last = await token.send(to, 2n * 10n ** 16n); // 0.02: the waiting total reaches 0.11
    await chain.mine(CONFIRMATIONS);
    await scan();
    list = await deposits(u);
    expect(list.list.map((d) => d.state)).toEqual(['credited', 'credited', 'credited']);
    expect((await balance(u)).balanceWallet).toBe('0.110000');
    const entries = await t.database.exec<{ idempotency_key: string }>(
      `select e.idempotency_key from ledger_entries e where e.kind = 'deposit' and e.user_id = (select id from users where mail = $1)`,
      [u.mail],
    );
    expect(entries.map((e) => e.idempotency_key)).toEqual([`deposit:BEP20:${last}:0`]);
  });

  it('credits each log of a transaction with several transfers, keyed by its log index', async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const tx = await token.sendMany([await depositAddress(a), await depositAddress(b), await depositAddress(a)], [USDT, 2n * USDT, 3n * USDT]);
    await chain.mine(CONFIRMATIONS);
    await scan();
    expect((await balance(a)).balanceWallet).toBe('4.000000');
    expect((await balance(b)).balanceWallet).toBe('2.000000');
    const rows = await t.database.exec<{ log_index: number }>('select log_index from chain_deposits where tx_hash = $1 order by log_index', [tx]);
    expect(rows.map((r) => r.log_index)).toEqual([0, 1, 2]);
  });

  it('never credits a transfer a reorganisation removed before its confirmations', async () => {
    const u = await registerUser(t);
    const to = await depositAddress(u);
    await scan();
    const before = await chain.snapshot();
    const tx = await token.send(to, 7n * USDT);
    await chain.mine(3);
    await scan();
    expect((await deposits(u)).list).toEqual([expect.objectContaining({ txHash: tx, state: 'pending' })]);
    await chain.revert(before); // the blocks holding the transfer are gone
    await chain.mine(CONFIRMATIONS + 10);
    const r = await scan();
    expect(r.dropped).toBe(1);
    await chain.mine(CONFIRMATIONS);
    await scan();
    expect((await deposits(u)).list).toEqual([]);
    expect((await balance(u)).balanceWallet).toBe('0.000000');
    const [row] = await t.database.exec<{ status: string }>('select status from chain_deposits where tx_hash = $1', [tx]);
    expect(row.status).toBe('dropped');
  });

  it('resumes at its cursor: a scan cut short goes on where it stopped, each transfer credited once', async () => {
    const u = await registerUser(t);
    const to = await depositAddress(u);
    await scan();
    const sent: string[] = [];
    for (let i = 0; i < 4; i++) {
      sent.push(await token.send(to, BigInt(i + 1) * USDT));
      await chain.mine(90);
    }
    await chain.mine(CONFIRMATIONS);
    const head = await chain.head();
    const [{ next_block: start }] = await t.database.exec<{ next_block: string }>(`select next_block from chain_cursors where network = 'BEP20'`);
    // Each scan reads at most 100 blocks in pages of 30 (a fresh client each time, as after a restart).
    let r = await scan({ maxBlocksPerScan: 100, blocksPerQuery: 30 });
    expect(r.nextBlock).toBe(Number(start) + 100);
    let scans = 1;
    while (r.nextBlock <= head - CONFIRMATIONS + 1) {
      r = await scan({ maxBlocksPerScan: 100, blocksPerQuery: 30 });
      scans++;
    }
    expect(scans).toBeGreaterThanOrEqual(4);
    expect((await balance(u)).balanceWallet).toBe('10.000000');
    expect((await deposits(u)).list.map((d) => d.state)).toEqual(['credited', 'credited', 'credited', 'credited']);
  });

  it('a broken endpoint (down, or answering garbage) leaves the cursor and records the failure', async () => {
    const [before] = await t.database.exec<{ next_block: string }>(`select next_block from chain_cursors where network = 'BEP20'`);
    const garbage: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":"not a number"}'));
    await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r));
    const garbageUrl = `http://127.0.0.1:${(garbage.address() as { port: number }).port}`;
    try {
      for (const url of [garbageUrl, 'http://127.0.0.1:9']) {
        const broken = bscChain({ url, token: token.address, timeoutMs: 2000 });
        const error = await scanDeposits(t.database.db, broken, { confirmations: CONFIRMATIONS }).catch((e: Error) => e);
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).name).toBe('ChainUnavailableError');
        await recordScanFailure(t.database.db, 'BEP20', error as Error);
      }
    } finally {
      garbage.close();
    }
    const [after] = await t.database.exec<{ next_block: string; failures: number; last_error: string }>(`select next_block, failures, last_error from chain_cursors where network = 'BEP20'`);
    expect(after.next_block).toBe(before.next_block);
    expect(after.failures).toBe(2);
    expect(after.last_error).toMatch(/^BSC eth_blockNumber/);
    // The operator sees it.
    const lines: string[] = [];
    await DEPOSIT_OPS.commands['deposit:status'].run(t.database, [], (l) => lines.push(l), t.config);
    expect(lines[0]).toMatch(/^BEP20: chain 31337, next block \d+, head \d+, last scan /);
    expect(lines[1]).toMatch(/^ {2}2 failed scan\(s\) in a row, last at .*: BSC eth_blockNumber/);
    expect(lines.slice(2)).toEqual(['  credited: 11 transfer(s), 41.610000 USDT', '  dropped: 1 transfer(s), 7.000000 USDT']);
    await scan();
    const [healed] = await t.database.exec<{ failures: number; last_error: string | null }>(`select failures, last_error from chain_cursors where network = 'BEP20'`);
    expect(healed).toEqual({ failures: 0, last_error: null });
  });

  it('refuses an endpoint serving another chain than the deposits so far', async () => {
    await t.database.exec(`update chain_cursors set chain_id = 56 where network = 'BEP20'`);
    try {
      await expect(scan()).rejects.toThrow(/serves chain 31337.*chain 56/);
    } finally {
      await t.database.exec(`update chain_cursors set chain_id = 31337 where network = 'BEP20'`);
    }
  });

  it('shows a user only their own deposits', async () => {
    const stranger = await registerUser(t);
    expect(await deposits(stranger)).toEqual({ list: [], total: 0 });
  });

  it('with more addresses than one filter holds, reads every transfer and keeps its own; a capped answer is read again in halves', async () => {
    const proxy = await startRpcProxy(chain.url);
    try {
      const [a, b] = [await registerUser(t), await registerUser(t)];
      const [toA, toB] = [await depositAddress(a), await depositAddress(b)];
      const stranger: Address = `0x${randomBytes(20).toString('hex')}`;
      await token.send(toA, 2n * USDT);
      await token.send(stranger, 50n * USDT);
      await chain.mine(3);
      await token.sendMany([toB, stranger, toA], [3n * USDT, 60n * USDT, 4n * USDT]);
      await chain.mine(CONFIRMATIONS);
      proxy.capLogs(3); // the last block alone holds 3
      // Many addresses are watched already; a filter of one recipient is too small for them.
      const wide = bscChain({ url: proxy.url, token: token.address, recipientFilterLimit: 1 });
      const r = await scanDeposits(t.database.db, wide, { confirmations: CONFIRMATIONS });
      expect(r.seen).toBe(3);
      expect(await balance(a)).toMatchObject({ balanceWallet: '6.000000' });
      expect(await balance(b)).toMatchObject({ balanceWallet: '3.000000' });
      const [kept] = await t.database.exec<{ n: number }>(`select count(*)::int as n from chain_deposits where to_hex = $1`, [stranger.toLowerCase()]);
      expect(kept.n).toBe(0);
      expect(proxy.getLogsCalls.length).toBeGreaterThan(1);
      expect(proxy.getLogsCalls.every((c) => !c.byRecipient)).toBe(true);
      expect(proxy.getLogsCalls.some((c) => c.refused)).toBe(true);
      // The answers that were not refused cover the range once, in order.
      const answered = proxy.getLogsCalls.filter((c) => !c.refused);
      expect(answered[0].from).toBe(r.from);
      for (let i = 1; i < answered.length; i++) expect(answered[i].from).toBe(answered[i - 1].to + 1);
      expect(answered.at(-1)!.to).toBe(r.to);
    } finally {
      await proxy.stop();
    }
  });
});

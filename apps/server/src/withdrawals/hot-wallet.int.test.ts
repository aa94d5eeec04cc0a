// Hot-wallet payouts against a real local EVM node (hardhat) and a real database: request →
// approve → signed, kept and sent by the payout pass → confirmed → completed with the hold posted;
// a payout whose send failed is sent again byte for byte (one transaction on chain), or signed again
// when another transaction of the key spent its nonce; a wallet short
// of USDT waits; a payout that reverts on chain fails and voids the hold. `verifyLedger` after each.
import { createPublicClient, createWalletClient, getAddress, http, parseAbiItem, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { HOT_KEY, startChainWithUsdt, type LocalChain, type TestToken } from '../../test/local-chain';
import { startRpcProxy } from '../../test/rpc-proxy';
import { verifyLedger } from '../wallet';
import { payoutChainsOf } from './chains';
import { hotWalletOf, type HotWallet } from './hot-wallet';
import { payoutPass } from './jobs';
import { WITHDRAW_OPS } from './ops';
import { payingUser } from './test-helpers';

const CONFIRMATIONS = 2;
const USDT = 10n ** 18n;
const PAYEE = (n: number) => getAddress(`0x${`beef${n}`.repeat(8)}`);
const PAYEE_B = getAddress(`0x${'beefb'.repeat(8)}`);
const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

let chain: LocalChain;
let token: TestToken;
let t: TestApp;
let hot: HotWallet;
let stopChain: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ chain, token, stop: stopChain } = await startChainWithUsdt('lq-hot-'));
  t = await startTestApp({ bookWithdrawAddresses: true,
    env: {
      AUTH_CACHE_MS: '0',
      BSC_RPC_URL: chain.url,
      BSC_USDT_CONTRACT: token.address,
      BSC_CONFIRMATIONS: String(CONFIRMATIONS),
      WITHDRAW_PAYOUT: 'hot-wallet',
      HOT_WALLET_KEY: HOT_KEY,
    },
  });
  hot = hotWalletOf({ url: chain.url, token: token.address, privateKey: HOT_KEY });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(async () => {
  await t?.close();
  await stopChain?.();
});

const ops = (name: string, ...args: string[]) => WITHDRAW_OPS.commands[name].run(t.database, args, () => undefined, t.config);
/** A kept payout missing from the node is let go after 3 such passes here, without the production rule's 2 minutes. */
const QUICK_LET_GO = { absentReads: 3, absentForMs: 0 };
const pass = (wallet: HotWallet = hot, chains = payoutChainsOf(t.config)) => payoutPass(t.database.db, chains, wallet, { letGo: QUICK_LET_GO });
let seq = 0;
async function approved(to: Address, amount: string, funds = 100_000_000n): Promise<{ u: RegisteredUser; id: number }> {
  const u = await payingUser(t, funds);
  const res = await t.call('POST', '/user/api/withdraw/create', {
    token: u.token,
    body: { network: 'BEP20', address: to, amount, paidPwd: '123456', idempotencyKey: `hot-payout-${++seq}` },
  });
  const created = res.json<Envelope<{ id: number }>>();
  expect(created.code, created.msg).toBe('00000');
  await ops('withdraw:approve', String(created.data.id));
  return { u, id: created.data.id };
}
const detail = async (u: RegisteredUser, id: number) =>
  (await t.call('GET', `/user/api/withdraw/detail/${id}`, { token: u.token, lang: 'en_US' })).json<Envelope<{ state: string; txHash: string | null; reason: string | null }>>().data;
const info = async (u: RegisteredUser) => (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<Record<string, string>>>().data;
/** An approved withdrawal to `to` whose payout was signed and kept, but whose send failed. */
async function keptNotSent(to: Address, amount: string) {
  await token.send(hot.address, 100n * USDT);
  const { u, id } = await approved(to, amount);
  const failing: HotWallet = { ...hot, send: () => Promise.reject(new Error('connection refused')) };
  await expect(pass(failing)).rejects.toThrow('connection refused');
  return { u, id, kept: await detail(u, id) };
}
/** Every USDT transfer to `to` on chain. */
async function transfersTo(to: Address): Promise<bigint[]> {
  const client = createPublicClient({ transport: http(chain.url), cacheTime: 0 });
  const logs = await client.getLogs({ address: token.address, event: TRANSFER, args: { to }, fromBlock: 0n, toBlock: 'latest' });
  return logs.map((l) => l.args.value!);
}

describe('hot-wallet payouts (BEP20)', () => {
  it('a node that answers "not found" for our mined payout never makes it signed again: paid once', async () => {
    await token.send(hot.address, 100n * USDT);
    // The same node behind a stand-in that loses a mined payout: once, or for every read.
    const proxy = await startRpcProxy(chain.url);
    const lagging = payoutChainsOf({ ...t.config, BSC_RPC_URL: proxy.url });
    const laggingHot = hotWalletOf({ url: proxy.url, token: token.address, privateKey: HOT_KEY });
    try {
      const once = await approved(PAYEE(8), '12');
      expect(await pass()).toMatchObject({ signed: 1 });
      const first = await detail(once.u, once.id);
      await chain.mine(CONFIRMATIONS);
      proxy.hideTransaction(first.txHash!, 1);
      // The one "not found" falls on the hot wallet's look: nothing is signed again; settling, which
      // reads it next, completes it.
      expect(await pass(laggingHot, lagging)).toMatchObject({ signed: 0, resigned: 0 });
      expect(proxy.hiddenAnswers).toBe(1);
      expect(await pass()).toMatchObject({ signed: 0, resigned: 0 });
      expect(await detail(once.u, once.id)).toMatchObject({ state: 'completed', txHash: first.txHash });
      expect(await transfersTo(PAYEE(8))).toEqual([12n * USDT]);

      // Lost for longer: after the reads the rule asks for, the transfer it made is found by what it
      // moved, so it is left to the operator instead of being signed again.
      const lost = await approved(PAYEE(9), '13');
      expect(await pass()).toMatchObject({ signed: 1 });
      const second = await detail(lost.u, lost.id);
      await chain.mine(CONFIRMATIONS);
      proxy.hideTransaction(second.txHash!, 1_000);
      for (let i = 0; i < 2; i++) expect(await pass(laggingHot, lagging)).toMatchObject({ signed: 0, resigned: 0, doubtful: 0, completed: 0 });
      expect(await pass(laggingHot, lagging)).toMatchObject({ signed: 0, resigned: 0, doubtful: 1, completed: 0 });
      const [row] = await t.database.exec<{ payout_check: string }>('select payout_check from withdrawals where id = $1', [lost.id]);
      expect(row.payout_check).toContain(`moved 13.000000 USDT from the hot wallet to ${PAYEE(9)}: not signed again`);
      expect(await detail(lost.u, lost.id)).toMatchObject({ state: 'processing', txHash: second.txHash });
      // The node catches up: completed with the one transaction.
      expect(await pass()).toMatchObject({ completed: 1, signed: 0 });
      expect(await detail(lost.u, lost.id)).toMatchObject({ state: 'completed', txHash: second.txHash });
      expect(await transfersTo(PAYEE(9))).toEqual([13n * USDT]);
    } finally {
      await proxy.stop();
    }
  });

  it('a hot wallet that fails (a send refused) does not keep confirmed payouts from completing', async () => {
    await token.send(hot.address, 100n * USDT);
    const done = await approved(PAYEE(0), '11');
    expect(await pass()).toMatchObject({ signed: 1 });
    await chain.mine(CONFIRMATIONS);
    const next = await approved(PAYEE_B, '12');
    // The node (behind the JSON-RPC stand-in) refuses the next raw transaction.
    const proxy = await startRpcProxy(chain.url);
    try {
      proxy.refuseSends(1, 'replacement transaction underpriced');
      const refusing = hotWalletOf({ url: proxy.url, token: token.address, privateKey: HOT_KEY });
      await expect(pass(refusing)).rejects.toThrow('BSC eth_sendRawTransaction');
    } finally {
      await proxy.stop();
    }
    expect(await detail(done.u, done.id)).toMatchObject({ state: 'completed' });
    // The refused one was kept: the next pass sends those bytes.
    expect(await pass()).toMatchObject({ resent: 1, signed: 0 });
    await chain.mine(CONFIRMATIONS);
    expect(await pass()).toMatchObject({ completed: 1 });
    expect(await detail(next.u, next.id)).toMatchObject({ state: 'completed' });
    expect(await transfersTo(PAYEE_B)).toEqual([12n * USDT]);
  });

  it('a payout stuck unmined is replaced at the same nonce for a higher gas price, up to the ceiling; paid once', async () => {
    await token.send(hot.address, 100n * USDT);
    const to = getAddress(`0x${'cafe5'.repeat(8)}`);
    const { u, id } = await approved(to, '14');
    const chains = payoutChainsOf(t.config);
    const at = (replace: { afterMs: number; maxGasPrice: bigint }) => payoutPass(t.database.db, chains, hot, { letGo: QUICK_LET_GO, replace });
    const priceOf = async () => (await t.database.exec<{ p: string }>('select payout_gas_price as p from withdrawals where id = $1', [id]))[0].p;
    await chain.rpc('evm_setAutomine', [false]);
    try {
      expect(await pass()).toMatchObject({ signed: 1 });
      const first = await detail(u, id);
      const firstPrice = BigInt(await priceOf());
      // Not stuck long enough: sent again as it is.
      expect(await at({ afterMs: 60_000, maxGasPrice: firstPrice * 10n })).toMatchObject({ resent: 1, replaced: 0 });
      // A ceiling below the raise: not replaced, the operator is told.
      expect(await at({ afterMs: 0, maxGasPrice: firstPrice })).toMatchObject({ resent: 1, replaced: 0 });
      const [capped] = await t.database.exec<{ payout_check: string }>('select payout_check from withdrawals where id = $1', [id]);
      expect(capped.payout_check).toContain('above the ceiling');
      // Replaced: the same nonce, 12.5 % more gas, the first hash kept as an earlier one.
      expect(await at({ afterMs: 0, maxGasPrice: firstPrice * 10n })).toMatchObject({ replaced: 1, resent: 0, signed: 0 });
      const second = await detail(u, id);
      expect(second.txHash).not.toBe(first.txHash);
      expect(BigInt(await priceOf())).toBeGreaterThanOrEqual(firstPrice + firstPrice / 8n);
      const [row] = await t.database.exec<{ earlier: string[] | string }>('select payout_earlier_hashes as earlier from withdrawals where id = $1', [id]);
      expect(String(row.earlier)).toContain(first.txHash!);
    } finally {
      await chain.rpc('evm_setAutomine', [true]);
    }
    await chain.mine(CONFIRMATIONS);
    expect(await pass()).toMatchObject({ completed: 1, signed: 0 });
    expect(await detail(u, id)).toMatchObject({ state: 'completed' });
    expect(await transfersTo(to)).toEqual([14n * USDT]);
  });

  it('pays an approved withdrawal, completes it at its confirmations, once', async () => {
    await token.send(hot.address, 1000n * USDT);
    const to = PAYEE(1);
    const { u, id } = await approved(to, '40');
    expect(await pass()).toMatchObject({ signed: 1, completed: 0 });
    const sent = await detail(u, id);
    expect(sent.state).toBe('processing');
    expect(sent.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    await chain.mine(CONFIRMATIONS);
    expect(await pass()).toMatchObject({ signed: 0, resent: 0, completed: 1 });
    expect(await detail(u, id)).toMatchObject({ state: 'completed', txHash: sent.txHash });
    expect(await info(u)).toMatchObject({ balanceWallet: '57.000000', pendingTransfer: '0.000000', processedTransfer: '43.000000' });
    expect(await pass()).toMatchObject({ signed: 0, resent: 0, completed: 0 });
    expect(await transfersTo(to)).toEqual([40n * USDT]);
  });

  it('a payout kept but never sent (a crash, a node that failed) is sent again, the same transaction', async () => {
    const to = PAYEE(2);
    const { u, id, kept } = await keptNotSent(to, '15');
    expect(kept.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await transfersTo(to)).toEqual([]);
    expect(await pass()).toMatchObject({ resent: 1, signed: 0 });
    await chain.mine(CONFIRMATIONS);
    expect(await pass()).toMatchObject({ completed: 1 });
    expect(await detail(u, id)).toMatchObject({ state: 'completed', txHash: kept.txHash });
    expect(await transfersTo(to)).toEqual([15n * USDT]);
  });

  it('a kept payout whose nonce another transaction of the key spent is signed again once that one is confirmed, and pays once', async () => {
    const to = PAYEE(6);
    const { u, id, kept } = await keptNotSent(to, '15');
    // Someone uses the key outside the platform: a plain transfer takes the kept payout's nonce.
    const [{ n: nonce }] = await t.database.exec<{ n: number }>('select payout_nonce::int as n from withdrawals where id = $1', [id]);
    const local = { id: 31337, name: 'local', nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [chain.url] } } } as const;
    const outside = createWalletClient({ account: privateKeyToAccount(HOT_KEY), chain: local, transport: http(chain.url) });
    await outside.sendTransaction({ to: PAYEE(7), value: 1n, nonce });
    // One confirmation of two: the kept payout is neither re-sent (it cannot land) nor let go yet.
    expect(await pass()).toMatchObject({ resent: 0, resigned: 0, signed: 0 });
    expect(await detail(u, id)).toMatchObject({ state: 'processing', txHash: kept.txHash });
    await chain.mine(1);
    // Missing on several passes (a lagging node answers "not found" too), and nothing paid the
    // address since the first signing: only then is it signed again.
    expect(await pass()).toMatchObject({ resigned: 0, signed: 0 });
    expect(await pass()).toMatchObject({ resigned: 1, signed: 1 });
    const again = await detail(u, id);
    expect(again.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(again.txHash).not.toBe(kept.txHash);
    await chain.mine(CONFIRMATIONS);
    expect(await pass()).toMatchObject({ completed: 1, resigned: 0, signed: 0 });
    expect(await detail(u, id)).toMatchObject({ state: 'completed', txHash: again.txHash });
    expect(await transfersTo(to)).toEqual([15n * USDT]);
    expect(await info(u)).toMatchObject({ pendingTransfer: '0.000000', processedTransfer: '18.000000' });
  });

  it('waits while the hot wallet is short of USDT, and fails a payout that reverts, voiding the hold', async () => {
    const { raw: before } = await hot.tokenBalance();
    const BIG = 10_000_000_000n; // 10,000 Lightning
    const short = await approved(PAYEE(3), String(before / USDT + 1n), BIG);
    expect(await pass()).toMatchObject({ short: 1, signed: 0 });
    expect(await detail(short.u, short.id)).toMatchObject({ state: 'processing', txHash: null });
    await ops('withdraw:reject', String(short.id), '--reason', 'too large for today');

    // Two payouts each within the balance, together above it, sent before either is mined: the
    // second reverts on chain, moves nothing, and its withdrawal fails with the hold voided.
    const { raw: holds } = await hot.tokenBalance();
    const half = holds / USDT / 2n + 1n;
    const first = await approved(PAYEE(4), String(half), BIG);
    const second = await approved(PAYEE(5), String(half), BIG);
    await chain.rpc('evm_setAutomine', [false]);
    try {
      expect(await pass()).toMatchObject({ signed: 2 });
    } finally {
      await chain.rpc('evm_setAutomine', [true]);
    }
    // Reverted at depth 1 is not yet failed: a reorganisation may still take it out.
    await chain.mine(1);
    expect(await pass()).toMatchObject({ failed: 0 });
    expect(await detail(second.u, second.id)).toMatchObject({ state: 'processing' });
    expect(await info(second.u)).toMatchObject({ pendingTransfer: String(half + 3n) + '.000000' });
    await chain.mine(CONFIRMATIONS);
    expect(await pass()).toMatchObject({ completed: 1, failed: 1 });
    expect(await detail(first.u, first.id)).toMatchObject({ state: 'completed' });
    const failed = await detail(second.u, second.id);
    expect(failed.state).toBe('failed');
    expect(failed.reason).toBe('The payout transaction failed on chain; the amount and fee are back in your balance wallet.');
    expect(await info(second.u)).toMatchObject({ balanceWallet: '10000.000000', pendingTransfer: '0.000000' });
    expect(await transfersTo(PAYEE(5))).toEqual([]);
  });
});

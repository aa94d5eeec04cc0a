// Manual payouts checked on chain, against a real local EVM node (hardhat, USDT with 18 decimals)
// and the TronGrid stand-in (6 decimals), on a real database: the operator's transaction completes
// the withdrawal only at its confirmations and only when it pays that amount to that address; one
// paying something else is refused (at once, or by the settle job when it lands later); a hash
// pays one withdrawal. `verifyLedger` after each.
import { createWalletClient, getAddress, http, type Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { DEV_ACCOUNTS, startChainWithUsdt, testTokenArtifact, type LocalChain, type TestToken } from '../../test/local-chain';
import { startTronStandIn, type TronStandIn } from '../../test/tron-standin';
import { tronAddressOf } from '../platform/chain-address';
import { verifyLedger } from '../wallet';
import { payoutChainsOf } from './chains';
import { WITHDRAW_OPS } from './ops';
import { settlePayouts } from './payout';
import { payingUser } from './test-helpers';

const CONFIRMATIONS = 3;
/** A user's own wallet address to withdraw to (any checksummed address; nobody needs its key here). */
const PAYEE = (n: number) => getAddress(`0x${`abc${n}`.repeat(10)}`);
const BSC_USDT = 10n ** 18n;
const TRON_USDT = 10n ** 6n;
const TRON_TO_HEX = `0x${'42'.repeat(20)}` as const;
const TRON_TO = tronAddressOf(TRON_TO_HEX);

let chain: LocalChain;
let token: TestToken;
let tron: TronStandIn;
let t: TestApp;
let stopChain: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ chain, token, stop: stopChain } = await startChainWithUsdt('lq-payout-'));
  tron = await startTronStandIn();
  t = await startTestApp({ bookWithdrawAddresses: true,
    env: {
      AUTH_CACHE_MS: '0',
      BSC_RPC_URL: chain.url,
      BSC_USDT_CONTRACT: token.address,
      BSC_CONFIRMATIONS: String(CONFIRMATIONS),
      TRON_API_URL: tron.url,
      TRON_USDT_CONTRACT: tron.token,
      TRON_CONFIRMATIONS: String(CONFIRMATIONS),
    },
  });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(async () => {
  await t?.close();
  await stopChain?.();
  await tron?.stop();
});

const ops = async (name: string, ...args: string[]) => {
  const lines: string[] = [];
  await WITHDRAW_OPS.commands[name].run(t.database, args, (l) => lines.push(l), t.config);
  return lines.join('\n');
};
const settle = () => settlePayouts(t.database.db, payoutChainsOf(t.config));

let seq = 0;
async function approvedWithdrawal(network: 'BEP20' | 'TRC20', address: string, amount: string): Promise<{ u: RegisteredUser; id: number }> {
  const u = await payingUser(t, 100_000_000n);
  const res = await t.call('POST', '/user/api/withdraw/create', {
    token: u.token,
    body: { network, address, amount, paidPwd: '123456', idempotencyKey: `payout-${Date.now()}-${++seq}` },
  });
  const created = res.json<Envelope<{ id: number }>>();
  expect(created.code, created.msg).toBe('00000');
  const id = created.data.id;
  await ops('withdraw:approve', String(id));
  return { u, id };
}
const detail = async (u: RegisteredUser, id: number) =>
  (await t.call('GET', `/user/api/withdraw/detail/${id}`, { token: u.token })).json<Envelope<{ state: string; txHash: string | null }>>().data;
const info = async (u: RegisteredUser) => (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<Record<string, string>>>().data;

describe('manual payout on BEP20', () => {
  it('completes at its confirmations and posts the hold, once', async () => {
    const to = PAYEE(5);
    const { u, id } = await approvedWithdrawal('BEP20', to, '25');
    const hash = await token.send(to, 25n * BSC_USDT);
    expect(await ops('withdraw:paid', String(id), hash)).toContain('transaction recorded (1/3 confirmations)');
    expect(await detail(u, id)).toEqual(expect.objectContaining({ state: 'processing', txHash: hash.toLowerCase() }));
    expect(await settle()).toMatchObject({ completed: 0 });
    expect(await ops('withdraw:list')).toMatch(new RegExp(`^${id}\\s+processing\\s.*1/3 confirmations`, 'm'));
    await chain.mine(2);
    expect(await settle()).toMatchObject({ completed: 1 });
    expect(await detail(u, id)).toMatchObject({ state: 'completed' });
    expect(await info(u)).toMatchObject({ balanceWallet: '72.000000', pendingTransfer: '0.000000', processedTransfer: '28.000000' });
    // Another pass, or the operator typing it again, changes nothing.
    expect(await settle()).toMatchObject({ completed: 0 });
    await expect(ops('withdraw:paid', String(id), hash)).rejects.toThrow(/is completed/);
    expect((await info(u)).processedTransfer).toBe('28.000000');
  });

  it('refuses a transaction paying another amount or address, and a hash already used', async () => {
    const to = PAYEE(6);
    const { u, id } = await approvedWithdrawal('BEP20', to, '25');
    const short = await token.send(to, 24n * BSC_USDT);
    await expect(ops('withdraw:paid', String(id), short)).rejects.toThrow(`pays 24.000000 USDT to ${to.toLowerCase()}, not 25.000000 USDT to ${to}`);
    const elsewhere = await token.send(PAYEE(7), 25n * BSC_USDT);
    await expect(ops('withdraw:paid', String(id), elsewhere)).rejects.toThrow(/does not pay this withdrawal/);
    expect(await detail(u, id)).toMatchObject({ state: 'processing', txHash: null });
    await expect(ops('withdraw:paid', String(id), '0x1234')).rejects.toThrow('Not a BEP20 transaction hash');
    // One transaction pays one withdrawal, even when a second asks for the same.
    const right = await token.send(to, 25n * BSC_USDT);
    await ops('withdraw:paid', String(id), right);
    const twin = await approvedWithdrawal('BEP20', to, '25');
    await expect(ops('withdraw:paid', String(twin.id), right)).rejects.toThrow(/already pays another withdrawal/);
    await chain.mine(CONFIRMATIONS);
    await settle();
    expect(await detail(u, id)).toMatchObject({ state: 'completed' });
    expect(await detail(twin.u, twin.id)).toMatchObject({ state: 'processing', txHash: null });
  });

  it('a transaction not yet mined waits; mined paying something else, the settle job refuses it', async () => {
    const to = PAYEE(8);
    const { u, id } = await approvedWithdrawal('BEP20', to, '30');
    const { abi } = testTokenArtifact();
    const wallet = createWalletClient({ transport: http(chain.url) });
    const local = { id: 31337, name: 'local', nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [chain.url] } } } as const;
    await wallet.writeContract({ address: token.address, abi, functionName: 'mint', args: [DEV_ACCOUNTS[1], 30n * BSC_USDT], account: DEV_ACCOUNTS[1], chain: local });
    await chain.rpc('evm_setAutomine', [false]);
    let pending: Hex;
    try {
      pending = await wallet.writeContract({ address: token.address, abi, functionName: 'transfer', args: [to, 29n * BSC_USDT], account: DEV_ACCOUNTS[1], chain: local });
      expect(await ops('withdraw:paid', String(id), pending)).toContain('not on chain yet');
      await settle();
      expect(await detail(u, id)).toMatchObject({ state: 'processing', txHash: pending.toLowerCase() });
    } finally {
      await chain.rpc('evm_setAutomine', [true]);
    }
    await chain.mine(1);
    expect(await settle()).toMatchObject({ refused: 1 });
    expect(await detail(u, id)).toMatchObject({ state: 'processing', txHash: null });
    expect(await ops('withdraw:list')).toMatch(new RegExp(`^${id}\\s.*refused: transaction ${pending.toLowerCase()} pays 29.000000 USDT`, 'm'));
    expect(await info(u)).toMatchObject({ pendingTransfer: '33.000000', processedTransfer: '0.000000' });
  });

  it('refuses to pay a withdrawal that waits for review', async () => {
    const u = await payingUser(t, 20_000_000n);
    const res = await t.call('POST', '/user/api/withdraw/create', {
      token: u.token,
      body: { network: 'BEP20', address: PAYEE(9), amount: '10', paidPwd: '123456', idempotencyKey: 'payout-review' },
    });
    const id = res.json<Envelope<{ id: number }>>().data.id;
    await expect(ops('withdraw:paid', String(id), `0x${'ab'.repeat(32)}`)).rejects.toThrow(/is pending review:/);
  });
});

describe('manual payout on TRC20', () => {
  it('completes at its confirmations', async () => {
    const { u, id } = await approvedWithdrawal('TRC20', TRON_TO, '12.5');
    const toHex = TRON_TO_HEX;
    const wrong = tron.transfer(toHex, 12n * TRON_USDT);
    await expect(ops('withdraw:paid', String(id), wrong)).rejects.toThrow(`pays 12.000000 USDT to ${toHex}, not 12.500000 USDT to ${TRON_TO}`);
    const tx = tron.transfer(toHex, 12_500_000n);
    expect(await ops('withdraw:paid', String(id), tx)).toContain('1/3 confirmations');
    tron.mine(2);
    expect(await settle()).toMatchObject({ completed: 1 });
    expect(await detail(u, id)).toMatchObject({ state: 'completed', txHash: tx });
    expect(await info(u)).toMatchObject({ processedTransfer: '15.500000', pendingTransfer: '0.000000' });
  });

  it('a paid transaction whose events are not indexed yet waits: its hash is kept, and it completes once they are', async () => {
    const { u, id } = await approvedWithdrawal('TRC20', TRON_TO, '11');
    const tx = tron.transfer(TRON_TO_HEX, 11_000_000n);
    tron.hideEvents(tx);
    // In a block, no events yet: waiting, not "pays no USDT" (which would clear the hash and let the
    // withdrawal be rejected after the money left).
    expect(await ops('withdraw:paid', String(id), tx)).toContain('no USDT transfer seen yet');
    expect(await settle()).toMatchObject({ refused: 0, completed: 0 });
    expect(await detail(u, id)).toMatchObject({ state: 'processing', txHash: tx });
    tron.mine(2);
    tron.indexEvents(tx);
    expect(await settle()).toMatchObject({ completed: 1, refused: 0 });
    expect(await detail(u, id)).toMatchObject({ state: 'completed', txHash: tx });
  });

  it('a transaction still without events past its confirmations is refused: nothing it moved was ours', async () => {
    const { u, id } = await approvedWithdrawal('TRC20', TRON_TO, '10.5');
    const tx = tron.transfer(TRON_TO_HEX, 10_500_000n);
    tron.hideEvents(tx);
    expect(await ops('withdraw:paid', String(id), tx)).toContain('no USDT transfer seen yet');
    tron.mine(2);
    expect(await settle()).toMatchObject({ refused: 1, completed: 0 });
    expect(await detail(u, id)).toMatchObject({ state: 'processing', txHash: null });
  });
});

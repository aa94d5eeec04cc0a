// Withdrawal addresses on a real local EVM node, a TronGrid stand-in and a real database: EIP-55 as
// written (all lowercase or all uppercase accepted, a broken mixed-case checksum refused), and the
// destinations where USDT is lost or comes back to the platform refused with what to do instead —
// the token contract, any other contract, the hot wallet, the user's own deposit address (even
// before the deposit page derived it) and another user's. Nothing is held; `verifyLedger` after each.
import { randomBytes } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freshCode, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { deployTestToken, HOT_KEY, startChainWithUsdt, type LocalChain, type TestToken } from '../../test/local-chain';
import { startTronStandIn, type TronStandIn } from '../../test/tron-standin';
import { addressOn, depositAddressBytes } from '../platform/chain-address';
import { verifyLedger } from '../wallet';
import { addressGuardOf } from './addresses';
import { payoutChainsOf } from './chains';
import { payingUser } from './test-helpers';

let chain: LocalChain;
let token: TestToken;
let tron: TronStandIn;
let t: TestApp;
let stopChain: (() => Promise<void>) | undefined;
const depositKey = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'");

beforeAll(async () => {
  ({ chain, token, stop: stopChain } = await startChainWithUsdt('lq-wd-addr-'));
  tron = await startTronStandIn();
  t = await startTestApp({ bookWithdrawAddresses: true,
    env: {
      AUTH_CACHE_MS: '0',
      DEPOSIT_XPUB: depositKey.publicExtendedKey,
      BSC_RPC_URL: chain.url,
      BSC_USDT_CONTRACT: token.address,
      TRON_API_URL: tron.url,
      TRON_USDT_CONTRACT: tron.token,
      HOT_WALLET_KEY: HOT_KEY,
    },
  });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(async () => {
  await t?.close();
  await tron?.stop();
  await stopChain?.();
});

let seq = 0;
async function withdraw(u: RegisteredUser, network: 'BEP20' | 'TRC20', address: string): Promise<{ status: number; code: string; field?: string; msg: string }> {
  const res = await t.call('POST', '/user/api/withdraw/create', {
    token: u.token,
    lang: 'en_US',
    body: { network, address, amount: '10', paidPwd: '123456', idempotencyKey: `wd-address-${++seq}` },
  });
  const env = res.json<Envelope<{ field?: string }>>();
  return { status: res.statusCode, code: env.code, field: env.data?.field, msg: env.msg };
}
const depositAddress = async (u: RegisteredUser, network: 'BEP20' | 'TRC20') =>
  (await t.call('GET', `/user/api/recharge/address?network=${network}`, { token: u.token })).json<Envelope<{ address: string }>>().data.address;

describe('withdrawal addresses', () => {
  it('EIP-55 as written: all lowercase and all uppercase are valid, a mixed case must match its checksum', async () => {
    const u = await payingUser(t, 100_000_000n);
    // EIP-55's own all-caps vector, and an all-lowercase address (no checksum to check).
    expect(await withdraw(u, 'BEP20', '0x52908400098527886E0F7030069857D2E4169EE7')).toMatchObject({ status: 200, code: '00000' });
    expect(await withdraw(u, 'BEP20', '0xde709f2102306220921060314715629080e2fb77')).toMatchObject({ status: 200, code: '00000' });
    expect(await withdraw(u, 'BEP20', '0xDe709f2102306220921060314715629080e2fb77')).toMatchObject({ status: 422, code: 'A0371', field: 'address' });
    expect((await t.call('GET', '/user/api/withdraw/list', { token: u.token })).json<Envelope<{ total: number }>>().data.total).toBe(2);
    // Holds of the two accepted requests: 2 × (10 + 3).
    expect((await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<{ pendingTransfer: string }>>().data.pendingTransfer).toBe('26.000000');
  });

  it('refuses the token contract, any contract, the hot wallet and every platform deposit address, saying what to do', async () => {
    const u = await payingUser(t, 100_000_000n);
    const other = await payingUser(t, 0n);
    const anotherContract = await deployTestToken(chain, 6);
    const hotWallet = privateKeyToAccount(HOT_KEY).address;
    const ownNotYetShown = addressOn('BEP20', depositAddressBytes(depositKey, u.id));
    const cases: [string, 'BEP20' | 'TRC20', string, string, RegExp][] = [
      ['the BEP20 token', 'BEP20', token.address, 'A0376', /contract address .*lost/],
      ['the token, in lowercase', 'BEP20', token.address.toLowerCase(), 'A0376', /contract address/],
      ['another contract', 'BEP20', anotherContract.address, 'A0376', /contract address/],
      ['the TRC20 token', 'TRC20', tron.token, 'A0376', /contract address/],
      ['the hot wallet', 'BEP20', hotWallet, 'A0378', /belongs to Lightning Quant/],
      ['the own deposit address, before the deposit page showed it', 'BEP20', ownNotYetShown, 'A0377', /your own deposit address/],
      ['the own TRC20 deposit address', 'TRC20', await depositAddress(u, 'TRC20'), 'A0377', /your own deposit address/],
      ["another user's BEP20 deposit address", 'BEP20', await depositAddress(other, 'BEP20'), 'A0378', /ask them for an address outside/],
      ["another user's TRC20 deposit address", 'TRC20', await depositAddress(other, 'TRC20'), 'A0378', /ask them for an address outside/],
    ];
    for (const [what, network, address, code, msg] of cases) {
      const answer = await withdraw(u, network, address);
      expect({ what, status: answer.status, code: answer.code, field: answer.field }).toEqual({ what, status: 422, code, field: 'address' });
      expect(answer.msg).toMatch(msg);
      // The address book runs the same checks when an address is added (the test helper booked it
      // for the withdrawal above, but the checks come before the book's own "already there").
      const added = await t.call('POST', '/user/api/withdraw/addresses/add', { token: u.token, lang: 'en_US', body: { network, address, code: await freshCode(t, u, 'WITHDRAW_ADDRESS') } });
      expect({ what, code: added.json().code }).toEqual({ what, code });
    }
    expect((await t.call('GET', '/user/api/withdraw/list', { token: u.token })).json<Envelope<{ total: number }>>().data.total).toBe(0);
    expect((await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<{ balanceWallet: string }>>().data.balanceWallet).toBe('100.000000');
  });

  it('a chain that cannot be read leaves the address unchecked: refused for now, nothing held', async () => {
    const u = await payingUser(t, 100_000_000n);
    const deadChain = { ...t.config, BSC_RPC_URL: 'http://127.0.0.1:9/' };
    const guard = addressGuardOf(deadChain, payoutChainsOf(deadChain));
    await expect(guard.check(t.database.db, u.id, 'BEP20', '0xde709f2102306220921060314715629080e2fb77')).rejects.toMatchObject({ errorName: 'CHAIN_UNAVAILABLE', field: 'address' });
  });
});

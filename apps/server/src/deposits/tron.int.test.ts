// The TRC20 deposit watcher against a local stand-in of the TronGrid endpoints it calls and a real
// database: the user's Tron address (base58 of the same 20 bytes) receives USDT (6 decimals),
// pending with its confirmations, credited once after 20; events paged by fingerprint; a
// reorganisation drops an unconfirmed transfer; the API key goes with every call; a broken
// endpoint leaves the cursor. `verifyLedger` after each.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { HDKey } from '@scure/bip32';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';
import { startTronStandIn, type TronStandIn } from '../../test/tron-standin';
import { tronAddressBytes } from '../platform/chain-address';
import { verifyLedger } from '../wallet';
import { tronChain } from './tron';
import { scanDeposits } from './watcher';

const CONFIRMATIONS = 20;
const USDT = 1_000_000n; // Tron's USDT has 6 decimals
const API_KEY = 'test-trongrid-key';

let tron: TronStandIn;
let t: TestApp;

beforeAll(async () => {
  tron = await startTronStandIn({ apiKey: API_KEY });
  tron.mine(100);
  const xpub = HDKey.fromMasterSeed(randomBytes(32)).derive("m/44'/60'/0'").publicExtendedKey;
  t = await startTestApp({ env: { DEPOSIT_XPUB: xpub, TRON_API_URL: tron.url, TRON_USDT_CONTRACT: tron.token, TRON_API_KEY: API_KEY } });
});
afterEach(async () => {
  expect(await verifyLedger(t.database.db)).toEqual([]);
});
afterAll(async () => {
  await t?.close();
  await tron?.stop();
});

const scan = (pageSize?: number) => scanDeposits(t.database.db, tronChain({ url: tron.url, token: tron.token, apiKey: API_KEY, pageSize }), { confirmations: CONFIRMATIONS });

async function tronAddress(u: RegisteredUser): Promise<{ address: string; hex: string }> {
  const res = await t.call('GET', '/user/api/recharge/address?network=TRC20', { token: u.token });
  const data = res.json<Envelope<{ address: string; confirmations: number }>>().data;
  expect(data.confirmations).toBe(20);
  const hex = tronAddressBytes(data.address);
  if (!hex) throw new Error(`not a Tron address: ${data.address}`);
  return { address: data.address, hex };
}
const deposits = async (u: RegisteredUser) =>
  (await t.call('GET', '/user/api/recharge/list?network=TRC20', { token: u.token })).json<Envelope<{ list: { txHash: string; amount: string; state: string; confirmations: number }[] }>>().data.list;
const balance = async (u: RegisteredUser) => (await t.call('GET', '/user/api/wallet/info', { token: u.token })).json<Envelope<{ balanceWallet: string }>>().data.balanceWallet;

describe('TRC20 deposit watcher (TronGrid stand-in)', () => {
  it('credits a transfer to the user’s Tron address once, after 20 confirmations', async () => {
    await scan();
    const u = await registerUser(t);
    const { address, hex } = await tronAddress(u);
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    // The same 20 bytes as the BEP20 address.
    const bep = (await t.call('GET', '/user/api/recharge/address?network=BEP20', { token: u.token })).json<Envelope<null>>();
    expect(bep.code).toBe('A0360'); // BEP20 has no endpoint in this app
    const tx = tron.transfer(hex, 15n * USDT + 250_000n);
    await scan();
    expect(await deposits(u)).toEqual([expect.objectContaining({ txHash: tx, amount: '15.250000', state: 'pending', confirmations: 1 })]);
    tron.mine(CONFIRMATIONS - 2);
    await scan();
    expect((await deposits(u))[0]).toMatchObject({ state: 'pending', confirmations: 19 });
    expect(await balance(u)).toBe('0.000000');
    tron.mine(1);
    expect((await scan()).credited).toBe(1);
    expect(await balance(u)).toBe('15.250000');
    tron.mine(30);
    await scan();
    expect(await balance(u)).toBe('15.250000');
    expect(tron.apiKeys.length).toBeGreaterThan(0);
    expect(new Set(tron.apiKeys)).toEqual(new Set([API_KEY]));
  });

  it('reads every page of events (small pages), one credit per (tx, event index)', async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const ha = (await tronAddress(a)).hex;
    const hb = (await tronAddress(b)).hex;
    // Noise for other addresses between them: 30 events nobody watches.
    for (let i = 0; i < 30; i++) tron.transfer(`0x${randomBytes(20).toString('hex')}`, USDT);
    tron.transferMany([ha, hb, ha], [USDT, 2n * USDT, 3n * USDT]);
    for (let i = 0; i < 30; i++) tron.transfer(`0x${randomBytes(20).toString('hex')}`, USDT);
    tron.mine(CONFIRMATIONS);
    await scan(7);
    expect(await balance(a)).toBe('4.000000');
    expect(await balance(b)).toBe('2.000000');
  });

  it('an event returned twice (pages that overlap) is credited once and does not stall the network', async () => {
    const a = await registerUser(t);
    const ha = (await tronAddress(a)).hex;
    tron.overlapPages(true);
    try {
      tron.transferMany([ha, ha, ha, ha], [USDT, 2n * USDT, 3n * USDT, 4n * USDT]);
      tron.mine(CONFIRMATIONS);
      const result = await scan(2);
      expect(result.credited).toBeGreaterThan(0);
    } finally {
      tron.overlapPages(false);
    }
    expect(await balance(a)).toBe('10.000000');
    expect((await deposits(a)).length).toBe(4);
  });

  it('drops a transfer a reorganisation removed before its 20 confirmations', async () => {
    const u = await registerUser(t);
    const { hex } = await tronAddress(u);
    tron.mine(5);
    await scan();
    tron.transfer(hex, 9n * USDT);
    tron.mine(4);
    await scan();
    expect((await deposits(u)).map((d) => d.state)).toEqual(['pending']);
    tron.reorg(5);
    tron.mine(CONFIRMATIONS + 5);
    expect((await scan()).dropped).toBe(1);
    expect(await deposits(u)).toEqual([]);
    expect(await balance(u)).toBe('0.000000');
  });

  it('a broken endpoint (HTTP 500, not JSON, a wrong key) leaves the cursor', async () => {
    const [before] = await t.database.exec<{ next_block: string }>(`select next_block from chain_cursors where network = 'TRC20'`);
    const broken: Server = createServer((req, res) => (req.url?.includes('getnowblock') ? res.writeHead(200).end('<html>oops</html>') : res.writeHead(500).end()));
    await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(broken.address() as { port: number }).port}`;
      for (const chain of [tronChain({ url, token: tron.token }), tronChain({ url: tron.url, token: tron.token, apiKey: 'wrong' })]) {
        const error = await scanDeposits(t.database.db, chain, { confirmations: CONFIRMATIONS }).catch((e: Error) => e);
        expect((error as Error).name).toBe('ChainUnavailableError');
      }
    } finally {
      broken.close();
    }
    const [after] = await t.database.exec<{ next_block: string }>(`select next_block from chain_cursors where network = 'TRC20'`);
    expect(after.next_block).toBe(before.next_block);
  });
});

// Deposit addresses on a real app and database: derived from the operator's xpub at 0/<user id>,
// stored once, the same 20 bytes on both networks; a network without its endpoint is not open.
import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startTestApp, type Envelope, type TestApp } from '../../test/helpers';
import { addressOn, depositAddressBytes, tronAddressBytes } from '../platform/chain-address';

const seed = pbkdf2Sync('test test test test test test test test test test test junk', 'mnemonic', 2048, 64, 'sha512');
const account = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'");

let t: TestApp;
beforeAll(async () => {
  // BEP20 open (its RPC URL is never called by this test), TRC20 without its API URL: not open.
  t = await startTestApp({ env: { DEPOSIT_XPUB: account.publicExtendedKey, BSC_RPC_URL: 'http://127.0.0.1:9/', BSC_CONFIRMATIONS: '12' } });
});
afterAll(() => t?.close());

interface Address {
  network: string;
  address: string;
  token: string;
  minimum: string;
  confirmations: number;
}
const addressOf = (token: string, network: string, lang?: string) =>
  t.call('GET', `/user/api/recharge/address?network=${network}`, { token, ...(lang ? { lang } : {}) });

async function userIdOf(mail: string): Promise<number> {
  const [row] = await t.database.exec<{ id: number | string }>('select id from users where mail = $1', [mail]);
  return Number(row.id);
}

describe('deposit addresses', () => {
  it('gives each user their own BEP20 address, derived at 0/<user id>, the same on every call', async () => {
    const a = await registerUser(t);
    const b = await registerUser(t);
    const res = await addressOf(a.token, 'BEP20');
    expect(res.statusCode).toBe(200);
    const data = res.json<Envelope<Address>>().data;
    const idA = await userIdOf(a.mail);
    expect(data).toEqual({ network: 'BEP20', address: addressOn('BEP20', depositAddressBytes(account, idA)), token: 'USDT', minimum: '0.100000', confirmations: 12 });
    expect(data.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect((await addressOf(a.token, 'BEP20')).json<Envelope<Address>>().data.address).toBe(data.address);
    const other = (await addressOf(b.token, 'BEP20')).json<Envelope<Address>>().data.address;
    expect(other).not.toBe(data.address);
    const [row] = await t.database.exec<{ address_hex: string; derivation_index: string | number }>(
      'select address_hex, derivation_index from deposit_addresses where user_id = $1',
      [idA],
    );
    expect(row.address_hex).toBe(data.address.toLowerCase());
    expect(Number(row.derivation_index)).toBe(idA);
  });

  it('refuses a network that is not open with the network named, in the caller’s language', async () => {
    const u = await registerUser(t);
    const res = await addressOf(u.token, 'TRC20', 'en_US');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'A0360', msg: 'USDT deposits on TRC20 are not open yet', data: { field: 'network' } });
    const ja = await addressOf(u.token, 'TRC20', 'ja_JP');
    expect(ja.json<Envelope<null>>().msg).toContain('TRC20');
    const rows = await t.database.exec('select 1 from deposit_addresses where user_id = $1', [await userIdOf(u.mail)]);
    expect(rows).toHaveLength(0);
  });

  it('refuses an unknown network, a missing one and a caller without a session', async () => {
    const u = await registerUser(t);
    for (const q of ['ERC20', 'bep20', '']) {
      const res = await t.call('GET', `/user/api/recharge/address?network=${q}`, { token: u.token, lang: 'en_US' });
      expect(res.statusCode).toBe(422);
      expect(res.json<Envelope<null>>().msg).toContain('Network');
    }
    expect((await t.call('GET', '/user/api/recharge/address?network=BEP20')).statusCode).toBe(401);
  });

  it('answers the same address to concurrent first requests', async () => {
    const u = await registerUser(t);
    const answers = await Promise.all(Array.from({ length: 8 }, () => addressOf(u.token, 'BEP20')));
    const addresses = new Set(answers.map((r) => r.json<Envelope<Address>>().data.address));
    expect(addresses.size).toBe(1);
    expect(tronAddressBytes(addressOn('TRC20', [...addresses][0].toLowerCase() as `0x${string}`))).toBe([...addresses][0].toLowerCase());
  });
});

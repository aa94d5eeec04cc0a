import { pbkdf2Sync } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { addressOn, depositAddressBytes, isEvmAddress, parseExtendedPublicKey, tronAddressBytes, tronAddressOf } from './chain-address';

// The well-known development mnemonic (Hardhat's accounts): its m/44'/60'/0'/0/0 and /0/1 addresses are public.
const seed = pbkdf2Sync('test test test test test test test test test test test junk', 'mnemonic', 2048, 64, 'sha512');
const account = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'");

describe('chain addresses', () => {
  it('derives the deposit keys of an account xpub as 0/index: the same 20 bytes on both networks', () => {
    const parsed = parseExtendedPublicKey(account.publicExtendedKey);
    if (!('key' in parsed)) throw new Error(parsed.error);
    const first = depositAddressBytes(parsed.key, 0);
    expect(addressOn('BEP20', first)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(addressOn('BEP20', depositAddressBytes(parsed.key, 1))).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    const tron = addressOn('TRC20', first);
    expect(tron).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(tronAddressBytes(tron)).toBe(first);
  });

  it('reads Tron addresses (USDT’s contract) and refuses a bad checksum or prefix', () => {
    expect(tronAddressBytes('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c');
    expect(tronAddressOf('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
    expect(tronAddressBytes('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBeUndefined();
    expect(tronAddressBytes('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c')).toBeUndefined();
    expect(tronAddressBytes('')).toBeUndefined();
  });

  it('EVM addresses as EIP-55 writes them: checksummed, all lowercase or all uppercase; never a broken checksum', () => {
    expect(isEvmAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(true);
    expect(isEvmAddress('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toBe(true);
    expect(isEvmAddress('0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266')).toBe(true);
    expect(isEvmAddress('0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(false);
    expect(isEvmAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb9226')).toBe(false);
    expect(isEvmAddress('0XF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266')).toBe(false);
    // EIP-55's own test vectors: all caps, all lower, and mixed case.
    for (const vector of [
      '0x52908400098527886E0F7030069857D2E4169EE7',
      '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
      '0xde709f2102306220921060314715629080e2fb77',
      '0x27b1fdb04752bbc536007a920d24acb045561c26',
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(isEvmAddress(vector), vector).toBe(true);
    }
    expect(isEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
  });

  it('refuses an extended private key without echoing it, and garbage', () => {
    const priv = parseExtendedPublicKey(account.privateExtendedKey);
    expect(priv).toEqual({ error: expect.stringContaining('PRIVATE') });
    expect(JSON.stringify(priv)).not.toContain(account.privateExtendedKey.slice(4, 20));
    expect(parseExtendedPublicKey('xpub-not-a-key')).toHaveProperty('error');
  });
});

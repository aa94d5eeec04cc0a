// Addresses of the two USDT networks (deposits and withdrawals). Both are the same 20 bytes of a secp256k1 key (keccak256 of
// the uncompressed public key): BEP20 writes them as an EVM checksum address, TRC20 as base58check
// of 0x41 ‖ those bytes. The deposit keys are derived from an operator-held extended public key;
// no private key is ever on the server.
import { createHash, ECDH } from 'node:crypto';
import { HDKey } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import { getAddress, keccak256, type Address, type Hex } from 'viem';
import type { DepositNetwork } from '@lq/contracts';

const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;

/** An extended public key, or why it is not one (never accepts a private key). */
export function parseExtendedPublicKey(xpub: string): { key: HDKey } | { error: string } {
  let key: HDKey;
  try {
    key = HDKey.fromExtendedKey(xpub.trim());
  } catch (e) {
    return { error: `not an extended key (${(e as Error).message})` };
  }
  // The message names no part of the value: a private key pasted here must not reach a log.
  if (key.privateKey) return { error: 'is an extended PRIVATE key: give the extended public key (xpub) only' };
  if (!key.publicKey) return { error: 'holds no public key' };
  return { key };
}

const hexOf = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`;

/** The 20 address bytes of a compressed secp256k1 public key, as lowercase hex. */
export function addressBytesOf(compressedPublicKey: Uint8Array): Hex {
  const uncompressed = ECDH.convertKey(Buffer.from(compressedPublicKey), 'secp256k1', undefined, undefined, 'uncompressed') as Buffer;
  return `0x${keccak256(uncompressed.subarray(1)).slice(-40)}`;
}

/** The deposit key of derivation index `index` below the operator's key (`0/index`, external chain). */
export function depositAddressBytes(root: HDKey, index: number): Hex {
  const child = root.deriveChild(0).deriveChild(index);
  return addressBytesOf(child.publicKey!);
}

export const evmAddressOf = (bytes: Hex): Address => getAddress(bytes);

export function tronAddressOf(bytes: Hex): string {
  const raw = Buffer.from(bytes.slice(2), 'hex');
  return base58check.encode(Uint8Array.from([TRON_PREFIX, ...raw]));
}

/** The 20 bytes of a Tron base58check address (T…), or undefined when it is not one. */
export function tronAddressBytes(address: string): Hex | undefined {
  try {
    const raw = base58check.decode(address);
    if (raw.length !== 21 || raw[0] !== TRON_PREFIX) return undefined;
    return hexOf(raw.subarray(1));
  } catch {
    return undefined;
  }
}

/**
 * An EVM address as EIP-55 writes it: 0x and 40 hex digits, all lowercase or all uppercase (no
 * checksum), or mixed case matching its checksum. (viem's strict isAddress refuses all uppercase.)
 */
export function isEvmAddress(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const digits = address.slice(2);
  return digits === digits.toLowerCase() || digits === digits.toUpperCase() || getAddress(address) === address;
}

/** How an address is written on a network. */
export const addressOn = (network: DepositNetwork, bytes: Hex): string => (network === 'BEP20' ? evmAddressOf(bytes) : tronAddressOf(bytes));

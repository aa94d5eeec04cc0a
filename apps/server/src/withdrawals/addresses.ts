// Where a withdrawal may go: an address of the chosen network, checked before anything is held.
import { getAddress } from 'viem';
import type { DepositNetwork } from '@lq/contracts';
import { tronAddressBytes } from '../platform/chain-address';

/**
 * BEP20: 0x and 40 hex digits with a valid EIP-55 checksum (an all-lowercase or all-uppercase
 * address carries none, so a typo would go unnoticed: refused). TRC20: base58check with 0x41.
 */
export function isWithdrawAddress(network: DepositNetwork, address: string): boolean {
  if (network === 'TRC20') return tronAddressBytes(address) !== undefined;
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const digits = address.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return false;
  return getAddress(address) === address;
}

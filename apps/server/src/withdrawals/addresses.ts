// Where a withdrawal may go: an address of the chosen network that is not one where the USDT would
// be lost or would come back to the platform, checked before anything is held.
import { privateKeyToAccount } from 'viem/accounts';
import { sql, type Database, rowsOf } from '@lq/db';
import { AppError, type DepositNetwork } from '@lq/contracts';
import type { Config } from '../platform/config';
import { depositAddressBytes, isEvmAddress, parseExtendedPublicKey, tronAddressBytes } from '../platform/chain-address';
import { ChainUnavailableError } from '../deposits';
import type { PayoutChains } from './payout';

/**
 * BEP20: an EVM address as EIP-55 writes it (all lowercase or all uppercase hex: valid, without a
 * checksum; mixed case: must match its checksum). TRC20: base58check with 0x41.
 */
export function isWithdrawAddress(network: DepositNetwork, address: string): boolean {
  if (network === 'TRC20') return tronAddressBytes(address) !== undefined;
  return isEvmAddress(address);
}

/** The address's 20 bytes as lowercase 0x hex (how deposit addresses are kept). */
export function bytesOf(network: DepositNetwork, address: string): string {
  return network === 'TRC20' ? tronAddressBytes(address)! : address.toLowerCase();
}

/** Refuses destinations that lose the money or send it back to the platform, with what to do instead. */
export interface AddressGuard {
  check(db: Database, userId: number, network: DepositNetwork, address: string): Promise<void>;
}

export function addressGuardOf(config: Config, chains: PayoutChains): AddressGuard {
  const tokens = new Set([config.BSC_USDT_CONTRACT.toLowerCase(), tronAddressBytes(config.TRON_USDT_CONTRACT)!]);
  const hotWallet = config.HOT_WALLET_KEY ? privateKeyToAccount(config.HOT_WALLET_KEY as `0x${string}`).address.toLowerCase() : undefined;
  const parsed = config.DEPOSIT_XPUB ? parseExtendedPublicKey(config.DEPOSIT_XPUB) : undefined;
  const depositKey = parsed && 'key' in parsed ? parsed.key : undefined;
  return {
    async check(db, userId, network, address) {
      const bytes = bytesOf(network, address);
      if (tokens.has(bytes)) throw new AppError('WITHDRAW_ADDRESS_CONTRACT', { network }, 'address');
      // The user's own deposit address (derived even before they opened the deposit page), any
      // other user's, and the hot wallet: USDT sent there comes back to the platform.
      const own = depositKey ? depositAddressBytes(depositKey, userId) : undefined;
      const [kept] = rowsOf<{ user_id: string | number }>(
        await db.execute(sql`select user_id from deposit_addresses where network in ('BEP20', 'TRC20') and address_hex = ${bytes} limit 1`),
      );
      if (bytes === own || (kept && Number(kept.user_id) === userId)) throw new AppError('WITHDRAW_ADDRESS_OWN_DEPOSIT', {}, 'address');
      if (kept || bytes === hotWallet) throw new AppError('WITHDRAW_ADDRESS_PLATFORM', {}, 'address');
      const chain = chains[network]?.chain;
      if (!chain) return; // no endpoint for this network: the operator reviews it by hand
      let contract: boolean;
      try {
        contract = await chain.isContract(address);
      } catch (e) {
        if (e instanceof ChainUnavailableError) throw new AppError('CHAIN_UNAVAILABLE', { network }, 'address');
        throw e;
      }
      if (contract) throw new AppError('WITHDRAW_ADDRESS_CONTRACT', { network }, 'address');
    },
  };
}

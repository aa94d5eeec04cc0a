// Deposit addresses: one per user and network, derived once and kept (the watcher matches transfers
// against the kept rows, so an address stays watched after the operator rotates the key).
import { sql, type Database, rowsOf } from '@lq/db';
import { AppError, DEPOSIT_MIN, formatMoney, parseMoney, type DepositNetwork, type RechargeAddress } from '@lq/contracts';
import type { HDKey } from '@scure/bip32';
import type { Config } from '../platform/config';
import { addressOn, depositAddressBytes, parseExtendedPublicKey } from '../platform/chain-address';

export const DEPOSIT_MIN_MICRO = parseMoney(String(DEPOSIT_MIN))!;

/** What deposits need from the configuration, per network (null: not open). */
export interface DepositNetworkConfig {
  confirmations: number;
  /** Where the chain is read: a JSON-RPC endpoint (BEP20) or a TronGrid-style API (TRC20). */
  url: string;
  /** USDT's contract on that chain. */
  token: string;
  /** An API key the endpoint wants (TronGrid), if any. */
  apiKey?: string;
}

export interface DepositSetup {
  key: HDKey | null;
  networks: Record<DepositNetwork, DepositNetworkConfig | null>;
}

/** The chains the operator gave an endpoint for (deposits also need the extended public key; payouts do not). */
export function chainEndpointsOf(config: Config): Record<DepositNetwork, DepositNetworkConfig | null> {
  return {
    BEP20: config.BSC_RPC_URL ? { url: config.BSC_RPC_URL, token: config.BSC_USDT_CONTRACT, confirmations: config.BSC_CONFIRMATIONS } : null,
    TRC20: config.TRON_API_URL
      ? { url: config.TRON_API_URL, token: config.TRON_USDT_CONTRACT, confirmations: config.TRON_CONFIRMATIONS, apiKey: config.TRON_API_KEY }
      : null,
  };
}

/** A network is open when the operator gave both the extended public key and that chain's endpoint. */
export function depositSetupOf(config: Config): DepositSetup {
  const parsed = config.DEPOSIT_XPUB ? parseExtendedPublicKey(config.DEPOSIT_XPUB) : undefined;
  const key = parsed && 'key' in parsed ? parsed.key : null; // a bad key already stopped start-up (config.ts)
  const endpoints = chainEndpointsOf(config);
  return { key, networks: { BEP20: key ? endpoints.BEP20 : null, TRC20: key ? endpoints.TRC20 : null } };
}

/** The user's deposit address on `network`, derived and stored on first use. */
export async function depositAddressOf(db: Database, setup: DepositSetup, userId: number, network: DepositNetwork): Promise<RechargeAddress> {
  const net = setup.networks[network];
  if (!net || !setup.key) throw new AppError('DEPOSIT_NETWORK_CLOSED', { network }, 'network');
  const answer = (address: string): RechargeAddress => ({ network, address, token: 'USDT', minimum: formatMoney(DEPOSIT_MIN_MICRO), confirmations: net.confirmations });

  const [kept] = rowsOf<{ address: string }>(
    await db.execute(sql`select address from deposit_addresses where user_id = ${userId} and network = ${network}`),
  );
  if (kept) return answer(kept.address);

  const bytes = depositAddressBytes(setup.key, userId);
  const address = addressOn(network, bytes);
  await db.execute(sql`insert into deposit_addresses (user_id, network, derivation_index, address, address_hex, key_fingerprint)
    values (${userId}, ${network}, ${userId}, ${address}, ${bytes}, ${setup.key.fingerprint}) on conflict do nothing`);
  // A concurrent first request may have won: answer what is stored.
  const [stored] = rowsOf<{ address: string }>(
    await db.execute(sql`select address from deposit_addresses where user_id = ${userId} and network = ${network}`),
  );
  return answer(stored.address);
}

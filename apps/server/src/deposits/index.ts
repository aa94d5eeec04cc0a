// Deposits: USDT on BEP20 and TRC20 to per-user addresses derived from the operator's extended
// public key, watched on chain (BSC through JSON-RPC, Tron through TronGrid) and credited through
// the wallet's ledger; card deposits through a hosted checkout and its signed webhook (card/).
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { DEPOSIT_NETWORKS, type DepositNetwork } from '@lq/contracts';
import { depositSetupOf, type DepositNetworkConfig, type DepositSetup } from './addresses';
import { bscChain } from './bsc';
export { TRANSFER as TRANSFER_EVENT } from './bsc';
import type { DepositChain } from './chain';
import { tronChain } from './tron';
import { startDepositJobs } from './jobs';
import { depositRoutes } from './routes';
import { cardRoutes } from './card/routes';

/** The reader of one network's chain. */
export const chainOf = (network: DepositNetwork, net: DepositNetworkConfig): DepositChain =>
  network === 'BEP20' ? bscChain({ url: net.url, token: net.token as `0x${string}` }) : tronChain({ url: net.url, token: net.token, apiKey: net.apiKey });

/** The chains of the open networks. */
export function depositChainsOf(setup: DepositSetup): DepositChain[] {
  return DEPOSIT_NETWORKS.flatMap((n) => {
    const net = setup.networks[n];
    return net ? [chainOf(n, net)] : [];
  });
}

export const depositsPlugin = fp(
  async (app) => {
    const deps = platformDeps(app);
    const setup = depositSetupOf(deps.config);
    depositRoutes(app, deps, setup);
    cardRoutes(app, deps);
    app.jobs.add('deposits', startDepositJobs(setup, depositChainsOf(setup), deps.config.DEPOSIT_POLL_SECONDS));
    return Promise.resolve();
  },
  { name: 'deposits' },
);

export { chainEndpointsOf, depositSetupOf, type DepositNetworkConfig } from './addresses';
export type { ChainTransaction, ChainTransfer, DepositChain } from './chain';
export { ChainUnavailableError } from './chain';
export { scanDeposits, creditDeposits, recordScanFailure, type ScanOptions, type ScanResult } from './watcher';
export { DEPOSIT_OPS } from './ops';

// The chains payouts are checked on (and, with the hot wallet, sent on): every network the operator
// gave an endpoint for — the deposits' readers, without needing the deposit key.
import { DEPOSIT_NETWORKS } from '@lq/contracts';
import { chainEndpointsOf, chainOf } from '../deposits';
import type { Config } from '../platform/config';
import type { PayoutChains } from './payout';

/** The chains payouts are checked on: every network with an endpoint. */
export function payoutChainsOf(config: Config): PayoutChains {
  const endpoints = chainEndpointsOf(config);
  const chains: PayoutChains = {};
  for (const n of DEPOSIT_NETWORKS) {
    const net = endpoints[n];
    if (net) chains[n] = { chain: chainOf(n, net), confirmations: net.confirmations };
  }
  return chains;
}

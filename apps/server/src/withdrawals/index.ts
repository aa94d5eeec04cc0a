// Withdrawals: requests checked and held on the ledger, reviewed by an operator (or let through
// below the operator's limit), paid out and checked on chain before the hold is posted.
import fp from 'fastify-plugin';
import { parseGwei } from 'viem';
import { platformDeps } from '../platform/deps';
import { startWithdrawJobs } from './jobs';
import { payoutChainsOf } from './chains';
import { addressGuardOf } from './addresses';
import { hotWalletOf } from './hot-wallet';
import { withdrawRoutes } from './routes';

export const withdrawalsPlugin = fp(
  async (app) => {
    const deps = platformDeps(app);
    const chains = payoutChainsOf(deps.config);
    withdrawRoutes(app, deps, addressGuardOf(deps.config, chains));
    const c = deps.config;
    // config.ts made sure the key and BSC's endpoint are there when the hot wallet pays.
    const hot =
      c.WITHDRAW_PAYOUT === 'hot-wallet' && c.HOT_WALLET_KEY && c.BSC_RPC_URL
        ? hotWalletOf({ url: c.BSC_RPC_URL, token: c.BSC_USDT_CONTRACT as `0x${string}`, privateKey: c.HOT_WALLET_KEY as `0x${string}` })
        : undefined;
    if (Object.keys(chains).length > 0) app.jobs.add('withdrawals', startWithdrawJobs(chains, c.DEPOSIT_POLL_SECONDS, hot, {
          afterMs: c.HOT_WALLET_REPLACE_AFTER_SECONDS * 1000,
          maxGasPrice: parseGwei(String(c.HOT_WALLET_MAX_GAS_GWEI)),
        }));
    return Promise.resolve();
  },
  { name: 'withdrawals' },
);

export { isWithdrawAddress } from './addresses';
export { WITHDRAW_OPS } from './ops';
export { checkPayout, recordManualPayout, settlePayouts, type PayoutChains } from './payout';
export { hotWalletOf, payFromHotWallet, type HotWallet } from './hot-wallet';
export { payoutChainsOf } from './chains';
export {
  approveWithdrawal,
  autoApproveBelow,
  rejectWithdrawal,
  setAutoApproveBelow,
  setWithdrawLimit,
  withdrawLimitsByLevel,
} from './service';

// Wallet: the double-entry ledger (ledger.ts) and, on top of it, wallet info, records, transfers
// and operator adjustments (service.ts); exports come next.
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { startWalletJobs } from './jobs';
import { walletRoutes } from './routes';

export const walletPlugin = fp(
  async (app) => {
    const deps = platformDeps(app);
    walletRoutes(app, deps);
    app.jobs.add('wallet', startWalletJobs(deps.config.dataDir));
    return Promise.resolve();
  },
  { name: 'wallet' },
);

export { WALLET_OPS } from './ops';
export {
  postEntry,
  postEntries,
  postPending,
  voidPending,
  userBalances,
  verifyLedger,
  accountCode,
  InsufficientFundsError,
  IdempotencyConflictError,
  EntryStateError,
  LedgerError,
  type AccountRef,
  type EntryCommand,
  type EntryResult,
} from './ledger';
export { amountSetting, setAmountSetting, adjustmentPosted, adjustWallet, unsourcedAdjustment, type AdjustSource, setSoloDailyLimit, setTwoPersonAbove, soloDailyLimit, twoPersonAbove, walletInfoOf } from './service';
export { cleanupExports, runExport } from './exports';

// The payout job: every DEPOSIT_POLL_SECONDS, the hot wallet (if configured) pays approved BEP20
// withdrawals (hot-wallet.ts), then processing withdrawals with a transaction are looked at on
// chain and completed once confirmed (payout.ts). A stately queue (one pass waiting, one
// running) re-queued by each pass, and a minutely schedule that restarts the chain after a crash.
import type { JobContext } from '../platform/jobs';
import { payFromHotWallet, type HotPayoutResult, type HotWallet, type LetGoRule, type ReplaceRule } from './hot-wallet';
import { settlePayouts, type PayoutChains } from './payout';

export const SETTLE_QUEUE = 'withdraw-settle';

/**
 * One pass: pay what the hot wallet pays, then settle every payout on chain. A hot wallet that
 * fails (a node down, a send refused) does not keep the settlement from running: its error is
 * thrown after it, and each network settles on its own (settlePayouts).
 */
export async function payoutPass(
  db: Parameters<typeof settlePayouts>[0],
  chains: PayoutChains,
  hot: HotWallet | undefined,
  options: { letGo?: LetGoRule; replace?: ReplaceRule; log?: (detail: string) => void } = {},
) {
  const bsc = chains.BEP20;
  let sent: HotPayoutResult | undefined;
  let sendError: Error | undefined;
  try {
    sent = hot && bsc ? await payFromHotWallet(db, hot, async (hash) => (await bsc.chain.transaction(hash)) !== null, bsc.confirmations, options) : undefined;
  } catch (e) {
    sendError = e instanceof Error ? e : new Error(String(e));
  }
  const settled = await settlePayouts(db, chains);
  if (sendError) throw sendError;
  return { ...sent, ...settled };
}

export function startWithdrawJobs(chains: PayoutChains, pollSeconds: number, hot: HotWallet | undefined, replace: ReplaceRule) {
  return async ({ boss, database, log, work }: JobContext): Promise<void> => {
    await boss.createQueue(SETTLE_QUEUE, { name: SETTLE_QUEUE, policy: 'stately' });
    if (!work) return;
    await boss.work(SETTLE_QUEUE, async () => {
      try {
        const r = await payoutPass(database.db, chains, hot, { replace, log: (detail) => log.warn(detail) });
        if (r.completed > 0 || r.refused > 0 || r.failed > 0 || (r.signed ?? 0) > 0 || (r.resent ?? 0) > 0 || (r.resigned ?? 0) > 0 || (r.doubtful ?? 0) > 0 || (r.replaced ?? 0) > 0 || r.unreachable.length > 0) log.info(r, 'withdrawal payouts');
      } catch (err) {
        log.warn({ err }, 'withdrawal payout pass failed; the next one tries again (kept transactions are re-sent, never re-signed)');
      }
      await boss.send(SETTLE_QUEUE, {}, { startAfter: pollSeconds });
    });
    await boss.schedule(SETTLE_QUEUE, '* * * * *');
    await boss.send(SETTLE_QUEUE, {});
  };
}

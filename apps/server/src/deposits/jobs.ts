// pg-boss jobs of the deposits: one watcher queue per open network. Each scan queues the next one
// (after DEPOSIT_POLL_SECONDS, or a growing back-off after failures); a minutely schedule restarts
// the chain of scans after a crash. The queues are "stately": one scan waiting and one running at
// most, however many workers there are.
import type { DepositNetwork } from '@lq/contracts';
import type { JobContext } from '../platform/jobs';
import type { DepositSetup } from './addresses';
import type { DepositChain } from './chain';
import { recordScanFailure, scanDeposits } from './watcher';

export const watchQueueOf = (network: DepositNetwork) => `deposit-watch-${network.toLowerCase()}`;

/** Seconds before the next scan after `failures` failed ones in a row: doubling up to 5 minutes. */
export const backoffSeconds = (pollSeconds: number, failures: number) => Math.min(300, pollSeconds * 2 ** Math.min(failures, 10));

export function startDepositJobs(setup: DepositSetup, chains: readonly DepositChain[], pollSeconds: number) {
  return async ({ boss, database, log, work }: JobContext): Promise<void> => {
    for (const chain of chains) {
      const queue = watchQueueOf(chain.network);
      const confirmations = setup.networks[chain.network]!.confirmations;
      await boss.createQueue(queue, { name: queue, policy: 'stately' });
      if (!work) continue;
      await boss.work(queue, async () => {
        let delay = pollSeconds;
        try {
          const r = await scanDeposits(database.db, chain, { confirmations });
          if (r.seen > 0 || r.credited > 0 || r.dropped > 0) log.info({ network: chain.network, ...r }, 'deposit scan');
        } catch (err) {
          const failures = await recordScanFailure(database.db, chain.network, err as Error);
          delay = backoffSeconds(pollSeconds, failures);
          log.warn({ err, network: chain.network, failures, retryInSeconds: delay }, 'deposit scan failed; the cursor stays');
        }
        await boss.send(queue, {}, { startAfter: delay });
      });
      await boss.schedule(queue, '* * * * *');
      await boss.send(queue, {});
    }
  };
}

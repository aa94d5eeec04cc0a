// CRASH test: the runner process is SIGKILLed at random points of order placement (50 times), then
// restarted: zero duplicate venue orders per intent, zero orphaned orders or positions, the robot's
// state equal to the venue's. `npm run soak -- --kills 500` runs the same harness longer.
import { describe, expect, it } from 'vitest';
import { bundledScript } from '../../test/node-bundle';
import { runCrashTest } from './crash-harness';

describe('runner crash safety', () => {
  // 15 minutes: about 5 on a quiet 2-core machine, twice that beside the rest of the suite on a slow one.
  it('50 SIGKILLs during order placement: nothing lost, nothing doubled', { timeout: 900_000 }, async () => {
    const r = await runCrashTest({
      kills: Number(process.env.RUNNER_CRASH_KILLS ?? 50),
      log: process.env.RUNNER_TEST_LOG ? console.log : undefined,
      runnerArgs: [await bundledScript('src/runner/main.ts')],
    });
    if (process.env.RUNNER_TEST_LOG) console.log(r);
    expect(r.killsInFlight).toBeGreaterThan(r.kills / 4);
    expect(r.orders).toBeGreaterThan(r.kills);
    expect(r.duplicates).toEqual([]);
    expect(r.unjournalled).toEqual([]);
    expect(r.mismatched).toEqual([]);
    expect(r.ledgerCoins).toBeCloseTo(r.venueCoins, 9);
    expect(r.finalStatus).toBe('stopped');
    expect(r.finalOpenOrders).toBe(0);
    expect(r.finalVenueCoins).toBe(0);
  });
});

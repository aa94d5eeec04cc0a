// The runner role: `startRunner` is called by main.ts when ROLE is runner or all.
import type { DatabaseHandle } from '@lq/db';
import type { Config } from '../platform/config';
import { Runner, type RunnerLog, type RunnerOptions } from './runner';

export { Runner } from './runner';
export type { RunnerOptions } from './runner';
export type { Bar, CandleSource } from './feed';
export { MINUTE, toBars } from './feed';
export { firstCandleSql } from './first-candle';
export { insertFills } from './journal';
export { paperRobotOf, robotStrategyOf, seededAiStream, type RobotSettings } from './robot';
export { createVenue, registerVenueFactory, VenueCache, type VenueFactory, type VenueContext } from './venues';

/** Starts the runner loop on this process's database; `stop()` gives the leases back. */
export function startRunner(database: DatabaseHandle, config: Config, log: RunnerLog, extra: Partial<RunnerOptions> = {}): Runner {
  const runner = new Runner({ database, config, log, ...extra });
  runner.start();
  return runner;
}

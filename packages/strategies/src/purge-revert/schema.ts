import type { z } from 'zod';
import { lookback, lots, nonNegative, positive, strategySchema } from '../common/schema';

export const purgeRevertSchema = strategySchema({
  firstLots: lots(),
  lookback: lookback().default(20),
  /** Minimum exceedance of the prior extreme (points / percent); 0 = any. */
  sweep: nonNegative().default(0),
  /** Extra stop distance beyond the sweep extreme (points / percent). */
  buffer: nonNegative().default(0),
  /** Take profit at `rr` × the risk (entry → stop). */
  rr: positive('validation.rrPositive').default(2),
});
export type PurgeRevertParams = z.output<typeof purgeRevertSchema>;

import type { z } from 'zod';
import { gap, lookback, lots, orderNumber, positive, strategySchema } from '../common/schema';

export const pegasusSchema = strategySchema(
  {
    firstLots: lots(),
    lookback: lookback().default(20),
    /** Initial stop, in ATR(14) multiples from the entry. */
    atrStop: positive('validation.atrMultiplePositive').default(2),
    /** Trailing stop, in ATR(14) multiples from the best close since entry. */
    atrTrail: positive('validation.atrMultiplePositive').default(3),
    /** Orders at most (the first one included). */
    orderNumber: orderNumber().default(1),
    gap: gap().optional(),
  },
  (v, ctx) => {
    if (v.orderNumber > 1 && v.gap === undefined) ctx.addIssue({ code: 'custom', path: ['gap'], message: 'validation.gapRequired' });
  },
);
export type PegasusParams = z.output<typeof pegasusSchema>;

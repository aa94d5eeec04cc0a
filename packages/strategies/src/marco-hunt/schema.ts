import type { z } from 'zod';
import { lots, multiplier, orderNumber, positive, refillInterval, strategySchema } from '../common/schema';

export const marcoHuntSchema = strategySchema(
  {
    firstLots: lots(),
    orderTakeProfit: positive('validation.orderTakeProfitPositive'),
    orderStopLoss: positive('validation.orderStopLossPositive'),
    /** Orders at most (the first one included); refills every `refillInterval` against the last entry. */
    orderNumber: orderNumber().default(1),
    refillInterval: refillInterval().optional(),
    multiplier: multiplier().default(1),
  },
  (v, ctx) => {
    if (v.orderNumber > 1 && v.refillInterval === undefined) {
      ctx.addIssue({ code: 'custom', path: ['refillInterval'], message: 'validation.refillIntervalRequired' });
    }
  },
);
export type MarcoHuntParams = z.output<typeof marcoHuntSchema>;

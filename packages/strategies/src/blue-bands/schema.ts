import type { z } from 'zod';
import { gap, lots, multiplier, orderNumber, period, positive, strategySchema } from '../common/schema';

export const blueBandsSchema = strategySchema(
  {
    firstLots: lots(),
    orderStopLoss: positive('validation.orderStopLossPositive'),
    /** Adds every `gap` beyond the band, each the previous lots × `multiplier`. */
    gap: gap().optional(),
    multiplier: multiplier().default(1),
    orderNumber: orderNumber().default(1),
    bbPeriod: period().default(20),
    bbDeviation: positive('validation.deviationPositive').default(2),
  },
  (v, ctx) => {
    if (v.orderNumber > 1 && v.gap === undefined) ctx.addIssue({ code: 'custom', path: ['gap'], message: 'validation.gapRequired' });
  },
);
export type BlueBandsParams = z.output<typeof blueBandsSchema>;

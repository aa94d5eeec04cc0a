import type { z } from 'zod';
import { gap, lots, multiplier, num, orderNumber, period, positive, strategySchema } from '../common/schema';

export const inversionRevertSchema = strategySchema(
  {
    firstLots: lots(),
    orderTakeProfit: positive('validation.orderTakeProfitPositive'),
    orderStopLoss: positive('validation.orderStopLossPositive'),
    orderNumber: orderNumber().default(1),
    gap: gap().optional(),
    multiplier: multiplier().default(1),
    rsiPeriod: period().default(14),
    overbought: num().gt(0, { error: 'validation.rsiLevels' }).lt(100, { error: 'validation.rsiLevels' }).default(70),
    oversold: num().gt(0, { error: 'validation.rsiLevels' }).lt(100, { error: 'validation.rsiLevels' }).default(30),
  },
  (v, ctx) => {
    if (v.oversold >= v.overbought) ctx.addIssue({ code: 'custom', path: ['oversold'], message: 'validation.rsiLevels' });
    if (v.orderNumber > 1 && v.gap === undefined) ctx.addIssue({ code: 'custom', path: ['gap'], message: 'validation.gapRequired' });
  },
);
export type InversionRevertParams = z.output<typeof inversionRevertSchema>;

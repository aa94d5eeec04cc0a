import type { z } from 'zod';
import { lots, multiplier, orderNumber, positive, refillInterval, strategySchema } from '../common/schema';

export const contrarianMartinSchema = strategySchema({
  firstLots: lots(),
  multiplier: multiplier(),
  refillInterval: refillInterval(),
  orderNumber: orderNumber(),
  /** Distance from the average entry at which the whole cycle is closed. */
  cycleTakeProfit: positive('validation.cycleTakeProfitPositive'),
});
export type ContrarianMartinParams = z.output<typeof contrarianMartinSchema>;

import { z } from 'zod';
import { gap, lots, positive, strategySchema, typeError } from '../common/schema';

/**
 * Per-order distances of the three orders; `null` (or a missing entry) means none.
 * A single number applies to all three orders; `null` means none at all.
 */
const threeDistances = (key: string) =>
  z
    .preprocess(
      (v) => (typeof v === 'number' ? [v, v, v] : v === null ? [] : v),
      z.array(positive(key).nullable(), { error: typeError }).max(3, { error: 'validation.maxThreeOrders' }),
    )
    .default([]);

/** The trend fields, shared by `single` and the windowed trends. */
export const trendShape = {
  firstLots: lots(),
  secondLots: lots().optional(),
  thirdLots: lots().optional(),
  /** Pyramiding distance: order 2 one gap in favour of order 1, order 3 one gap beyond order 2. */
  gap: gap().optional(),
  orderTakeProfit: threeDistances('validation.orderTakeProfitPositive'),
  orderStopLoss: threeDistances('validation.orderStopLossPositive'),
};

export function checkTrend(
  v: { secondLots?: number; thirdLots?: number; gap?: number },
  ctx: z.RefinementCtx,
): void {
  if (v.thirdLots !== undefined && v.secondLots === undefined) {
    ctx.addIssue({ code: 'custom', path: ['secondLots'], message: 'validation.secondLotsRequired' });
  }
  if ((v.secondLots !== undefined || v.thirdLots !== undefined) && v.gap === undefined) {
    ctx.addIssue({ code: 'custom', path: ['gap'], message: 'validation.gapRequired' });
  }
}

export const singleSchema = strategySchema(trendShape, checkTrend);
export type SingleParams = z.output<typeof singleSchema>;
export type SingleParamsInput = z.input<typeof singleSchema>;

import type { z } from 'zod';
import { timeOfDaySchema } from '../common/schema';
import { trendShape } from '../single/schema';

export function checkWindow(v: { windowStart: string; windowEnd: string }, ctx: z.RefinementCtx): void {
  if (v.windowStart === v.windowEnd) ctx.addIssue({ code: 'custom', path: ['windowEnd'], message: 'validation.windowEmpty' });
}

/** Intraday window: required ("HH:mm" in the chosen timezone; end before start = overnight). */
export const dayWindowShape = { ...trendShape, windowStart: timeOfDaySchema, windowEnd: timeOfDaySchema };

/**
 * Weekly / monthly windows open at `windowStart` of the first trading day and close at `windowEnd`
 * of the last one (Friday for the week, the last weekday of the month). Defaults 00:00 → 20:00,
 * before the Friday forex close (21:00–22:00 UTC).
 */
export const periodWindowShape = {
  ...trendShape,
  windowStart: timeOfDaySchema.default('00:00'),
  windowEnd: timeOfDaySchema.default('20:00'),
};

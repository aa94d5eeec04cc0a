import type { z } from 'zod';
import { strategySchema } from '../common/schema';
import { checkTrend } from '../single/schema';
import { checkWindow, periodWindowShape } from '../windowed/schema';

export const weekSingleSchema = strategySchema(periodWindowShape, (v, ctx) => {
  checkTrend(v, ctx);
  checkWindow(v, ctx);
});
export type WeekSingleParams = z.output<typeof weekSingleSchema>;

import type { z } from 'zod';
import { strategySchema } from '../common/schema';
import { checkTrend } from '../single/schema';
import { checkWindow, periodWindowShape } from '../windowed/schema';

export const monthSingleSchema = strategySchema(periodWindowShape, (v, ctx) => {
  checkTrend(v, ctx);
  checkWindow(v, ctx);
});
export type MonthSingleParams = z.output<typeof monthSingleSchema>;

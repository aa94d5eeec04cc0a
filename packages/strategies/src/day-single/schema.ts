import type { z } from 'zod';
import { strategySchema } from '../common/schema';
import { checkTrend } from '../single/schema';
import { checkWindow, dayWindowShape } from '../windowed/schema';

export const daySingleSchema = strategySchema(dayWindowShape, (v, ctx) => {
  checkTrend(v, ctx);
  checkWindow(v, ctx);
});
export type DaySingleParams = z.output<typeof daySingleSchema>;

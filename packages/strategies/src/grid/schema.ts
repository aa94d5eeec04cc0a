import type { z } from 'zod';
import { MIN_GRID_NUMBER, gap, int, lots, strategySchema } from '../common/schema';

export const MAX_GRID_NUMBER = 500;

export const gridSchema = strategySchema({
  gridNumber: int()
    .gte(MIN_GRID_NUMBER, { error: 'validation.gridNumberMin' })
    .lte(MAX_GRID_NUMBER, { error: 'validation.gridNumberMax' }),
  gap: gap(),
  lotsPerGrid: lots(),
});
export type GridParams = z.output<typeof gridSchema>;

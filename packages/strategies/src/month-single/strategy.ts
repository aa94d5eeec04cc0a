import type { Instrument } from '@lq/engine';
import { TrendStrategy } from '../single/strategy';
import type { MonthSingleParams } from './schema';

/** Monthly trend: the trend rules inside each month window; everything closes at the window's end. */
export function createMonthSingle(params: MonthSingleParams, instrument: Instrument): TrendStrategy {
  return new TrendStrategy(params, instrument, {
    window: { kind: 'month', windowStart: params.windowStart, windowEnd: params.windowEnd },
  });
}

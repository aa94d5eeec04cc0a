import type { Instrument } from '@lq/engine';
import { TrendStrategy } from '../single/strategy';
import type { WeekSingleParams } from './schema';

/** Weekly trend: the trend rules inside each week window; everything closes at the window's end. */
export function createWeekSingle(params: WeekSingleParams, instrument: Instrument): TrendStrategy {
  return new TrendStrategy(params, instrument, {
    window: { kind: 'week', windowStart: params.windowStart, windowEnd: params.windowEnd },
  });
}

import type { Instrument } from '@lq/engine';
import { TrendStrategy } from '../single/strategy';
import type { DaySingleParams } from './schema';

/** Intraday trend: the trend rules inside each day window; everything closes at the window's end. */
export function createDaySingle(params: DaySingleParams, instrument: Instrument): TrendStrategy {
  return new TrendStrategy(params, instrument, {
    window: { kind: 'day', windowStart: params.windowStart, windowEnd: params.windowEnd },
  });
}

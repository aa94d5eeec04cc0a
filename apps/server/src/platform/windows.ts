// The statistics window of business.md: the 30 days before today 00:00 in the platform timezone
// (config PLATFORM_TIMEZONE). Team figures, VIP progress and rankings all read this one window, so
// two screens never disagree on a figure. Calendar days of that zone (date-fns with @date-fns/tz):
// a day with a daylight-saving change is 23 or 25 hours long, never shifted.
import { TZDate } from '@date-fns/tz';
import { startOfDay, subDays } from 'date-fns';

export const WINDOW_DAYS = 30;

export interface StatsWindow {
  /** Inclusive start: 00:00 thirty days before today, in the platform timezone. */
  from: Date;
  /** Exclusive end: today 00:00 in the platform timezone. */
  to: Date;
  timeZone: string;
}

/** The window as of `now` (default: now) in `timeZone`. */
export function statsWindow(timeZone: string, now: Date = new Date()): StatsWindow {
  const today = startOfDay(new TZDate(now.getTime(), timeZone));
  return { from: new Date(subDays(today, WINDOW_DAYS).getTime()), to: new Date(today.getTime()), timeZone };
}

// The statistics window of business.md: the 30 days before today 00:00 in the platform timezone
// (config PLATFORM_TIMEZONE). Team figures, VIP progress and rankings all read this one window, so
// two screens never disagree on a figure. Calendar days of that zone (date-fns with @date-fns/tz):
// a day with a daylight-saving change is 23 or 25 hours long, never shifted.
import { TZDate } from '@date-fns/tz';
import { format, startOfDay, startOfMonth, subDays } from 'date-fns';

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

/**
 * The VIP progress window (business.md: "progress resets on the 1st of each month"): the stats
 * window cut at the 1st of the current month, 00:00, so what counts towards a tier starts again
 * each month — on the 1st it is empty — while tiers reached stay.
 */
export function progressWindow(timeZone: string, now: Date = new Date()): StatsWindow {
  const w = statsWindow(timeZone, now);
  const monthStart = startOfMonth(new TZDate(w.to.getTime(), timeZone)).getTime();
  return { ...w, from: new Date(Math.max(w.from.getTime(), monthStart)) };
}

/** The instant `day` (YYYY-MM-DD) begins in `timeZone`: "as of" that day, today is `day`. */
export function dayStart(day: string, timeZone: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) throw new RangeError(`a day is YYYY-MM-DD (got "${day}")`);
  const d = new TZDate(Number(m[1]), Number(m[2]) - 1, Number(m[3]), timeZone);
  if (d.getFullYear() !== Number(m[1]) || d.getMonth() !== Number(m[2]) - 1 || d.getDate() !== Number(m[3])) throw new RangeError(`no such day: ${day}`);
  return new Date(d.getTime());
}

/** The calendar day (YYYY-MM-DD) `at` falls on in `timeZone`. */
export const dayOf = (at: Date, timeZone: string): string => format(new TZDate(at.getTime(), timeZone), 'yyyy-MM-dd');

/** The calendar day after `day` (YYYY-MM-DD), whatever the timezone. */
export function dayAfter(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The instant the month of `now` began (the 1st, 00:00) in `timeZone`. */
export const monthStartOf = (now: Date, timeZone: string): Date => new Date(startOfMonth(new TZDate(now.getTime(), timeZone)).getTime());

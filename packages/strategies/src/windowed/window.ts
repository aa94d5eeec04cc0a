// Trading windows of the windowed trends, in local time (ms since the epoch shifted by the UTC offset).
import { daysInMonth, timeOfDayMinutes } from '../common/schema';

export type WindowKind = 'day' | 'week' | 'month';
const DAY = 86_400_000;

/** Weekday of a day number (days since 1970-01-01, a Thursday): 0 = Sunday … 6 = Saturday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** Year, month (1-12) and day of month of a day number. */
export function civilDate(day: number): { year: number; month: number; dayOfMonth: number } {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  const dayOfMonth = doy - Math.floor((153 * mp + 2) / 5) + 1;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, dayOfMonth };
}

/**
 * Finds the window containing a local time. Windows: every day [start, end) (end ≤ start = overnight);
 * the week from Monday `start` to Friday `end`; the month from its first trading day `start` to its
 * last trading day `end` (weekdays for forex, calendar days for crypto).
 * Cached per local day, so the per-candle cost is a comparison.
 */
export class TradingWindow {
  /** Bounds of the window found by the last `locate` that returned true. */
  start = NaN;
  end = NaN;
  private readonly startMs: number;
  private readonly endMs: number;
  private cachedDay = NaN;
  private dayStart = NaN;
  private dayEnd = NaN;
  private prevStart = NaN;
  private prevEnd = NaN;

  constructor(
    private readonly kind: WindowKind,
    windowStart: string,
    windowEnd: string,
    private readonly market: 'crypto' | 'forex',
  ) {
    this.startMs = timeOfDayMinutes(windowStart) * 60_000;
    this.endMs = timeOfDayMinutes(windowEnd) * 60_000;
  }

  locate(localTime: number): boolean {
    const day = Math.floor(localTime / DAY);
    if (day !== this.cachedDay) this.compute(day);
    if (localTime >= this.dayStart && localTime < this.dayEnd) {
      this.start = this.dayStart;
      this.end = this.dayEnd;
      return true;
    }
    if (localTime >= this.prevStart && localTime < this.prevEnd) {
      this.start = this.prevStart;
      this.end = this.prevEnd;
      return true;
    }
    return false;
  }

  private compute(day: number): void {
    this.cachedDay = day;
    this.prevStart = this.prevEnd = NaN;
    if (this.kind === 'day') {
      const overnight = this.endMs <= this.startMs;
      this.dayStart = day * DAY + this.startMs;
      this.dayEnd = (overnight ? day + 1 : day) * DAY + this.endMs;
      if (overnight) {
        // The window that opened yesterday evening.
        this.prevStart = (day - 1) * DAY + this.startMs;
        this.prevEnd = day * DAY + this.endMs;
      }
      return;
    }
    let first: number;
    let last: number;
    if (this.kind === 'week') {
      first = day - ((weekday(day) + 6) % 7);
      last = first + (this.market === 'forex' ? 4 : 6);
    } else {
      const { year, month, dayOfMonth } = civilDate(day);
      first = day - dayOfMonth + 1;
      last = first + daysInMonth(year, month) - 1;
      if (this.market === 'forex') {
        while (weekday(first) === 0 || weekday(first) === 6) first++;
        while (weekday(last) === 0 || weekday(last) === 6) last--;
      }
    }
    this.dayStart = first * DAY + this.startMs;
    this.dayEnd = last * DAY + this.endMs;
  }
}

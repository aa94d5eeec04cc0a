// Report metrics that roll per period (daily and monthly returns). Definitions: /shared/design/strategies.md "Report metrics".
import type { MonthlyReturn } from './types';
import { DAY_MS } from './candles';

function civilFromDays(z: number): { y: number; m: number } {
  // Howard Hinnant's days → civil date (UTC).
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const m = mp + (mp < 10 ? 3 : -9);
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m };
}

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

export interface MetricsOptions {
  capital: number;
  /** ms added to UTC to get local time (day and month boundaries). */
  offsetMs: number;
}

/**
 * The per-period part of the metrics: daily returns (Sharpe, Sortino), monthly returns. The kernel
 * keeps the per-bar part (drawdown, exposure) in local variables of its loop and calls `onDay` /
 * `onMonth` only when a candle opens a new local day / month.
 */
export class PeriodReturns {
  /** First ms of the next local day / month: the kernel compares candle times against these. */
  dayEnd = -Infinity;
  monthEnd = -Infinity;
  private dayStartEquity = NaN;
  private dailyCount = 0;
  private dailySum = 0;
  private dailySumSq = 0;
  private dailyDownSq = 0;
  private monthStartEquity = NaN;
  private monthLabel = '';
  private started = false;
  readonly monthly: MonthlyReturn[] = [];

  constructor(private readonly opts: MetricsOptions) {
    this.dayStartEquity = opts.capital;
    this.monthStartEquity = opts.capital;
  }

  /** A candle at `time` starts a new day; `equity` is the equity at the previous candle's close. */
  onDay(time: number, equity: number): void {
    if (this.started) this.closeDay(equity);
    const off = this.opts.offsetMs;
    this.dayEnd = Math.floor((time + off) / DAY_MS) * DAY_MS + DAY_MS - off;
  }

  onMonth(time: number, equity: number): void {
    if (this.started) this.closeMonth(equity);
    this.started = true;
    const off = this.opts.offsetMs;
    const { y, m } = civilFromDays(Math.floor((time + off) / DAY_MS));
    this.monthLabel = `${y}-${String(m).padStart(2, '0')}`;
    const ny = m === 12 ? y + 1 : y;
    const nm = m === 12 ? 1 : m + 1;
    this.monthEnd = daysFromCivil(ny, nm, 1) * DAY_MS - off;
  }

  private closeDay(equity: number): void {
    const r = this.dayStartEquity > 0 ? equity / this.dayStartEquity - 1 : 0;
    this.dailyCount++;
    this.dailySum += r;
    this.dailySumSq += r * r;
    if (r < 0) this.dailyDownSq += r * r;
    this.dayStartEquity = equity;
  }

  private closeMonth(equity: number): void {
    this.monthly.push({ month: this.monthLabel, return: this.monthStartEquity > 0 ? equity / this.monthStartEquity - 1 : 0 });
    this.monthStartEquity = equity;
  }

  /** Closes the open day and month at the final equity and returns the ratios. */
  finish(
    finalEquity: number,
    durationMs: number,
    maxDrawdown: number,
    periodsPerYear: number,
  ): { annualisedReturn: number; sharpe: number; sortino: number; calmar: number } {
    if (this.started) {
      this.closeDay(finalEquity);
      this.closeMonth(finalEquity);
      this.started = false;
    }
    const years = durationMs / (365.25 * DAY_MS);
    const growth = finalEquity / this.opts.capital;
    const annualisedReturn = years > 0 ? (growth > 0 ? growth ** (1 / years) - 1 : -1) : 0;
    const n = this.dailyCount;
    const mean = n > 0 ? this.dailySum / n : 0;
    const variance = n > 1 ? (this.dailySumSq - n * mean * mean) / (n - 1) : 0;
    const sd = variance > 0 ? Math.sqrt(variance) : 0;
    const downside = n > 0 ? Math.sqrt(this.dailyDownSq / n) : 0;
    const sqrtP = Math.sqrt(periodsPerYear);
    return {
      annualisedReturn,
      sharpe: sd > 0 ? (mean / sd) * sqrtP : 0,
      sortino: downside > 0 ? (mean / downside) * sqrtP : 0,
      calmar: maxDrawdown > 0 ? annualisedReturn / maxDrawdown : 0,
    };
  }
}

// From strategy parameters to the run settings of the engine (BacktestConfig fields), in one place
// for the command line, the workers and the tests.
import type { Instrument } from '@lq/engine';
import { INTERVALS, fixedOffsetMinutes, parseIsoMs } from './schema';
import type { CommonParams, IntervalName } from './schema';

/** Fee defaults when the parameters give none: crypto maker 0.02 % / taker 0.05 %, forex none (spread). */
export const DEFAULT_FEES = { crypto: { maker: 0.0002, taker: 0.0005 }, forex: { maker: 0, taker: 0 } } as const;

const INTERVAL_MS: Record<IntervalName, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};
export function intervalMsOf(interval: IntervalName): number {
  return INTERVAL_MS[interval];
}
export { INTERVALS };

/**
 * Minutes east of UTC of a timezone at an instant: fixed offsets directly, IANA names through Intl
 * (the offset at `atMs`; the engine uses one offset per run).
 */
export function utcOffsetMinutes(timezone: string, atMs: number): number {
  const fixed = fixedOffsetMinutes(timezone);
  if (fixed !== null) return fixed;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(atMs);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = parseIsoMs(`${get('year')}-${pad(get('month'))}-${pad(get('day'))}T${pad(get('hour'))}:${pad(get('minute'))}Z`);
  const atMinute = Math.floor(atMs / 60_000) * 60_000;
  return Math.round((local - atMinute) / 60_000);
}

export interface RunSettings {
  readonly capital: number;
  readonly leverage: number;
  readonly makerFee: number;
  readonly takerFee: number;
  readonly spreadPoints: number | undefined;
  /** Undefined: decide on the data's own interval. */
  readonly intervalMs: number | undefined;
  readonly utcOffsetMinutes: number;
  readonly fromMs: number | undefined;
  readonly toMs: number | undefined;
}

/**
 * The BacktestConfig fields that come from the parameters. `start` / `end` without an offset are
 * wall-clock times of `timezone`; `end` is inclusive of its whole day when it is a date only.
 */
export function runSettings(params: CommonParams, instrument: Instrument): RunSettings {
  const fees = DEFAULT_FEES[instrument.market];
  const startWall = params.start === undefined ? NaN : parseIsoMs(params.start);
  const offset = utcOffsetMinutes(params.timezone, Number.isNaN(startWall) ? 0 : startWall);
  const toUtc = (text: string | undefined, endOfDay: boolean): number | undefined => {
    if (text === undefined) return undefined;
    const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(text.trim()) && text.includes('T');
    const ms = parseIsoMs(text) + (endOfDay && text.trim().length === 10 ? 86_400_000 : 0);
    return hasZone ? ms : ms - offset * 60_000;
  };
  return {
    capital: params.capital,
    leverage: params.leverage,
    makerFee: params.makerFee ?? fees.maker,
    takerFee: params.takerFee ?? fees.taker,
    spreadPoints: instrument.market === 'forex' ? params.spread : undefined,
    intervalMs: params.interval === undefined ? undefined : intervalMsOf(params.interval),
    utcOffsetMinutes: offset,
    fromMs: toUtc(params.start, false),
    toMs: toUtc(params.end, true),
  };
}

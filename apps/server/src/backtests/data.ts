// Which stored candle series a backtest or recommendation runs on (apps/server/src/market/store.ts).
import { intervalToMs } from '@lq/engine';
import type { DatabaseHandle } from '@lq/db';
import { isLiveSource, listSeries, type SeriesKey } from '../market';

/** Candle sources of the crypto market; every other source holds forex / CFD data. */
const CRYPTO_SOURCES = ['binance', 'okx'];

export interface ResolvedSeries extends SeriesKey {
  readonly intervalMs: number;
  readonly firstTime: number;
  /** Open time of the last candle. */
  readonly lastTime: number;
  /** The part of the wanted range the series covers, [fromMs, toMs). */
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * The imported series of `symbol` for a market, whatever range they cover (for error messages).
 * Candles recorded live by the runner are not backtest data.
 */
export async function seriesOf(database: DatabaseHandle, market: 'crypto' | 'forex', symbol: string) {
  const all = await listSeries(database);
  return all.filter(
    (s) =>
      s.symbol === symbol &&
      !isLiveSource(s.source) &&
      s.count > 0 &&
      (market === 'crypto') === CRYPTO_SOURCES.includes(s.source) &&
      isInterval(s.timeframe),
  );
}

function isInterval(tf: string): boolean {
  try {
    intervalToMs(tf);
    return true;
  } catch {
    return false;
  }
}

/**
 * The series covering most of [fromMs, toMs) (ties within a day: the finer timeframe, then the
 * preferred source: binance before okx), or null when none overlaps the range.
 */
export async function resolveSeries(
  database: DatabaseHandle,
  market: 'crypto' | 'forex',
  symbol: string,
  fromMs: number,
  toMs: number,
): Promise<{ best: ResolvedSeries | null; available: { source: string; timeframe: string; firstTime: number; lastTime: number }[] }> {
  const series = await seriesOf(database, market, symbol);
  const candidates = series
    .map((s) => {
      const intervalMs = intervalToMs(s.timeframe);
      const from = Math.max(fromMs, s.firstTime);
      const to = Math.min(toMs, s.lastTime + intervalMs);
      return { ...s, intervalMs, fromMs: from, toMs: to, covered: Math.max(0, to - from) };
    })
    .filter((s) => s.covered > 0);
  const DAY = 86_400_000;
  candidates.sort((a, b) => {
    const byCover = Math.floor(b.covered / DAY) - Math.floor(a.covered / DAY);
    if (byCover !== 0) return byCover;
    if (a.intervalMs !== b.intervalMs) return a.intervalMs - b.intervalMs;
    return CRYPTO_SOURCES.indexOf(a.source) - CRYPTO_SOURCES.indexOf(b.source) || b.count - a.count;
  });
  const best = candidates[0];
  return {
    best: best
      ? {
          source: best.source,
          symbol: best.symbol,
          timeframe: best.timeframe,
          intervalMs: best.intervalMs,
          firstTime: best.firstTime,
          lastTime: best.lastTime,
          fromMs: best.fromMs,
          toMs: best.toMs,
        }
      : null,
    available: series.map((s) => ({ source: s.source, timeframe: s.timeframe, firstTime: s.firstTime, lastTime: s.lastTime })),
  };
}

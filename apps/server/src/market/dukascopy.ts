// Forex candle importer through dukascopy-node: its URL generator, buffer fetcher and decoder, with
// our own fetcher so the data API's origin can be moved (a proxy, or the stand-in of the tests).
// Incremental (only the store's missing ranges), resumable (cursor), with progress; an unreachable
// data feed marks the run failed with a plain message and never throws out of a job.
import type { FastifyBaseLogger } from 'fastify';
import { getInstrument, intervalToMs } from '@lq/engine';
import type { DatabaseHandle } from '@lq/db';
import { createImportRun, getImportRun, MarketImportError, normaliseSeriesKey, updateImportRun } from './imports';
import { missingRanges, monthStart, nextMonth, writeCandles, type SeriesKey } from './store';
import { ohlcvRowsToCandles } from './ohlcv';

/** Our timeframe → dukascopy-node's. */
const TIMEFRAMES = { '1m': 'm1', '5m': 'm5', '15m': 'm15', '30m': 'm30', '1h': 'h1', '4h': 'h4', '1d': 'd1' } as const;

export interface DukascopyImportRequest {
  /** A forex symbol of the instrument catalog: EURUSD, GBPUSD, USDJPY, XAUUSD. */
  symbol: string;
  timeframe: string;
  fromMs: number;
  toMs: number;
  /** Origin of the data API instead of dukascopy-node's (e.g. http://127.0.0.1:9000). */
  apiOrigin?: string | undefined;
}

/** Records a queued `dukascopy` run (source `dukascopy`, bid prices). */
export async function createDukascopyRun(database: DatabaseHandle, request: DukascopyImportRequest): Promise<number> {
  const key = normaliseSeriesKey({ source: 'dukascopy', symbol: request.symbol, timeframe: request.timeframe });
  let market: string;
  try {
    market = getInstrument(key.symbol).market;
  } catch (e) {
    throw new MarketImportError((e as Error).message);
  }
  if (market !== 'forex') throw new MarketImportError(`${key.symbol}: dukascopy imports forex symbols only`);
  if (!(Number.isFinite(request.fromMs) && Number.isFinite(request.toMs) && request.toMs > request.fromMs)) {
    throw new MarketImportError('the range is empty: "to" must be after "from"');
  }
  if (request.apiOrigin !== undefined && !URL.canParse(request.apiOrigin)) {
    throw new MarketImportError(`api origin "${request.apiOrigin}" is not a URL`);
  }
  return createImportRun(database, {
    kind: 'dukascopy',
    ...key,
    origin: JSON.stringify(request.apiOrigin ? { apiOrigin: new URL(request.apiOrigin).origin } : {}),
    fromMs: request.fromMs,
    toMs: request.toMs,
  });
}

/** A network failure (not an HTTP answer): the feed is unreachable. */
class Unreachable extends Error {}

/**
 * Runs (or resumes) a `dukascopy` run: month by month over the store's missing ranges after the
 * cursor, writing each month and moving the cursor. Never throws.
 */
export async function runDukascopyImport(
  database: DatabaseHandle,
  runId: number,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  options: { timeoutMs?: number; onProgress?: (percent: number, rows: number) => void } = {},
): Promise<{ status: 'done' | 'failed'; rows: number; message?: string }> {
  const run = await getImportRun(database, runId);
  if (!run) return { status: 'failed', rows: 0, message: 'run not found' };
  let rows = run.rows;
  try {
    if (run.fromMs === null || run.toMs === null) throw new MarketImportError('the run has no range');
    const { apiOrigin } = JSON.parse(run.origin ?? '{}') as { apiOrigin?: string };
    const key: SeriesKey = { source: run.source, symbol: run.symbol, timeframe: run.timeframe };
    const step = intervalToMs(key.timeframe);
    const timeframe = TIMEFRAMES[key.timeframe as keyof typeof TIMEFRAMES];
    const toMs = Math.min(run.toMs, Math.floor(Date.now() / step) * step);
    const resumeFrom = run.cursorMs !== null ? Math.max(run.fromMs, run.cursorMs + step) : run.fromMs;
    await updateImportRun(database, run.id, { status: 'running', message: null });
    const ranges = await missingRanges(database, key, resumeFrom, toMs);
    const total = ranges.reduce((s, r) => s + (r.toMs - r.fromMs), 0);
    let done = 0;
    const progress = () => Math.floor((100 * done) / Math.max(1, total));
    if (ranges.length > 0) {
      const duka = await import('dukascopy-node');
      const timeoutMs = options.timeoutMs ?? 20_000;
      const fetcherFn = async (url: string): Promise<Buffer> => {
        const target = apiOrigin && url.startsWith(duka.URL_ROOT) ? new URL(duka.URL_ROOT).pathname.replace(/\/$/, '') : undefined;
        const real = target !== undefined ? `${apiOrigin}${target}${url.slice(duka.URL_ROOT.length)}` : url;
        let res: Response;
        try {
          res = await fetch(real, { signal: AbortSignal.timeout(timeoutMs) });
        } catch (e) {
          const cause = (e as { cause?: { code?: string } }).cause?.code;
          throw new Unreachable(cause ? `${(e as Error).message} (${cause})` : (e as Error).message);
        }
        if (res.status === 404) return Buffer.alloc(0); // no data for that period
        if (res.status !== 200) throw new Unreachable(`HTTP ${res.status} for ${new URL(real).pathname}`);
        return Buffer.from(await res.arrayBuffer());
      };
      const instrument = key.symbol.toLowerCase() as Parameters<typeof duka.generateUrls>[0]['instrument'];
      for (const range of ranges) {
        // Month windows: a few requests each, one store write, one cursor move.
        for (let from = range.fromMs; from < range.toMs; ) {
          const until = Math.min(range.toMs, nextMonth(monthStart(from)));
          const urls = duka.generateUrls({
            instrument,
            timeframe,
            priceType: 'bid',
            startDate: new Date(from),
            endDate: new Date(until),
          });
          const fetcher = new duka.BufferFetcher({ batchSize: 4, pauseBetweenBatchesMs: 0, fetcherFn });
          const buffers = await fetcher.fetch(urls);
          const data = duka.processData({
            instrument,
            requestedTimeframe: timeframe,
            bufferObjects: buffers,
            priceType: 'bid',
            volumes: true,
            volumeUnits: 'millions',
            ignoreFlats: true,
          });
          const candles = ohlcvRowsToCandles(data, step, from, until);
          if (candles.length > 0) rows += (await writeCandles(database, key, candles)).written;
          done += until - from;
          from = until;
          await updateImportRun(database, run.id, { progress: progress(), rows, cursorMs: until - step });
          options.onProgress?.(progress(), rows);
        }
      }
    }
    await updateImportRun(database, run.id, { status: 'done', progress: 100, rows, message: null });
    log.info({ symbol: key.symbol, timeframe: key.timeframe, rows, ranges: ranges.length }, 'market data: dukascopy import done');
    return { status: 'done', rows };
  } catch (e) {
    const first = String((e as Error).message ?? e).split('\n')[0].slice(0, 300);
    const message =
      e instanceof Unreachable
        ? `dukascopy is unreachable: ${first}`
        : e instanceof MarketImportError
          ? first
          : `dukascopy import failed: ${first}`;
    await updateImportRun(database, run.id, { status: 'failed', rows, message }).catch(() => undefined);
    log.warn({ runId: run.id, symbol: run.symbol, timeframe: run.timeframe }, `market data: ${message}`);
    return { status: 'failed', rows, message };
  }
}

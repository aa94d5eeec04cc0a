// Crypto candle importer through ccxt `fetchOHLCV`: Binance USDⓈ-M (`binanceusdm`) and OKX swaps.
// Incremental (only the store's missing ranges), resumable (cursor in market_imports), with progress;
// an unreachable exchange marks the run failed with a plain message and never throws out of a job.
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { intervalToMs } from '@lq/engine';
import type { DatabaseHandle } from '@lq/db';
import {
  createImportRun,
  getImportRun,
  MarketImportError,
  normaliseSeriesKey,
  updateImportRun,
} from './imports';
import { missingRanges, writeCandles, type SeriesKey } from './store';
import { ohlcvRowsToCandles } from './ohlcv';

export const EXCHANGES = ['binance', 'okx'] as const;
export type ExchangeName = (typeof EXCHANGES)[number];

/** What to import: one USDT perpetual, one timeframe, [fromMs, toMs). */
export interface ExchangeImportRequest {
  exchange: ExchangeName;
  /** Our symbol, e.g. BTCUSDT (the USDT-margined perpetual BTC/USDT:USDT). */
  symbol: string;
  timeframe: string;
  fromMs: number;
  toMs: number;
  /**
   * Origin of the exchange's REST API instead of the public one (a proxy, or a stand-in in tests),
   * e.g. http://127.0.0.1:9000. Every `urls.api` entry of ccxt is moved to it.
   */
  apiOrigin?: string | undefined;
}

/** pg-boss job data: the run holds everything else (in `origin`, `from_ms`, `to_ms`, `cursor_ms`). */
export interface ExchangeImportJob {
  runId: number;
}

interface RunOrigin {
  exchange: ExchangeName;
  market: string;
  apiOrigin?: string;
}

/** BTCUSDT → BTC/USDT:USDT (ccxt's unified symbol of the linear perpetual). */
export function perpetualSymbol(symbol: string): string {
  const s = symbol.toUpperCase();
  if (!/^[A-Z0-9]{2,20}USDT$/.test(s)) {
    throw new MarketImportError(`${symbol}: only USDT perpetuals (symbols ending in USDT) can be imported from exchanges`);
  }
  return `${s.slice(0, -4)}/USDT:USDT`;
}

/** Records a queued run for `request`; returns its id (the job, or `runExchangeImport`, does the work). */
export async function createExchangeRun(database: DatabaseHandle, request: ExchangeImportRequest): Promise<number> {
  if (!(EXCHANGES as readonly string[]).includes(request.exchange)) {
    throw new MarketImportError(`exchange must be one of ${EXCHANGES.join(', ')} (got "${request.exchange}")`);
  }
  const key = normaliseSeriesKey({ source: request.exchange, symbol: request.symbol, timeframe: request.timeframe });
  if (!(Number.isFinite(request.fromMs) && Number.isFinite(request.toMs) && request.toMs > request.fromMs)) {
    throw new MarketImportError('the range is empty: "to" must be after "from"');
  }
  if (request.apiOrigin !== undefined && !URL.canParse(request.apiOrigin)) {
    throw new MarketImportError(`api origin "${request.apiOrigin}" is not a URL`);
  }
  const origin: RunOrigin = {
    exchange: request.exchange,
    market: perpetualSymbol(key.symbol),
    ...(request.apiOrigin ? { apiOrigin: new URL(request.apiOrigin).origin } : {}),
  };
  return createImportRun(database, {
    kind: 'ccxt',
    ...key,
    origin: JSON.stringify(origin),
    fromMs: request.fromMs,
    toMs: request.toMs,
  });
}

/** Records a run and hands it to the worker as a pg-boss job. */
export async function queueExchangeImport(
  boss: PgBoss,
  database: DatabaseHandle,
  request: ExchangeImportRequest,
  queue: string,
): Promise<number> {
  const runId = await createExchangeRun(database, request);
  await boss.send(queue, { runId } satisfies ExchangeImportJob);
  return runId;
}

// ---------------------------------------------------------------- ccxt

interface OhlcvClient {
  loadMarkets(): Promise<unknown>;
  fetchOHLCV(symbol: string, timeframe: string, since?: number, limit?: number, params?: Record<string, unknown>): Promise<number[][]>;
  close?: () => Promise<unknown>;
}

/** Candles per request: Binance answers up to 1000 klines, OKX up to 300 (history) candles. */
const PAGE: Record<ExchangeName, number> = { binance: 1000, okx: 300 };

async function makeClient(exchange: ExchangeName, apiOrigin: string | undefined, timeoutMs: number): Promise<OhlcvClient> {
  const ccxt = await import('ccxt');
  const common = { enableRateLimit: true, timeout: timeoutMs };
  const client =
    exchange === 'binance'
      ? new ccxt.binanceusdm({ ...common, options: { fetchCurrencies: false, defaultType: 'swap' } })
      : new ccxt.okx({ ...common, options: { fetchMarkets: { types: ['swap'] }, defaultType: 'swap' } });
  if (apiOrigin) {
    const api = client.urls.api as unknown as Record<string, string>;
    for (const [name, value] of Object.entries(api)) {
      if (typeof value === 'string' && URL.canParse(value)) {
        const u = new URL(value);
        api[name] = `${apiOrigin}${u.pathname === '/' ? '' : u.pathname}`;
      }
    }
  }
  return client as unknown as OhlcvClient;
}

/** A plain, one-line reason for a failed run (ccxt messages can carry whole HTTP bodies). */
function plainReason(exchange: string, e: unknown, networkErrorClass: (new (...a: never[]) => Error) | undefined): string {
  const err = e as Error;
  const first = String(err.message ?? err).split('\n')[0].slice(0, 300);
  if (networkErrorClass && err instanceof networkErrorClass) return `${exchange} is unreachable: ${first}`;
  if (err instanceof MarketImportError) return first;
  return `${exchange} import failed: ${first}`;
}

export interface RunExchangeOptions {
  /** Per-request timeout (default 15 s). */
  timeoutMs?: number;
  onProgress?: (percent: number, rows: number) => void;
}

/**
 * Runs (or resumes) an exchange import run: fetches only the ranges the store lacks, after the
 * run's cursor, page by page, writing each page and moving the cursor. Never throws: a failure
 * marks the run failed with a plain message and is logged.
 */
export async function runExchangeImport(
  database: DatabaseHandle,
  job: ExchangeImportJob,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  options: RunExchangeOptions = {},
): Promise<{ status: 'done' | 'failed'; rows: number; message?: string }> {
  const run = await getImportRun(database, job.runId);
  if (!run) {
    log.warn(`market data: import run ${job.runId} not found`);
    return { status: 'failed', rows: 0, message: 'run not found' };
  }
  let rows = run.rows;
  let networkErrorClass: (new (...a: never[]) => Error) | undefined;
  try {
    if (run.fromMs === null || run.toMs === null || !run.origin) throw new MarketImportError('the run has no range or origin');
    const origin = JSON.parse(run.origin) as RunOrigin;
    const key: SeriesKey = { source: run.source, symbol: run.symbol, timeframe: run.timeframe };
    const step = intervalToMs(key.timeframe);
    // Never ask for candles that are not closed yet.
    const toMs = Math.min(run.toMs, Math.floor(Date.now() / step) * step);
    const resumeFrom = run.cursorMs !== null ? Math.max(run.fromMs, run.cursorMs + step) : run.fromMs;
    await updateImportRun(database, run.id, { status: 'running', message: null });
    const ranges = await missingRanges(database, key, resumeFrom, toMs);
    const total = ranges.reduce((s, r) => s + (r.toMs - r.fromMs), 0);
    let done = 0;
    const progress = () => Math.floor((100 * done) / Math.max(1, total));
    if (ranges.length > 0) {
      const ccxt = await import('ccxt');
      networkErrorClass = ccxt.NetworkError;
      const client = await makeClient(origin.exchange, origin.apiOrigin, options.timeoutMs ?? 15_000);
      await client.loadMarkets();
      const limit = PAGE[origin.exchange];
      for (const range of ranges) {
        let since = range.fromMs;
        while (since < range.toMs) {
          const until = Math.min(range.toMs, since + limit * step);
          const page = await client.fetchOHLCV(origin.market, key.timeframe, since, limit, { until: until - 1 });
          const candles = ohlcvRowsToCandles(page, step, since, until);
          if (candles.length > 0) rows += (await writeCandles(database, key, candles)).written;
          // No candles in this window (an exchange outage, or before listing): move on past it.
          done += until - since;
          since = until;
          await updateImportRun(database, run.id, { progress: progress(), rows, cursorMs: until - step });
          options.onProgress?.(progress(), rows);
        }
      }
    }
    await updateImportRun(database, run.id, { status: 'done', progress: 100, rows, message: null });
    log.info(
      { exchange: origin.exchange, symbol: key.symbol, timeframe: key.timeframe, rows, ranges: ranges.length },
      'market data: exchange import done',
    );
    return { status: 'done', rows };
  } catch (e) {
    const message = plainReason(run.source, e, networkErrorClass);
    await updateImportRun(database, run.id, { status: 'failed', rows, message }).catch(() => undefined);
    log.warn({ runId: run.id, symbol: run.symbol, timeframe: run.timeframe }, `market data: ${message}`);
    return { status: 'failed', rows, message };
  }
}


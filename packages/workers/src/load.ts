// Loading candle files on the Node side: gzip by magic bytes, format detected by the engine's parser,
// binary cache in front.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseCandlesCsv, type Candles, type CandleFormat } from '@lq/engine';
import { cachePathFor, readCache, writeCache } from './cache';

export interface LoadOptions {
  /** Use and fill the binary cache (default true). */
  cache?: boolean;
  cacheDir?: string;
  intervalMs?: number;
}

export interface LoadedCandles {
  candles: Candles;
  source: 'cache' | 'parsed';
  format: CandleFormat | 'cache';
  seconds: number;
}

export class CandleFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CandleFileError';
  }
}

/** Decodes a file's bytes to text, gunzipping when it starts with the gzip magic number. */
export function candleFileText(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new CandleFileError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch (e) {
      throw new CandleFileError(`${path}: not a valid gzip file (${(e as Error).message})`);
    }
  }
  // latin1 is a byte→char copy (fast); candle files are ASCII.
  return bytes.toString('latin1');
}

export function loadCandlesFileDetailed(path: string, opts: LoadOptions = {}): LoadedCandles {
  const t0 = performance.now();
  const useCache = opts.cache ?? true;
  let cacheFile: string | null = null;
  if (useCache) {
    try {
      cacheFile = cachePathFor(path, opts.cacheDir);
    } catch (e) {
      throw new CandleFileError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const cached = readCache(cacheFile);
    if (cached && (opts.intervalMs === undefined || cached.intervalMs === opts.intervalMs)) {
      return { candles: cached, source: 'cache', format: 'cache', seconds: (performance.now() - t0) / 1000 };
    }
  }
  const text = candleFileText(path);
  let parsed;
  try {
    parsed = parseCandlesCsv(text, opts.intervalMs);
  } catch (e) {
    throw new CandleFileError(`${path}: ${(e as Error).message}`);
  }
  const { format, ...candles } = parsed;
  if (cacheFile) writeCache(cacheFile, candles);
  return { candles, source: 'parsed', format, seconds: (performance.now() - t0) / 1000 };
}

/** Loads a candle CSV / CSV.gz (common, Binance kline or MT5 format), through the binary cache. */
export function loadCandlesFile(path: string, opts: LoadOptions = {}): Candles {
  return loadCandlesFileDetailed(path, opts).candles;
}

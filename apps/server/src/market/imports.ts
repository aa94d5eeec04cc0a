// Import runs (market_imports) and the file importer: CSV / CSV.gz in the common format, Binance
// kline dumps and MT5 history exports, merged into the candle store month by month with progress.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { INTERVAL_MS, intervalName, sliceRows, type Candles } from '@lq/engine';
import { and, desc, eq, inArray, marketImports, type DatabaseHandle } from '@lq/db';
import { loadCandlesFile } from '@lq/workers';
import { monthStart, nextMonth, writeCandles, type SeriesKey } from './store';

export type ImportKind = 'file' | 'ccxt' | 'dukascopy';
export type ImportStatus = 'queued' | 'running' | 'done' | 'failed';

export interface ImportRun {
  id: number;
  kind: string;
  source: string;
  symbol: string;
  timeframe: string;
  status: string;
  progress: number;
  rows: number;
  fromMs: number | null;
  toMs: number | null;
  cursorMs: number | null;
  origin: string | null;
  message: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A problem with the input of an import (bad name, bad file, bad option): shown as is. */
export class MarketImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarketImportError';
  }
}

export const TIMEFRAMES = Object.keys(INTERVAL_MS);
const SOURCE_FORMAT = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const SYMBOL_FORMAT = /^[A-Z0-9]{2,24}$/;

/** Checks and normalises a series key (source lower-case, symbol upper-case, known timeframe). */
export function normaliseSeriesKey(key: SeriesKey): SeriesKey {
  const source = key.source.trim().toLowerCase();
  const symbol = key.symbol.trim().toUpperCase().replace(/[-/_:]/g, '');
  const timeframe = key.timeframe.trim();
  if (!SOURCE_FORMAT.test(source)) {
    throw new MarketImportError(`source "${key.source}" must be letters, digits, - or _ (at most 32)`);
  }
  if (!SYMBOL_FORMAT.test(symbol)) throw new MarketImportError(`symbol "${key.symbol}" is not a symbol such as BTCUSDT or EURUSD`);
  if (!TIMEFRAMES.includes(timeframe)) {
    throw new MarketImportError(`timeframe "${key.timeframe}" must be one of ${TIMEFRAMES.join(', ')}`);
  }
  return { source, symbol, timeframe };
}

// ---------------------------------------------------------------- runs

export async function createImportRun(
  database: DatabaseHandle,
  run: SeriesKey & {
    kind: ImportKind;
    status?: ImportStatus;
    origin?: string;
    fromMs?: number;
    toMs?: number;
    cursorMs?: number;
    message?: string;
  },
): Promise<number> {
  const [row] = await database.db
    .insert(marketImports)
    .values({ status: 'queued', ...run })
    .returning({ id: marketImports.id });
  return row.id;
}

export async function updateImportRun(
  database: DatabaseHandle,
  id: number,
  patch: Partial<{
    status: ImportStatus;
    progress: number;
    rows: number;
    cursorMs: number | null;
    fromMs: number | null;
    toMs: number | null;
    message: string | null;
    source: string;
    symbol: string;
    timeframe: string;
  }>,
): Promise<void> {
  const values = { ...patch, updatedAt: new Date() };
  if (values.progress !== undefined) values.progress = Math.max(0, Math.min(100, Math.round(values.progress)));
  await database.db.update(marketImports).set(values).where(eq(marketImports.id, id));
}

export async function getImportRun(database: DatabaseHandle, id: number): Promise<ImportRun | undefined> {
  const [row] = await database.db.select().from(marketImports).where(eq(marketImports.id, id));
  return row;
}

/** The newest import runs, newest first. */
export async function latestImportRuns(database: DatabaseHandle, limit = 20): Promise<ImportRun[]> {
  return database.db.select().from(marketImports).orderBy(desc(marketImports.id)).limit(limit);
}

/**
 * Marks queued / running runs whose last sign of life is older than `staleMs` as failed (their
 * process died); returns how many. A live run updates its row at least every few seconds.
 */
export async function failStaleRuns(database: DatabaseHandle, staleMs = 30 * 60_000): Promise<number> {
  const rows = await database.exec<{ id: number }>(
    `update market_imports set status = 'failed', message = 'interrupted (the process running it stopped)', updated_at = now()
      where status in ('queued', 'running') and updated_at < now() - ($1::int * interval '1 millisecond')
      returning id`,
    [staleMs],
  );
  return rows.length;
}

// ---------------------------------------------------------------- file import

/** Candle file names this importer understands. */
export const CANDLE_FILE = /\.csv(\.gz)?$/i;

/**
 * Series key parts from a file name: `binance_BTCUSDT_1m.csv.gz` → binance / BTCUSDT / 1m;
 * `BTCUSDT-1m-2024-01-01.csv` (Binance dumps) → BTCUSDT / 1m; `EURUSD_M1.csv` and
 * `EURUSD_M1_202401020000_202412312359.csv` (MT5) → EURUSD / 1m.
 */
export function inferSeriesFromFileName(file: string): Partial<SeriesKey> {
  const base = path.basename(file).replace(/\.csv(\.gz)?$/i, '').replace(/\.gz$/i, '');
  const tf = (s: string | undefined): string | undefined => {
    if (!s) return undefined;
    const mt5 = /^([MHD])(\d+)$/i.exec(s);
    const t = mt5
      ? `${mt5[2]}${{ M: 'm', H: 'h', D: 'd' }[mt5[1].toUpperCase() as 'M' | 'H' | 'D']}`
      : s.toLowerCase();
    return TIMEFRAMES.includes(t) ? t : undefined;
  };
  let m = /^([a-z0-9-]+)_([A-Za-z0-9]+)_(\w+)$/i.exec(base);
  if (m && tf(m[3])) return { source: m[1].toLowerCase(), symbol: m[2].toUpperCase(), timeframe: tf(m[3]) };
  m = /^([A-Za-z0-9]+)-(\w+?)(?:-\d{4}-\d{2}(?:-\d{2})?)?$/.exec(base);
  if (m && tf(m[2])) return { symbol: m[1].toUpperCase(), timeframe: tf(m[2]) };
  // MT5's own export name: EURUSD_M1_202401020000_202412312359
  m = /^([A-Za-z0-9]+)_([MHD]\d+)_\d{8,14}_\d{8,14}$/i.exec(base);
  if (m && tf(m[2])) return { symbol: m[1].toUpperCase(), timeframe: tf(m[2]) };
  m = /^([A-Za-z0-9]+)_(\w+)$/.exec(base);
  if (m && tf(m[2])) return { symbol: m[1].toUpperCase(), timeframe: tf(m[2]) };
  return {};
}

/** Identity of a file version: an import of the same path, size and mtime is not repeated. */
export function fileOrigin(file: string): string {
  const abs = path.resolve(file);
  let st;
  try {
    st = statSync(abs);
  } catch (e) {
    throw new MarketImportError(`cannot read ${abs}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!st.isFile()) throw new MarketImportError(`${abs} is not a file`);
  return JSON.stringify({ path: abs, size: st.size, mtimeMs: Math.trunc(st.mtimeMs) });
}

export interface FileImportOptions {
  file: string;
  source?: string | undefined;
  symbol?: string | undefined;
  timeframe?: string | undefined;
  /** An existing run to report into (queued by the directory scan); a new one otherwise. */
  runId?: number;
  onProgress?: (percent: number, rows: number) => void;
}

export interface FileImportResult {
  runId: number;
  key: SeriesKey;
  rows: number;
  firstTime: number;
  lastTime: number;
  seconds: number;
}

/** Rows per store write: whole months, about this many rows (progress steps). */
const BATCH_ROWS = 100_000;

/** Month-aligned row ranges of sorted candles, about `BATCH_ROWS` each. */
function monthBatches(c: Candles): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = 0;
  let i = 0;
  while (i < c.length) {
    const end = nextMonth(monthStart(c.time[i]));
    while (i < c.length && c.time[i] < end) i++;
    if (i - from >= BATCH_ROWS || i >= c.length) {
      out.push([from, i]);
      from = i;
    }
  }
  return out;
}

/** Imports one candle file into the store, recorded as a `file` run; failures mark the run failed and rethrow. */
export async function importCandleFile(
  database: DatabaseHandle,
  options: FileImportOptions,
): Promise<FileImportResult> {
  const t0 = performance.now();
  const file = path.resolve(options.file);
  const inferred = inferSeriesFromFileName(file);
  const draft = {
    source: options.source ?? inferred.source ?? 'file',
    symbol: options.symbol ?? inferred.symbol ?? '',
    timeframe: options.timeframe ?? inferred.timeframe ?? '',
  };
  let runId = options.runId;
  const fail = async (message: string) => {
    if (runId !== undefined) await updateImportRun(database, runId, { status: 'failed', message });
    else
      await createImportRun(database, {
        kind: 'file',
        source: draft.source.slice(0, 64),
        symbol: draft.symbol.slice(0, 64) || '?',
        timeframe: draft.timeframe.slice(0, 16) || '?',
        origin: JSON.stringify({ path: file }),
        status: 'failed',
        message,
      });
  };
  try {
    if (!draft.symbol) {
      throw new MarketImportError(
        `cannot tell the symbol from the name ${path.basename(file)}: pass --symbol (names like binance_BTCUSDT_1m.csv.gz are recognised)`,
      );
    }
    const origin = fileOrigin(file);
    const given = options.timeframe ?? inferred.timeframe;
    const preliminary = normaliseSeriesKey({ ...draft, timeframe: given ?? '1m' });
    if (runId === undefined) {
      runId = await createImportRun(database, { kind: 'file', ...preliminary, origin, status: 'running' });
    } else {
      await updateImportRun(database, runId, { status: 'running', progress: 0, message: null });
    }
    options.onProgress?.(0, 0);
    let candles: Candles;
    try {
      candles = loadCandlesFile(file, { cache: false, ...(given ? { intervalMs: INTERVAL_MS[given as keyof typeof INTERVAL_MS] } : {}) });
    } catch (e) {
      throw new MarketImportError((e as Error).message);
    }
    if (candles.length === 0) throw new MarketImportError(`${file}: no candles`);
    const timeframe = given ?? intervalName(candles.intervalMs);
    const key = normaliseSeriesKey({ ...preliminary, timeframe });
    await updateImportRun(database, runId, {
      ...key,
      progress: 10,
      fromMs: candles.time[0],
      toMs: candles.time[candles.length - 1] + candles.intervalMs,
    });
    options.onProgress?.(10, 0);
    let rows = 0;
    for (const [a, b] of monthBatches(candles)) {
      rows += (await writeCandles(database, key, sliceRows(candles, a, b))).written;
      const progress = 10 + (90 * b) / candles.length;
      await updateImportRun(database, runId, { progress, rows, cursorMs: candles.time[b - 1] });
      options.onProgress?.(Math.round(progress), rows);
    }
    await updateImportRun(database, runId, { status: 'done', progress: 100, rows, message: null });
    return {
      runId,
      key,
      rows,
      firstTime: candles.time[0],
      lastTime: candles.time[candles.length - 1],
      seconds: (performance.now() - t0) / 1000,
    };
  } catch (e) {
    await fail((e as Error).message).catch(() => undefined);
    throw e;
  }
}

// ---------------------------------------------------------------- MARKET_DATA_DIR

export interface DirScanResult {
  /** Files queued for import: run id and path. */
  queued: Array<{ runId: number; file: string }>;
  /** Files already imported (or failed before in this same version), left alone. */
  known: string[];
  /** Files whose name gives no symbol, with the reason. */
  skipped: Array<{ file: string; reason: string }>;
}

/**
 * Lists the candle files of `dir` that have no import run for their current path+size+mtime,
 * creates a queued run for each and hands it to `enqueue` (a pg-boss job in the server).
 */
export async function scanMarketDataDir(
  database: DatabaseHandle,
  dir: string,
  enqueue: (job: FileImportJob) => Promise<void>,
): Promise<DirScanResult> {
  const result: DirScanResult = { queued: [], known: [], skipped: [] };
  const abs = path.resolve(dir);
  let names: string[];
  try {
    names = readdirSync(abs).filter((n) => CANDLE_FILE.test(n)).sort();
  } catch (e) {
    throw new MarketImportError(`MARKET_DATA_DIR ${abs}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  await failStaleRuns(database);
  for (const name of names) {
    const file = path.join(abs, name);
    let origin: string;
    try {
      origin = fileOrigin(file);
    } catch (e) {
      result.skipped.push({ file, reason: (e as Error).message });
      continue;
    }
    const existing = await database.db
      .select({ id: marketImports.id })
      .from(marketImports)
      .where(
        and(
          eq(marketImports.kind, 'file'),
          eq(marketImports.origin, origin),
          inArray(marketImports.status, ['queued', 'running', 'done', 'failed']),
        ),
      )
      .limit(1);
    if (existing.length > 0) {
      result.known.push(file);
      continue;
    }
    const inferred = inferSeriesFromFileName(file);
    if (!inferred.symbol) {
      result.skipped.push({ file, reason: 'the name gives no symbol (expected e.g. binance_BTCUSDT_1m.csv.gz)' });
      continue;
    }
    let key: SeriesKey;
    try {
      key = normaliseSeriesKey({ source: inferred.source ?? 'file', symbol: inferred.symbol, timeframe: inferred.timeframe ?? '1m' });
    } catch (e) {
      result.skipped.push({ file, reason: (e as Error).message });
      continue;
    }
    const runId = await createImportRun(database, { kind: 'file', ...key, origin });
    await enqueue({ runId, file });
    result.queued.push({ runId, file });
  }
  return result;
}

/** pg-boss job data of a file import. */
export interface FileImportJob {
  runId: number;
  file: string;
}

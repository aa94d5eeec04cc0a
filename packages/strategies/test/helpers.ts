// Test helpers: real data slices from ../shared/data and hand-made candle series.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gunzipSync } from 'node:zlib';
import { candlesFromRows, getInstrument, parseCandlesCsv, runBacktest, sliceRows } from '@lq/engine';
import type { AiSignal, BacktestConfig, BacktestReport, Candles } from '@lq/engine';
import { getStrategy, runSettings } from '../src/index';
import type { CommonParams } from '../src/index';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const sharedDir = process.env.SHARED_DIR ?? path.resolve(repoRoot, '../shared');

const cache = new Map<string, Candles>();
/** Rows [from, to) of a data file of ../shared/data (parsed once per test file). */
export function loadData(file: string, from = 0, to = Infinity): Candles {
  let all = cache.get(file);
  if (!all) {
    const raw = readFileSync(path.join(sharedDir, 'data', file));
    all = parseCandlesCsv(gunzipSync(raw).toString('utf8'));
    cache.set(file, all);
  }
  return sliceRows(all, from, Math.min(to, all.length));
}

/**
 * The first `rows` rows of a data file, decompressing only the head of the gzip stream (the
 * 1M-row BTCUSDT file would take a second to parse whole).
 */
export function loadHead(file: string, rows: number): Candles {
  const raw = readFileSync(path.join(sharedDir, 'data', file));
  // ~40 bytes per CSV row, compressed about 3:1; take generously and trim.
  const head = raw.subarray(0, Math.min(raw.length, rows * 30 + 4096));
  const text = gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  const all = parseCandlesCsv(complete);
  if (all.length < rows) throw new Error(`${file}: only ${all.length} rows in the head, wanted ${rows}`);
  return sliceRows(all, 0, rows);
}

/** Candles from [open, high, low, close] rows, one per `intervalMs` from `start`. */
export function bars(rows: readonly (readonly [number, number, number, number])[], intervalMs = 60_000, start = Date.UTC(2024, 0, 1)): Candles {
  return candlesFromRows(
    rows.map(([o, h, l, c], i) => ({ time: start + i * intervalMs, open: o, high: h, low: l, close: c, volume: 0 })),
    intervalMs,
  );
}

/** Parses raw parameters, builds the strategy and runs it through the engine's kernel. */
export function backtest(
  type: string,
  raw: Record<string, unknown>,
  candles: Candles,
  extra: Partial<BacktestConfig> = {},
): BacktestReport {
  const def = getStrategy(type);
  const instrument = getInstrument(String(raw.symbol));
  const params = def.schema.parse(raw) as CommonParams;
  const strategy = def.create(params as never, instrument);
  const settings = runSettings(params, instrument);
  return runBacktest(strategy, { instrument, candles, ...settings, ...extra });
}

/** An AI signal series from a list of −1 / 0 / +1 values. */
export function aiSignal(values: readonly number[]): AiSignal {
  return { signal: Float64Array.from(values), probabilityUp: Float64Array.from(values, (v) => 0.5 + v / 4) };
}

/** Trades as compact tuples for golden comparisons: [tag, side, entry, exit, pnl, reason]. */
export function tradeRows(report: BacktestReport): [string, string, number, number, number, string][] {
  return report.trades.map((t) => [t.tag, t.side, t.entryPrice, t.exitPrice, t.pnl, t.reason]);
}

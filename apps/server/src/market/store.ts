// The candle store: one `candle_chunks` row per (source, symbol, timeframe, UTC month) holding the
// month's candles as six little-endian Float64 columns (time, open, high, low, close, volume), each
// `count` × 8 bytes, concatenated in `data`. Writes merge into the month chunks (same time replaced,
// new times inserted, sorted); reads copy the wanted rows straight into Float64Arrays.
import { intervalToMs, lowerBound, type Candles } from '@lq/engine';
import { and, candleChunks, eq, sql, type DatabaseHandle } from '@lq/db';

export interface SeriesKey {
  source: string;
  symbol: string;
  timeframe: string;
}

/**
 * Candles a robot runner records from a venue live are kept under a source of their own
 * (`binance:live`): they never extend or overwrite imported history (`binance`), so data ranges,
 * backtests and recommendations see only what was imported, while tickers and robots see both.
 */
export const liveSourceOf = (venue: string): string => `${venue}:live`;
export const isLiveSource = (source: string): boolean => source.endsWith(':live');

/** A month chunk decoded: columns are views on one aligned copy of the bytes. */
interface Chunk {
  count: number;
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

const COLUMNS = 6;
const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;

/** First instant (ms) of the UTC month containing `ms`. */
export function monthStart(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** First instant (ms) of the UTC month after the one starting at `start`. */
export function nextMonth(start: number): number {
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

// bytea crosses the driver as base64 text (encode/decode in SQL): PGlite's own bytea (de)serializer
// works byte by byte in JavaScript and takes seconds for a year of 1m candles; base64 is native on
// both sides and the same on node-postgres.
const fromBase64 = (text: string): Uint8Array => Buffer.from(text, 'base64');

/** Raw bytea (Buffer from node-postgres, Uint8Array from PGlite) → one aligned Float64Array. */
function toFloat64(bytes: Uint8Array): Float64Array {
  if (bytes.byteLength % 8 !== 0) throw new Error(`candle chunk of ${bytes.byteLength} bytes is not a multiple of 8`);
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  const out = new Float64Array(copy.buffer);
  if (!LITTLE_ENDIAN) {
    const view = new DataView(copy.buffer);
    for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true);
  }
  return out;
}

function decodeChunk(bytes: Uint8Array, count: number): Chunk {
  const all = toFloat64(bytes);
  if (all.length !== count * COLUMNS) {
    throw new Error(`candle chunk holds ${all.length} values, expected ${count * COLUMNS}`);
  }
  const col = (k: number) => all.subarray(k * count, (k + 1) * count);
  return { count, time: col(0), open: col(1), high: col(2), low: col(3), close: col(4), volume: col(5) };
}

function encodeChunk(c: Chunk): Buffer {
  const n = c.count;
  const all = new Float64Array(n * COLUMNS);
  [c.time, c.open, c.high, c.low, c.close, c.volume].forEach((column, k) => all.set(column.subarray(0, n), k * n));
  if (!LITTLE_ENDIAN) {
    const out = Buffer.alloc(all.length * 8);
    for (let i = 0; i < all.length; i++) out.writeDoubleLE(all[i], i * 8);
    return out;
  }
  return Buffer.from(all.buffer, all.byteOffset, all.byteLength);
}

function allocChunk(n: number): Chunk {
  return {
    count: n,
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
}

/** Rows of `c` with indices `idx` (sorted by time), as a chunk. */
function pick(c: Candles, idx: ArrayLike<number>, from: number, to: number): Chunk {
  const out = allocChunk(to - from);
  for (let i = from; i < to; i++) {
    const j = idx[i];
    const k = i - from;
    out.time[k] = c.time[j];
    out.open[k] = c.open[j];
    out.high[k] = c.high[j];
    out.low[k] = c.low[j];
    out.close[k] = c.close[j];
    out.volume[k] = c.volume[j];
  }
  return out;
}

/** Merges two time-sorted chunks; on equal times `incoming` wins. */
function mergeChunks(existing: Chunk, incoming: Chunk): Chunk {
  const out = allocChunk(existing.count + incoming.count);
  let a = 0;
  let b = 0;
  let n = 0;
  const copy = (src: Chunk, i: number) => {
    out.time[n] = src.time[i];
    out.open[n] = src.open[i];
    out.high[n] = src.high[i];
    out.low[n] = src.low[i];
    out.close[n] = src.close[i];
    out.volume[n] = src.volume[i];
    n++;
  };
  while (a < existing.count || b < incoming.count) {
    if (b >= incoming.count) copy(existing, a++);
    else if (a >= existing.count) copy(incoming, b++);
    else if (existing.time[a] < incoming.time[b]) copy(existing, a++);
    else if (existing.time[a] > incoming.time[b]) copy(incoming, b++);
    else {
      copy(incoming, b++);
      a++;
    }
  }
  out.count = n;
  return out;
}

/** Sorted, de-duplicated (last wins) row order of `c`; rejects non-finite or fractional times. */
function sortedOrder(c: Candles): number[] {
  const idx: number[] = [];
  let sorted = true;
  for (let i = 0; i < c.length; i++) {
    const t = c.time[i];
    if (!Number.isFinite(t) || !Number.isInteger(t)) throw new Error(`candle ${i} has an invalid time (${t})`);
    if (i > 0 && t <= c.time[i - 1]) sorted = false;
    idx.push(i);
  }
  if (sorted) return idx;
  idx.sort((x, y) => c.time[x] - c.time[y] || y - x);
  // Keep the last given row of each time (the sort put it first among equals).
  return idx.filter((j, k) => k === 0 || c.time[j] !== c.time[idx[k - 1]]);
}

const keyWhere = (key: SeriesKey) =>
  and(
    eq(candleChunks.source, key.source),
    eq(candleChunks.symbol, key.symbol),
    eq(candleChunks.timeframe, key.timeframe),
  );

/**
 * Merges `candles` into the month chunks of `key`, in one transaction: a time already stored is
 * replaced, new times are inserted, each chunk stays sorted. Idempotent.
 */
export async function writeCandles(
  database: DatabaseHandle,
  key: SeriesKey,
  candles: Candles,
): Promise<{ written: number }> {
  intervalToMs(key.timeframe);
  if (candles.length === 0) return { written: 0 };
  const order = sortedOrder(candles);
  // Month groups of the sorted rows.
  const groups: { start: number; from: number; to: number }[] = [];
  for (let i = 0; i < order.length; ) {
    const start = monthStart(candles.time[order[i]]);
    const end = nextMonth(start);
    let j = i + 1;
    while (j < order.length && candles.time[order[j]] < end) j++;
    groups.push({ start, from: i, to: j });
    i = j;
  }
  await database.db.transaction(async (tx) => {
    for (const g of groups) {
      const incoming = pick(candles, order, g.from, g.to);
      const [row] = await tx
        .select({ count: candleChunks.count, data: sql<string>`encode(${candleChunks.data}, 'base64')` })
        .from(candleChunks)
        .where(and(keyWhere(key), eq(candleChunks.chunkStart, g.start)))
        .for('update');
      const merged = row ? mergeChunks(decodeChunk(fromBase64(row.data), row.count), incoming) : incoming;
      const values = {
        firstTime: merged.time[0],
        lastTime: merged.time[merged.count - 1],
        count: merged.count,
        data: sql`decode(${encodeChunk(merged).toString('base64')}, 'base64')`,
        updatedAt: new Date(),
      };
      await tx
        .insert(candleChunks)
        .values({ ...key, chunkStart: g.start, ...values })
        .onConflictDoUpdate({
          target: [candleChunks.source, candleChunks.symbol, candleChunks.timeframe, candleChunks.chunkStart],
          set: values,
        });
    }
  });
  return { written: order.length };
}

/** Candles of `key` with fromMs ≤ time < toMs, as Float64Array columns (intervalMs from the timeframe). */
export async function loadCandleRange(
  database: DatabaseHandle,
  key: SeriesKey & { fromMs: number; toMs: number },
): Promise<Candles> {
  const intervalMs = intervalToMs(key.timeframe);
  if (!Number.isFinite(key.fromMs) || !Number.isFinite(key.toMs)) {
    throw new RangeError(`candle range bounds must be finite ms (got ${key.fromMs}, ${key.toMs})`);
  }
  const rows =
    key.toMs > key.fromMs
      ? await database.exec<{ count: number; data: string }>(
          `select count, encode(data, 'base64') as data from candle_chunks
            where source = $1 and symbol = $2 and timeframe = $3
              and chunk_start >= $4 and chunk_start < $5 and last_time >= $6 and first_time < $5
            order by chunk_start`,
          [key.source, key.symbol, key.timeframe, monthStart(key.fromMs), key.toMs, key.fromMs],
        )
      : [];
  const parts = rows.map((r) => {
    const c = decodeChunk(fromBase64(r.data), Number(r.count));
    const a = lowerBound(c.time, c.count, key.fromMs);
    const b = lowerBound(c.time, c.count, key.toMs);
    return { c, a, b };
  });
  const total = parts.reduce((s, p) => s + (p.b - p.a), 0);
  const out = allocChunk(total);
  let n = 0;
  for (const { c, a, b } of parts) {
    out.time.set(c.time.subarray(a, b), n);
    out.open.set(c.open.subarray(a, b), n);
    out.high.set(c.high.subarray(a, b), n);
    out.low.set(c.low.subarray(a, b), n);
    out.close.set(c.close.subarray(a, b), n);
    out.volume.set(c.volume.subarray(a, b), n);
    n += b - a;
  }
  return {
    length: total,
    intervalMs,
    time: out.time,
    open: out.open,
    high: out.high,
    low: out.low,
    close: out.close,
    volume: out.volume,
  };
}

/** Every series in the store with its first / last candle time and candle count. */
export async function listSeries(
  database: DatabaseHandle,
): Promise<Array<SeriesKey & { firstTime: number; lastTime: number; count: number }>> {
  const rows = await database.exec<{
    source: string;
    symbol: string;
    timeframe: string;
    first_time: string | number;
    last_time: string | number;
    count: string | number;
  }>(
    `select source, symbol, timeframe, min(first_time) as first_time, max(last_time) as last_time,
            sum(count)::bigint as count
       from candle_chunks group by source, symbol, timeframe order by source, symbol, timeframe`,
  );
  return rows.map((r) => ({
    source: r.source,
    symbol: r.symbol,
    timeframe: r.timeframe,
    firstTime: Number(r.first_time),
    lastTime: Number(r.last_time),
    count: Number(r.count),
  }));
}

/**
 * The open-time ranges [fromMs, toMs) inside [fromMs, toMs) where the store has no candle of `key`
 * (times on the timeframe's grid). Reads only the time column of the chunks involved.
 */
export async function missingRanges(
  database: DatabaseHandle,
  key: SeriesKey,
  fromMs: number,
  toMs: number,
): Promise<Array<{ fromMs: number; toMs: number }>> {
  const step = intervalToMs(key.timeframe);
  const start = Math.ceil(fromMs / step) * step;
  if (!(toMs > start)) return [];
  const rows = await database.exec<{ count: number; times: string }>(
    `select count, encode(substring(data from 1 for count * 8), 'base64') as times from candle_chunks
      where source = $1 and symbol = $2 and timeframe = $3
        and chunk_start >= $4 and chunk_start < $5 and last_time >= $6 and first_time < $5
      order by chunk_start`,
    [key.source, key.symbol, key.timeframe, monthStart(start), toMs, start],
  );
  const out: Array<{ fromMs: number; toMs: number }> = [];
  let expected = start;
  for (const r of rows) {
    const times = toFloat64(fromBase64(r.times));
    for (let i = lowerBound(times, times.length, start); i < times.length; i++) {
      const t = times[i];
      if (t >= toMs) break;
      if (t > expected) out.push({ fromMs: expected, toMs: t });
      if (t + step > expected) expected = t + step;
    }
  }
  if (expected < toMs) out.push({ fromMs: expected, toMs });
  return out;
}

/** Removes every chunk of a series (operator use and tests). */
export async function deleteSeries(database: DatabaseHandle, key: SeriesKey): Promise<void> {
  await database.db.delete(candleChunks).where(keyWhere(key));
}

/**
 * The 1m candles a robot saw, fromMs ≤ time < toMs, in time order as one or two runs: before the
 * runner's recording under the venue's live source (`recorded`) starts, the market's imported
 * history (`history`, read, never extended); then the recording.
 */
export async function loadRecordedRange(database: DatabaseHandle, recorded: SeriesKey, history: SeriesKey | null, fromMs: number, toMs: number): Promise<Candles[]> {
  const live = await loadCandleRange(database, { ...recorded, fromMs, toMs });
  const historyEnd = live.length > 0 ? live.time[0] : toMs;
  if (!history || historyEnd <= fromMs) return [live];
  return [await loadCandleRange(database, { ...history, fromMs, toMs: historyEnd }), live];
}

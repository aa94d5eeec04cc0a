// Tickers of the market page: for each symbol a user can trade on a market, the last price and the
// 24 h change from the candle store (the latest stored candle of the symbol's freshest 1m series and
// the last candle at or before 24 h earlier). The runner's live feed appends live candles into the
// same store, so the figures follow it. Reads only the bytes it needs out of the month chunks (one
// close value; the time column once per new latest candle), see market/store.ts for the layout.
import type { TickerItem, TickerList } from '@lq/contracts';
import type { DatabaseHandle } from '@lq/db';
import { instruments, intervalToMs } from '@lq/engine';
import { listSeries } from '../market';
import type { Market } from './seats';

const DAY_MS = 86_400_000;
/** A "24 h before" candle older than this before the target is no reference (long data gap). */
const MAX_REFERENCE_GAP_MS = 4 * DAY_MS;

const float64At = (base64: string | null | undefined): number | null => {
  if (!base64) return null;
  const b = Buffer.from(base64, 'base64');
  if (b.byteLength !== 8) return null;
  const v = b.readDoubleLE(0);
  return Number.isFinite(v) ? v : null;
};

interface Reference {
  lastTime: number;
  open24h: number | null;
}

/** (source|symbol|timeframe) → the 24 h reference computed for a given latest candle time. */
const references = new WeakMap<DatabaseHandle, Map<string, Reference>>();

function cacheOf(database: DatabaseHandle): Map<string, Reference> {
  let m = references.get(database);
  if (!m) {
    m = new Map();
    references.set(database, m);
  }
  return m;
}

/** Close of the last candle with time ≤ `target` (not older than MAX_REFERENCE_GAP_MS), or null. */
async function closeAtOrBefore(
  database: DatabaseHandle,
  key: { source: string; symbol: string; timeframe: string },
  target: number,
): Promise<number | null> {
  const [chunk] = await database.exec<{ chunk_start: string | number; count: number; times: string }>(
    `select chunk_start, count, encode(substring(data from 1 for count * 8), 'base64') as times from candle_chunks
      where source = $1 and symbol = $2 and timeframe = $3 and first_time <= $4
      order by chunk_start desc limit 1`,
    [key.source, key.symbol, key.timeframe, target],
  );
  if (!chunk) return null;
  const bytes = Buffer.from(chunk.times, 'base64');
  const n = Math.min(Number(chunk.count), Math.floor(bytes.byteLength / 8));
  // Last index with time ≤ target (times are sorted ascending).
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bytes.readDoubleLE(mid * 8) <= target) lo = mid + 1;
    else hi = mid;
  }
  const j = lo - 1;
  if (j < 0 || target - bytes.readDoubleLE(j * 8) > MAX_REFERENCE_GAP_MS) return null;
  const [row] = await database.exec<{ close: string }>(
    `select encode(substring(data from 4 * count * 8 + $5 * 8 + 1 for 8), 'base64') as close from candle_chunks
      where source = $1 and symbol = $2 and timeframe = $3 and chunk_start = $4`,
    [key.source, key.symbol, key.timeframe, Number(chunk.chunk_start), j],
  );
  return float64At(row?.close);
}

/** Every catalog symbol of the market plus any other symbol of the market with candles, sorted. */
export async function tickersOf(database: DatabaseHandle, market: Market): Promise<TickerList> {
  const series = await listSeries(database);
  const symbols = new Set(instruments.filter((i) => i.market === market).map((i) => i.symbol));
  const known = new Map(instruments.map((i) => [i.symbol, i.market]));
  // The freshest series of each symbol, 1m preferred (else the finest timeframe stored).
  const best = new Map<string, (typeof series)[number]>();
  for (const s of series) {
    const m = known.get(s.symbol);
    if (m !== market) continue;
    symbols.add(s.symbol);
    const cur = best.get(s.symbol);
    const better =
      !cur ||
      intervalToMs(s.timeframe) < intervalToMs(cur.timeframe) ||
      (intervalToMs(s.timeframe) === intervalToMs(cur.timeframe) && s.lastTime > cur.lastTime);
    if (better) best.set(s.symbol, s);
  }
  const cache = cacheOf(database);
  const list: TickerItem[] = [];
  for (const symbol of [...symbols].sort()) {
    const s = best.get(symbol);
    if (!s) {
      list.push({ symbol, price: null, open24h: null, change24h: null, at: null, source: null });
      continue;
    }
    const key = { source: s.source, symbol: s.symbol, timeframe: s.timeframe };
    const [last] = await database.exec<{ last_time: string | number; close: string }>(
      `select last_time, encode(substring(data from 4 * count * 8 + (count - 1) * 8 + 1 for 8), 'base64') as close
         from candle_chunks where source = $1 and symbol = $2 and timeframe = $3 order by chunk_start desc limit 1`,
      [key.source, key.symbol, key.timeframe],
    );
    const price = float64At(last?.close);
    const at = last ? Number(last.last_time) : null;
    let open24h: number | null = null;
    if (at !== null && price !== null) {
      const cacheKey = `${key.source}|${key.symbol}|${key.timeframe}`;
      const cached = cache.get(cacheKey);
      if (cached && cached.lastTime === at) open24h = cached.open24h;
      else {
        open24h = await closeAtOrBefore(database, key, at - DAY_MS);
        cache.set(cacheKey, { lastTime: at, open24h });
      }
    }
    const change24h = price !== null && open24h !== null && open24h !== 0 ? Number(((price - open24h) / open24h).toFixed(6)) : null;
    list.push({ symbol, price, open24h, change24h, at: price === null ? null : at, source: s.source });
  }
  return { market, list };
}

/** The latest stored price of a symbol (its ticker), or null when no candle is stored. */
export async function latestPriceOf(database: DatabaseHandle, market: Market, symbol: string): Promise<number | null> {
  const { list } = await tickersOf(database, market);
  return list.find((t) => t.symbol === symbol)?.price ?? null;
}

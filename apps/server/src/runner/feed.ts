// Candle feeds of the runner: closed 1m candles of one (venue, symbol), recorded in the candle
// store under the venue's live source (so the market page, restarts and replays see exactly what
// the robots saw, and imported history is never touched) and kept in memory for the robots here.
import type { DatabaseHandle } from '@lq/db';
import type { Candles } from '@lq/engine';
import { CcxtVenue, type CcxtVenueId } from '@lq/venues';
import { loadCandleRange, loadRecordedRange, writeCandles, type SeriesKey } from '../market';

export const MINUTE = 60_000;

export interface Bar {
  readonly time: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

/** Candle columns as bars, for the strategies' steps. */
export function toBars(c: Candles): Bar[] {
  const out: Bar[] = [];
  for (let i = 0; i < c.length; i++) out.push({ time: c.time[i], open: c.open[i], high: c.high[i], low: c.low[i], close: c.close[i], volume: c.volume[i] });
  return out;
}

/** Where closed 1m candles come from. */
export interface CandleSource {
  /** Closed candles with open time ≥ `sinceMs` (or the latest few when undefined), oldest first. */
  fetchClosed(sinceMs: number | undefined): Promise<Bar[]>;
}

/**
 * A venue's public 1m candles through ccxt (`fetchOHLCV`), from the configured origin (the fake
 * exchange in tests). The newest row a venue returns is the candle still forming: never used.
 */
export class VenueCandleSource implements CandleSource {
  private readonly venue: CcxtVenue;
  constructor(
    venueId: CcxtVenueId,
    private readonly symbol: string,
    origin: string | undefined,
    throttle = true,
  ) {
    this.venue = new CcxtVenue({ venue: venueId, apiKey: '', secret: '', origin, timeoutMs: 10_000, enableRateLimit: throttle });
  }

  async fetchClosed(sinceMs: number | undefined): Promise<Bar[]> {
    const m = await this.venue.market(this.symbol);
    const rows = await this.venue.exchange.fetchOHLCV(m.ccxtSymbol, '1m', sinceMs, sinceMs === undefined ? 5 : 500);
    const bars = rows
      .filter((r) => r[0] !== undefined && r[4] !== undefined)
      .map((r) => ({ time: Number(r[0]), open: Number(r[1]), high: Number(r[2]), low: Number(r[3]), close: Number(r[4]), volume: Number(r[5] ?? 0) }));
    bars.sort((a, b) => a.time - b.time);
    bars.pop(); // still forming
    return bars;
  }
}

/**
 * A replay of candles already in the store (demos, tests, the bench): the candles from `fromMs` are
 * released as a clock passes their close, `speed` times faster than real time.
 */
export class StoreReplaySource implements CandleSource {
  private readonly t0 = Date.now();
  constructor(
    private readonly database: DatabaseHandle,
    private readonly key: SeriesKey,
    private readonly fromMs: number,
    private readonly speed = 1,
  ) {}

  async fetchClosed(sinceMs: number | undefined): Promise<Bar[]> {
    const clock = this.fromMs + (Date.now() - this.t0) * this.speed;
    const from = sinceMs ?? this.fromMs;
    const c = await loadCandleRange(this.database, { ...this.key, fromMs: from, toMs: Math.max(from, clock - MINUTE + 1) });
    const out: Bar[] = [];
    for (let i = 0; i < c.length && out.length < 1000; i++) {
      out.push({ time: c.time[i], open: c.open[i], high: c.high[i], low: c.low[i], close: c.close[i], volume: c.volume[i] });
    }
    return out;
  }
}

/** One series' closed candles: polled from the source, stored, and served to robots from memory. */
export class CandleFeed {
  /** Closed candles held in memory, time-sorted, from `memoryFrom`. */
  private bars: Bar[] = [];
  private polling: Promise<void> | null = null;
  /** Open time of the newest candle stored (or fetched), the next poll's start. */
  private cursor: number | null = null;
  private started = false;
  /** The last poll returned everything up to the venue's forming candle. */
  caughtUp = false;
  lastError: unknown = null;

  constructor(
    private readonly database: DatabaseHandle,
    /** Where the feed records its candles (a live source, see market/store.ts). */
    readonly key: SeriesKey,
    private readonly source: CandleSource,
    /** Keep at most this many candles in memory. */
    private readonly keep = 20_000,
    /** Imported history of the same market, read (never written) before the recording starts. */
    private readonly history?: SeriesKey,
  ) {}

  /** Open time of the newest closed candle known, or null. */
  get newest(): number | null {
    return this.bars.length > 0 ? this.bars[this.bars.length - 1].time : null;
  }

  /** Fetches new closed candles, stores them, appends them. One poll at a time. */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    try {
      if (!this.started) {
        // Go on from the newest candle recorded, else from the end of the imported history.
        this.cursor = (await this.lastTimeOf(this.key)) ?? (this.history ? await this.lastTimeOf(this.history) : null);
        this.started = true;
      }
      const since = this.cursor === null ? undefined : this.cursor + MINUTE;
      const got = (await this.source.fetchClosed(since)).filter((b) => this.cursor === null || b.time > this.cursor);
      this.caughtUp = got.length < 400;
      if (got.length === 0) return;
      this.cursor = got[got.length - 1].time;
      await writeCandles(this.database, this.key, {
        length: got.length,
        intervalMs: MINUTE,
        time: Float64Array.from(got, (b) => b.time),
        open: Float64Array.from(got, (b) => b.open),
        high: Float64Array.from(got, (b) => b.high),
        low: Float64Array.from(got, (b) => b.low),
        close: Float64Array.from(got, (b) => b.close),
        volume: Float64Array.from(got, (b) => b.volume),
      });
      this.bars.push(...got);
      if (this.bars.length > this.keep) this.bars.splice(0, this.bars.length - this.keep);
      this.lastError = null;
    } catch (e) {
      this.lastError = e;
    }
  }

  /** Closed candles with fromMs ≤ time < toMs: from memory when it covers them, else from the store. */
  async range(fromMs: number, toMs: number = Infinity): Promise<Bar[]> {
    const first = this.bars[0];
    if (first && first.time <= fromMs) {
      const out = this.after(fromMs - 1);
      return Number.isFinite(toMs) ? out.filter((b) => b.time < toMs) : out;
    }
    const end = Number.isFinite(toMs) ? toMs : (this.newest ?? fromMs) + MINUTE;
    // Before the recording starts, the imported history of the market (AI warm-up windows).
    return (await loadRecordedRange(this.database, this.key, this.history ?? null, fromMs, end)).flatMap(toBars);
  }

  private async lastTimeOf(key: SeriesKey): Promise<number | null> {
    const [row] = await this.database.exec<{ t: number | string | null }>(
      `select max(last_time) as t from candle_chunks where source = $1 and symbol = $2 and timeframe = $3`,
      [key.source, key.symbol, key.timeframe],
    );
    return row?.t === null || row?.t === undefined ? null : Number(row.t);
  }

  /** Candles after `afterMs` from memory (the live path; empty when memory does not reach back). */
  after(afterMs: number): Bar[] {
    const b = this.bars;
    let lo = 0;
    let hi = b.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (b[mid].time <= afterMs) lo = mid + 1;
      else hi = mid;
    }
    return b.slice(lo);
  }

  /** Puts candles in memory without storing them (the bench and tests feed a feed directly). */
  inject(bars: Bar[]): void {
    for (const x of bars) if (this.newest === null || x.time > this.newest) this.bars.push(x);
    this.caughtUp = true;
  }
}

// Closed 1m candles of a forex symbol from the users' own terminals: the runner's CandleSource for
// exchange 'mt5'. Any online MT5 account whose terminal offers the symbol answers (its broker's
// prices); none online → an error, and the runner's feed tries again at its next poll.
import { Mt5Venue, type Mt5BridgeSession } from '@lq/venues';
import type { Bar, CandleSource } from '../runner';

/** What the candle source needs of the hub (the hub passes itself; no import back). */
export interface OnlineSessions {
  onlineSessions(): Iterable<Mt5BridgeSession>;
  now(): number;
}

export class BridgeCandleSource implements CandleSource {
  constructor(
    private readonly hub: OnlineSessions,
    /** Our symbol (EURUSD). */
    private readonly symbol: string,
    /** Bars asked for when the feed has none yet. */
    private readonly initialMs = 5 * 60_000,
  ) {}

  async fetchClosed(sinceMs: number | undefined): Promise<Bar[]> {
    let lastError: unknown = new Error(`no online MT5 terminal offers ${this.symbol}`);
    for (const session of this.hub.onlineSessions()) {
      try {
        const m = await new Mt5Venue({ session }).market(this.symbol);
        const bars = await session.fetchBars(m.brokerSymbol, sinceMs ?? this.hub.now() - this.initialMs);
        return bars.map(([time, open, high, low, close, volume]) => ({
          time,
          open: Number(open),
          high: Number(high),
          low: Number(low),
          close: Number(close),
          volume: Number(volume),
        }));
      } catch (e) {
        lastError = e;
      }
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }
}

// Trade markers of the K-line: every entry and exit of a window, placed on the bar it falls in.
// Exact while the window holds few enough events to read; above that, bars with several events
// become one group each (count, buys / sells, net result), so a zoomed-out chart shows where the
// robot traded without a wall of arrows, and nothing is dropped.
import { KLINE_EXACT_MARKERS, type KlineMarker, type KlineMarkerGroup } from '@lq/contracts';
import type { StoredTrade } from './compute';

export interface KlineTrade {
  /** Trade number in the order log (1-based). */
  trade: number;
  e: StoredTrade;
}

export interface KlineMarkers {
  markers: KlineMarker[];
  groups: KlineMarkerGroup[];
  eventCount: number;
}

/**
 * Markers of the trades entering or exiting in [from, to). `barOf(at)` is the open time of the bar
 * an event falls in; `price` and `money` round for the wire.
 */
export function klineMarkers(
  trades: readonly KlineTrade[],
  window: { from: number; to: number },
  barOf: (at: number) => number,
  round: { price: (p: number) => number; money: (m: number) => number },
  exactLimit = KLINE_EXACT_MARKERS,
): KlineMarkers {
  const inside = (t: number) => t >= window.from && t < window.to;
  const events: KlineMarker[] = [];
  for (const { trade, e } of trades) {
    const side = e[0] === 0 ? 'long' : 'short';
    if (inside(e[2])) {
      events.push({ time: barOf(e[2]), at: e[2], price: round.price(e[3]), kind: 'entry', side, lots: e[1], trade, pnl: null, reason: null });
    }
    if (inside(e[4])) {
      events.push({ time: barOf(e[4]), at: e[4], price: round.price(e[5]), kind: 'exit', side, lots: e[1], trade, pnl: round.money(e[6]), reason: e[8] });
    }
  }
  events.sort((a, b) => a.at - b.at || a.trade - b.trade);
  if (events.length <= exactLimit) return { markers: events, groups: [], eventCount: events.length };

  const markers: KlineMarker[] = [];
  const groups: KlineMarkerGroup[] = [];
  // Events are sorted by time, so the events of one bar are adjacent.
  for (let i = 0; i < events.length; ) {
    let j = i + 1;
    while (j < events.length && events[j].time === events[i].time) j++;
    if (j - i === 1) markers.push(events[i]);
    else groups.push(groupOf(events.slice(i, j), round.money));
    i = j;
  }
  return { markers, groups, eventCount: events.length };
}

function groupOf(bar: readonly KlineMarker[], money: (m: number) => number): KlineMarkerGroup {
  let entries = 0;
  let buys = 0;
  let pnl = 0;
  let firstTrade = Infinity;
  let lastTrade = -Infinity;
  for (const m of bar) {
    const entry = m.kind === 'entry';
    if (entry) entries++;
    else pnl += m.pnl ?? 0;
    // A long opens with a buy and closes with a sell; a short the other way round.
    if (entry === (m.side === 'long')) buys++;
    firstTrade = Math.min(firstTrade, m.trade);
    lastTrade = Math.max(lastTrade, m.trade);
  }
  return {
    time: bar[0].time,
    count: bar.length,
    entries,
    exits: bar.length - entries,
    buys,
    sells: bar.length - buys,
    pnl: money(pnl),
    firstTrade,
    lastTrade,
  };
}

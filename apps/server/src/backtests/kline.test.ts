import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StoredTrade } from './compute';
import { klineMarkers, type KlineTrade } from './kline';

const HOUR = 3_600_000;
const barOf = (at: number) => Math.floor(at / HOUR) * HOUR;
const round = { price: (p: number) => Math.round(p * 100) / 100, money: (m: number) => Math.round(m * 100) / 100 };
const trade = (n: number, side: 0 | 1, entry: number, exit: number, pnl = 1): KlineTrade => ({
  trade: n,
  e: [side, 1, entry, 100, exit, 101, pnl, 0.1, 'takeProfit'] as StoredTrade,
});

describe('K-line markers', () => {
  it('returns every event of the window exactly while they are few, each on its bar', () => {
    const trades = [trade(1, 0, 10 * HOUR + 5, 12 * HOUR + 7), trade(2, 1, 11 * HOUR, 30 * HOUR)];
    const r = klineMarkers(trades, { from: 10 * HOUR, to: 20 * HOUR }, barOf, round, 10);
    expect(r.eventCount).toBe(3);
    expect(r.groups).toEqual([]);
    expect(r.markers.map((m) => [m.trade, m.kind, m.time])).toEqual([
      [1, 'entry', 10 * HOUR],
      [2, 'entry', 11 * HOUR],
      [1, 'exit', 12 * HOUR],
    ]);
  });

  it('groups bars with several events when dense, keeps single events exact, drops nothing', () => {
    // 30 round trips in hour 0 (60 events), one lone entry in hour 5 whose exit is outside.
    const trades = Array.from({ length: 30 }, (_, i) => trade(i + 1, i % 3 === 0 ? 1 : 0, i * 1000, i * 1000 + 500, i % 2 ? 2 : -1));
    trades.push(trade(31, 0, 5 * HOUR + 1, 50 * HOUR));
    const r = klineMarkers(trades, { from: 0, to: 10 * HOUR }, barOf, round, 20);
    expect(r.eventCount).toBe(61);
    expect(r.groups).toHaveLength(1);
    const [g] = r.groups;
    expect(g).toMatchObject({ time: 0, count: 60, entries: 30, exits: 30, firstTrade: 1, lastTrade: 30 });
    // i % 3 === 0 are shorts (10), the rest longs (20): buys = long entries + short exits = 20 + 10.
    expect(g.buys).toBe(30);
    expect(g.sells).toBe(30);
    expect(g.pnl).toBe(15 * 2 - 15);
    expect(r.markers).toHaveLength(1);
    expect(r.markers[0]).toMatchObject({ trade: 31, kind: 'entry', time: 5 * HOUR });
  });

  it('counts every event of the window in markers or groups, whatever the trades', () => {
    const arbTrade = fc
      .tuple(fc.constantFrom<0 | 1>(0, 1), fc.integer({ min: 0, max: 48 * HOUR }), fc.integer({ min: 0, max: 6 * HOUR }), fc.double({ min: -50, max: 50, noNaN: true }))
      .map(([side, entry, hold, pnl]) => ({ side, entry, exit: entry + hold, pnl }));
    fc.assert(
      fc.property(fc.array(arbTrade, { maxLength: 200 }), fc.integer({ min: 0, max: 40 * HOUR }), fc.integer({ min: HOUR, max: 30 * HOUR }), fc.integer({ min: 0, max: 50 }), (raw, from, span, limit) => {
        const trades = raw.map((t, i) => trade(i + 1, t.side, t.entry, t.exit, t.pnl));
        const window = { from, to: from + span };
        const r = klineMarkers(trades, window, barOf, round, limit);
        const inside = (t: number) => t >= window.from && t < window.to;
        const expected = raw.reduce((n, t) => n + (inside(t.entry) ? 1 : 0) + (inside(t.exit) ? 1 : 0), 0);
        expect(r.eventCount).toBe(expected);
        expect(r.markers.length + r.groups.reduce((n, g) => n + g.count, 0)).toBe(expected);
        if (expected <= limit) expect(r.groups).toEqual([]);
        const groupBars = new Set(r.groups.map((g) => g.time));
        expect(groupBars.size).toBe(r.groups.length);
        for (const g of r.groups) {
          expect(g.count).toBeGreaterThan(1);
          expect(g.buys + g.sells).toBe(g.count);
          expect(g.entries + g.exits).toBe(g.count);
        }
        // A bar is either grouped or holds exact markers, never both.
        for (const m of r.markers) {
          expect(inside(m.at)).toBe(true);
          expect(m.time).toBe(barOf(m.at));
          if (r.groups.length) expect(groupBars.has(m.time)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

import fc from 'fast-check';
import { getInstrument } from '@lq/engine';
import { describe, expect, it } from 'vitest';
import { allowSignal, at, clampQty, closeTag, distance, legOf, needsAi, openTag, orderQty, reached, scaledSizes, sideDirection, StrategyParamError } from '../src/common/runtime';
import { TradingWindow, civilDate, weekday } from '../src/windowed/window';
import { parseIsoMs } from '../src/schemas';

const btc = getInstrument('BTCUSDT');
const eur = getInstrument('EURUSD');
const xau = getInstrument('XAUUSD');
const DAY = 86_400_000;

describe('distances', () => {
  it('crypto distances are percent of price, forex distances are points', () => {
    expect(at(distance(0.5, btc), 40_000)).toBeCloseTo(200, 9);
    expect(at(distance(100, eur), 1.1)).toBeCloseTo(0.001, 12);
    expect(at(distance(100, xau), 1900)).toBeCloseTo(1, 12);
  });
});

describe('sizes', () => {
  it('snaps to the step and rejects sizes below the minimum', () => {
    expect(orderQty(0.257, 'ZHANG', eur, 'firstLots')).toBe(0.25);
    expect(() => orderQty(0.001, 'ZHANG', eur, 'firstLots')).toThrow(StrategyParamError);
  });
  it('converts coins (KE) to contracts', () => {
    // BTCUSDT contract = 0.01 BTC: 0.05 BTC = 5 contracts.
    expect(orderQty(0.05, 'KE', btc, 'firstLots')).toBe(5);
    expect(orderQty(5, 'ZHANG', btc, 'firstLots')).toBe(5);
  });
  it('scales martingale sizes on the step, never below the minimum', () => {
    expect(Array.from(scaledSizes(0.1, 1.5, 4, eur))).toEqual([0.1, 0.15, 0.22, 0.33]);
    expect(Array.from(scaledSizes(0.02, 0.3, 3, eur))).toEqual([0.02, 0.01, 0.01]);
    expect(clampQty(0.30000000000000004, eur)).toBe(0.3);
  });
});

describe('side resolution', () => {
  it('own signals: long/short only that way, AI modes need agreement', () => {
    expect(allowSignal('long', false, 1, 0)).toBe(1);
    expect(allowSignal('long', false, -1, -1)).toBe(0);
    expect(allowSignal('long', true, 1, 0)).toBe(0);
    expect(allowSignal('long', true, 1, 1)).toBe(1);
    expect(allowSignal('short', false, -1, 1)).toBe(-1);
    expect(allowSignal('short', true, -1, 1)).toBe(0);
    expect(allowSignal('ai', false, -1, -1)).toBe(-1);
    expect(allowSignal('ai', false, 1, -1)).toBe(0);
    expect(allowSignal('aiLongOnly', false, 1, 1)).toBe(1);
    expect(allowSignal('aiLongOnly', false, -1, -1)).toBe(0);
    expect(allowSignal('aiShortOnly', false, -1, -1)).toBe(-1);
    expect(allowSignal('aiShortOnly', false, 1, 1)).toBe(0);
    expect(allowSignal('ai', false, 0, 1)).toBe(0);
  });
  it('no own signal: side decides, AI modes follow the AI', () => {
    expect(sideDirection('long', false, -1)).toBe(1);
    expect(sideDirection('long', true, -1)).toBe(0);
    expect(sideDirection('short', false, 0)).toBe(-1);
    expect(sideDirection('ai', false, -1)).toBe(-1);
    expect(sideDirection('ai', false, 0)).toBe(0);
    expect(sideDirection('aiLongOnly', false, -1)).toBe(0);
    expect(sideDirection('aiShortOnly', false, -1)).toBe(-1);
  });
  it('knows when a run needs the AI indicator', () => {
    expect(needsAi({ side: 'long', useAiIndicator: false })).toBe(false);
    expect(needsAi({ side: 'long', useAiIndicator: true })).toBe(true);
    expect(needsAi({ side: 'aiShortOnly', useAiIndicator: false })).toBe(true);
  });
});

describe('tags', () => {
  it('are short, stable and parseable', () => {
    const t = openTag(123456789, 12);
    expect(t).toBe('s123456789-l12');
    expect(closeTag(t)).toBe('s123456789-l12-x');
    expect(legOf(t)).toBe(12);
    expect(closeTag(openTag(9_999_999_999, 500))).toMatch(/^[A-Za-z0-9-]{1,24}$/);
  });
});

describe('calendar', () => {
  it('weekday and civil date of a day number', () => {
    expect(weekday(0)).toBe(4); // 1970-01-01 was a Thursday
    const d = Math.floor(parseIsoMs('2024-02-29') / DAY);
    expect(civilDate(d)).toEqual({ year: 2024, month: 2, dayOfMonth: 29 });
    expect(weekday(d)).toBe(4);
  });
  it('day windows, including overnight ones', () => {
    const w = new TradingWindow('day', '08:00', '17:00', 'forex');
    expect(w.locate(parseIsoMs('2024-03-05T07:59'))).toBe(false);
    expect(w.locate(parseIsoMs('2024-03-05T08:00'))).toBe(true);
    expect(w.start).toBe(parseIsoMs('2024-03-05T08:00'));
    expect(w.end).toBe(parseIsoMs('2024-03-05T17:00'));
    expect(w.locate(parseIsoMs('2024-03-05T17:00'))).toBe(false);
    const night = new TradingWindow('day', '22:00', '02:00', 'forex');
    expect(night.locate(parseIsoMs('2024-03-06T01:00'))).toBe(true);
    expect(night.start).toBe(parseIsoMs('2024-03-05T22:00'));
    expect(night.locate(parseIsoMs('2024-03-06T23:00'))).toBe(true);
    expect(night.end).toBe(parseIsoMs('2024-03-07T02:00'));
    expect(night.locate(parseIsoMs('2024-03-06T12:00'))).toBe(false);
  });
  it('week windows: Monday start → Friday end (forex)', () => {
    const w = new TradingWindow('week', '00:00', '20:00', 'forex');
    expect(w.locate(parseIsoMs('2024-03-06T12:00'))).toBe(true); // Wednesday
    expect(w.start).toBe(parseIsoMs('2024-03-04T00:00'));
    expect(w.end).toBe(parseIsoMs('2024-03-08T20:00'));
    expect(w.locate(parseIsoMs('2024-03-08T20:30'))).toBe(false);
    expect(w.locate(parseIsoMs('2024-03-10T22:00'))).toBe(false); // Sunday evening
  });
  it('month windows: first → last weekday (forex), calendar days (crypto)', () => {
    const w = new TradingWindow('month', '00:00', '20:00', 'forex');
    expect(w.locate(parseIsoMs('2024-06-12T10:00'))).toBe(true);
    expect(w.start).toBe(parseIsoMs('2024-06-03T00:00')); // June 1st 2024 was a Saturday
    expect(w.end).toBe(parseIsoMs('2024-06-28T20:00')); // June 30th was a Sunday
    const c = new TradingWindow('month', '00:00', '20:00', 'crypto');
    expect(c.locate(parseIsoMs('2024-06-12T10:00'))).toBe(true);
    expect(c.start).toBe(parseIsoMs('2024-06-01T00:00'));
    expect(c.end).toBe(parseIsoMs('2024-06-30T20:00'));
  });
});

describe('distances compared in integer points', () => {
  it('a move of exactly the distance reaches it, one point less does not, whatever the float noise', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('EURUSD', 'USDJPY', 'XAUUSD', 'BTCUSDT', 'ETHUSDT'),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1000, max: 2_000_000 }),
        fc.boolean(),
        (symbol, points, level, up) => {
          const instrument = getInstrument(symbol);
          const digits = instrument.digits;
          const entry = Number((level * instrument.point).toFixed(digits));
          // The close as prices arrive: on the point grid, written with the symbol's digits.
          const close = Number((entry + (up ? 1 : -1) * points * instrument.point).toFixed(digits));
          const moved = up ? close - entry : entry - close;
          const whole = { fixed: points * instrument.point, perPrice: 0 };
          expect(reached(moved, whole, entry, instrument)).toBe(true);
          expect(reached(moved, { fixed: (points + 1) * instrument.point, perPrice: 0 }, entry, instrument)).toBe(false);
          // Forex distances in points as the strategies build them (value × point).
          if (instrument.market === 'forex') expect(reached(moved, distance(points, instrument), entry, instrument)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('the noise that made a plain comparison miss', () => {
    const eurusd = getInstrument('EURUSD');
    // A long entered at 1.10001 and a close at 1.09901: exactly 100 points against it.
    const moved = 1.10001 - 1.09901; // 0.0009999999999998899
    expect(moved >= at(distance(100, eurusd), 1.10001)).toBe(false);
    expect(reached(moved, distance(100, eurusd), 1.10001, eurusd)).toBe(true);
  });
});

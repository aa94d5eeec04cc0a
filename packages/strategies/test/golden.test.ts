// Golden backtests on hand-made candles: every trade below was checked by hand against the rules
// (strategies READMEs) and the broker's fill rules (engine README: market orders at the next open,
// buys at the ask, limits and take profits at their price, path open → nearer extreme → other → close).
import { describe, expect, it } from 'vitest';
import { aiSignal, backtest, bars, tradeRows } from './helpers';

const noFees = { makerFee: 0, takerFee: 0 };

describe('grid (crypto, geometric levels)', () => {
  // Anchor 100, gap 1 %: level 1 buys at 100 / 1.01 = 99.0 (tick 0.1) and sells at 100,
  // level 2 buys at 100 / 1.01² = 98.0 and sells at 99.0. 100 contracts × 0.01 BTC = 1 BTC a level.
  const candles = bars([
    [100, 100, 100, 100], // decision: rest the two limit buys
    [100, 100.2, 98.5, 99.5], // high first, then the low fills level 1 at 99.0
    [99.5, 100.5, 99.4, 100.2], // low first, then the high takes level 1's profit at 100 (re-armed)
    [100.2, 100.3, 97.5, 98.2], // level 1 again at 99.0, level 2 at 98.0
    [98.2, 99.2, 98.1, 99.1], // level 2's profit at 99.0; level 1 stays open
  ]);
  const params = { market: 'crypto', symbol: 'BTCUSDT', capital: 1000, leverage: 10, gridNumber: 2, gap: 1, lotsPerGrid: 100 };

  it('buys each level, sells one gap higher, re-arms, and marks the open level to market', () => {
    const r = backtest('grid', { ...params, ...noFees }, candles);
    expect(r.status).toBe(2);
    expect(tradeRows(r)).toEqual([
      ['s2-l1', 'long', 99, 100, 1, 'gridTakeProfit'],
      ['s3-l2', 'long', 98, 99, 1, 'gridTakeProfit'],
    ]);
    expect(r.openTickets.map((t) => [t.tag, t.entryPrice])).toEqual([['s4-l1', 99]]);
    expect(r.tradeCount).toBe(2);
    expect(r.finalEquity).toBeCloseTo(1002.1, 6); // 1000 + 1 + 1 + (99.1 − 99) floating
  });

  it('pays the maker fee on limit fills and take profits', () => {
    const r = backtest('grid', { ...params, makerFee: 0.001, takerFee: 0.002 }, candles);
    // Fees: 99 + 100 + 99 + 98 + 99 (five maker fills of 1 BTC) × 0.1 %
    expect(r.totalFees).toBeCloseTo(0.495, 6);
    expect(r.finalEquity).toBeCloseTo(1002.1 - 0.495, 6);
  });

  it('overall take profit closes everything and re-anchors; overall stop loss halts', () => {
    const longer = bars([
      [100, 100, 100, 100],
      [100, 100.2, 98.5, 99.5], // level 1 at 99.0; close 99.5 floats +0.5 ≥ 0.05 → close all
      [99.5, 100.5, 99.4, 100.2], // closed at the open 99.5; flat → re-anchor at 100.2: levels 99.2 / 98.2
      [100.2, 100.3, 97.5, 98.2], // both new levels fill; floating −1
      [98.2, 99.2, 98.1, 99.1], // level 2's target 99.2 (+1); floating −0.1
      [99.3, 99.3, 99.3, 99.3], // floating +0.1 → close all
      [99.3, 99.3, 99.3, 99.3], // closed at 99.3; re-anchored again
    ]);
    const r = backtest('grid', { ...params, ...noFees, takeProfit: 0.05 }, longer);
    expect(r.status).toBe(2);
    expect(tradeRows(r)).toEqual([
      ['s2-l1', 'long', 99, 99.5, 0.5, 'takeProfit'],
      ['s6-l2', 'long', 98.2, 99.2, 1, 'gridTakeProfit'],
      ['s5-l1', 'long', 99.2, 99.3, 0.1, 'takeProfit'],
    ]);
    // after the second close-all the grid rests two new limit buys (99.3 / 1.01 = 98.3, 97.3)
    expect(r.finalEquity).toBeCloseTo(1001.6, 6);

    const sl = backtest('grid', { ...params, ...noFees, stopLoss: 0.5 }, bars([
      [100, 100, 100, 100], [100, 100, 98.9, 99], [99, 99, 98.4, 98.4], [98.4, 98.4, 98.4, 98.4], [98.4, 98.4, 98.4, 98.4], [98.4, 98.4, 98.4, 98.4],
    ]));
    // Level 1 at 99.0 floats −0.6 at the close 98.4 → close all at the next open 98.4, then halt.
    expect(tradeRows(sl)).toEqual([['s2-l1', 'long', 99, 98.4, -0.6, 'stopLoss']]);
    expect(sl.statusReason).toMatch(/halted: stopLoss/);
    expect(sl.decisionCount).toBe(4); // the halt comes at the first decision after the close-all filled
  });
});

describe('contrarian martin (forex, with spread)', () => {
  // EURUSD, spread 10 points = 0.0001: buys pay the ask. firstLots 0.1, ×2, refill 100 points, cycle TP 50 points.
  const candles = bars([
    [1.1, 1.1, 1.1, 1.1], // decision: first order (market)
    [1.1, 1.1002, 1.0995, 1.0996], // fills at ask 1.1001; TP 1.1006; 1.1001 − 1.0996 < 0.0010
    [1.0996, 1.0997, 1.0985, 1.0988], // 1.1001 − 1.0988 = 0.0013 ≥ 0.0010 → refill 0.2
    [1.0988, 1.099, 1.098, 1.0985], // fills at ask 1.0989; average 1.0993 → cycle TP 1.0998 on both
    [1.0985, 1.0999, 1.0984, 1.0995], // the high reaches 1.0998: the cycle closes; next cycle at the close
    [1.0995, 1.0996, 1.0994, 1.0995], // next cycle's first order fills at ask 1.0996
  ]);
  const params = { market: 'forex', symbol: 'EURUSD', capital: 10_000, leverage: 100, spread: 10, firstLots: 0.1, multiplier: 2, refillInterval: 100, orderNumber: 3, cycleTakeProfit: 50 };

  it('refills against the move and closes the cycle at average entry + cycleTakeProfit', () => {
    const r = backtest('contrarian-martin', params, candles);
    expect(r.status).toBe(2);
    expect(tradeRows(r)).toEqual([
      ['s1-l1', 'long', 1.1001, 1.0998, -3, 'cycleTakeProfit'],
      ['s1-l2', 'long', 1.0989, 1.0998, 18, 'cycleTakeProfit'],
    ]);
    expect(r.trades.map((t) => t.qty)).toEqual([0.1, 0.2]);
    expect(r.openTickets.map((t) => [t.tag, t.entryPrice, t.takeProfit])).toEqual([['s2-l1', 1.0996, 1.1001]]);
    // 0.1 lot = 10 000 EUR: 10 000 + 15 realised − 1 floating (bought at 1.0996, marked at the bid 1.0995)
    expect(r.finalEquity).toBeCloseTo(10_014, 6);
  });

  it('short cycles mirror it (sells at the bid, buys back at the ask)', () => {
    const mirrored = bars([
      [1.1, 1.1, 1.1, 1.1],
      [1.1, 1.1005, 1.0999, 1.1004], // sell at 1.1000; TP 1.0995 (ask) ; 1.1004 − 1.1000 < 0.0010
      [1.1004, 1.1013, 1.1003, 1.1012], // 1.1012 − 1.1000 ≥ 0.0010 → refill 0.2
      [1.1012, 1.1014, 1.1011, 1.1013], // sells at 1.1012; average 1.1008 → TP 1.1003
      [1.1013, 1.1014, 1.1001, 1.1005], // ask touches 1.1003 when the bid is 1.1002
    ]);
    const r = backtest('contrarian-martin', { ...params, side: 'short' }, mirrored);
    expect(tradeRows(r)).toEqual([
      ['s1-l1', 'short', 1.1, 1.1003, -3, 'cycleTakeProfit'],
      ['s1-l2', 'short', 1.1012, 1.1003, 18, 'cycleTakeProfit'],
    ]);
  });

  it('stops adding at orderNumber and halts on the overall stop loss', () => {
    const falling = bars(Array.from({ length: 8 }, (_, i) => {
      const p = 1.1 - i * 0.0015;
      return [p + 0.0003, p + 0.0003, p - 0.0002, p] as const;
    }));
    const r = backtest('contrarian-martin', { ...params, orderNumber: 2, stopLoss: 40 }, falling);
    const opens = r.fills.filter((f) => f.action === 'open').map((f) => f.qty);
    expect(opens).toEqual([0.1, 0.2]);
    expect(r.trades.every((t) => t.reason === 'stopLoss')).toBe(true);
    expect(r.statusReason).toMatch(/halted: stopLoss/);
  });
});

describe('single (trend, AI signal as the entry, pyramiding, per-order TP/SL)', () => {
  // BTCUSDT: 100 contracts = 1 BTC. Order 1 TP 2 % / SL 1 %, order 2 TP 1 %, gap 1 %.
  const candles = bars([
    [1000, 1000, 1000, 1000],
    [1000, 1000, 1000, 1000], // AI turns long → order 1 at market
    [1001, 1005, 1000, 1004], // fills at 1001: TP 1021.0, SL 991.0; 1004 − 1001 < 10.01
    [1004, 1012, 1003, 1011.5], // 1011.5 − 1001 ≥ 10.01 → order 2
    [1012, 1015, 1011, 1014], // fills at 1012: TP 1022.1
    [1014, 1021.5, 1013, 1020], // low first, then order 1's TP at 1021
    [1020, 1023, 1019, 1022], // order 2's TP at 1022.1
    [1022, 1022, 1022, 1022], // AI unchanged: no new signal
  ]);
  const ai = aiSignal([0, 1, 1, 1, 1, 1, 1, 0]);
  const params = {
    market: 'crypto', symbol: 'BTCUSDT', capital: 10_000, leverage: 10, side: 'ai',
    firstLots: 100, secondLots: 100, gap: 1, orderTakeProfit: [2, 1], orderStopLoss: [1, null],
  };

  it('enters on the signal, adds one gap in favour, exits each order at its own TP from its own fill', () => {
    const r = backtest('single', { ...params, makerFee: 0.0002, takerFee: 0.0005 }, candles, { ai });
    expect(r.status).toBe(2);
    expect(r.trades.map((t) => [t.tag, t.entryPrice, t.exitPrice, t.grossPnl, t.reason])).toEqual([
      ['s1-l1', 1001, 1021, 20, 'orderTakeProfit'],
      ['s1-l2', 1012, 1022.1, 10.1, 'orderTakeProfit'],
    ]);
    // fees: entries at the taker rate, take profits at the maker rate
    const fees = 1001 * 0.0005 + 1021 * 0.0002 + 1012 * 0.0005 + 1022.1 * 0.0002;
    expect(r.totalFees).toBeCloseTo(fees, 6);
    expect(r.finalEquity).toBeCloseTo(10_000 + 30.1 - fees, 6);
  });

  it('per-order stop loss from the real fill', () => {
    const drop = bars([[1000, 1000, 1000, 1000], [1000, 1000, 1000, 1000], [1001, 1002, 985, 990], [990, 990, 990, 990]]);
    const r = backtest('single', { ...params, ...noFees }, drop, { ai: aiSignal([0, 1, 1, 1]) });
    expect(tradeRows(r)).toEqual([['s1-l1', 'long', 1001, 991, -10, 'orderStopLoss']]);
  });

  it('refuses to run an AI mode without the AI indicator', () => {
    const r = backtest('single', params, candles);
    expect(r.status).toBe(3);
    expect(r.statusReason).toMatch(/needs the AI indicator/);
  });
});

describe('single: overall stop loss closes all, then trading continues', () => {
  it('closes at the next open after the floating loss reaches the stop, then takes the next signal', () => {
    const candles = bars([
      [1000, 1000, 1000, 1000],
      [1000, 1000, 1000, 1000], // AI turns long → buy 1 BTC
      [1000, 1000, 997, 998], // fills at 1000; floating −2
      [998, 998, 993, 994], // floating −6 ≤ −5 → close all
      [994, 995, 994, 995], // closed at the open 994; AI still long: no new signal
      [995, 995, 995, 995],
      [995, 995, 995, 995], // AI turns short → sell
      [995, 995, 995, 995], // fills at 995
    ]);
    const r = backtest(
      'single',
      { market: 'crypto', symbol: 'BTCUSDT', capital: 10_000, leverage: 10, side: 'ai', firstLots: 100, stopLoss: 5, ...noFees },
      candles,
      { ai: aiSignal([0, 1, 1, 1, 1, 0, -1, -1]) },
    );
    expect(r.status).toBe(2);
    expect(tradeRows(r)).toEqual([['s1-l1', 'long', 1000, 994, -6, 'stopLoss']]);
    expect(r.openTickets.map((t) => [t.tag, t.side, t.entryPrice])).toEqual([['s2-l1', 'short', 995]]);
  });

  it('long mode enters on the EMA(20)/EMA(50) cross up, and addImmediately enters on the first candle', () => {
    // 60 falling closes, then a steady rise: the fast EMA crosses above the slow one exactly once.
    const closes = [...Array.from({ length: 60 }, (_, i) => 1100 - i), ...Array.from({ length: 60 }, (_, i) => 1041 + 3 * i)];
    const candles = bars(closes.map((c, i) => [i === 0 ? c : closes[i - 1], Math.max(c, i === 0 ? c : closes[i - 1]), Math.min(c, i === 0 ? c : closes[i - 1]), c] as const));
    const params = { market: 'crypto', symbol: 'BTCUSDT', capital: 10_000, leverage: 10, firstLots: 100, ...noFees };
    const r = backtest('single', params, candles);
    // Find the cross by the definition, independently of the strategy.
    const ema = (period: number) => {
      const out: number[] = [];
      const a = 2 / (period + 1);
      closes.forEach((c, i) => out.push(i < period - 1 ? NaN : i === period - 1 ? closes.slice(0, period).reduce((s, x) => s + x, 0) / period : out[i - 1] + a * (c - out[i - 1])));
      return out;
    };
    const fast = ema(20);
    const slow = ema(50);
    const cross = closes.findIndex((_, i) => i > 50 && fast[i - 1] <= slow[i - 1] && fast[i] > slow[i]);
    expect(cross).toBeGreaterThan(60);
    expect(r.openTickets.map((t) => [t.side, t.entryTime, t.entryPrice])).toEqual([['long', candles.time[cross + 1], closes[cross]]]);

    const now = backtest('single', { ...params, addImmediately: true }, candles);
    expect(now.openTickets[0]).toMatchObject({ side: 'long', entryTime: candles.time[1], entryPrice: 1100 });
  });
});

describe('purge-revert (forex, hand-checked)', () => {
  it('fades a sweep of the prior high: stop beyond the extreme + buffer, TP at rr × the real risk', () => {
    const candles = bars([
      [1.1, 1.101, 1.099, 1.1],
      [1.1, 1.1012, 1.0995, 1.1005],
      [1.1005, 1.1008, 1.0998, 1.1002], // prior 3-bar high: 1.1012
      [1.1002, 1.102, 1.1001, 1.1006], // sweeps 1.1012 by 8 points ≥ 5 and closes back below → short
      [1.1004, 1.1005, 1.099, 1.0992], // sells at the bid 1.1004; stop 1.1021, risk 17 points → TP 1.0970
      [1.0992, 1.0993, 1.0965, 1.097], // the ask reaches 1.0970 when the bid is 1.0969
      [1.097, 1.097, 1.097, 1.097],
    ]);
    const r = backtest(
      'purge-revert',
      { market: 'forex', symbol: 'EURUSD', capital: 10_000, leverage: 100, spread: 10, side: 'short', firstLots: 0.1, lookback: 3, sweep: 5, buffer: 10, rr: 2 },
      candles,
    );
    expect(r.status).toBe(2);
    expect(tradeRows(r)).toEqual([['s1-l1', 'short', 1.1004, 1.097, 34, 'orderTakeProfit']]);
    expect(r.fills[0]).toMatchObject({ action: 'open', price: 1.1004 });
    expect(r.openTickets).toEqual([]);
  });
});

describe('purge-revert: a candle sweeping both sides is a signal for each side', () => {
  // Bar 3 sweeps the prior high (1.1012) and the prior low (1.0995) and closes inside.
  const candles = bars([
    [1.1, 1.101, 1.099, 1.1],
    [1.1, 1.1012, 1.0995, 1.1005],
    [1.1005, 1.1008, 1.0998, 1.1002],
    [1.1002, 1.102, 1.0985, 1.1003],
    [1.1003, 1.1006, 1.1, 1.1004],
    [1.1004, 1.1005, 1.1003, 1.1004],
  ]);
  const params = (side: string) => ({ market: 'forex', symbol: 'EURUSD', capital: 10_000, leverage: 100, spread: 1, side, firstLots: 0.1, lookback: 3, sweep: 5, buffer: 0, rr: 2 });

  it('a long-only run takes the long sweep exactly as a short-only run takes the short one', () => {
    const long = backtest('purge-revert', params('long'), candles);
    const short = backtest('purge-revert', params('short'), candles);
    expect(long.fills[0]).toMatchObject({ action: 'open', side: 'long', time: candles.time[4] });
    expect(short.fills[0]).toMatchObject({ action: 'open', side: 'short', time: candles.time[4] });
    // Stops beyond each side's own extreme.
    expect(long.openTickets[0]?.stopLoss).toBeCloseTo(1.0985, 5);
    expect(short.openTickets[0]?.stopLoss).toBeCloseTo(1.102, 5);
  });
});

describe('day-single (forex, hourly, hand-checked)', () => {
  const H = 3_600_000;
  // Tuesday 2024-01-02, 06:00 UTC onwards.
  const candles = bars(
    [
      [1.1, 1.1, 1.1, 1.1], // 06:00–07:00: before the window
      [1.1, 1.1, 1.1, 1.1], // 07:00–08:00: closes at the window start → sell
      [1.1, 1.1002, 1.0988, 1.099], // 08:00: sold at the bid 1.1000
      [1.099, 1.0992, 1.0978, 1.098],
      [1.098, 1.0988, 1.0979, 1.0985],
      [1.0985, 1.0986, 1.0968, 1.097], // 11:00–12:00 closes at the window end → close all
      [1.097, 1.0975, 1.0965, 1.0972], // bought back at the ask 1.0971
      [1.0972, 1.0972, 1.0972, 1.0972], // no second decision in the day
    ],
    H,
    Date.UTC(2024, 0, 2, 6),
  );
  const params = { market: 'forex', symbol: 'EURUSD', capital: 10_000, leverage: 100, spread: 10, side: 'short', addImmediately: true, firstLots: 0.1, windowStart: '08:00', windowEnd: '12:00' };

  it('decides once at the window start and closes everything at its end', () => {
    const r = backtest('day-single', params, candles);
    expect(r.status).toBe(2);
    expect(r.trades.map((t) => [t.tag, t.side, t.entryTime, t.entryPrice, t.exitTime, t.exitPrice, t.pnl, t.reason])).toEqual([
      ['s1-l1', 'short', Date.UTC(2024, 0, 2, 8), 1.1, Date.UTC(2024, 0, 2, 12), 1.0971, 29, 'windowEnd'],
    ]);
    expect(r.openTickets).toEqual([]);
  });

  it('reads the window in the run timezone', () => {
    const local = backtest('day-single', { ...params, timezone: 'UTC+02:00', windowStart: '10:00', windowEnd: '14:00' }, candles);
    expect(tradeRows(local)).toEqual(tradeRows(backtest('day-single', params, candles)));
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { candlesFromRows, getInstrument, runBacktest, type BacktestConfig, type Fill, type Intent, type Strategy, type StrategyView } from '../src';

const H = 3_600_000;
const btc = getInstrument('BTCUSDT'); // contract 0.01 BTC, mmr 0.004
const eur = getInstrument('EURUSD');

type Row = [number, number, number, number]; // open, high, low, close
const candles = (rows: Row[], intervalMs = H) =>
  candlesFromRows(rows.map(([open, high, low, close], i) => ({ time: i * intervalMs, open, high, low, close })), intervalMs);

/** A strategy that pushes scripted intents at given decision indexes and records fills. */
function scripted(script: Record<number, Intent[]>, onFill?: (f: Fill, view: StrategyView, out: Intent[]) => void) {
  const fills: Fill[] = [];
  const strategy: Strategy = {
    onCandle(view, out) {
      for (const intent of script[view.index] ?? []) out.push(intent);
    },
    onFill(fill, view, out) {
      fills.push(fill);
      onFill?.(fill, view, out);
    },
  };
  return { strategy, fills };
}

const base = (c: ReturnType<typeof candles>, extra: Partial<BacktestConfig> = {}): BacktestConfig => ({
  instrument: btc,
  candles: c,
  capital: 100_000,
  leverage: 10,
  makerFee: 0.0002,
  takerFee: 0.0005,
  ...extra,
});

describe('fill rules', () => {
  it('market orders fill at the next open plus slippage, taker fee', () => {
    const c = candles([[100, 101, 99, 100], [102, 103, 101, 102], [102, 103, 101, 102]]);
    const { strategy, fills } = scripted({ 0: [{ kind: 'open', tag: 'a', side: 'long', qty: 10, type: 'market' }] });
    const r = runBacktest(strategy, base(c, { slippagePoints: 5 })); // 5 ticks of 0.1
    expect(fills[0]).toMatchObject({ action: 'open', price: 102.5, time: H, maker: false });
    expect(fills[0].fee).toBeCloseTo(10 * 0.01 * 102.5 * 0.0005, 10);
    // Marked at the last close 102: (102 − 102.5) × 0.1 BTC − fee.
    expect(r.finalEquity).toBeCloseTo(100_000 - 0.05 - fills[0].fee, 6);
  });

  it('limit orders fill at their price when touched, maker fee; untouched ones do not', () => {
    const c = candles([[100, 101, 99, 100], [100, 100.5, 98, 99], [99, 99.5, 97.9, 99]]);
    const { strategy, fills } = scripted({
      0: [
        { kind: 'open', tag: 'b', side: 'long', qty: 1, type: 'limit', price: 98 },
        { kind: 'open', tag: 'c', side: 'long', qty: 1, type: 'limit', price: 97.8 },
      ],
    });
    runBacktest(strategy, base(c));
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ tag: 'b', price: 98, maker: true, time: H });
    expect(fills[0].fee).toBeCloseTo(0.01 * 98 * 0.0002, 12);
  });

  it('a resting limit gapped through fills at the better open; stops gapped through fill at the open', () => {
    const c = candles([[100, 101, 99, 100], [95, 96, 94, 95]]);
    const { strategy, fills } = scripted({
      0: [
        { kind: 'open', tag: 'l', side: 'long', qty: 1, type: 'limit', price: 98 },
        { kind: 'open', tag: 's', side: 'short', qty: 1, type: 'stop', price: 97 },
      ],
    });
    runBacktest(strategy, base(c));
    expect(fills.map((f) => [f.tag, f.price])).toEqual(expect.arrayContaining([['l', 95], ['s', 95]]));
    expect(fills.find((f) => f.tag === 's')!.maker).toBe(false);
  });

  it('path: open → nearer extreme → other extreme → close decides whether TP or SL fires first', () => {
    // Long from 100 with TP 103 and SL 97; candle 2 touches both.
    const run = (row: Row) => {
      const c = candles([[100, 100, 100, 100], [100, 100.5, 99.5, 100], row]);
      const { strategy } = scripted({ 0: [{ kind: 'open', tag: 'a', side: 'long', qty: 1, type: 'market', takeProfit: 103, stopLoss: 97 }] });
      return runBacktest(strategy, base(c)).trades[0];
    };
    expect(run([100, 104, 96, 100])).toMatchObject({ reason: 'orderStopLoss', exitPrice: 97 }); // tie: the low first
    expect(run([99, 104, 96, 100])).toMatchObject({ reason: 'orderStopLoss', exitPrice: 97 }); // low nearer
    expect(run([101, 104, 96, 100])).toMatchObject({ reason: 'orderTakeProfit', exitPrice: 103 }); // high nearer
  });

  it('fills are simulated on the finer input candles under a coarser decision interval', () => {
    // 1m data, 2m decisions: the limit placed at the close of minute 1 fills in minute 2 at its price.
    const c = candles([[100, 100, 100, 100], [100, 100, 100, 100], [100, 100, 97, 97], [97, 106, 97, 106]], 60_000);
    const { strategy, fills } = scripted({ 0: [{ kind: 'open', tag: 'a', side: 'long', qty: 1, type: 'limit', price: 98, takeProfit: 105 }] });
    const r = runBacktest(strategy, base(c, { intervalMs: 120_000 }));
    expect(r.decisionCount).toBe(2);
    expect(fills.map((f) => [f.action, f.price, f.time])).toEqual([
      ['open', 98, 120_000],
      ['close', 105, 180_000],
    ]);
  });

  it('forex: data is bid, buys pay the ask (bid + spread), sells receive the bid', () => {
    const c = candles([[1.1, 1.1001, 1.0999, 1.1], [1.1, 1.1002, 1.0998, 1.1], [1.1, 1.1003, 1.0997, 1.1]]);
    const { strategy, fills } = scripted({
      0: [{ kind: 'open', tag: 'a', side: 'long', qty: 1, type: 'market' }],
      1: [{ kind: 'close', tag: 'x', ticket: 'a', type: 'market', reason: 'signal' }],
    });
    const r = runBacktest(strategy, base(c, { instrument: eur, spreadPoints: 20, makerFee: 0, takerFee: 0, leverage: 100 }));
    expect(fills[0].price).toBeCloseTo(1.1002, 10);
    expect(fills[1].price).toBeCloseTo(1.1, 10);
    // One lot pays the 2-pip spread: 100 000 × 0.0002 = 20 USD.
    expect(r.trades[0].pnl).toBeCloseTo(-20, 6);
  });

  it('USDJPY PnL is converted to USD by dividing by the price', () => {
    const jpy = getInstrument('USDJPY');
    const c = candles([[100, 100, 100, 100], [100, 100, 100, 100], [101, 101, 101, 101], [101, 101, 101, 101]]);
    const { strategy } = scripted({
      0: [{ kind: 'open', tag: 'a', side: 'long', qty: 1, type: 'market' }],
      1: [{ kind: 'close', tag: 'x', ticket: 'a', type: 'market', reason: 'signal' }],
    });
    const r = runBacktest(strategy, base(c, { instrument: jpy, spreadPoints: 0, makerFee: 0, takerFee: 0, leverage: 100 }));
    expect(r.trades[0].pnl).toBe(990.1); // 100 000 JPY / 101, rounded to cents
  });

  it('rejects sizes off the lot step and duplicate tags (status 3 fail)', () => {
    const c = candles([[100, 100, 100, 100], [100, 100, 100, 100]]);
    const bad = runBacktest(scripted({ 0: [{ kind: 'open', tag: 'a', side: 'long', qty: 0.015, type: 'market' }] }).strategy, base(c));
    expect(bad.status).toBe(3);
    expect(bad.statusReason).toMatch(/multiple of 0.01/);
    const dup = runBacktest(
      scripted({ 0: [{ kind: 'open', tag: 'a', side: 'long', qty: 1, type: 'limit', price: 90 }, { kind: 'open', tag: 'a', side: 'long', qty: 1, type: 'limit', price: 80 }] }).strategy,
      base(c),
    );
    expect(dup.status).toBe(3);
    expect(dup.statusReason).toMatch(/duplicate tag "a"/);
  });

  it('cancel removes a pending order; closing an already closed ticket is a no-op', () => {
    const c = candles([[100, 100, 100, 100], [100, 100, 90, 95], [95, 120, 95, 120], [120, 120, 120, 120]]);
    const { strategy, fills } = scripted({
      0: [
        { kind: 'open', tag: 'a', side: 'long', qty: 1, type: 'market', stopLoss: 92 },
        { kind: 'open', tag: 'b', side: 'long', qty: 1, type: 'limit', price: 80 },
      ],
      1: [{ kind: 'cancel', tag: 'b' }, { kind: 'close', tag: 'x', ticket: 'a', type: 'market', reason: 'signal' }],
    });
    const r = runBacktest(strategy, base(c));
    expect(r.status).toBe(2);
    expect(fills.map((f) => [f.tag, f.action, f.reason])).toEqual([
      ['a', 'open', null],
      ['a', 'close', 'orderStopLoss'],
    ]);
  });
});

describe('margin, liquidation and statuses', () => {
  it('liquidates everything at the price where equity meets the maintenance margin (status 4)', () => {
    // 100 x leverage: 1000 contracts × 0.01 BTC × 100 = 1000 USDT notional on 1000 capital… use 9500 notional.
    const c = candles([[100, 100, 100, 100], [100, 100, 100, 100], [100, 100, 80, 85], [85, 90, 85, 90]]);
    const { strategy } = scripted({ 0: [{ kind: 'open', tag: 'a', side: 'long', qty: 9500, type: 'market' }] });
    const r = runBacktest(strategy, base(c, { capital: 1000, leverage: 100, makerFee: 0, takerFee: 0 }));
    expect(r.status).toBe(4);
    const t = r.trades[0];
    expect(t.reason).toBe('liquidation');
    // Equity 1000 + 95·(p − 100) = mm = min(0.004, 0.5/100) · 95 · p  →  p = 8500 / 94.62
    expect(t.exitPrice).toBeCloseTo(8500 / (95 - 0.38), 6);
    expect(r.finalEquity).toBeCloseTo(0.004 * 95 * t.exitPrice, 4);
    expect(r.openTickets).toHaveLength(0);
    expect(r.candleCount).toBe(3); // the run stops
  });

  it('an order needing more initial margin than is free stops the run with status 5', () => {
    const c = candles([[100, 100, 100, 100], [100, 100, 100, 100], [100, 100, 100, 100]]);
    const { strategy } = scripted({ 0: [{ kind: 'open', tag: 'a', side: 'long', qty: 11_000, type: 'market' }] });
    const r = runBacktest(strategy, base(c, { capital: 1000, leverage: 10 }));
    expect(r.status).toBe(5);
    expect(r.statusReason).toMatch(/insufficient capital: order "a"/);
    expect(r.tradeCount).toBe(0);
  });

  it('halt ends the run with success and the reason', () => {
    const c = candles([[100, 100, 100, 100], [100, 100, 100, 100], [100, 100, 100, 100]]);
    const r = runBacktest(scripted({ 0: [{ kind: 'halt', reason: 'overall stop loss' }] }).strategy, base(c));
    expect(r.status).toBe(2);
    expect(r.statusReason).toBe('halted: overall stop loss');
    expect(r.candleCount).toBe(1);
  });

  it('funding: longs pay rate × notional', () => {
    const c = candles([[100, 100, 100, 100], [100, 100, 100, 100], [100, 100, 100, 100]]);
    const rates = Float64Array.from([0, 0, 0.001]);
    const r = runBacktest(scripted({ 0: [{ kind: 'open', tag: 'a', side: 'long', qty: 100, type: 'market' }] }).strategy, base(c, { fundingRates: rates, takerFee: 0 }));
    expect(r.totalFunding).toBeCloseTo(0.001 * 100 * 0.01 * 100, 10);
    expect(r.finalEquity).toBeCloseTo(100_000 - 0.1, 8);
  });
});

describe('metrics', () => {
  it('drawdown, floating extremes along the path, win rate, risk/reward, monthly returns', () => {
    const c = candles([[100, 100, 100, 100], [100, 100, 100, 100], [100, 110, 90, 105], [105, 105, 105, 105], [105, 105, 95, 95], [95, 95, 95, 95]]);
    const { strategy } = scripted({
      0: [{ kind: 'open', tag: 'a', side: 'long', qty: 100, type: 'market' }],
      2: [{ kind: 'close', tag: 'x', ticket: 'a', type: 'market', reason: 'signal' }, { kind: 'open', tag: 'b', side: 'long', qty: 100, type: 'market' }],
      4: [{ kind: 'close', tag: 'y', ticket: 'b', type: 'market', reason: 'signal' }],
    });
    const r = runBacktest(strategy, base(c, { makerFee: 0, takerFee: 0 }));
    // 100 contracts = 1 BTC: +5 then −10.
    expect(r.trades.map((t) => t.pnl)).toEqual([5, -10]);
    expect(r.tradeCount).toBe(2);
    expect(r.winRate).toBe(0.5);
    expect(r.riskReward).toBe(0.5);
    expect(r.profitFactor).toBe(0.5);
    expect(r.maxFloatingLoss).toBe(-10); // low 90 of candle 2 / low 95 of candle 4 from 105
    expect(r.maxFloatingProfit).toBe(10); // high 110
    expect(r.finalEquity).toBe(99_995);
    expect(r.drawdownAmount).toBe(10); // peak 100 005 → 99 995
    expect(r.maxDrawdown).toBeCloseTo(10 / 100_005, 12);
    expect(r.monthlyReturns).toHaveLength(1);
    expect(r.monthlyReturns[0].month).toBe('1970-01');
    expect(r.monthlyReturns[0].return).toBeCloseTo(-5 / 100_000, 12);
    expect(r.exposureTime).toBeCloseTo(4 / 6, 12);
  });
});

describe('levels on the price grid', () => {
  // Ask-side levels are compared on the bid: a short's stop P fires when bid + spread ≥ P, i.e. at
  // bid P − spread. In floats, 1.05001 − 0.0002 is 1.0498100000000001, above the bid tick 1.04981:
  // the ask touched the stop exactly and it did not fill (about one price in ten on EURUSD).
  const spreadPoints = 20;
  const bidOf = (ask: number) => Number((ask - spreadPoints * eur.point).toFixed(eur.digits));
  const forex = (c: ReturnType<typeof candles>) => base(c, { instrument: eur, spreadPoints, makerFee: 0, takerFee: 0, leverage: 100 });

  it("a short leg's stop fills on the candle whose ask touches it exactly", () => {
    fc.assert(
      fc.property(fc.integer({ min: 105_000, max: 115_000 }), (k) => {
        const stop = Number((k * eur.point).toFixed(eur.digits));
        const entryBid = bidOf(stop) - 0.001;
        const touch = bidOf(stop);
        const c = candles([[entryBid, entryBid, entryBid, entryBid], [entryBid, entryBid, entryBid, entryBid], [entryBid, touch, entryBid, entryBid], [entryBid, entryBid, entryBid, entryBid]]);
        const { strategy } = scripted({ 0: [{ kind: 'open', tag: 'a', side: 'short', qty: 1, type: 'market', stopLoss: stop }] });
        const trade = runBacktest(strategy, forex(c)).trades[0];
        expect(trade).toMatchObject({ reason: 'orderStopLoss', exitTime: 2 * H, exitPrice: stop });
      }),
      { numRuns: 300 },
    );
  });

  it('a buy stop and a buy limit fire on the tick where the ask reaches their price', () => {
    fc.assert(
      fc.property(fc.integer({ min: 105_000, max: 115_000 }), (k) => {
        const price = Number((k * eur.point).toFixed(eur.digits));
        const touch = bidOf(price);
        const below = touch - 0.001;
        const above = touch + 0.001;
        // Buy stop: the ask rises to the price.
        const up = candles([[below, below, below, below], [below, touch, below, below], [below, below, below, below]]);
        const stop = scripted({ 0: [{ kind: 'open', tag: 's', side: 'long', qty: 1, type: 'stop', price }] });
        runBacktest(stop.strategy, forex(up));
        expect(stop.fills[0]).toMatchObject({ tag: 's', time: H });
        // Buy limit: the ask falls to the price.
        const down = candles([[above, above, above, above], [above, above, touch, above], [above, above, above, above]]);
        const limit = scripted({ 0: [{ kind: 'open', tag: 'l', side: 'long', qty: 1, type: 'limit', price }] });
        runBacktest(limit.strategy, forex(down));
        expect(limit.fills[0]).toMatchObject({ tag: 'l', time: H, price });
      }),
      { numRuns: 300 },
    );
  });
});

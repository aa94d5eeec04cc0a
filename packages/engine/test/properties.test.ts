import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { candlesFromRows, getInstrument, runBacktest, sliceRows, type Candles, type Fill, type Intent, type Strategy, type StrategyView } from '../src';

const btc = getInstrument('BTCUSDT');

/** Random-walk candles from fast-check draws (moves in per mille). */
const candlesArb = fc.array(fc.tuple(fc.integer({ min: -30, max: 30 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: -30, max: 30 })), { minLength: 20, maxLength: 120 }).map((moves) => {
  let price = 100;
  const rows = moves.map(([gap, up, down, body], i) => {
    const open = price * (1 + gap / 1000);
    const close = open * (1 + body / 1000);
    const high = Math.max(open, close) * (1 + up / 1000);
    const low = Math.min(open, close) * (1 - down / 1000);
    price = close;
    return { time: i * 60_000, open, high, low, close };
  });
  return candlesFromRows(rows, 60_000);
});

/** A strategy that acts at random (seeded, so replays are identical) and checks the books at every decision. */
class RandomStrategy implements Strategy {
  private state: number;
  private seq = 0;
  realised = 0;
  fees = 0;
  readonly decisions: string[] = [];
  readonly violations: string[] = [];
  constructor(seed: number, private readonly capital: number) {
    this.state = seed >>> 0 || 1;
  }
  private rand(): number {
    // xorshift32
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 2 ** 32;
  }
  onCandle(view: StrategyView, out: Intent[]): void {
    const close = view.candles.close[view.index];
    this.checkBooks(view, close);
    const r = this.rand();
    const qty = (1 + Math.floor(this.rand() * 50)) * 0.01;
    const side = this.rand() < 0.5 ? 'long' : 'short';
    const tag = `o${++this.seq}`;
    if (r < 0.25) out.push({ kind: 'open', tag, side, qty, type: 'market', takeProfit: side === 'long' ? close * 1.02 : close * 0.98, stopLoss: side === 'long' ? close * 0.98 : close * 1.02 });
    else if (r < 0.4) out.push({ kind: 'open', tag, side, qty, type: 'limit', price: side === 'long' ? close * 0.99 : close * 1.01 });
    else if (r < 0.5) out.push({ kind: 'open', tag, side, qty, type: 'stop', price: side === 'long' ? close * 1.01 : close * 0.99 });
    else if (r < 0.65 && view.tickets.length > 0) {
      const t = view.tickets[Math.floor(this.rand() * view.tickets.length)];
      out.push({ kind: 'close', tag: `c${this.seq}`, ticket: t.tag, type: 'market', reason: 'signal' });
    } else if (r < 0.7 && view.pending.length > 0) out.push({ kind: 'cancel', tag: view.pending[0].tag });
    else if (r < 0.75 && view.tickets.length > 0) out.push({ kind: 'amend', ticket: view.tickets[0].tag, stopLoss: null });
    else if (r < 0.77) out.push({ kind: 'closeAll', reason: 'manual' });
    this.decisions.push(`${view.index}:${out.map((i) => JSON.stringify(i)).join('|')}`);
  }
  onFill(fill: Fill, view: StrategyView): void {
    this.realised += fill.pnl;
    this.fees += fill.fee;
    this.checkBooks(view);
  }
  /** equity = capital + realised − fees + floating; at a decision, floating summed ticket by ticket at the close. */
  private checkBooks(view: StrategyView, mark?: number): void {
    const tolerance = 1e-6 * (1 + this.seq);
    const balance = this.capital + this.realised - this.fees;
    if (Math.abs(view.balance - balance) > tolerance) this.violations.push(`balance ${view.balance} ≠ ${balance}`);
    if (Math.abs(view.equity - (balance + view.floatingPnl)) > tolerance) this.violations.push(`equity ${view.equity}`);
    if (mark !== undefined) {
      let floating = 0;
      for (const t of view.tickets) floating += t.qty * btc.contractSize * (t.side === 'long' ? mark - t.entryPrice : t.entryPrice - mark);
      if (Math.abs(view.floatingPnl - floating) > tolerance) this.violations.push(`floating ${view.floatingPnl} ≠ ${floating}`);
    }
  }
}

const config = (candles: Candles, leverage = 20) => ({ instrument: btc, candles, capital: 10_000, leverage, makerFee: 0.0002, takerFee: 0.0005 });

describe('engine properties', () => {
  it('accounting identity at every decision and fill: equity = capital + realised − fees + floating', () => {
    fc.assert(
      fc.property(candlesArb, fc.integer({ min: 1, max: 2 ** 31 }), (candles, seed) => {
        const s = new RandomStrategy(seed, 10_000);
        const r = runBacktest(s, config(candles));
        expect(s.violations).toEqual([]);
        // And at the end, from the report alone.
        expect(r.finalEquity).toBeCloseTo(r.capital + r.realisedPnl - r.totalFees + r.floatingPnl, 4);
      }),
      { numRuns: 150 },
    );
  });

  it('floating PnL equals the sum over open tickets at the mark', () => {
    fc.assert(
      fc.property(candlesArb, fc.integer({ min: 1, max: 2 ** 31 }), (candles, seed) => {
        const r = runBacktest(new RandomStrategy(seed, 10_000), config(candles));
        if (r.status !== 2) return;
        const last = candles.close[candles.length - 1];
        const floating = r.openTickets.reduce((s, t) => s + t.qty * btc.contractSize * (t.side === 'long' ? last - t.entryPrice : t.entryPrice - last), 0);
        expect(r.floatingPnl).toBeCloseTo(floating, 6);
      }),
      { numRuns: 100 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(candlesArb, fc.integer({ min: 1, max: 2 ** 31 }), (candles, seed) => {
        const a = runBacktest(new RandomStrategy(seed, 10_000), config(candles));
        const b = runBacktest(new RandomStrategy(seed, 10_000), config(candles));
        expect(b).toEqual(a);
      }),
      { numRuns: 50 },
    );
  });

  it('has no look-ahead: a run on data cut at T decides and fills exactly as the full run up to T', () => {
    fc.assert(
      fc.property(candlesArb, fc.integer({ min: 1, max: 2 ** 31 }), fc.double({ min: 0.2, max: 0.95, noNaN: true }), (candles, seed, cut) => {
        const T = Math.max(2, Math.floor(candles.length * cut));
        const full = new RandomStrategy(seed, 10_000);
        const part = new RandomStrategy(seed, 10_000);
        const rf = runBacktest(full, config(candles));
        const rp = runBacktest(part, config(sliceRows(candles, 0, T)));
        const lastTime = candles.time[T - 1];
        expect(part.decisions).toEqual(full.decisions.slice(0, part.decisions.length));
        if (rp.status === 2) expect(part.decisions.length).toBe(Math.min(T, full.decisions.length));
        expect(rp.fills).toEqual(rf.fills.filter((f) => f.time <= lastTime).slice(0, rp.fills.length));
      }),
      { numRuns: 100 },
    );
  });

  it('liquidation happens exactly when a crash takes equity to the maintenance margin', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 100 }), fc.integer({ min: 1, max: 60 }), (leverage, crashPct) => {
        const low = 100 * (1 - crashPct / 100);
        const candles = candlesFromRows(
          [
            { time: 0, open: 100, high: 100, low: 100, close: 100 },
            { time: 60_000, open: 100, high: 100, low: 100, close: 100 },
            { time: 120_000, open: 100, high: 100, low, close: low },
            { time: 180_000, open: low, high: low, low, close: low },
          ],
          60_000,
        );
        // Use 90 % of the buying power: qty contracts of 0.01 BTC at 100.
        const qty = Math.floor((0.9 * 10_000 * leverage) / (100 * 0.01)) / 100;
        const strategy: Strategy = { onCandle: (v, out) => void (v.index === 0 && out.push({ kind: 'open', tag: 'a', side: 'long', qty, type: 'market' })) };
        const r = runBacktest(strategy, { ...config(candles, leverage), makerFee: 0, takerFee: 0 });
        const coins = qty * 0.01;
        const mmRate = Math.min(btc.maintenanceMarginRate, 0.5 / leverage);
        const equityAtLow = 10_000 + coins * (low - 100);
        const liquidates = equityAtLow <= mmRate * coins * low;
        expect(r.status).toBe(liquidates ? 4 : 2);
        if (liquidates) {
          const p = r.trades[0].exitPrice;
          expect(10_000 + coins * (p - 100)).toBeCloseTo(mmRate * coins * p, 6);
        }
      }),
      { numRuns: 200 },
    );
  });
});

// Golden backtest on real data: BTCUSDT 1m, 2024-01-02 00:00–06:00 UTC (360 candles of the shared
// Binance file). Every expected figure below was checked by hand against the CSV rows (awk), not
// produced by the engine:
//   00:00 close 44174.3 → long 10 contracts (0.1 BTC) at market, TP 44395.2 (+0.5 %), SL 43953.4
//   00:01 open 44174.3 → entry (taker 0.05 %: 2.208715)
//   00:06 o 44324.99 h 44428.58 l 44319.1: low nearer → low then high crosses TP → exit 44395.2 (maker: 0.887904)
//   sell limit 44500 placed at 00:00: first high ≥ 44500 is 00:11 (h 44500 exactly) → short 0.1 BTC at 44500 (maker 0.89)
//   its TP 44400 is never reached (lowest low afterwards 44450); last close 45179.48 → floating −67.948
//   highest high after the short 45500 → max floating loss −100; long's best mark 22.09 (at its TP)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { getInstrument, parseCandlesCsv, runBacktest, sliceByTime, type Strategy } from '../src';

const shared = process.env.SHARED_DIR ?? join(import.meta.dirname, '../../../../shared');
const file = join(shared, 'data', 'binance_BTCUSDT_1m.csv.gz');

describe.skipIf(!existsSync(file))('golden: BTCUSDT 1m, 2024-01-02 morning', () => {
  it('matches the hand-checked trades and figures', () => {
    const all = parseCandlesCsv(gunzipSync(readFileSync(file)).toString('latin1'));
    const candles = sliceByTime(all, Date.UTC(2024, 0, 2), Date.UTC(2024, 0, 2, 6));
    expect(candles.length).toBe(360);
    const strategy: Strategy = {
      onCandle(view, out) {
        if (view.index !== 0) return;
        const close = view.candles.close[0];
        out.push({ kind: 'open', tag: 'L1', side: 'long', qty: 10, type: 'market', takeProfit: 44395.2, stopLoss: 43953.4 });
        out.push({ kind: 'open', tag: 'S1', side: 'short', qty: 10, type: 'limit', price: 44500, takeProfit: 44400 });
        expect(close).toBe(44174.3);
      },
    };
    const r = runBacktest(strategy, { instrument: getInstrument('BTCUSDT'), candles, capital: 100_000, leverage: 10, makerFee: 0.0002, takerFee: 0.0005 });
    expect(r.status).toBe(2);
    expect(r.trades).toEqual([
      {
        tag: 'L1',
        side: 'long',
        qty: 10,
        lots: 10,
        entryTime: Date.UTC(2024, 0, 2, 0, 1),
        entryPrice: 44174.3,
        exitTime: Date.UTC(2024, 0, 2, 0, 6),
        exitPrice: 44395.2,
        grossPnl: 22.09,
        fee: 3.096619,
        pnl: 18.993381,
        reason: 'orderTakeProfit',
      },
    ]);
    expect(r.openTickets).toEqual([expect.objectContaining({ tag: 'S1', side: 'short', entryPrice: 44500, entryTime: Date.UTC(2024, 0, 2, 0, 11) })]);
    expect(r.totalFees).toBeCloseTo(3.986619, 8);
    expect(r.floatingPnl).toBeCloseTo(-67.948, 6);
    expect(r.finalEquity).toBeCloseTo(99_950.155381, 6);
    expect(r.maxFloatingLoss).toBeCloseTo(-100, 8);
    expect(r.maxFloatingProfit).toBeCloseTo(22.09, 8);
    expect(r.tradeCount).toBe(1);
    expect(r.winRate).toBe(1);
  });
});

// Paper robots are backtests run one candle at a time: the real grid and trend (single) strategies,
// built as the runner builds them, fed 1m candles through createPaperRobot, give the backtest's
// trades on the same candles (decisions every 15 minutes).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { getInstrument, parseCandlesCsv, runBacktest, sliceByTime } from '@lq/engine';
import { getStrategy, runSettings } from '@lq/strategies';
import { createPaperRobot } from '@lq/venues';

const file = join(process.env.SHARED_DIR ?? join(import.meta.dirname, '../../../../../shared'), 'data', 'binance_BTCUSDT_1m.csv.gz');

describe.skipIf(!existsSync(file))('paper robot = backtest (real strategies)', () => {
  const all = existsSync(file) ? parseCandlesCsv(gunzipSync(readFileSync(file)).toString('latin1')) : null;
  const candles = all ? sliceByTime(all, Date.UTC(2024, 2, 1), Date.UTC(2024, 2, 8)) : null;
  const inst = getInstrument('BTCUSDT');
  const cases: [string, Record<string, unknown>][] = [
    ['grid', { interval: '15m', gridNumber: 8, gap: 0.4, lotsPerGrid: 2 }],
    ['single', { interval: '15m', side: 'long', gap: 0.5, orderTakeProfit: 0.8, orderStopLoss: 0.6 }],
    ['single', { interval: '15m', side: 'short', gap: 0.5, orderTakeProfit: 0.8, orderStopLoss: 0.6 }],
  ];
  for (const [type, over] of cases) {
    it(`${type} ${JSON.stringify(over)}`, () => {
      const def = getStrategy(type);
      const params = def.schema.parse({ ...def.defaults(inst, { capital: 20_000, price: 60_000 }), ...over });
      const s = runSettings(params, inst);
      const report = runBacktest(def.create(params, inst), {
        instrument: inst,
        candles: candles!,
        intervalMs: s.intervalMs,
        capital: s.capital,
        leverage: s.leverage,
        makerFee: s.makerFee,
        takerFee: s.takerFee,
      });
      const paper = createPaperRobot({
        strategy: def.create(params, inst),
        instrument: inst,
        capital: s.capital,
        leverage: s.leverage,
        makerFee: s.makerFee,
        takerFee: s.takerFee,
        intervalMs: s.intervalMs!,
      });
      const c = candles!;
      for (let i = 0; i < c.length; i++) {
        if (paper.feed.onInputCandle(c.time[i], c.open[i], c.high[i], c.low[i], c.close[i], c.volume[i]) !== null) break;
      }
      paper.feed.finish();
      expect(report.tradeCount).toBeGreaterThan(3);
      expect(paper.broker.trades).toEqual(report.trades);
      expect(paper.kernel.fills.map((f) => [f.tag, f.action, f.price, f.time])).toEqual(report.fills.map((f) => [f.tag, f.action, f.price, f.time]));
    });
  }
});

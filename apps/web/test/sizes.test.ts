import { describe, expect, it } from 'vitest';
import { sizeRulesOf } from '../src/features/backtest/sizes';

const btcOnBinance = {
  minQty: 0.1,
  qtyStep: 0.1,
  maxQty: 100_000,
  minNotional: 100,
  venue: 'binance',
  venueSizes: [
    { venue: 'binance', minQty: 0.1, qtyStep: 0.1, maxQty: 100_000, minNotional: 100 },
    { venue: 'okx', minQty: 0.01, qtyStep: 0.01, minNotional: 0 },
  ],
};

describe('order sizes of a venue', () => {
  it("the data source's sizes, or the chosen account's venue", () => {
    expect(sizeRulesOf(btcOnBinance)).toEqual({ minQty: 0.1, qtyStep: 0.1, maxQty: 100_000, minNotional: 100 });
    expect(sizeRulesOf(btcOnBinance, 'okx')).toEqual({ minQty: 0.01, qtyStep: 0.01, minNotional: 0 });
    // a venue the facts do not list: the data source's sizes
    expect(sizeRulesOf(btcOnBinance, 'bybit')).toMatchObject({ qtyStep: 0.1 });
  });
  it('nothing usable: undefined', () => {
    expect(sizeRulesOf(undefined)).toBeUndefined();
    expect(sizeRulesOf({ minQty: 0, qtyStep: 0.1 })).toBeUndefined();
  });
});

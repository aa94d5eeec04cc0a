// The engine's catalog of venue sizes against what the venues themselves say through ccxt: the
// fake Binance (exchangeInfo LOT_SIZE / MIN_NOTIONAL) and the fake OKX (instruments ctVal / lotSz /
// minSz) on 127.0.0.1. A size that passes the catalog is a size the venue takes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getInstrument, withVenueSizes } from '@lq/engine';
import { CcxtVenue, sizeSpecOf } from '../src/index';
import { FakeBinance, FakeOkx } from '../src/fake/index';

let binance: FakeBinance;
let okx: FakeOkx;
const origins: Record<'binance' | 'okx', string> = { binance: '', okx: '' };

beforeAll(async () => {
  binance = new FakeBinance();
  okx = new FakeOkx();
  origins.binance = await binance.listen();
  origins.okx = await okx.listen();
});
afterAll(async () => {
  await binance?.close();
  await okx?.close();
});

const venueOf = (exchange: 'binance' | 'okx') =>
  new CcxtVenue({
    venue: exchange === 'binance' ? 'binanceusdm' : 'okx',
    apiKey: 'fake-key',
    secret: 'fake-secret',
    ...(exchange === 'okx' ? { password: 'fake-pass' } : {}),
    origin: origins[exchange],
    timeoutMs: 2000,
    backoffMs: 20,
    resolveWindowMs: 300,
  });

describe('venue sizes: the catalog is what the venue says', () => {
  for (const exchange of ['binance', 'okx'] as const) {
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      it(`${exchange} ${symbol}`, async () => {
        const market = await venueOf(exchange).market(symbol);
        const live = withVenueSizes(getInstrument(symbol), exchange, sizeSpecOf(market));
        const catalog = getInstrument(symbol, exchange);
        expect(live.qtyStep).toBe(catalog.qtyStep);
        expect(live.minQty).toBe(catalog.minQty);
        expect(live.minNotional).toBe(catalog.minNotional);
        expect(live.venueUnit).toBe(catalog.venueUnit);
        if (exchange === 'binance') expect(live.maxQty).toBe(catalog.maxQty);
      });
    }
  }
});

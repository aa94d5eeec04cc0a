import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Envelope, type TestApp } from '../../test/helpers';
import { opsRunner } from '../../test/ops-runner';

const DATA = '/work/shared/data';
let t: TestApp;

const ops = opsRunner(() => t);

// The server owns the database and shares it, as `npm start` does; `npm run ops` imports through it.
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true });
  const eur = await ops('data:import', `${DATA}/dukascopy_EURUSD_1m.csv.gz`);
  expect(eur.err).toBe('');
  expect(eur.out).toContain('imported 31680 candles of dukascopy EURUSD 1m');
  const btc = await ops('data:import', `${DATA}/binance_BTCUSDT_1d.csv.gz`);
  expect(btc.out).toContain('imported 3028 candles of binance BTCUSDT 1d');
});
afterAll(() => t?.close());

async function get<T = unknown>(url: string, lang = 'en_US') {
  const res = await t.call('GET', url, { lang });
  expect(res.statusCode).toBeLessThan(500);
  return { status: res.statusCode, body: res.json<Envelope<T>>() };
}

describe('npm run ops data:*', () => {
  it('data:list prints the series and the import runs', async () => {
    const r = await ops('data:list');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/binance\s+BTCUSDT\s+1d\s+2017-08-17 00:00\s+2025-11-30 00:00\s+3028/);
    expect(r.out).toMatch(/dukascopy\s+EURUSD\s+1m\s+2010-09-01 00:00\s+2010-09-30 23:59\s+31680/);
    expect(r.out).toContain('latest imports:');
  });

  it('data:import refuses bad input plainly', async () => {
    const noSymbol = await ops('data:import', `${DATA}/README.md`);
    expect(noSymbol.code).toBe(1);
    expect(noSymbol.err).toContain('pass --symbol');
    const missing = await ops('data:import', '/nonexistent/binance_BTCUSDT_1m.csv', '--symbol', 'BTCUSDT');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('ENOENT');
    const badTf = await ops('data:import', `${DATA}/fxcm_GBPUSD_1m.csv.gz`, '--timeframe', '7m');
    expect(badTf.err).toContain('timeframe "7m" must be one of');
    const badFlag = await ops('data:import', `${DATA}/fxcm_GBPUSD_1m.csv.gz`, '--sym', 'X');
    expect(badFlag.err).toContain('unknown option --sym');
  });
});

describe('GET /order/api/backtest/tactics-selection', () => {
  it('lists the forex strategies with their forex pages for mt5', async () => {
    const { status, body } = await get<Array<{ type: string; nameKey: string; page: string }>>(
      '/order/api/backtest/tactics-selection?dataSource=mt5&robot=false',
    );
    expect(status).toBe(200);
    expect(body.code).toBe('00000');
    const pages = Object.fromEntries(body.data.map((d) => [d.type, d.page]));
    expect(pages).toMatchObject({
      single: 'forex_single',
      'day-single': 'forex_dmy',
      'week-single': 'forex_dmy',
      'month-single': 'forex_dmy',
      grid: 'forex_grid',
      'contrarian-martin': 'forex_martin',
      pegasus: 'forex_pegasus',
      'marco-hunt': 'forex_marco',
      'purge-revert': 'prt',
      'inversion-revert': 'irl',
    });
    expect(pages['blue-bands']).toBeUndefined();
    expect(body.data.find((d) => d.type === 'grid')?.nameKey).toBe('strategy.grid');
  });

  it('lists the crypto strategies for binance (robot defaults to true)', async () => {
    const { body } = await get<Array<{ type: string; page: string }>>('/order/api/backtest/tactics-selection?dataSource=binance');
    const pages = Object.fromEntries(body.data.map((d) => [d.type, d.page]));
    expect(pages).toMatchObject({ single: 'crypto_single', grid: 'crypto_grid', 'blue-bands': 'crypto_blue', pegasus: 'crypto_pegasus' });
    expect(pages['day-single']).toBeUndefined();
    expect(body.data.every((d) => !d.page.startsWith('forex_'))).toBe(true);
  });

  it('refuses bad input with a clear 4xx', async () => {
    const missing = await get('/order/api/backtest/tactics-selection');
    expect(missing.status).toBe(422);
    expect(missing.body.msg).toBe('Market is required');
    const unknown = await get('/order/api/backtest/tactics-selection?dataSource=nyse');
    expect(unknown).toMatchObject({ status: 422, body: { code: 'A0251' } });
    const closed = await get('/order/api/backtest/tactics-selection?dataSource=okx');
    expect(closed).toMatchObject({ status: 409, body: { code: 'A0250' } });
    const badBool = await get('/order/api/backtest/tactics-selection?dataSource=mt5&robot=maybe');
    expect(badBool).toMatchObject({ status: 422, body: { code: 'A0410', data: { field: 'robot' } } });
  });
});

describe('GET /user/common/dict-type/list', () => {
  it('answers the tacticsInterval dictionary', async () => {
    const { status, body } = await get<Array<{ label: string; value: string }>>('/user/common/dict-type/list?label=tacticsInterval');
    expect(status).toBe(200);
    expect(body.data.map((d) => d.value)).toEqual(['1m', '5m', '15m', '30m', '1h', '4h', '1d']);
    expect(body.data[0]).toEqual({ label: '1m', value: '1m' });
  });

  it('refuses an unknown or missing label', async () => {
    const unknown = await get('/user/common/dict-type/list?label=colours');
    expect(unknown).toMatchObject({ status: 422, body: { code: 'A0410', data: { field: 'label' } } });
    expect(unknown.body.msg).toContain('tacticsInterval');
    const missing = await get('/user/common/dict-type/list');
    expect(missing.status).toBe(422);
  });
});

describe('GET /order/api/currency-list', () => {
  interface Item {
    symbol: string;
    instrument: { market: string; tickSize: number; contractSize: number; minQty: number; qtyStep: number };
    ranges: Array<{ source: string; timeframe: string; firstTime: number; lastTime: number; count: number }>;
  }
  it('lists the symbols of a market that have candles, with ranges and instrument facts', async () => {
    const crypto = await get<Item[]>('/order/api/currency-list?dataSource=binance');
    expect(crypto.status).toBe(200);
    expect(crypto.body.data).toEqual([
      {
        symbol: 'BTCUSDT',
        // Sizes as Binance takes them (0.001 BTC = 0.1 contracts, MIN_NOTIONAL 100), and OKX's for a robot there.
        instrument: expect.objectContaining({
          market: 'crypto',
          tickSize: 0.1,
          contractSize: 0.01,
          venue: 'binance',
          minQty: 0.1,
          qtyStep: 0.1,
          minNotional: 100,
          venueSizes: [
            { venue: 'binance', minQty: 0.1, qtyStep: 0.1, maxQty: 100_000, minNotional: 100 },
            { venue: 'okx', minQty: 0.01, qtyStep: 0.01, minNotional: 0 },
          ],
        }) as unknown,
        ranges: [
          { source: 'binance', timeframe: '1d', firstTime: Date.UTC(2017, 7, 17), lastTime: Date.UTC(2025, 10, 30), count: 3028 },
        ],
      },
    ]);
    const forex = await get<Item[]>('/order/api/currency-list?dataSource=mt5');
    expect(forex.body.data.map((d) => d.symbol)).toEqual(['EURUSD']);
    expect(forex.body.data[0].instrument).toMatchObject({ market: 'forex', contractSize: 100000, tickSize: 0.00001, venue: 'mt5', minQty: 0.01, qtyStep: 0.01, maxQty: 100 });
    expect(forex.body.data[0].ranges[0]).toMatchObject({ source: 'dukascopy', timeframe: '1m', count: 31680 });
  });

  it('filters by exchangeType (the candle source)', async () => {
    expect((await get<Item[]>('/order/api/currency-list?dataSource=mt5&exchangeType=dukascopy')).body.data).toHaveLength(1);
    expect((await get<Item[]>('/order/api/currency-list?dataSource=mt5&exchangeType=oanda')).body.data).toEqual([]);
    expect((await get<Item[]>('/order/api/currency-list?dataSource=binance&exchangeType=')).body.data).toHaveLength(1);
  });

  it('refuses bad input with a clear 4xx', async () => {
    expect((await get('/order/api/currency-list')).status).toBe(422);
    expect((await get('/order/api/currency-list?dataSource=xyz')).body.code).toBe('A0251');
    const bad = await get('/order/api/currency-list?dataSource=mt5&exchangeType=b%40d');
    expect(bad).toMatchObject({ status: 422, body: { data: { field: 'exchangeType' } } });
  });
});

describe('GET /order/api/contract-info', () => {
  it('answers ctVal, ctMult, minSz for an OKX instId or a plain symbol', async () => {
    const okx = await get('/order/api/contract-info?instId=BTC-USDT-SWAP');
    expect(okx).toMatchObject({
      status: 200,
      body: { code: '00000', data: { instId: 'BTC-USDT-SWAP', ctVal: '0.01', ctMult: '1', minSz: '0.01' } },
    });
    const plain = await get('/order/api/contract-info?instId=ethusdt');
    expect(plain.body.data).toEqual({ instId: 'ETH-USDT-SWAP', ctVal: '0.1', ctMult: '1', minSz: '0.01' });
    const doge = await get('/order/api/contract-info?instId=DOGE-USDT-SWAP');
    expect(doge.body.data).toMatchObject({ ctVal: '1000' });
  });

  it('answers null (code 00000) for an unknown instrument, and 4xx for a malformed one', async () => {
    for (let i = 0; i < 2; i++) {
      const unknown = await get('/order/api/contract-info?instId=FOO-USDT-SWAP');
      expect(unknown).toMatchObject({ status: 200, body: { code: '00000', data: null } });
    }
    expect((await get('/order/api/contract-info?instId=%3Cscript%3E')).status).toBe(422);
    expect((await get('/order/api/contract-info')).status).toBe(422);
    expect((await get(`/order/api/contract-info?instId=${'A'.repeat(41)}`)).status).toBe(422);
  });
});

describe('GET /order/api/market-data/status', () => {
  it('shows the series, the import runs and each source’s latest outcome', async () => {
    const { status, body } = await get<{
      series: Array<{ source: string; symbol: string }>;
      imports: Array<{ kind: string; status: string; message: string | null }>;
      sources: Array<{ source: string; status: string }>;
    }>('/order/api/market-data/status');
    expect(status).toBe(200);
    expect(body.data.series.map((s) => `${s.source}:${s.symbol}`)).toEqual(expect.arrayContaining(['binance:BTCUSDT', 'dukascopy:EURUSD']));
    expect(body.data.imports.some((i) => i.kind === 'file' && i.status === 'done')).toBe(true);
    expect(body.data.imports.some((i) => i.status === 'failed' && i.message)).toBe(true);
    // File messages name the file, not where it lies on the server.
    expect(body.data.imports.some((i) => i.message?.startsWith('cannot read binance_BTCUSDT_1m.csv: ENOENT'))).toBe(true);
    expect(JSON.stringify(body.data)).not.toContain('/nonexistent/');
    expect(body.data.sources.find((s) => s.source === 'dukascopy')?.status).toBe('done');
  });
});

import { describe, expect, it } from 'vitest';
import { perpetualSymbol } from './exchange';
import { inferSeriesFromFileName, normaliseSeriesKey } from './imports';
import { parseFlags } from './ops';
import { ContractInfoCache, contractInfoOf, pageFor, symbolOfInstId, tacticsFor } from './reference';
import { monthStart, nextMonth } from './store';

describe('market data helpers', () => {
  it('infers series keys from file names', () => {
    expect(inferSeriesFromFileName('/x/binance_BTCUSDT_1m.csv.gz')).toEqual({ source: 'binance', symbol: 'BTCUSDT', timeframe: '1m' });
    expect(inferSeriesFromFileName('oanda_XAUUSD_1h.csv')).toEqual({ source: 'oanda', symbol: 'XAUUSD', timeframe: '1h' });
    expect(inferSeriesFromFileName('BTCUSDT-1m-2024-01-01.csv')).toEqual({ symbol: 'BTCUSDT', timeframe: '1m' });
    expect(inferSeriesFromFileName('ETHUSDT-5m-2024-01.csv.gz')).toEqual({ symbol: 'ETHUSDT', timeframe: '5m' });
    expect(inferSeriesFromFileName('EURUSD_M1.csv')).toEqual({ symbol: 'EURUSD', timeframe: '1m' });
    expect(inferSeriesFromFileName('EURUSD_H4.csv')).toEqual({ symbol: 'EURUSD', timeframe: '4h' });
    expect(inferSeriesFromFileName('XAUUSD_M5_202401020000_202412312355.csv')).toEqual({ symbol: 'XAUUSD', timeframe: '5m' });
    expect(inferSeriesFromFileName('notes.csv')).toEqual({});
    expect(inferSeriesFromFileName('binance_BTCUSDT_7m.csv')).toEqual({});
  });

  it('normalises series keys and refuses bad ones', () => {
    expect(normaliseSeriesKey({ source: ' Binance ', symbol: 'btc-usdt', timeframe: '1h' })).toEqual({
      source: 'binance',
      symbol: 'BTCUSDT',
      timeframe: '1h',
    });
    expect(() => normaliseSeriesKey({ source: 'a b', symbol: 'X1', timeframe: '1m' })).toThrow(/source/);
    expect(() => normaliseSeriesKey({ source: 'a', symbol: '€', timeframe: '1m' })).toThrow(/symbol/);
    expect(() => normaliseSeriesKey({ source: 'a', symbol: 'BTCUSDT', timeframe: '2h' })).toThrow(/timeframe/);
  });

  it('computes UTC month boundaries', () => {
    expect(monthStart(Date.UTC(2024, 1, 29, 23, 59))).toBe(Date.UTC(2024, 1, 1));
    expect(nextMonth(Date.UTC(2024, 11, 1))).toBe(Date.UTC(2025, 0, 1));
  });

  it('maps strategies to the create-order pages of each market', () => {
    expect(pageFor(['crypto_grid', 'forex_grid'], 'forex')).toBe('forex_grid');
    expect(pageFor(['prt'], 'crypto')).toBe('prt');
    expect(pageFor(['crypto_blue'], 'forex')).toBeUndefined();
    const forex = tacticsFor('forex');
    const crypto = tacticsFor('crypto');
    expect(forex.every((t) => !t.page.startsWith('crypto_'))).toBe(true);
    expect(crypto.every((t) => !t.page.startsWith('forex_'))).toBe(true);
    expect(crypto.map((t) => t.type)).not.toContain('day-single');
  });

  it('answers contract info from the catalog and caches it one day', () => {
    expect(symbolOfInstId('BTC-USDT-SWAP')).toBe('BTCUSDT');
    expect(symbolOfInstId('btc-usdt')).toBe('BTCUSDT');
    expect(symbolOfInstId('EURUSD')).toBe('EURUSD');
    expect(contractInfoOf('XRP-USDT-SWAP')).toEqual({ instId: 'XRP-USDT-SWAP', ctVal: '100', ctMult: '1', minSz: '0.01' });
    expect(contractInfoOf('EURUSD')).toEqual({ instId: 'EURUSD', ctVal: '100000', ctMult: '1', minSz: '0.01' });
    expect(contractInfoOf('NOPE-USDT-SWAP')).toBeNull();
    let now = 0;
    let lookups = 0;
    const cache = new ContractInfoCache(
      (id) => {
        lookups++;
        return contractInfoOf(id);
      },
      1000,
      () => now,
    );
    expect(cache.get('BTC-USDT-SWAP')).toMatchObject({ cached: false });
    expect(cache.get('btc-usdt-swap')).toMatchObject({ cached: true, value: { ctVal: '0.01' } });
    now = 1001;
    expect(cache.get('BTC-USDT-SWAP').cached).toBe(false);
    expect(lookups).toBe(2);
  });

  it('maps symbols to ccxt perpetuals and parses operator flags', () => {
    expect(perpetualSymbol('btcusdt')).toBe('BTC/USDT:USDT');
    expect(() => perpetualSymbol('EURUSD')).toThrow(/USDT perpetuals/);
    expect(parseFlags(['f.csv', '--symbol', 'X', '--timeframe=1h'], ['symbol', 'timeframe'])).toEqual({
      positional: ['f.csv'],
      flags: { symbol: 'X', timeframe: '1h' },
    });
    expect(() => parseFlags(['--symbol'], ['symbol'])).toThrow(/needs a value/);
    expect(() => parseFlags(['--x', '1'], ['symbol'])).toThrow(/unknown option --x/);
  });
});

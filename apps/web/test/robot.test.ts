// Robot screens: pure helpers (src/features/robot/model.ts) and the robot create body of the
// create-order form (src/features/backtest/formModel.ts).
import { describe, expect, it } from 'vitest';
import { robotCreateBody as robotCreateBodySchema } from '@lq/contracts';
import { describeFields, idFromQuery, robotCreateBody, robotFields } from '../src/features/backtest/formModel';
import { strategyParamSchemas } from '../src/features/backtest/schemas';
import { actionsOf, factKey, filterTickers, priceKind, formatMoney, periodMs, positionSide, splitReason } from '../src/features/robot/model';

describe('robot model', () => {
  it('offers pause/stop while running, continue/stop while paused, nothing otherwise', () => {
    expect(actionsOf('running')).toEqual(['pause', 'stop']);
    expect(actionsOf('paused')).toEqual(['continue', 'stop']);
    expect(actionsOf('stopping')).toEqual([]);
    expect(actionsOf('stopped')).toEqual([]);
  });
  it('splits reasons into key and detail', () => {
    expect(splitReason('user')).toEqual({ key: 'user', detail: null });
    expect(splitReason('insufficientFunds: Margin is insufficient.')).toEqual({ key: 'insufficientFunds', detail: 'Margin is insufficient.' });
    expect(splitReason('Account has insufficient balance for requested action.')).toEqual({ key: null, detail: 'Account has insufficient balance for requested action.' });
    expect(splitReason('')).toBeNull();
    expect(splitReason(null)).toBeNull();
  });
  it('measures periods', () => {
    expect(periodMs('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', 0)).toBe(86_400_000);
    expect(periodMs('2026-01-01T00:00:00Z', null, Date.parse('2026-01-01T01:00:00Z'))).toBe(3_600_000);
    expect(periodMs(null, null, 0)).toBeUndefined();
    expect(periodMs('2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z', 0)).toBeUndefined();
  });
  it('filters tickers by symbol', () => {
    const t = (symbol: string) => ({ symbol, price: 1, open24h: 1, change24h: 0, at: 0, source: 'x' });
    const list = [t('BTCUSDT'), t('ETHUSDT'), t('EURUSD')];
    expect(filterTickers(list, 'eth').map((x) => x.symbol)).toEqual(['ETHUSDT']);
    expect(filterTickers(list, ' usdt ').map((x) => x.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(filterTickers(list, '')).toHaveLength(3);
  });
  it('formats money with separators, 万 in Chinese, -- for non-numbers', () => {
    expect(formatMoney('1234567.891', 'en-US')).toBe('1,234,567.89');
    expect(formatMoney('-12.5', 'ja-JP')).toBe('-12.50');
    expect(formatMoney('123456', 'zh-CN')).toBe('12.35万');
    expect(formatMoney(9999, 'zh-TW')).toBe('9,999.00');
    expect(formatMoney('abc', 'en-US')).toBe('--');
    expect(formatMoney(null, 'en-US')).toBe('--');
  });
  it('names the side of a net position', () => {
    expect(positionSide(2)).toBe('long');
    expect(positionSide(-0.5)).toBe('short');
    expect(positionSide(0)).toBe('flat');
    expect(positionSide(null)).toBeNull();
  });
});

describe('robot create-order form', () => {
  const fields = describeFields(strategyParamSchemas.grid, 'crypto');
  it('hides the backtest range', () => {
    const names = robotFields(fields).map((f) => f.name);
    expect(names).not.toContain('start');
    expect(names).not.toContain('end');
    expect(names).toContain('leverage');
    expect(names).toContain('capital');
  });
  it('builds the create body: type 1, account, mode, source backtest; no range or market in params', () => {
    const body = robotCreateBody({
      strategy: 'grid',
      dataSource: 'binance',
      params: { symbol: 'BTCUSDT', capital: 10_000, leverage: 5, start: '2025-01-01', end: '2025-02-01', market: 'crypto' },
      accountId: 7,
      mode: 'paper',
      sourceBacktestId: 12,
    });
    expect(body).toEqual({ type: 1, strategy: 'grid', dataSource: 'binance', symbol: 'BTCUSDT', params: { symbol: 'BTCUSDT', capital: 10_000, leverage: 5 }, mode: 'paper', accountId: 7, sourceBacktestId: 12 });
    expect(robotCreateBodySchema.safeParse(body).success).toBe(true);
  });
  it('leaves the account out when none is chosen (the server answers ACCOUNT_REQUIRED)', () => {
    const body = robotCreateBody({ strategy: 'grid', dataSource: 'binance', params: { symbol: 'BTCUSDT' }, accountId: undefined, mode: 'live' });
    expect('accountId' in body).toBe(false);
    expect('sourceBacktestId' in body).toBe(false);
  });
  it('reads ?from= ids', () => {
    expect(idFromQuery('12')).toBe(12);
    expect(idFromQuery('0')).toBeUndefined();
    expect(idFromQuery('1e3')).toBeUndefined();
    expect(idFromQuery(null)).toBeUndefined();
  });
});

describe('timeline facts in a trader’s words', () => {
  it('a count of nothing is not said, a zero position is flat, the rest keep their words', () => {
    expect(factKey('resent', 0)).toBeNull();
    expect(factKey('queried', 0)).toBeNull();
    expect(factKey('orphansCanceled', '0')).toBeNull();
    expect(factKey('resent', 2)).toBe('fact.resent');
    expect(factKey('venuePosition', 0)).toBe('fact.venueFlat');
    expect(factKey('ledgerPosition', 0)).toBe('fact.ledgerFlat');
    expect(factKey('venuePosition', 0.5)).toBe('fact.venuePosition');
    expect(factKey('silentSeconds', 30)).toBe('fact.silentSeconds');
  });
});

describe('market prices said plainly', () => {
  const now = Date.UTC(2026, 10, 27, 12);
  it('imported history is never live; the feed is live only while current; no price is said', () => {
    expect(priceKind({ price: 100, at: now - 60_000, source: 'binance' }, now)).toBe('history');
    expect(priceKind({ price: 100, at: now - 365 * 86_400_000, source: 'binance' }, now)).toBe('history');
    expect(priceKind({ price: 100, at: now - 60_000, source: 'binance:live' }, now)).toBe('live');
    expect(priceKind({ price: 100, at: now - 3_600_000, source: 'binance:live' }, now)).toBe('feedStopped');
    expect(priceKind({ price: null, at: null, source: null }, now)).toBe('none');
  });
});

import { describe, expect, it } from 'vitest';
import { CandleParseError, parseCandlesCsv, resample, sliceByTime, candlesFromRows } from '../src';

describe('parseCandlesCsv', () => {
  it('parses the common format exactly like Number()', () => {
    const c = parseCandlesCsv('time,open,high,low,close,volume\n1704067200000,42283.58,42298.62,42261.02,42298.61,35.92724\n1704067260000,0.1,0.3,0.1,0.2,0\n');
    expect(c.format).toBe('common');
    expect(c.length).toBe(2);
    expect(c.intervalMs).toBe(60_000);
    expect(Array.from(c.open)).toEqual([42283.58, 0.1]);
    expect(c.high[1]).toBe(0.3);
    expect(c.volume[0]).toBe(35.92724);
  });

  it('reads Binance kline dumps without header, µs times → ms, CRLF', () => {
    const c = parseCandlesCsv(
      '1735689600000000,93576.00,93610.93,93537.50,93610.93,8.21827,1735689659999999,768978.9,1451,4.8,449150.6,0\r\n' +
        '1735689660000000,93610.93,93652.00,93606.00,93650.00,9.1,1735689719999999,1,1,1,1,0\r\n',
    );
    expect(c.format).toBe('binance');
    expect(Array.from(c.time)).toEqual([1735689600000, 1735689660000]);
    expect(c.close[1]).toBe(93650);
  });

  it('reads MT5 exports', () => {
    const text =
      '<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>\n' +
      '2024.01.02\t00:00:00\t1.10427\t1.10437\t1.10420\t1.10433\t25\t0\t10\n' +
      '2024.01.02\t00:01:00\t1.10433\t1.10440\t1.10430\t1.10435\t12\t0\t10\n';
    const c = parseCandlesCsv(text);
    expect(c.format).toBe('mt5');
    expect(c.time[0]).toBe(Date.UTC(2024, 0, 2));
    expect(c.time[1] - c.time[0]).toBe(60_000);
    expect(c.volume[0]).toBe(25);
  });

  it('accepts text dates in a headed file (FXCM style)', () => {
    const c = parseCandlesCsv('timestamp,open,high,low,close\n2012-02-01 00:00:00+00:00,1.5,1.6,1.4,1.5\n');
    expect(c.time[0]).toBe(Date.UTC(2012, 1, 1));
  });

  it.each([
    ['time,open,high,low,close,volume\n1,2,3,1,2,0\n2,2,x,1,2,0\n', /line 3: invalid high "x"/],
    ['time,open,high,low,close,volume\n1704067200000,2,3,1,2,0\n1704067200000,2,3,1,2,0\n', /line 3: .*strictly increasing/],
    ['time,open,high,low,close,volume\n1704067200000,2,1.5,1,2,0\n', /line 2: not a candle/],
    ['time,open,high,low,close,volume\n1704067200000,2,3\n', /line 2: expected 6 columns, found 3/],
    ['open,high,low,close\n1,2,3,4\n', /no "time" column/],
    ['time,open,high,low,close,volume\n', /no candles/],
  ])('reports a clear error for %#', (text, message) => {
    expect(() => parseCandlesCsv(text)).toThrow(CandleParseError);
    expect(() => parseCandlesCsv(text)).toThrow(message);
  });

  it('skips blank lines and counts them in line numbers', () => {
    expect(() => parseCandlesCsv('time,open,high,low,close,volume\n\n1704067200000,2,3,1,2,0\n\n1704067260000,2,3,1,q,0\n')).toThrow(/line 5:/);
  });
});

describe('resample / sliceByTime', () => {
  const rows = Array.from({ length: 130 }, (_, i) => ({ time: i * 60_000, open: 100 + i, high: 101 + i + (i === 70 ? 50 : 0), low: 99 + i, close: 100.5 + i, volume: 1 }));
  const m1 = candlesFromRows(rows, 60_000);
  it('aggregates 1m to 1h with open/high/low/close/volume', () => {
    const h = resample(m1, 3_600_000);
    expect(h.length).toBe(3);
    expect(Array.from(h.time)).toEqual([0, 3_600_000, 7_200_000]);
    expect(h.open[1]).toBe(160);
    expect(h.high[1]).toBe(101 + 70 + 50);
    expect(h.low[1]).toBe(159);
    expect(h.close[1]).toBe(219.5);
    expect(h.volume[2]).toBe(10);
  });
  it('rejects intervals that are not multiples', () => {
    expect(() => resample(resample(m1, 300_000), 420_000)).toThrow(/Cannot resample/);
  });
  it('slices by [from, to)', () => {
    const s = sliceByTime(m1, 60_000 * 10, 60_000 * 20);
    expect(s.length).toBe(10);
    expect(s.time[0]).toBe(600_000);
  });
});

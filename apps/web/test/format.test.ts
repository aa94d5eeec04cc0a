import { describe, expect, it } from 'vitest';
import { decimalsOf, formatCompact, formatDuration, formatNumber, formatPercent, formatPrice, groupThousands, localeTag, toNumber } from '../src/lib/format';

describe('toNumber', () => {
  it('accepts numbers and numeric strings, rejects everything else', () => {
    expect(toNumber(1.5)).toBe(1.5);
    expect(toNumber(' 1,234.5 ')).toBe(1234.5);
    expect(toNumber('1e3')).toBe(1000);
    for (const bad of [null, undefined, '', 'abc', '12abc', NaN, Infinity, {}, [], true]) expect(toNumber(bad)).toBeUndefined();
  });
});

describe('formatNumber', () => {
  it('shows -- for non-numbers', () => {
    for (const bad of [null, undefined, '', 'x', NaN, -Infinity]) expect(formatNumber(bad)).toBe('--');
  });
  it('separates thousands', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.891');
    expect(formatNumber(-1234567)).toBe('-1,234,567');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber('1000000')).toBe('1,000,000');
    expect(formatNumber(1234.5, { decimals: 2 })).toBe('1,234.50');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(-0.0000001, { decimals: 2 })).toBe('0.00');
  });
  it('groups only the integer part', () => {
    expect(groupThousands('1234.56789')).toBe('1,234.56789');
  });
});

describe('formatCompact', () => {
  it('uses 万 and 亿 in simplified Chinese', () => {
    expect(formatCompact(12345, 'zh-CN')).toBe('1.23万');
    expect(formatCompact(123456789, 'zh-CN')).toBe('1.23亿');
    expect(formatCompact(-50000, 'zh-CN')).toBe('-5万');
    expect(formatCompact(9999, 'zh-CN')).toBe('9,999');
  });
  it('uses 萬 and 億 in traditional Chinese', () => {
    expect(formatCompact(20000, 'zh-TW')).toBe('2萬');
    expect(formatCompact(300000000, 'zh-TW')).toBe('3億');
  });
  it('uses K/M/B elsewhere and -- for non-numbers', () => {
    expect(formatCompact(1500, 'en-US')).toBe('1.5K');
    expect(formatCompact(2500000, 'ja-JP')).toBe('2.5M');
    expect(formatCompact(999, 'en-US')).toBe('999');
    expect(formatCompact('n/a', 'zh-CN')).toBe('--');
  });
});

describe('formatPercent', () => {
  it('signs the ratio', () => {
    expect(formatPercent(0.1234)).toBe('+12.34%');
    expect(formatPercent(-0.05)).toBe('-5.00%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(-0.00001)).toBe('0.00%');
    expect(formatPercent('0.5', 1)).toBe('+50.0%');
    expect(formatPercent(undefined)).toBe('--');
  });
});

describe('formatPrice', () => {
  it('truncates instead of rounding', () => {
    expect(formatPrice('1.23999', 2)).toBe('1.23');
    expect(formatPrice(1.23999, 2)).toBe('1.23');
    expect(formatPrice('5', 3)).toBe('5.000');
    expect(formatPrice('0.1', 0)).toBe('0');
  });
  it('rounds down to the step', () => {
    expect(formatPrice('1.237', 2, 0.05)).toBe('1.20');
    expect(formatPrice('1.25', 2, 0.05)).toBe('1.25');
    expect(formatPrice('101.9', 1, 0.5)).toBe('101.5');
    expect(formatPrice('0.3', 1, 0.1)).toBe('0.3'); // no 0.1 + 0.2 drift
    expect(formatPrice('27123.456', 1, 0.1)).toBe('27123.4');
    expect(formatPrice('-1.239', 2, 0.01)).toBe('-1.23');
  });
  it('shows -- for non-numbers', () => {
    expect(formatPrice('abc', 2, 0.01)).toBe('--');
  });
  it('knows the decimals of a step', () => {
    expect(decimalsOf(0.001)).toBe(3);
    expect(decimalsOf(1e-7)).toBe(7);
    expect(decimalsOf(5)).toBe(0);
  });
});

describe('formatDuration', () => {
  it('speaks the locale, never a hard-coded unit', () => {
    expect(formatDuration(17.5 * 86_400_000, 'en-US')).toBe('17.5 days');
    expect(formatDuration(17.5 * 86_400_000, 'zh-CN')).toBe('17.5天');
    expect(formatDuration(17.5 * 86_400_000, 'in_ID')).toBe('17,5 hari');
    expect(formatDuration(90 * 60_000, 'ja-JP')).toBe('1.5 時間');
    expect(formatDuration(60_000, 'vi-VN')).toBe('1 phút');
    expect(formatDuration(undefined, 'en-US')).toBe('--');
    for (const locale of ['en-US', 'zh-TW', 'th-TH', 'vi-VN', 'zh-CN', 'ja-JP', 'in_ID']) {
      expect(formatDuration(60_000, locale)).not.toMatch(/\bmin\b/);
      expect(formatDuration(2 * 86_400_000, locale)).not.toMatch(/\bd\b/);
    }
  });
});

describe('messageForField', () => {
  it("drops the API's field prefix: the message sits under the field", async () => {
    const { messageForField } = await import('../src/lib/validation');
    expect(messageForField('params.interval: the BTCUSDT data has 1h candles', 'params.interval')).toBe('The BTCUSDT data has 1h candles');
    expect(messageForField('params.interval: the BTCUSDT data has 1h candles', 'interval')).toBe('The BTCUSDT data has 1h candles');
    expect(messageForField('国家/地区: 不支持', 'country')).toBe('国家/地区: 不支持');
    expect(messageForField('country: 不支持', 'country')).toBe('不支持');
  });
});

describe('one calendar per screen', () => {
  it('dates are Gregorian in every locale (Thai would otherwise write 2563 beside Gregorian date fields)', () => {
    for (const locale of ['th-TH', 'en-US', 'zh-TW', 'ja-JP', 'in_ID', 'vi-VN', 'zh-CN']) {
      const text = new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit' }).format(Date.UTC(2020, 10, 1, 12));
      expect(text, locale).toContain('2020');
      expect(text, locale).not.toContain('2563');
    }
    expect(new Intl.NumberFormat(localeTag('th-TH')).format(1234.5)).toBe('1,234.5');
  });
});

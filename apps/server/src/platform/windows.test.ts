import { describe, expect, it } from 'vitest';
import { dayOf, dayStart, progressWindow, statsWindow } from './windows';

describe('statsWindow', () => {
  it('ends at today 00:00 in the platform timezone and starts 30 calendar days before', () => {
    // 2026-11-28 01:37 UTC is 09:37 in Shanghai (UTC+8): today there began at 2026-11-27 16:00 UTC.
    const w = statsWindow('Asia/Shanghai', new Date('2026-11-28T01:37:00Z'));
    expect(w.to.toISOString()).toBe('2026-11-27T16:00:00.000Z');
    expect(w.from.toISOString()).toBe('2026-10-28T16:00:00.000Z');
    // Just before midnight there, it is still the day before.
    expect(statsWindow('Asia/Shanghai', new Date('2026-11-27T15:59:59Z')).to.toISOString()).toBe('2026-11-26T16:00:00.000Z');
    expect(statsWindow('UTC', new Date('2026-11-28T01:37:00Z')).to.toISOString()).toBe('2026-11-28T00:00:00.000Z');
  });

  it('counts calendar days across a daylight-saving change (30 days, not 720 hours)', () => {
    // New York left daylight saving on 2026-11-01: the window from 2026-10-29 00:00 EDT to 2026-11-28 00:00 EST.
    const w = statsWindow('America/New_York', new Date('2026-11-28T12:00:00Z'));
    expect(w.to.toISOString()).toBe('2026-11-28T05:00:00.000Z');
    expect(w.from.toISOString()).toBe('2026-10-29T04:00:00.000Z');
  });
});

describe('progressWindow and days', () => {
  it('cuts the 30 days at the 1st of the month: empty on the 1st, whole by the 31st', () => {
    const onFirst = progressWindow('Asia/Shanghai', dayStart('2026-12-01', 'Asia/Shanghai'));
    expect(onFirst.from.getTime()).toBe(onFirst.to.getTime());
    const mid = progressWindow('Asia/Shanghai', new Date('2026-11-28T01:37:00Z'));
    expect(mid.from.toISOString()).toBe('2026-10-31T16:00:00.000Z'); // 1 November 00:00 in Shanghai
    expect(mid.to.toISOString()).toBe('2026-11-27T16:00:00.000Z');
    const late = progressWindow('UTC', dayStart('2026-12-31', 'UTC'));
    expect([late.from.toISOString(), late.to.toISOString()]).toEqual(['2026-12-01T00:00:00.000Z', '2026-12-31T00:00:00.000Z']);
  });

  it('reads and names days in the platform timezone', () => {
    expect(dayStart('2026-11-28', 'Asia/Shanghai').toISOString()).toBe('2026-11-27T16:00:00.000Z');
    expect(dayOf(new Date('2026-11-27T16:30:00Z'), 'Asia/Shanghai')).toBe('2026-11-28');
    expect(() => dayStart('2026-02-30', 'UTC')).toThrow(/no such day/);
    expect(() => dayStart('28.11.2026', 'UTC')).toThrow(/YYYY-MM-DD/);
  });
});

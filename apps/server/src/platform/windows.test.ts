import { describe, expect, it } from 'vitest';
import { statsWindow } from './windows';

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

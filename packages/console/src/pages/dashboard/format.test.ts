import { describe, expect, it } from 'vitest';
import { formatCount, formatDay, formatDelta } from './format.ts';

describe('dashboard formatting', () => {
  it('formats a UTC day as that day in every language, whatever the viewer’s time zone', () => {
    // 1 January at 00:00 UTC is still 31 December in America: the label must not move back a day.
    expect(formatDay('2026-01-01', 'en')).toBe('Jan 1');
    expect(formatDay('2026-01-01', 'de')).toBe('1. Jan.');
    expect(formatDay('2026-12-31', 'en', 'long')).toBe('Thu, December 31, 2026');
    expect(formatDay('2026-11-21', 'ar')).not.toMatch(/[A-Za-z]/);
  });

  it('signs a change and groups digits in the interface language', () => {
    expect(formatDelta(3, 'en')).toBe('+3');
    expect(formatDelta(-2, 'en')).toBe('-2');
    expect(formatDelta(0, 'en')).toBe('0');
    expect(formatCount(1234567, 'en')).toBe('1,234,567');
    expect(formatCount(1234567, 'de')).toBe('1.234.567');
  });
});

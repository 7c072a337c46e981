import { describe, expect, it } from 'vitest';
import { durationParts, formatSeconds, formatTtl } from './ttl.ts';

describe('durationParts', () => {
  it('splits seconds into the largest whole units and leaves zeros out', () => {
    expect(durationParts(3600)).toEqual({ hours: 1 });
    expect(durationParts(90_061)).toEqual({ days: 1, hours: 1, minutes: 1, seconds: 1 });
    expect(durationParts(31_536_000)).toEqual({ days: 365 });
    expect(durationParts(59)).toEqual({ seconds: 59 });
  });
});

describe('formatTtl', () => {
  it('reads as a duration in the interface language', () => {
    expect(formatTtl(3600, 'en')).toBe('1 hour');
    expect(formatTtl(5400, 'en')).toBe('1 hour, 30 minutes');
    expect(formatTtl(86_400, 'de')).toBe('1 Tag');
  });

  it('falls back to seconds for zero', () => {
    expect(formatTtl(0, 'en')).toBe(formatSeconds(0, 'en'));
    expect(formatSeconds(3600, 'en')).toBe('3,600 seconds');
  });
});

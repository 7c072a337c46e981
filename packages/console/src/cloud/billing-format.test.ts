import { describe, expect, it } from 'vitest';
import {
  formatBillingDate,
  formatBillingPeriod,
  formatMoney,
  formatPlanCycle,
  formatQuota,
  formatUsage,
  formatUsagePercent,
} from './billing-format.ts';

// Intl writes some separators as non-breaking spaces; compare what a reader sees.
const plain = (text: string) => text.replace(/[\u00a0\u2009\u202f]/g, ' ');

describe('usage display (spec §9)', () => {
  it('writes usage with thousands separators in the language', () => {
    expect(formatUsage(1234, 'en')).toBe('1,234');
    expect(formatUsage(1234567, 'en')).toBe('1,234,567');
    expect(formatUsage(1234, 'de')).toBe('1.234');
    expect(formatUsage(12, 'en')).toBe('12');
  });

  it('shortens quotas with K and M and one decimal at most', () => {
    expect(formatQuota(999, 'en')).toBe('999');
    expect(formatQuota(1000, 'en')).toBe('1K');
    expect(formatQuota(1234, 'en')).toBe('1.2K');
    expect(formatQuota(50_000, 'en')).toBe('50K');
    expect(formatQuota(500_000, 'en')).toBe('500K');
    expect(formatQuota(1_500_000, 'en')).toBe('1.5M');
    expect(formatQuota(1999, 'en')).toBe('1.9K');
    expect(formatQuota(1234, 'de')).toBe('1,2K');
  });

  it('shows a percentage only for a numeric quota with usage above 0', () => {
    expect(formatUsagePercent(0, 50_000, 'en')).toBeUndefined();
    expect(formatUsagePercent(10, null, 'en')).toBeUndefined();
    expect(formatUsagePercent(10, true, 'en')).toBeUndefined();
    expect(formatUsagePercent(1, 0, 'en')).toBeUndefined();
    expect(formatUsagePercent(25_000, 50_000, 'en')).toBe('50%');
    expect(formatUsagePercent(3, 3, 'en')).toBe('100%');
    expect(formatUsagePercent(4, 3, 'en')).toBe('133%');
    expect(formatUsagePercent(1, 50_000, 'en')).toBe('<1%');
    expect(plain(formatUsagePercent(25_000, 50_000, 'de') ?? '')).toBe('50 %');
  });
});

describe('money (spec §9: cents, two decimals, dollars)', () => {
  it('writes cents as dollars in the language', () => {
    expect(formatMoney(1600, 'en')).toBe('$16.00');
    expect(plain(formatMoney(1600, 'de'))).toBe('16,00 $');
    expect(formatMoney(0, 'en')).toBe('$0.00');
    expect(formatMoney(123_456, 'en')).toBe('$1,234.56');
  });
});

describe('billing dates (spec §9)', () => {
  const start = Date.UTC(2026, 10, 1);
  const end = Date.UTC(2026, 11, 1);

  it("writes the plan cycle as 'MMM D, YYYY – MMM D, YYYY' in UTC", () => {
    expect(formatPlanCycle(start, end, 'en')).toBe('Nov 1, 2026 – Dec 1, 2026');
    expect(formatBillingDate(end, 'en')).toBe('Dec 1, 2026');
    expect(formatPlanCycle(start, end, 'de')).toBe('1. Nov. 2026 – 1. Dez. 2026');
  });

  it("writes billing periods as 'MMM D – MMM D, YYYY', with both years across a new year", () => {
    expect(plain(formatBillingPeriod(start, end, 'en'))).toBe('Nov 1 – Dec 1, 2026');
    expect(plain(formatBillingPeriod(Date.UTC(2026, 11, 1), Date.UTC(2027, 0, 1), 'en'))).toBe(
      'Dec 1, 2026 – Jan 1, 2027',
    );
  });
});

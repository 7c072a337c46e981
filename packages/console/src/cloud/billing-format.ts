import type { QuotaValue } from '@gatehouse/schemas';

/**
 * Spec §9 usage display: how the console writes usage counts, quotas, percentages, money and billing dates. Pure
 * functions of the interface language, on the browser's Intl (the console's only date and number library).
 */

/** Usage counts with the language's thousands separators ('1,234', '1.234'). */
export function formatUsage(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/**
 * Quotas shortened with K from 1,000 and M from 1,000,000 with at most one decimal ('1.2K', '1.5M', '50K'); the
 * letters are the spec's, the decimal separator the language's ('1,2K' in German).
 */
export function formatQuota(value: number, language: string): string {
  const oneDecimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  // Rounded down so a quota is never shown as more than it is (1,999 is '1.9K', not '2K').
  const truncate = (scaled: number) => Math.floor(scaled * 10) / 10;
  if (value >= 1_000_000) return `${oneDecimal.format(truncate(value / 1_000_000))}M`;
  if (value >= 1_000) return `${oneDecimal.format(truncate(value / 1_000))}K`;
  return oneDecimal.format(value);
}

/**
 * The share of a numeric quota in use, or undefined when none shows (spec §9: only when the quota is a number and
 * the usage is above 0; a quota of 0 has no meaningful share). Under 1% reads '<1%' rather than a misleading '0%'.
 */
export function formatUsagePercent(usage: number, quota: QuotaValue, language: string): string | undefined {
  if (typeof quota !== 'number' || quota <= 0 || usage <= 0) return undefined;
  const ratio = usage / quota;
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
  return ratio < 0.01 ? `<${percent.format(0.01)}` : percent.format(ratio);
}

/** Spec §9 money: cents to dollars with two decimals in the language's currency format ('$16.00', '16,00 $'). */
export function formatMoney(cents: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(
    cents / 100,
  );
}

// Billing periods are UTC calendar bounds on the server (a month starts at 00:00 UTC), so they are written in UTC:
// in a zone west of UTC the local time would move every date one day back.
const dateOptions = { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' } as const;

/** Spec §9 plan cycle: 'MMM D, YYYY – MMM D, YYYY' in the interface language. */
export function formatPlanCycle(start: number, end: number, language: string): string {
  const date = new Intl.DateTimeFormat(language, dateOptions);
  return `${date.format(start)} – ${date.format(end)}`;
}

/** One date of a billing cycle ('Dec 1, 2026'), for the renewal and next-bill lines. */
export function formatBillingDate(epochMs: number, language: string): string {
  return new Intl.DateTimeFormat(language, dateOptions).format(epochMs);
}

/**
 * Spec §9 billing period labels: 'MMM D – MMM D, YYYY' when both ends share a year ('Nov 1 – Dec 1, 2026'), both
 * years otherwise; the language's own range pattern decides the order and the dash.
 */
export function formatBillingPeriod(start: number, end: number, language: string): string {
  return new Intl.DateTimeFormat(language, dateOptions).formatRange(start, end);
}

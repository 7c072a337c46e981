/** Activity days are UTC calendar days (`YYYY-MM-DD`): they are formatted in UTC so no day shifts by a time zone. */
export const dayToDate = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

/** A short day label in the interface language ('Nov 21', '21 нояб.', '٢١ نوفمبر'). */
export function formatDay(day: string, language: string, style: 'short' | 'long' = 'short'): string {
  return new Intl.DateTimeFormat(language, {
    timeZone: 'UTC',
    month: style === 'short' ? 'short' : 'long',
    day: 'numeric',
    ...(style === 'long' ? { year: 'numeric', weekday: 'short' } : {}),
  }).format(dayToDate(day));
}

export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/** A signed change ('+3', '−2', '0') in the interface language. */
export function formatDelta(value: number, language: string): string {
  return new Intl.NumberFormat(language, { signDisplay: 'exceptZero' }).format(value);
}

/** Whether a series has anything to draw: days all at zero are 'no data yet', explained instead of a flat line. */
export function hasActivity(points: readonly { count: number }[]): boolean {
  return points.some((point) => point.count > 0);
}

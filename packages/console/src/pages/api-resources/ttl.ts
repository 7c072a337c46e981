/** Seconds split into the largest whole units, zeros left out: 90061 → {days: 1, hours: 1, minutes: 1, seconds: 1}. */
export type DurationParts = { days?: number; hours?: number; minutes?: number; seconds?: number };

export function durationParts(totalSeconds: number): DurationParts {
  const units = [
    ['days', 86_400],
    ['hours', 3600],
    ['minutes', 60],
    ['seconds', 1],
  ] as const;
  const parts: DurationParts = {};
  let rest = Math.max(0, Math.floor(totalSeconds));
  for (const [unit, size] of units) {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    if (amount > 0) parts[unit] = amount;
  }
  return parts;
}

/** Intl.DurationFormat is in every browser we support but not yet in TypeScript's ES2023 library. */
type DurationFormatConstructor = new (
  locale: string,
  options: { style: 'long' | 'short' | 'narrow' },
) => { format: (duration: DurationParts) => string };

/** A TTL as people read it ('1 hour', '1 day, 2 hours'); plain seconds where the browser lacks DurationFormat. */
export function formatTtl(seconds: number, locale: string): string {
  const DurationFormat = (Intl as { DurationFormat?: DurationFormatConstructor }).DurationFormat;
  if (DurationFormat && seconds > 0)
    return new DurationFormat(locale, { style: 'long' }).format(durationParts(seconds));
  return formatSeconds(seconds, locale);
}

/** '3,600 seconds' in the interface language (the unit's name comes from the browser, not our translations). */
export function formatSeconds(seconds: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(seconds);
}

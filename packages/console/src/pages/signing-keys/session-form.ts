import { oidcSessionConfigPatchSchema } from '@gatehouse/schemas';
import { z } from 'zod';

/** The units the session lifetime is typed in; the API stores seconds. */
export const sessionUnits = ['days', 'hours', 'minutes', 'seconds'] as const;
export type SessionUnit = (typeof sessionUnits)[number];
const unitSeconds: Record<SessionUnit, number> = { days: 86_400, hours: 3_600, minutes: 60, seconds: 1 };

export type SessionFormValues = { value: number | null; unit: SessionUnit };

/** Seconds in the largest unit that holds them whole (1209600 → 14 days, 5400 → 90 minutes). */
export function toSessionForm(ttl: number): SessionFormValues {
  const unit = sessionUnits.find((candidate) => ttl % unitSeconds[candidate] === 0) ?? 'seconds';
  return { value: ttl / unitSeconds[unit], unit };
}

export function toTtl({ value, unit }: SessionFormValues): number {
  return (value ?? 0) * unitSeconds[unit];
}

/**
 * The rule of PATCH the OIDC session config (reference: 1 second to 1 year) on the number typed: a whole number of the
 * unit whose seconds the API accepts. The issue names the rule (`range`); the form words it.
 */
export const sessionFormSchema = z
  .object({ value: z.number().nullable(), unit: z.enum(sessionUnits) })
  .superRefine((values, context) => {
    const ttl = toTtl(values);
    if (
      values.value === null ||
      !Number.isInteger(values.value) ||
      !oidcSessionConfigPatchSchema.safeParse({ ttl }).success
    ) {
      context.addIssue({ code: 'custom', message: 'range', path: ['value'] });
    }
  });

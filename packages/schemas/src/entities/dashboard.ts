import { z } from 'zod';

/** A UTC calendar day, `YYYY-MM-DD` (the dashboard's unit of activity). */
export const utcDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((value) => {
    const at = new Date(`${value}T00:00:00.000Z`);
    // `2026-02-30` parses as March 2nd, `2026-13-01` not at all: a real day prints back unchanged.
    return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(value);
  }, 'must be a real date');

/** A count and its change from the period before (reference API dashboard shape). */
export const countWithDeltaSchema = z.object({ count: z.number().int(), delta: z.number().int() });
export type CountWithDelta = z.infer<typeof countWithDeltaSchema>;

export const totalUsersSchema = z.object({ totalUserCount: z.number().int() });
export type TotalUsers = z.infer<typeof totalUsersSchema>;

/** Users created today (UTC) and in the last 7 days, each with the change from the period before. */
export const newUsersSchema = z.object({ today: countWithDeltaSchema, last7Days: countWithDeltaSchema });
export type NewUsers = z.infer<typeof newUsersSchema>;

/** Days in the daily-active-users curve, ending at the requested day. */
export const DAU_CURVE_DAYS = 30;

export const activeUsersSchema = z.object({
  /** One point per day, oldest first, the last being the requested day. */
  dauCurve: z.array(z.object({ date: z.string(), count: z.number().int() })),
  dau: countWithDeltaSchema,
  wau: countWithDeltaSchema,
  mau: countWithDeltaSchema,
});
export type ActiveUsers = z.infer<typeof activeUsersSchema>;

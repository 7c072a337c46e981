import { z } from 'zod';

/**
 * The sign-in lockout's records (the reference's "sentinel activities"). `POST /sentinel-activities/delete` unlocks
 * identifiers the lockout holds: the failed attempts counted against them stop counting.
 */

/** What a target names: a user's identifier (the reference's `User`) or an application (`App`). */
export const sentinelActivityTargetTypes = ['User', 'App'] as const;
export type SentinelActivityTargetType = (typeof sentinelActivityTargetTypes)[number];

/** At most this many targets per request (the reference has no bound; one user has three identifiers). */
export const SENTINEL_TARGETS_MAX = 100;

export const sentinelActivitiesDeleteSchema = z.strictObject({
  targetType: z.enum(sentinelActivityTargetTypes),
  /** For `User`: usernames, email addresses, phone numbers (as typed at sign-in) or user ids. */
  targets: z.array(z.string().min(1).max(256)).max(SENTINEL_TARGETS_MAX),
});
export type SentinelActivitiesDelete = z.infer<typeof sentinelActivitiesDeleteSchema>;

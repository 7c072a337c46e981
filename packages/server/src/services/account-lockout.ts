import { and, asc, count, gt, type SQL, sql } from 'drizzle-orm';
import { logs, signInLockoutResets } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { readSignInExperienceSettings } from './sign-in-experience.ts';

/**
 * Lockout of every factor checked at sign-in (passwords, second factors): one rule, one implementation. The attempts
 * of one account are serialised by a transaction-scoped lock; under it the caller's recent failures (audit entries of
 * its key with `result: 'Error'`) are counted, and the caller writes its own attempt in the same transaction, so
 * parallel guesses see each other and at most the tenant's `maxFailures` are ever checked per window.
 */

/**
 * After this many failures for one account within the window, sign-in is refused until the oldest one expires. The
 * account is the user, whatever identifier was typed (username or email); an identifier that names no user is counted
 * on its own.
 */
export const LOCKOUT = { maxFailures: 5, windowMinutes: 15 } as const;

/**
 * The tenant's lockout: its sign-in experience's `sentinelPolicy` (reference names: `maxAttempts` failures, locked
 * for `lockoutDuration` minutes), each part defaulting to `LOCKOUT`. The lock lasts until the oldest failure of the
 * window is `lockoutDuration` old, so the window and the lock are the same length.
 */
export async function lockoutOf(tenant: TenantDb): Promise<Lockout> {
  const { sentinelPolicy } = await readSignInExperienceSettings(tenant);
  return {
    maxFailures: sentinelPolicy.maxAttempts ?? LOCKOUT.maxFailures,
    windowMinutes: sentinelPolicy.lockoutDuration ?? LOCKOUT.windowMinutes,
  };
}

/**
 * Serialises the attempts on one account until the end of the transaction (a transaction-scoped advisory lock; a
 * hash collision only makes two accounts wait for each other).
 */
export async function lockAccount(tx: TenantDb, account: string): Promise<void> {
  // An aggregate always answers one row, so the lock in its select list is taken even when nothing matches.
  await tx.aggregate(
    {
      rows: count(),
      locked: sql`(select 1 from pg_advisory_xact_lock(hashtext(${`sign-in:${tx.tenantId}:${account}`})))`,
    },
    logs,
    sql`false`,
  );
}

/**
 * The lockout accounts of a user, as the sign-in (`user:`, services/sign-in.ts) and the second factor (`mfa:`,
 * services/mfa-sign-in.ts) name them; an identifier that names no user is `identifier:<identifier>`.
 */
export const lockoutAccountsOf = (userId: string) => [`user:${userId}`, `mfa:${userId}`];

export type Lockout = { maxFailures: number; windowMinutes: number };
export type LockoutState = { locked: false } | { locked: true; retryAfterMinutes: number };

/** When an admin last unlocked the account (a scalar subquery: null when never). */
const unlockedAt = (tx: TenantDb, account: string) =>
  sql`(select ${signInLockoutResets.resetAt} from ${signInLockoutResets}
       where ${signInLockoutResets.tenantId} = ${tx.tenantId} and ${signInLockoutResets.account} = ${account})`;

/**
 * Takes the account's lock for the rest of the caller's transaction and tells whether it is locked out: `key`'s
 * failures among `entries` (the account's audit entries) since `since` (the window's start, or a later completed
 * sign-in) and since the account's last unlock by an admin (`POST /sentinel-activities/delete`, read in the same
 * statement). Locked until the oldest of them leaves the window.
 */
export async function lockoutState(
  tx: TenantDb,
  check: { account: string; key: string; entries: SQL; since: Date; lockout: Lockout },
): Promise<LockoutState> {
  await lockAccount(tx, check.account);
  const failures = await tx.findMany(logs, {
    where: and(
      sql`${logs.key} = ${check.key}`,
      gt(logs.createdAt, check.since),
      sql`${logs.createdAt} > coalesce(${unlockedAt(tx, check.account)}, '-infinity'::timestamptz)`,
      check.entries,
      sql`${logs.payload}->>'result' = 'Error'`,
    ),
    orderBy: [asc(logs.createdAt)],
    limit: check.lockout.maxFailures,
  });
  if (failures.length < check.lockout.maxFailures) return { locked: false };
  const oldest = failures[0]?.createdAt.getTime() ?? Date.now();
  const windowMs = check.lockout.windowMinutes * 60_000;
  return { locked: true, retryAfterMinutes: Math.max(1, Math.ceil((oldest + windowMs - Date.now()) / 60_000)) };
}

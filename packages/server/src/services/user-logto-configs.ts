import type { StoredUserLogtoConfig, UserLogtoConfig, UserLogtoConfigPatch } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { findUser, type UserRow, updateUser } from './users.ts';
import type { WriteContext } from './write-path.ts';

/**
 * A user's `logtoConfig` as the reference's `/users/{userId}/logto-configs` shows it, mapped onto what Gatehouse keeps:
 *
 * - `mfa.skipped` is `users.mfa_skipped_at` ("Skip for now" at an optional MFA prompt): true sets it (kept when already
 *   set), false clears it, so the prompting policies ask again.
 * - `passkeySignIn.skipped` is kept in `users.logto_config` and honoured: a user who has it is not offered a passkey
 *   after a password sign-in, in any browser (declining the offer in a browser is also remembered there, by a cookie).
 * - `mfa.enabled` and `mfa.skipMfaOnSignIn` are stored as given and change nothing at sign-in: a factor the user holds
 *   is always asked for (services/mfa-sign-in.ts), so the reference's opt-out of MFA verification is not offered.
 */

export function toUserLogtoConfig(row: Pick<UserRow, 'mfaSkippedAt' | 'logtoConfig'>): UserLogtoConfig {
  const stored = row.logtoConfig;
  return {
    mfa: {
      ...(stored.mfa?.enabled === undefined ? {} : { enabled: stored.mfa.enabled }),
      skipped: row.mfaSkippedAt !== null,
      skipMfaOnSignIn: stored.mfa?.skipMfaOnSignIn ?? false,
    },
    passkeySignIn: { skipped: stored.passkeySignIn?.skipped ?? false },
  };
}

export async function getUserLogtoConfig(tenant: TenantDb, userId: string): Promise<UserLogtoConfig> {
  return toUserLogtoConfig(await findUser(tenant, userId));
}

/** The given fields change, the others stay (an empty body changes nothing). Audited as the user's update. */
export async function patchUserLogtoConfig(
  ctx: WriteContext,
  userId: string,
  patch: UserLogtoConfigPatch,
): Promise<UserLogtoConfig> {
  const row = await updateUser(ctx, userId, {
    change: (existing) => {
      const { skipped, ...mfaFlags } = patch.mfa ?? {};
      const stored: StoredUserLogtoConfig = {
        ...existing.logtoConfig,
        mfa: { ...existing.logtoConfig.mfa, ...definedOnly(mfaFlags) },
        passkeySignIn: { ...existing.logtoConfig.passkeySignIn, ...definedOnly(patch.passkeySignIn ?? {}) },
      };
      return {
        logtoConfig: stored,
        ...(skipped === undefined ? {} : { mfaSkippedAt: skipped ? (existing.mfaSkippedAt ?? new Date()) : null }),
      };
    },
    audit: (before, after) => ({
      before: { logtoConfig: toUserLogtoConfig(before) },
      after: { logtoConfig: toUserLogtoConfig(after) },
    }),
  });
  return toUserLogtoConfig(row);
}

/** Whether the user declined the offer of a passkey for good (`passkeySignIn.skipped`). */
export async function passkeyOfferSkipped(tenant: TenantDb, userId: string): Promise<boolean> {
  const user = await tenant.findOne(users, eq(users.id, userId));
  return user?.logtoConfig.passkeySignIn?.skipped === true;
}

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

import type { SentinelActivitiesDelete } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import { signInLockoutResets, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { lockoutAccountsOf } from './account-lockout.ts';
import { findByIdentifier } from './sign-in.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * `POST /sentinel-activities/delete` (the reference's unlock): the failed attempts counted against the targets stop
 * counting, so a locked identifier can sign in at once. Gatehouse counts failures from the audit log
 * (services/account-lockout.ts), which is never rewritten: an unlock records when it happened per lockout account
 * (`sign_in_lockout_resets`), and the lockout counts only the failures after it.
 *
 * A `User` target is what was typed at sign-in (a username, email address or phone number) or a user id. It unlocks
 * the user it names (password and second-factor lockouts: both are counted per user, whatever identifier was typed)
 * and the identifier itself (attempts with an identifier that names no user are counted on their own). `App` targets
 * are accepted as the reference's are and unlock nothing: Gatehouse locks no application (a wrong client secret is
 * throttled per client for a short window, not locked by an admin-visible record).
 */

/** The lockout accounts a `User` target names: its own identifier, and the user it names, if any. */
async function accountsOfTarget(tx: TenantDb, target: string): Promise<{ accounts: string[]; userId?: string }> {
  const identifier = target.trim().toLowerCase();
  const user =
    (await findByIdentifier(tx, identifier, ['username', 'email', 'phone'])) ??
    (await tx.findOne(users, eq(users.id, target)));
  const accounts = [`identifier:${identifier}`];
  if (!user) return { accounts };
  return { accounts: [...accounts, ...lockoutAccountsOf(user.id)], userId: user.id };
}

export async function deleteSentinelActivities(ctx: WriteContext, input: SentinelActivitiesDelete): Promise<void> {
  const targets = [...new Set(input.targets)];
  await performWrite(ctx, 'Admin.SentinelActivity.Deleted', async (tx) => {
    const accounts = new Set<string>();
    const userIds = new Set<string>();
    if (input.targetType === 'User') {
      for (const target of targets) {
        const named = await accountsOfTarget(tx, target);
        for (const account of named.accounts) accounts.add(account);
        if (named.userId) userIds.add(named.userId);
      }
    }
    if (accounts.size > 0) {
      const now = new Date();
      const rows = [...accounts].map((account) => ({ tenantId: tx.tenantId, account, resetAt: now }));
      await tx.asTenant((db) =>
        db
          .insert(signInLockoutResets)
          .values(rows)
          .onConflictDoUpdate({
            target: [signInLockoutResets.tenantId, signInLockoutResets.account],
            set: { resetAt: sql`excluded.reset_at` },
          }),
      );
    }
    return {
      result: undefined,
      entity: { type: 'SentinelActivity', id: input.targetType },
      before: null,
      after: { targetType: input.targetType, targets, userIds: [...userIds] },
    };
  });
}

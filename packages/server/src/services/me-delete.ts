import {
  type AccountDeletionBlocker,
  type AccountDeletionPreview,
  type AccountDeletionTenant,
  ADMIN_TENANT_ID,
  DomainError,
  type MeDelete,
  tenantIdOfOrganization,
  tenantOrganizationId,
} from '@gatehouse/schemas';
import { asc, eq, inArray } from 'drizzle-orm';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import type { Database } from '../db/client.ts';
import { allOf } from '../db/conditions.ts';
import { tenantRoleId } from '../db/seed.ts';
import {
  checkoutSessions,
  organizations,
  organizationUserRoles,
  organizationUsers,
  tenantSubscriptions,
  tenants,
  users,
} from '../db/tables.ts';
import { currentUser } from './me.ts';
import { billingOf } from './subscriptions.ts';
import { removeTenantMember } from './tenant-members.ts';
import { adminTenant, deleteTenant, isReservedTenant, strongestRole, type TenantRow } from './tenants.ts';
import { endUserSessions } from './user-sessions.ts';
import { auditImage, toUser } from './users.ts';
import { isValidPasswordVerification } from './verification-records.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * Deleting one's own console account (cloud edition, issue 42; docs/areas/me.md#deleting-the-account). The tenants
 * the account alone administers are deleted with all their data, as `DELETE /api/tenants/{id}` deletes them; the
 * others it leaves; then the account itself goes with its sessions, grants, tokens, factors and identities. A tenant
 * that would be deleted while someone pays for it (a plan other than Free or Development, a subscription that is
 * not active, open invoices) blocks the whole deletion. Everything in the database happens in one transaction.
 */

/** Plans a deleted tenant may be on: the free ones (spec §4 "Delete account"). */
const freePlanIds: ReadonlySet<string> = new Set(['Free', 'Development']);

type Plan = {
  deletes: TenantRow[];
  leaves: TenantRow[];
  blockers: AccountDeletionBlocker[];
};

const byAge = (a: TenantRow, b: TenantRow) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);
const toRef = (row: TenantRow): AccountDeletionTenant => ({ id: row.id, name: row.name });

/**
 * What deleting the account would do: a tenant is deleted when the account is its only admin, left otherwise (a
 * collaborator, or one admin among several); the deleted ones are checked for what blocks. With `lock` (inside the
 * deletion's transaction) the account's tenant organizations are locked first, so a member leaving or a role
 * changing meanwhile waits and the plan holds until the commit, and so are the subscriptions of the tenants to
 * delete (a checkout completing meanwhile waits, then finds its tenant gone).
 */
async function planDeletion(db: Database, userId: string, lock: boolean): Promise<Plan> {
  const admin = adminTenant(db);
  const memberships = await admin.findMany(organizationUsers, { where: eq(organizationUsers.userId, userId) });
  const organizationIds = memberships
    .map((row) => row.organizationId)
    .filter((organizationId) => tenantIdOfOrganization(organizationId) !== undefined)
    .sort();
  if (!organizationIds.length) return { deletes: [], leaves: [], blockers: [] };
  if (lock) {
    // One order for every locker (ids sorted); the members' own changes lock one organization each.
    await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(allOf(eq(organizations.tenantId, ADMIN_TENANT_ID), inArray(organizations.id, organizationIds)))
      .orderBy(asc(organizations.id))
      .for('update');
  }
  const tenantIds = organizationIds.flatMap((organizationId) => tenantIdOfOrganization(organizationId) ?? []);
  // One after the other: inside the deletion's transaction they share its one connection.
  const rows = await db.select().from(tenants).where(inArray(tenants.id, tenantIds));
  const held = await admin.findMany(organizationUserRoles, {
    where: inArray(organizationUserRoles.organizationId, organizationIds),
  });
  const adminRoleId = tenantRoleId('admin');
  const deletes: TenantRow[] = [];
  const leaves: TenantRow[] = [];
  for (const row of rows.sort(byAge)) {
    const organizationId = tenantOrganizationId(row.id);
    const roles = held.filter((role) => role.organizationId === organizationId);
    const mine = strongestRole(roles.filter((role) => role.userId === userId).map((role) => role.organizationRoleId));
    const otherAdmins = roles.filter((role) => role.userId !== userId && role.organizationRoleId === adminRoleId);
    (mine === 'admin' && otherAdmins.length === 0 ? deletes : leaves).push(row);
  }
  return { deletes, leaves, blockers: await blockersOf(db, deletes, lock) };
}

/** The issues of the tenants to delete, one entry per tenant and reason, in the tenants' order. */
async function blockersOf(db: Database, rows: TenantRow[], lock: boolean): Promise<AccountDeletionBlocker[]> {
  if (!rows.length) return [];
  if (lock) {
    await db
      .select({ tenantId: tenantSubscriptions.tenantId })
      .from(tenantSubscriptions)
      .where(
        inArray(
          tenantSubscriptions.tenantId,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(asc(tenantSubscriptions.tenantId))
      .for('update');
  }
  const billing = await billingOf(db, rows);
  return rows.flatMap((row) => {
    const blocker = (reason: AccountDeletionBlocker['reason']): AccountDeletionBlocker => ({
      tenantId: row.id,
      tenantName: row.name,
      reason,
    });
    if (isReservedTenant(row.id)) return [blocker('reserved_tenant')];
    const tenantBilling = billing.get(row.id);
    if (!tenantBilling) return [];
    const issues: AccountDeletionBlocker[] = [];
    if (!freePlanIds.has(tenantBilling.planId)) issues.push(blocker('paid_plan'));
    if (tenantBilling.subscription.status !== 'active') issues.push(blocker('subscription_inactive'));
    if (tenantBilling.openInvoices.length > 0) issues.push(blocker('open_invoices'));
    return issues;
  });
}

export type AccountDeletionResult = { deleted: AccountDeletionTenant[]; left: AccountDeletionTenant[] };

/** The account's deletion, bound to the database and to what the process caches of a tenant. */
export type AccountDeletion = {
  /** What `delete` would do now (`GET /api/me/deletion-preview`). */
  preview(userId: string): Promise<AccountDeletionPreview>;
  /**
   * Deletes the signed-in account (`ctx.actor`): 401 when it is gone already, 422 `verification_record.invalid`
   * without a fresh proof of its password (when it has one), 422 `user.delete_blocked` with `data.blockers`.
   */
  delete(ctx: Omit<WriteContext, 'tenant'>, keys: SigningKeyStore, input: MeDelete): Promise<AccountDeletionResult>;
};

export type AccountDeletionDeps = {
  /** Drops what this process caches of a deleted tenant and removes its files (the cloud API's `forgetTenant`). */
  forgetTenant: (tenantId: string) => void;
};

export function accountDeletion(db: Database, deps: AccountDeletionDeps): AccountDeletion {
  return {
    async preview(userId) {
      await currentUser(adminTenant(db), userId);
      const plan = await planDeletion(db, userId, false);
      return { deletes: plan.deletes.map(toRef), leaves: plan.leaves.map(toRef), blockers: plan.blockers };
    },

    async delete(ctx, keys, input) {
      const userId = ctx.actor.id;
      const user = await currentUser(adminTenant(db), userId);
      if (
        user.passwordEncrypted &&
        !(input.verificationRecordId && (await isValidPasswordVerification(keys, input.verificationRecordId, user)))
      ) {
        throw new DomainError('unprocessable', 'verification_record.invalid');
      }
      const result = await db.transaction(async (transaction) => {
        const tx = transaction as unknown as Database;
        // The account's row first: a membership being added meanwhile (a tenant created, an invitation accepted)
        // holds a key-share lock on it until it commits, so the plan below sees it; one added later waits, then
        // finds no account.
        const [locked] = await tx
          .select({ id: users.id })
          .from(users)
          .where(allOf(eq(users.tenantId, ADMIN_TENANT_ID), eq(users.id, userId)))
          .for('update');
        if (!locked) throw new DomainError('unauthorized', 'auth.unauthorized', { reason: 'subject' });
        const plan = await planDeletion(tx, userId, true);
        if (plan.blockers.length)
          throw new DomainError('unprocessable', 'user.delete_blocked', { blockers: plan.blockers });
        // The cloud API's own tenant deletion and leave, each with its audit entry, as if done one by one.
        for (const tenant of plan.deletes) await deleteTenant(tx, ctx, { tenant, role: 'admin', scopes: [] });
        for (const tenant of plan.leaves)
          await removeTenantMember({ ...ctx, tenant: adminTenant(tx) }, tenant.id, userId);
        const deleted = plan.deletes.map(toRef);
        const left = plan.leaves.map(toRef);
        await performWrite({ ...ctx, tenant: adminTenant(tx) }, 'Account.Deleted', async (admin) => {
          // Factors, identities, personal access tokens, reset codes and roles cascade with the row.
          const [row] = await admin.delete(users, eq(users.id, userId));
          if (!row) throw new DomainError('unauthorized', 'auth.unauthorized', { reason: 'subject' });
          // Sessions, grants, refresh tokens and codes of the OIDC provider.
          const endedSessions = await endUserSessions(admin, userId);
          // A payment finishing after this would make a tenant for no one.
          const canceledCheckouts = await tx
            .update(checkoutSessions)
            .set({ status: 'canceled' })
            .where(allOf(eq(checkoutSessions.userId, userId), eq(checkoutSessions.status, 'open')))
            .returning({ id: checkoutSessions.id });
          return {
            result: undefined,
            entity: { type: 'User', id: userId },
            before: {
              ...auditImage(row),
              deletedTenants: deleted,
              leftTenants: left,
              endedSessions,
              canceledCheckoutSessions: canceledCheckouts.map((checkout) => checkout.id),
            },
            after: null,
            events: [{ event: 'User.Deleted', data: toUser(row) }],
          };
        });
        return { deleted, left };
      });
      // After the commit: what this process caches of the deleted tenants, and their files (a failure is logged).
      for (const tenant of result.deleted) deps.forgetTenant(tenant.id);
      return result;
    },
  };
}

import {
  ADMIN_TENANT_ID,
  DEFAULT_TENANT_ID,
  DomainError,
  generateId,
  managementResourceIndicator,
  notFound,
  type Tenant,
  type TenantCreate,
  type TenantPermission,
  type TenantRegion,
  type TenantRole,
  type TenantTag,
  tenantCreateSchema,
  tenantIdOfOrganization,
  tenantOrganizationId,
  tenantRoles,
  tenantUpdateSchema,
} from '@gatehouse/schemas';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { announceChange } from '../db/change-notices.ts';
import type { Database } from '../db/client.ts';
import { allOf } from '../db/conditions.ts';
import { seedTenant, tenantRoleId } from '../db/seed.ts';
import { organizations, organizationUserRoles, organizationUsers, tenants, users } from '../db/tables.ts';
import { TenantDb } from '../db/tenant-db.ts';
import { memberScopeNames } from './organization-access.ts';
import { billingOf, insertSubscription, type TenantBilling } from './subscriptions.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * The cloud edition's tenants (spec §3, §6). A user's membership and role in tenant X is their
 * membership of organization `t-X` in the admin tenant, with organization role `admin` or
 * `collaborator`; the tenant permissions are the organization scopes those roles grant. Every
 * authorization is read here from the database, never from a request body or a token's claims.
 */

export type TenantRow = typeof tenants.$inferSelect;

/** The admin tenant, where tenant memberships, roles and invitations live. */
export const adminTenant = (db: Database) => new TenantDb(db, ADMIN_TENANT_ID);

/** `default` and `admin` belong to the installation: they cannot be deleted. */
export const isReservedTenant = (tenantId: string) => tenantId === DEFAULT_TENANT_ID || tenantId === ADMIN_TENANT_ID;

/** Tenant role of an admin-tenant organization role id (`tenant-admin` → `admin`). */
export function tenantRoleOfId(organizationRoleId: string): TenantRole | undefined {
  return tenantRoles.find((role) => tenantRoleId(role) === organizationRoleId);
}

/** The strongest tenant role among organization role ids (admin wins over collaborator). */
export function strongestRole(organizationRoleIds: readonly string[]): TenantRole | undefined {
  const held = new Set(organizationRoleIds.map(tenantRoleOfId));
  return tenantRoles.find((role) => held.has(role));
}

/** `billing` is the tenant's plan, subscription, usage and open invoices (services/subscriptions.ts). */
export function toTenant(row: TenantRow, role: TenantRole, billing: TenantBilling): Tenant {
  return {
    id: row.id,
    name: row.name,
    tag: row.tag as TenantTag,
    regionName: row.regionName as TenantRegion,
    indicator: managementResourceIndicator(row.id),
    organizationId: tenantOrganizationId(row.id),
    ...billing,
    isSuspended: row.isSuspended,
    role,
    createdAt: row.createdAt.getTime(),
  };
}

export async function findTenantRow(db: Database, tenantId: string): Promise<TenantRow | undefined> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row;
}

/** The user's tenant role in the tenant, or undefined when they are not a member. */
export async function tenantRoleOf(admin: TenantDb, tenantId: string, userId: string): Promise<TenantRole | undefined> {
  const organizationId = tenantOrganizationId(tenantId);
  const membership = await admin.findOne(
    organizationUsers,
    allOf(eq(organizationUsers.organizationId, organizationId), eq(organizationUsers.userId, userId)),
  );
  if (!membership) return undefined;
  const held = await admin.findMany(organizationUserRoles, {
    where: allOf(eq(organizationUserRoles.organizationId, organizationId), eq(organizationUserRoles.userId, userId)),
  });
  // A member without a tenant role (should not happen) reads as a collaborator, never as an admin.
  return strongestRole(held.map((row) => row.organizationRoleId)) ?? 'collaborator';
}

export type TenantAccess = { tenant: TenantRow; role: TenantRole; scopes: string[] };

/**
 * The caller's access to a tenant: 404 when the tenant does not exist or they are not a member (no
 * hint that it exists), 403 when `permission` is given and none of their roles grants it.
 */
export async function requireTenantAccess(
  db: Database,
  tenantId: string,
  userId: string,
  permission?: TenantPermission,
): Promise<TenantAccess> {
  const admin = adminTenant(db);
  const [tenant, role] = await Promise.all([findTenantRow(db, tenantId), tenantRoleOf(admin, tenantId, userId)]);
  if (!tenant || !role) throw notFound();
  const scopes = await memberScopeNames(admin, tenantOrganizationId(tenantId), { userId });
  if (permission && !scopes.includes(permission)) throw new DomainError('forbidden', 'auth.forbidden');
  return { tenant, role, scopes };
}

/** The signed-in user's tenants with their role, oldest first. */
export async function listUserTenants(db: Database, userId: string): Promise<Tenant[]> {
  const admin = adminTenant(db);
  const memberships = await admin.findMany(organizationUsers, { where: eq(organizationUsers.userId, userId) });
  const tenantIds = memberships.flatMap((row) => tenantIdOfOrganization(row.organizationId) ?? []);
  if (!tenantIds.length) return [];
  const [rows, held] = await Promise.all([
    db.select().from(tenants).where(inArray(tenants.id, tenantIds)),
    admin.findMany(organizationUserRoles, { where: eq(organizationUserRoles.userId, userId) }),
  ]);
  const billing = await billingOf(db, rows);
  const roleIds = new Map<string, string[]>();
  for (const row of held)
    roleIds.set(row.organizationId, [...(roleIds.get(row.organizationId) ?? []), row.organizationRoleId]);
  return rows
    .map((row) =>
      toTenant(
        row,
        strongestRole(roleIds.get(tenantOrganizationId(row.id)) ?? []) ?? 'collaborator',
        billing.get(row.id) as TenantBilling,
      ),
    )
    .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

/** Audit image of a tenant: no per-user role. */
function tenantImage(row: TenantRow): Record<string, unknown> {
  return { id: row.id, name: row.name, tag: row.tag, regionName: row.regionName, isSuspended: row.isSuspended };
}

/**
 * Creates a tenant in one database transaction: its row, what every tenant starts with (signing key,
 * management API resource, machine-to-machine role), its organization `t-{id}` in the admin tenant
 * and the creator as its admin, audited in the admin tenant. If any step fails nothing remains.
 */
export async function createTenant(
  db: Database,
  ctx: Omit<WriteContext, 'tenant'>,
  userId: string,
  input: TenantCreate,
  options: { beforeInsert?: (tx: Database, parsed: z.output<typeof tenantCreateSchema>) => Promise<void> } = {},
): Promise<Tenant> {
  return db.transaction(async (tx) => {
    const tenantDb = tx as unknown as Database;
    return performWrite(
      { ...ctx, tenant: adminTenant(tenantDb) },
      { key: 'Admin.Tenant.Created', schema: tenantCreateSchema, input },
      async (admin, parsed) => {
        // A check that must hold in the same transaction as the insert (the Free-tenant allowance).
        await options.beforeInsert?.(tenantDb, parsed);
        const id = generateId();
        const [row] = await tenantDb
          .insert(tenants)
          .values({ id, name: parsed.name, tag: parsed.tag, regionName: parsed.regionName })
          .returning();
        if (!row) throw new Error('insert returned no row');
        await seedTenant(tenantDb, id);
        await insertSubscription(tenantDb, id, row.tag);
        const organizationId = tenantOrganizationId(id);
        await admin.insert(organizations, { id: organizationId, name: parsed.name });
        await admin.insert(organizationUsers, { organizationId, userId });
        await admin.insert(organizationUserRoles, {
          organizationId,
          userId,
          organizationRoleId: tenantRoleId('admin'),
        });
        return {
          result: toTenant(row, 'admin', (await billingOf(tenantDb, [row])).get(id) as TenantBilling),
          entity: { type: 'Tenant', id },
          before: null,
          after: { ...tenantImage(row), adminUserIds: [userId] },
        };
      },
    );
  });
}

/** Renames a tenant and its organization (manage:tenant, checked by the caller). */
export async function renameTenant(
  db: Database,
  ctx: Omit<WriteContext, 'tenant'>,
  access: TenantAccess,
  input: unknown,
): Promise<Tenant> {
  return db.transaction(async (tx) => {
    const tenantDb = tx as unknown as Database;
    return performWrite(
      { ...ctx, tenant: adminTenant(tenantDb) },
      { key: 'Admin.Tenant.Updated', schema: tenantUpdateSchema, input },
      async (admin, parsed) => {
        const id = access.tenant.id;
        const [row] = await tenantDb.update(tenants).set({ name: parsed.name }).where(eq(tenants.id, id)).returning();
        if (!row) throw notFound();
        await admin.update(organizations, eq(organizations.id, tenantOrganizationId(id)), { name: parsed.name });
        return {
          result: toTenant(row, access.role, (await billingOf(tenantDb, [row])).get(id) as TenantBilling),
          entity: { type: 'Tenant', id },
          before: tenantImage(access.tenant),
          after: tenantImage(row),
        };
      },
    );
  });
}

/**
 * Moves every account whose default tenant is `goneId` — the tenant was deleted, or the account left it or was
 * removed from it (`onlyUserId`) — to the oldest tenant it still belongs to (the console's "first tenant"; a tenant's
 * organization is made with it, so the organizations' order is the tenants'), or drops the key when it belongs to
 * none. Runs in the caller's transaction after the membership is gone. Answers the accounts it changed.
 */
export async function reassignDefaultTenants(admin: TenantDb, goneId: string, onlyUserId?: string): Promise<string[]> {
  const pointing = await admin.findMany(users, {
    where: allOf(
      sql`${users.customData}->>'defaultTenantId' = ${goneId}`,
      onlyUserId === undefined ? undefined : eq(users.id, onlyUserId),
    ),
  });
  for (const user of pointing) {
    const memberships = await admin.findMany(organizationUsers, { where: eq(organizationUsers.userId, user.id) });
    const organizationIds = memberships
      .map((row) => row.organizationId)
      .filter((organizationId) => tenantIdOfOrganization(organizationId) !== undefined);
    const [next] = organizationIds.length
      ? await admin.findMany(organizations, {
          where: inArray(organizations.id, organizationIds),
          orderBy: [asc(organizations.createdAt), asc(organizations.id)],
          limit: 1,
        })
      : [];
    const nextTenantId = next && tenantIdOfOrganization(next.id);
    const { defaultTenantId: _gone, ...rest } = user.customData;
    await admin.update(users, eq(users.id, user.id), {
      customData: nextTenantId ? { ...rest, defaultTenantId: nextTenantId } : rest,
      updatedAt: new Date(),
    });
  }
  return pointing.map((user) => user.id);
}

/**
 * Deletes a tenant: its row (every tenant table cascades on `tenant_id`) and its organization in the
 * admin tenant (memberships, roles held there and invitations cascade), audited in the admin tenant.
 * No account keeps the deleted tenant as its default (`reassignDefaultTenants`, same transaction).
 */
export async function deleteTenant(
  db: Database,
  ctx: Omit<WriteContext, 'tenant'>,
  access: TenantAccess,
): Promise<void> {
  const id = access.tenant.id;
  if (isReservedTenant(id)) throw new DomainError('unprocessable', 'tenant.reserved');
  await db.transaction(async (tx) => {
    const tenantDb = tx as unknown as Database;
    await performWrite({ ...ctx, tenant: adminTenant(tenantDb) }, 'Admin.Tenant.Deleted', async (admin) => {
      await admin.delete(organizations, eq(organizations.id, tenantOrganizationId(id)));
      await tenantDb.delete(tenants).where(eq(tenants.id, id));
      // Every process drops what it cached of the tenant when this commits.
      await announceChange(new TenantDb(tenantDb, id), 'tenant');
      const defaultsMoved = await reassignDefaultTenants(admin, id);
      return {
        result: undefined,
        entity: { type: 'Tenant', id },
        before: { ...tenantImage(access.tenant), defaultTenantOf: defaultsMoved },
        after: null,
      };
    });
  });
}

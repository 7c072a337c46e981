import {
  ADMIN_TENANT_ID,
  basicPlans,
  CLOUD_API_RESOURCE,
  CONSOLE_ADMIN_ROLE,
  cloudScopes,
  DEFAULT_TENANT_ID,
  MANAGEMENT_API_ROLE,
  MANAGEMENT_API_SCOPE_ALL,
  type TenantPermission,
  type TenantRole,
  tenantPermissions,
  tenantRolePermissions,
  tenantRoles,
} from '@gatehouse/schemas';
import { sql } from 'drizzle-orm';
import { ME_RESOURCE, managementResource } from '../auth/issuers.ts';
import { ADMIN_CONSOLE_CLIENT_ID } from '../auth/oidc/clients.ts';
import { ensureSigningKey } from '../auth/signing-keys.ts';
import { generateClientSecret } from '../services/client-secret.ts';
import type { Database } from './client.ts';
import {
  applications,
  organizationRoleScopes,
  organizationRoles,
  organizationScopes,
  resources,
  roles,
  rolesScopes,
  scopes,
  skus,
  tenants,
} from './tables.ts';
import { TenantDb } from './tenant-db.ts';

/** Ids of seeded rows are fixed, so seeding is idempotent and other code can refer to them. */
export const seededIds = {
  managementResource: 'management-api',
  managementScopeAll: 'management-api-all',
  managementRole: 'management-api-access',
  consoleAdminRole: 'console-admin',
  /** In the admin tenant: the default tenant's management API, which console admins call. */
  defaultTenantManagementResource: 'default-mgmt-api',
  defaultTenantManagementScopeAll: 'default-mgmt-api-all',
  /** In the admin tenant: the 'me' API, where console users manage their own account. */
  meResource: 'me-api',
  meScopeAll: 'me-api-all',
  /** In the admin tenant: the cloud API (`/api/tenants`, `/api/invitations`…). */
  cloudResource: 'cloud-api',
} as const;

/** In the admin tenant: the organization scope standing for a tenant permission (`tp-read-data`, ≤ 21 chars). */
export const tenantPermissionScopeId = (permission: TenantPermission) => `tp-${permission.replaceAll(':', '-')}`;
/** In the admin tenant: the organization role standing for a tenant role. */
export const tenantRoleId = (role: TenantRole) => `tenant-${role}`;
/** In the admin tenant: the cloud API's scope ids, by position in `cloudScopes` (names are too long for ids). */
const cloudScopeId = (index: number) => `cloud-api-s${index}`;

async function seedResourceWithScopeAll(
  db: Database,
  tenantId: string,
  ids: { resource: string; scope: string },
  indicator: string,
  name: string,
  scopeDescription = 'Full access to the management API.',
) {
  await db.insert(resources).values({ tenantId, id: ids.resource, name, indicator }).onConflictDoNothing();
  await db
    .insert(scopes)
    .values({
      tenantId,
      id: ids.scope,
      resourceId: ids.resource,
      name: MANAGEMENT_API_SCOPE_ALL,
      description: scopeDescription,
    })
    .onConflictDoNothing();
}

/**
 * Rows every installation has: tenants default and admin, their signing keys, and in each tenant
 * a read-only management API resource with scope `all` plus a machine-to-machine role granting it.
 * The admin tenant also gets the console admin role, which grants the default tenant's management
 * API. Idempotent: safe on every start and from several processes at once.
 */
export async function seed(database: Database): Promise<void> {
  // One transaction: a start with everything in place commits once instead of once per row.
  await database.transaction((db) => seedAll(db));
}

async function seedAll(db: Database): Promise<void> {
  await seedSkus(db);
  await db
    .insert(tenants)
    .values([
      { id: DEFAULT_TENANT_ID, name: 'Default', tag: 'development' },
      { id: ADMIN_TENANT_ID, name: 'Admin', tag: 'production' },
    ])
    .onConflictDoNothing();
  for (const tenantId of [DEFAULT_TENANT_ID, ADMIN_TENANT_ID]) await seedTenant(db, tenantId);

  await seedResourceWithScopeAll(
    db,
    ADMIN_TENANT_ID,
    { resource: seededIds.defaultTenantManagementResource, scope: seededIds.defaultTenantManagementScopeAll },
    managementResource(DEFAULT_TENANT_ID),
    'Management API of the default tenant',
  );
  await seedResourceWithScopeAll(
    db,
    ADMIN_TENANT_ID,
    { resource: seededIds.meResource, scope: seededIds.meScopeAll },
    ME_RESOURCE,
    'Account API (me)',
    'Read and change your own account.',
  );
  await db
    .insert(roles)
    .values({
      tenantId: ADMIN_TENANT_ID,
      id: seededIds.consoleAdminRole,
      name: CONSOLE_ADMIN_ROLE,
      description: 'Console administrator: full access to the management API.',
      type: 'User',
    })
    .onConflictDoNothing();
  await db
    .insert(rolesScopes)
    .values({
      tenantId: ADMIN_TENANT_ID,
      roleId: seededIds.consoleAdminRole,
      scopeId: seededIds.defaultTenantManagementScopeAll,
    })
    .onConflictDoNothing();
  // The console signs its users in as this public client (authorization code + PKCE).
  await db
    .insert(applications)
    .values({
      tenantId: ADMIN_TENANT_ID,
      id: ADMIN_CONSOLE_CLIENT_ID,
      name: 'Admin Console',
      secret: generateClientSecret(),
      type: 'SPA',
    })
    .onConflictDoNothing();
  await seedTenantAccess(db);
}

/** Display names of the seeded plans (spec §3): both Pro SKUs read as Pro. */
const planNames: Record<string, string> = {
  Free: 'Free',
  Pro: 'Pro',
  Pro202411: 'Pro',
  Development: 'Development',
  Admin: 'Admin',
};

/**
 * The plans as SKUs, from `basicPlans` (spec §9). An upsert, so a quota or price changed in code reaches the row on
 * the next start; `updated_at` moves only then.
 */
export async function seedSkus(db: Database): Promise<void> {
  await db
    .insert(skus)
    .values(
      basicPlans.map((plan) => ({
        id: plan.id,
        name: planNames[plan.id] ?? plan.id,
        type: 'Basic',
        unitPrice: plan.unitPrice,
        quota: plan.quota,
      })),
    )
    .onConflictDoUpdate({
      target: skus.id,
      set: {
        name: sql`excluded.name`,
        type: sql`excluded.type`,
        unitPrice: sql`excluded.unit_price`,
        quota: sql`excluded.quota`,
        updatedAt: sql`now()`,
      },
      setWhere: sql`(${skus.name}, ${skus.type}, ${skus.unitPrice}, ${skus.quota}) is distinct from (excluded.name, excluded.type, excluded.unit_price, excluded.quota)`,
    });
}

/**
 * The cloud edition's tenant access model, in the admin tenant (spec §6): the tenant permissions are
 * organization scopes, the tenant roles organization roles (one template shared by every `t-X`
 * organization), and the cloud API a resource. Seeded in both editions (OSS never serves the cloud
 * API), so start-up code that does not know the edition (the first console admin) can rely on it.
 * `t-default`, the default tenant's organization, comes with the first console admin.
 */
async function seedTenantAccess(db: Database): Promise<void> {
  await db
    .insert(organizationScopes)
    .values(
      tenantPermissions.map((name) => ({
        tenantId: ADMIN_TENANT_ID,
        id: tenantPermissionScopeId(name),
        name,
        description: `Tenant permission ${name}.`,
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(organizationRoles)
    .values(
      tenantRoles.map((role) => ({
        tenantId: ADMIN_TENANT_ID,
        id: tenantRoleId(role),
        name: role,
        description: role === 'admin' ? 'Tenant administrator.' : 'Tenant collaborator.',
        type: 'User',
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(organizationRoleScopes)
    .values(
      tenantRoles.flatMap((role) =>
        tenantRolePermissions[role].map((permission) => ({
          tenantId: ADMIN_TENANT_ID,
          organizationRoleId: tenantRoleId(role),
          organizationScopeId: tenantPermissionScopeId(permission),
        })),
      ),
    )
    .onConflictDoNothing();
  await db
    .insert(resources)
    .values({
      tenantId: ADMIN_TENANT_ID,
      id: seededIds.cloudResource,
      name: 'Cloud API',
      indicator: CLOUD_API_RESOURCE,
    })
    .onConflictDoNothing();
  await db
    .insert(scopes)
    .values(
      cloudScopes.map((name, index) => ({
        tenantId: ADMIN_TENANT_ID,
        id: cloudScopeId(index),
        resourceId: seededIds.cloudResource,
        name,
      })),
    )
    .onConflictDoNothing();
}

/** What every tenant starts with (also used when the cloud edition creates a tenant). */
export async function seedTenant(db: Database, tenantId: string): Promise<void> {
  await ensureSigningKey(new TenantDb(db, tenantId));
  await seedResourceWithScopeAll(
    db,
    tenantId,
    { resource: seededIds.managementResource, scope: seededIds.managementScopeAll },
    managementResource(tenantId),
    'Gatehouse Management API',
  );
  await db
    .insert(roles)
    .values({
      tenantId,
      id: seededIds.managementRole,
      name: MANAGEMENT_API_ROLE,
      description: 'Machine-to-machine access to the whole management API.',
      type: 'MachineToMachine',
    })
    .onConflictDoNothing();
  await db
    .insert(rolesScopes)
    .values({ tenantId, roleId: seededIds.managementRole, scopeId: seededIds.managementScopeAll })
    .onConflictDoNothing();
}

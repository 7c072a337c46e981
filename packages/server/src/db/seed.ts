import {
  ADMIN_TENANT_ID,
  CONSOLE_ADMIN_ROLE,
  DEFAULT_TENANT_ID,
  MANAGEMENT_API_ROLE,
  MANAGEMENT_API_SCOPE_ALL,
} from '@gatehouse/schemas';
import { ME_RESOURCE, managementResource } from '../auth/issuers.ts';
import { ADMIN_CONSOLE_CLIENT_ID } from '../auth/oidc/clients.ts';
import { ensureSigningKey } from '../auth/signing-keys.ts';
import { generateClientSecret } from '../services/client-secret.ts';
import type { Database } from './client.ts';
import { applications, resources, roles, rolesScopes, scopes, tenants } from './tables.ts';

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
} as const;

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
export async function seed(db: Database): Promise<void> {
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
}

/** What every tenant starts with (also used when the cloud edition creates a tenant). */
export async function seedTenant(db: Database, tenantId: string): Promise<void> {
  await ensureSigningKey(db, tenantId);
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

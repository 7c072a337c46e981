import {
  ADMIN_TENANT_ID,
  basicPlans,
  DomainError,
  type Edition,
  freePlanQuota,
  isWithinQuota,
  managementResourceIndicator,
  type PlanId,
  type Quota,
  type QuotaKey,
  tenantOrganizationId,
} from '@gatehouse/schemas';
import { count, eq, gt, ne, sql } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { seededIds } from '../db/seed.ts';
import {
  applications,
  connectors,
  hooks,
  organizationInvitations,
  organizations,
  organizationUsers,
  resources,
  roles,
  rolesScopes,
  scopes,
  ssoConnectors,
  tenantSubscriptions,
  tenants,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';

/**
 * Quota enforcement (spec §9): a create that would take a tenant past its plan's limit is refused with 403
 * `subscription.quota_exceeded` and `data: {quota: {<key>: {limit, usage}}}`. Cloud edition only; the OSS
 * edition and the admin tenant always pass. The check takes a per-tenant transaction-scoped advisory lock and
 * counts in a later statement of the same transaction as the insert, so two concurrent creates at the limit
 * cannot both pass (under READ COMMITTED each statement sees what committed before it started, and the lock
 * is held until the other transaction committed).
 */

/** The quota keys counted by rows, with what they count. */
export type CountedQuotaKey =
  | 'applicationsLimit'
  | 'machineToMachineLimit'
  | 'thirdPartyApplicationsLimit'
  | 'samlApplicationsLimit'
  | 'resourcesLimit'
  | 'scopesPerResourceLimit'
  | 'userRolesLimit'
  | 'machineToMachineRolesLimit'
  | 'scopesPerRoleLimit'
  | 'hooksLimit'
  | 'organizationsLimit'
  | 'socialConnectorsLimit'
  | 'enterpriseSsoLimit'
  | 'tenantMembersLimit';

/** Spec §9: development tenants are on Development, the admin tenant on Admin, any other without a row on Free. */
export function implicitPlanId(tenantId: string, tag: string): PlanId {
  if (tenantId === ADMIN_TENANT_ID) return 'Admin';
  return tag === 'development' ? 'Development' : 'Free';
}

/** The quota of a plan id; unknown ids (an enterprise plan not seeded here) read as Free, the safe side. */
export function planQuota(planId: string): Quota {
  return basicPlans.find((plan) => plan.id === planId)?.quota ?? freePlanQuota;
}

/**
 * The plan id of `tenantId` (default: the transaction's own tenant): its subscription row, else the implicit plan
 * of its tag. One statement, readable from any tenant's transaction: the tenants row and the subscription row are
 * read by scalar subqueries on that tenant's id, and an aggregate always answers one row.
 */
export async function tenantPlanId(tx: TenantDb, tenantId: string = tx.tenantId): Promise<PlanId> {
  const [row] = await tx.aggregate(
    {
      rows: count(),
      planId: sql<
        string | null
      >`(select ${tenantSubscriptions.planId} from ${tenantSubscriptions} where ${tenantSubscriptions.tenantId} = ${tenantId})`,
      tag: sql<string | null>`(select ${tenants.tag} from ${tenants} where ${tenants.id} = ${tenantId})`,
    },
    tenantSubscriptions,
    sql`false`,
  );
  const planId = row?.planId as PlanId | null | undefined;
  return planId ?? implicitPlanId(tenantId, String(row?.tag ?? 'production'));
}

/** The seeded management API and its machine-to-machine role are the tenant's own tools, not plan usage. */
const notManagementApi = (tenantId: string) => ne(resources.indicator, managementResourceIndicator(tenantId));
const notManagementRole = () => ne(roles.id, seededIds.managementRole);

/** Applications counted by `applicationsLimit`: neither machine-to-machine, third-party nor SAML. */
const ownApplications = () =>
  allOf(ne(applications.type, 'MachineToMachine'), ne(applications.type, 'SAML'), eq(applications.isThirdParty, false));

/**
 * The current usage of a counted quota key. `parentId` is the resource (scopesPerResourceLimit) or role
 * (scopesPerRoleLimit) the count is for. Tenant members live in the admin tenant: `admin` reads them.
 */
export async function countUsage(
  tenant: TenantDb,
  key: CountedQuotaKey,
  options: { parentId?: string | undefined; admin?: TenantDb | undefined } = {},
): Promise<number> {
  switch (key) {
    case 'applicationsLimit':
      return tenant.count(applications, ownApplications());
    case 'machineToMachineLimit':
      return tenant.count(applications, eq(applications.type, 'MachineToMachine'));
    case 'thirdPartyApplicationsLimit':
      return tenant.count(applications, eq(applications.isThirdParty, true));
    case 'samlApplicationsLimit':
      return tenant.count(applications, eq(applications.type, 'SAML'));
    case 'resourcesLimit':
      return tenant.count(resources, notManagementApi(tenant.tenantId));
    case 'scopesPerResourceLimit':
      return tenant.count(scopes, eq(scopes.resourceId, options.parentId ?? ''));
    case 'userRolesLimit':
      return tenant.count(roles, eq(roles.type, 'User'));
    case 'machineToMachineRolesLimit':
      return tenant.count(roles, allOf(eq(roles.type, 'MachineToMachine'), notManagementRole()));
    case 'scopesPerRoleLimit':
      return tenant.count(rolesScopes, eq(rolesScopes.roleId, options.parentId ?? ''));
    case 'hooksLimit':
      return tenant.count(hooks);
    case 'organizationsLimit':
      return tenant.count(organizations);
    case 'socialConnectorsLimit':
      return tenant.count(connectors, eq(connectors.type, 'Social'));
    case 'enterpriseSsoLimit':
      return tenant.count(ssoConnectors);
    case 'tenantMembersLimit':
      if (!options.admin) throw new Error('tenant members are counted in the admin tenant');
      return countTenantMembers(options.admin, tenant.tenantId);
  }
}

/** Members of `t-{tenantId}` plus its pending, unexpired invitations (both in the admin tenant). */
export async function countTenantMembers(admin: TenantDb, tenantId: string): Promise<number> {
  const organizationId = tenantOrganizationId(tenantId);
  const [members, pending] = await Promise.all([
    admin.count(organizationUsers, eq(organizationUsers.organizationId, organizationId)),
    admin.count(
      organizationInvitations,
      allOf(
        eq(organizationInvitations.organizationId, organizationId),
        eq(organizationInvitations.status, 'Pending'),
        gt(organizationInvitations.expiresAt, sql`now()`),
      ),
    ),
  ]);
  return members + pending;
}

/** Serialises quota-checked creates of one tenant until the end of the current transaction. */
async function lockTenantQuota(tx: TenantDb, tenantId: string): Promise<void> {
  // An aggregate always answers one row, so the lock in its select list is taken even when nothing matches.
  await tx.aggregate(
    { rows: count(), locked: sql`(select 1 from pg_advisory_xact_lock(hashtext(${`quota:${tenantId}`})))` },
    tenantSubscriptions,
    sql`false`,
  );
}

export type QuotaDeps = { edition: Edition };

/**
 * Refuses (403 `subscription.quota_exceeded`) when adding `added` rows counted by `key` would pass the plan's
 * limit. Call it inside the transaction of the insert, before inserting. `tx` is the transaction of the tenant
 * whose quota it is, except for `tenantMembersLimit`, where `tx` is the admin tenant's transaction and
 * `tenantId` names the tenant.
 */
export async function assertQuota(
  tx: TenantDb,
  key: CountedQuotaKey,
  deps: QuotaDeps,
  options: { parentId?: string | undefined; added?: number; tenantId?: string } = {},
): Promise<void> {
  if (deps.edition !== 'cloud') return;
  const tenantId = options.tenantId ?? tx.tenantId;
  if (tenantId === ADMIN_TENANT_ID) return;
  const added = options.added ?? 1;
  if (added <= 0) return;
  await lockTenantQuota(tx, tenantId);
  const limit = planQuota(await tenantPlanId(tx, tenantId))[key as QuotaKey];
  if (limit === null || limit === true) return;
  const usage =
    key === 'tenantMembersLimit'
      ? await countTenantMembers(tx, tenantId)
      : await countUsage(tx, key, { parentId: options.parentId });
  // Spec §9, strict form before adding: the last added row must still fit (`usage + added - 1 < limit`).
  if (!isWithinQuota(limit, usage + added - 1, true))
    throw new DomainError('quota', 'subscription.quota_exceeded', { quota: { [key]: { limit, usage } } });
}

/** Plan features that are on or off (spec §3 quota fields with a boolean value). */
export type FeatureQuotaKey = 'mfaEnabled' | 'customJwtEnabled' | 'subjectTokenEnabled' | 'bringYourUiEnabled';

/**
 * Refuses (403 `subscription.quota_exceeded`, `data.quota.{key} = {limit: false, usage: 0}`) a write that needs a
 * plan feature the tenant's plan turns off. Cloud edition only; the admin tenant always passes.
 */
export async function assertFeature(tx: TenantDb, key: FeatureQuotaKey, deps: QuotaDeps): Promise<void> {
  if (deps.edition !== 'cloud' || tx.tenantId === ADMIN_TENANT_ID) return;
  const limit = planQuota(await tenantPlanId(tx))[key];
  if (limit === false || limit === 0)
    throw new DomainError('quota', 'subscription.quota_exceeded', { quota: { [key]: { limit, usage: 0 } } });
}

/** The plan id of a tenant read from the whole database (cloud API routes). */

/** The quota a new application counts against (spec §9): third-party first, then by type. */
export function applicationQuotaKey(type: string, isThirdParty: boolean): CountedQuotaKey {
  if (isThirdParty) return 'thirdPartyApplicationsLimit';
  if (type === 'MachineToMachine') return 'machineToMachineLimit';
  if (type === 'SAML') return 'samlApplicationsLimit';
  return 'applicationsLimit';
}

/** The quota a new role counts against. */
export const roleQuotaKey = (type: string): CountedQuotaKey =>
  type === 'MachineToMachine' ? 'machineToMachineRolesLimit' : 'userRolesLimit';

import { asc, eq } from 'drizzle-orm';
import {
  organizationJitEmailDomains,
  organizationJitRoles,
  organizationJitSsoConnectors,
  organizationRoles,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { type ListQuery, tableList } from './list-query.ts';
import { membershipEvent } from './organization-members.ts';
import { addIds, type IdSet, idsOf, removeId, replaceIds } from './organization-relations.ts';
import {
  findOrganization,
  findOrganizationRoles,
  jitEmailDomainsOf,
  jitRolesOf,
  memberRolesOf,
  membersOf,
} from './organizations.ts';
import { inRelation } from './relations.ts';
import { type DomainEvent, performWrite, type WriteContext } from './write-path.ts';

/**
 * Just-in-time provisioning: a new user whose email domain is one of an organization's JIT email
 * domains joins that organization with its JIT roles. Call it inside the transaction that creates
 * the user, with an email the user has proven (a typed, unverified address would let anyone join
 * any organization), and append the returned events to that write.
 */
export async function provisionJustInTime(
  tx: TenantDb,
  user: { id: string; verifiedEmail: string },
): Promise<{ organizationIds: string[]; events: DomainEvent[] }> {
  const domain = user.verifiedEmail.slice(user.verifiedEmail.lastIndexOf('@') + 1).toLowerCase();
  if (!domain) return { organizationIds: [], events: [] };
  const matches = await tx.findMany(organizationJitEmailDomains, {
    where: eq(organizationJitEmailDomains.emailDomain, domain),
  });
  return joinWithJitRoles(
    tx,
    user.id,
    matches.map((match) => match.organizationId),
  );
}

/** The organizations whose JIT settings name this enterprise SSO connector, sorted. */
export async function organizationsForSsoConnector(tx: TenantDb, ssoConnectorId: string): Promise<string[]> {
  const rows = await tx.findMany(organizationJitSsoConnectors, {
    where: eq(organizationJitSsoConnectors.ssoConnectorId, ssoConnectorId),
  });
  return [...new Set(rows.map((row) => row.organizationId))].sort();
}

/**
 * Just-in-time provisioning by enterprise SSO: a user who signed in through the connector joins the organizations
 * that name it, with their JIT roles (memberships and roles already held stay as they are). Call it inside the
 * transaction of the sign-in's write and append the returned events to it, as with {@link provisionJustInTime}.
 */
export async function provisionBySsoConnector(
  tx: TenantDb,
  userId: string,
  ssoConnectorId: string,
): Promise<{ organizationIds: string[]; events: DomainEvent[] }> {
  return joinWithJitRoles(tx, userId, await organizationsForSsoConnector(tx, ssoConnectorId));
}

/**
 * Makes the user a member of each organization it is not in yet, with that organization's JIT roles (members
 * already there keep their roles). Shared by email-domain JIT and enterprise SSO JIT (`sso-sign-in.ts`); answers the
 * organizations joined and their membership events, for the caller's write.
 */
export async function joinWithJitRoles(
  tx: TenantDb,
  userId: string,
  organizationIds: readonly string[],
): Promise<{ organizationIds: string[]; events: DomainEvent[] }> {
  const joinedOrganizations: string[] = [];
  const events: DomainEvent[] = [];
  for (const organizationId of [...new Set(organizationIds)].sort()) {
    const joined = await addIds(tx, membersOf(organizationId), [userId]);
    if (!joined.length) continue;
    const roles = await tx.findMany(organizationJitRoles, {
      where: eq(organizationJitRoles.organizationId, organizationId),
    });
    await addIds(
      tx,
      memberRolesOf(organizationId, userId),
      roles.map((role) => role.organizationRoleId),
    );
    joinedOrganizations.push(organizationId);
    events.push(...membershipEvent(organizationId, { kind: 'users', added: joined, removed: [] }));
  }
  return { organizationIds: joinedOrganizations, events };
}

// The JIT settings of an organization (admin API): its email domains, its enterprise SSO connectors and the roles
// new members start with.

/** An organization's JIT enterprise SSO connectors (the generated relation routes of routes/organization-jit.ts). */
export const jitSsoConnectorsOf = (organizationId: string): IdSet<typeof organizationJitSsoConnectors> => ({
  table: organizationJitSsoConnectors,
  owner: eq(organizationJitSsoConnectors.organizationId, organizationId),
  column: organizationJitSsoConnectors.ssoConnectorId,
  pick: (row) => row.ssoConnectorId,
  row: (ssoConnectorId) => ({ organizationId, ssoConnectorId }),
});

/** The condition and order of an organization's JIT email domains, in alphabetical order. */
export function jitEmailDomainListQuery(organizationId: string): ListQuery {
  return {
    where: eq(organizationJitEmailDomains.organizationId, organizationId),
    orderBy: [asc(organizationJitEmailDomains.emailDomain)],
  };
}

/** An organization's JIT email domains, in alphabetical order. */
export function jitEmailDomainList(tenant: TenantDb, organizationId: string) {
  return tableList(tenant, organizationJitEmailDomains, jitEmailDomainListQuery(organizationId));
}

/** The condition and order of an organization's JIT roles (over organization roles), by name. */
export function jitRoleListQuery(tenant: TenantDb, organizationId: string): ListQuery {
  return {
    where: inRelation(
      tenant,
      organizationRoles.id,
      organizationJitRoles,
      organizationJitRoles.organizationRoleId,
      eq(organizationJitRoles.organizationId, organizationId),
    ),
    orderBy: [asc(organizationRoles.name)],
  };
}

/** An organization's JIT roles, by name. */
export function jitRoleList(tenant: TenantDb, organizationId: string) {
  return tableList(tenant, organizationRoles, jitRoleListQuery(tenant, organizationId));
}

/** One audited change of a JIT setting; an organization has few, so before/after are the whole set. */
function changeSetting<T extends typeof organizationJitEmailDomains | typeof organizationJitRoles>(
  ctx: WriteContext,
  organizationId: string,
  setting: { field: 'jitEmailDomains' | 'jitOrganizationRoleIds'; set: IdSet<T> },
  work: (tx: TenantDb) => Promise<unknown>,
): Promise<void> {
  return performWrite(ctx, 'Admin.Organization.Updated', async (tx) => {
    await findOrganization(tx, organizationId);
    const before = await idsOf(tx, setting.set);
    await work(tx);
    return {
      result: undefined,
      entity: { type: 'Organization', id: organizationId },
      before: { [setting.field]: before },
      after: { [setting.field]: await idsOf(tx, setting.set) },
    };
  });
}

const domainsSetting = (id: string) => ({ field: 'jitEmailDomains' as const, set: jitEmailDomainsOf(id) });
const rolesSetting = (id: string) => ({ field: 'jitOrganizationRoleIds' as const, set: jitRolesOf(id) });

export function addJitEmailDomain(ctx: WriteContext, organizationId: string, emailDomain: string): Promise<void> {
  return changeSetting(ctx, organizationId, domainsSetting(organizationId), (tx) =>
    addIds(tx, jitEmailDomainsOf(organizationId), [emailDomain], 'organization.jit_email_domain_exists'),
  );
}

export function replaceJitEmailDomains(ctx: WriteContext, organizationId: string, emailDomains: string[]) {
  return changeSetting(ctx, organizationId, domainsSetting(organizationId), (tx) =>
    replaceIds(tx, jitEmailDomainsOf(organizationId), emailDomains),
  );
}

export function removeJitEmailDomain(ctx: WriteContext, organizationId: string, emailDomain: string) {
  return changeSetting(ctx, organizationId, domainsSetting(organizationId), (tx) =>
    removeId(tx, jitEmailDomainsOf(organizationId), emailDomain),
  );
}

/** JIT roles are user roles (422 `organization_role.invalid_type` for machine-to-machine ones). */
export function addJitRoles(ctx: WriteContext, organizationId: string, roleIds: string[]): Promise<void> {
  return changeSetting(ctx, organizationId, rolesSetting(organizationId), async (tx) => {
    await findOrganizationRoles(tx, roleIds, 'User');
    // Roles already set stay as they are (the reference's relation routes ignore them).
    await addIds(tx, jitRolesOf(organizationId), roleIds);
  });
}

export function replaceJitRoles(ctx: WriteContext, organizationId: string, roleIds: string[]): Promise<void> {
  return changeSetting(ctx, organizationId, rolesSetting(organizationId), async (tx) => {
    await findOrganizationRoles(tx, roleIds, 'User');
    await replaceIds(tx, jitRolesOf(organizationId), roleIds);
  });
}

export function removeJitRole(ctx: WriteContext, organizationId: string, roleId: string): Promise<void> {
  return changeSetting(ctx, organizationId, rolesSetting(organizationId), (tx) =>
    removeId(tx, jitRolesOf(organizationId), roleId),
  );
}

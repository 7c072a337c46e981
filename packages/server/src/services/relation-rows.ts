import type { EntitySearchField, SearchSyntaxQuery } from '@gatehouse/schemas';
import { asc, desc, eq } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import {
  applications,
  organizationRoles,
  organizationScopes,
  organizationUserRoles,
  roles,
  scopes,
  ssoConnectors,
  users,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { toApplication } from './applications.ts';
import { fieldSearchCondition } from './field-search.ts';
import { withMemberRoles } from './organization-members.ts';
import { keywordCondition, toOrganizationRole, toOrganizationScope } from './organizations.ts';
import { inRelation } from './relations.ts';
import { toRoleUser, withResource } from './role-assignments.ts';
import { toRole } from './roles.ts';
import { toSsoConnector } from './sso-connectors.ts';
import { userSearchCondition } from './user-search.ts';
import { toUser } from './users.ts';

/**
 * The related rows the relation routes list (`http/relation-routes.ts`): the table and its id column, what the keyword
 * (`q`/`search`, or the reference's search syntax) matches, the order, and the answered shape. A relation's `list`
 * spreads one and adds its query, answered schema and OpenAPI text (shared ones: `http/relation-lists.ts`), so the
 * route modules name no table.
 */

/** The keyword of a list's query (`q` or `search`). */
type KeywordQuery = { q?: string | undefined; search?: string | undefined };
type EntitySearch = SearchSyntaxQuery<EntitySearchField>;
type OrganizationParams = { id: string };

/** Roles, newest first (a user's, an application's), with the reference's search syntax. */
export const relatedRoles = {
  related: roles,
  id: roles.id,
  search: (query: EntitySearch) =>
    fieldSearchCondition(query, { id: roles.id, name: roles.name, description: roles.description }),
  orderBy: [desc(roles.createdAt), desc(roles.id)],
  toApi: (_tenant: unknown, rows: (typeof roles.$inferSelect)[]) => rows.map(toRole),
};

/** Organization roles, by name (a member's, an organization application's). */
export const relatedOrganizationRoles = {
  related: organizationRoles,
  id: organizationRoles.id,
  search: (query: KeywordQuery) => keywordCondition(query, [organizationRoles.name]),
  orderBy: [asc(organizationRoles.name)],
  toApi: (_tenant: unknown, rows: (typeof organizationRoles.$inferSelect)[]) => rows.map(toOrganizationRole),
};

/** Organization scopes (permissions), by name (an organization role's, a member's). */
export const relatedOrganizationScopes = {
  related: organizationScopes,
  id: organizationScopes.id,
  search: (query: KeywordQuery) => keywordCondition(query, [organizationScopes.name]),
  orderBy: [asc(organizationScopes.name)],
  toApi: (_tenant: unknown, rows: (typeof organizationScopes.$inferSelect)[]) => rows.map(toOrganizationScope),
};

/** A role's scopes: newest first, with the reference's search syntax, each with its API resource. */
export const relatedRoleScopes = {
  related: scopes,
  id: scopes.id,
  search: (query: EntitySearch) =>
    fieldSearchCondition(query, { id: scopes.id, name: scopes.name, description: scopes.description }),
  orderBy: [desc(scopes.createdAt), desc(scopes.id)],
  toApi: withResource,
};

/** An organization role's API resource scopes: by name, `q`/`search` on the name, each with its API resource. */
export const relatedResourceScopesByName = {
  related: scopes,
  id: scopes.id,
  search: (query: KeywordQuery) => keywordCondition(query, [scopes.name]),
  orderBy: [asc(scopes.name), asc(scopes.id)],
  toApi: withResource,
};

/** The users holding a role: newest first, with the reference's search syntax over the users' search fields. */
export const relatedRoleUsers = {
  related: users,
  id: users.id,
  search: userSearchCondition,
  orderBy: [desc(users.createdAt), desc(users.id)],
  toApi: (_tenant: unknown, rows: (typeof users.$inferSelect)[]) => rows.map(toRoleUser),
};

/** The machine-to-machine applications holding a role: newest first, with the reference's search syntax. */
export const relatedRoleApplications = {
  related: applications,
  id: applications.id,
  search: (query: EntitySearch) =>
    fieldSearchCondition(query, {
      id: applications.id,
      name: applications.name,
      description: applications.description,
    }),
  orderBy: [desc(applications.createdAt), desc(applications.id)],
  toApi: (_tenant: unknown, rows: (typeof applications.$inferSelect)[]) => rows.map(toApplication),
};

/** An organization's applications: newest first, `q`/`search` on id, name or description, with their roles there. */
export const relatedOrganizationApplications = {
  related: applications,
  id: applications.id,
  search: (query: KeywordQuery) =>
    keywordCondition(query, [applications.id, applications.name, applications.description]),
  orderBy: [desc(applications.createdAt), desc(applications.id)],
  toApi: (tenant: TenantDb, rows: (typeof applications.$inferSelect)[], { id }: OrganizationParams) =>
    withMemberRoles(tenant, 'applications', id, rows, toApplication),
};

/**
 * An organization's members: newest users first, `q`/`search` on id, username, email, phone or name,
 * `organizationRoleId` keeping the members holding that role, with their roles there.
 */
export const relatedOrganizationMembers = {
  related: users,
  id: users.id,
  search: (query: KeywordQuery) =>
    keywordCondition(query, [users.id, users.username, users.primaryEmail, users.primaryPhone, users.name]),
  orderBy: [desc(users.createdAt), desc(users.id)],
  rows: (
    tenant: TenantDb,
    { id }: OrganizationParams,
    { organizationRoleId }: { organizationRoleId?: string | undefined },
  ) =>
    organizationRoleId
      ? inRelation(
          tenant,
          users.id,
          organizationUserRoles,
          organizationUserRoles.userId,
          allOf(
            eq(organizationUserRoles.organizationId, id),
            eq(organizationUserRoles.organizationRoleId, organizationRoleId),
          ),
        )
      : undefined,
  toApi: (tenant: TenantDb, rows: (typeof users.$inferSelect)[], { id }: OrganizationParams) =>
    withMemberRoles(tenant, 'users', id, rows, toUser),
};

/** The enterprise SSO connectors of an organization's JIT provisioning: by name, no keyword, secrets masked. */
export const relatedJitSsoConnectors = {
  related: ssoConnectors,
  id: ssoConnectors.id,
  search: () => undefined,
  orderBy: [asc(ssoConnectors.connectorName), asc(ssoConnectors.id)],
  toApi: (_tenant: unknown, rows: (typeof ssoConnectors.$inferSelect)[]) => rows.map(toSsoConnector),
};

import { keywordQuerySchema, organizationRoleSchema, organizationScopeSchema, roleSchema } from '@gatehouse/schemas';
import { asc, desc } from 'drizzle-orm';
import type { z } from 'zod';
import { organizationRoles, organizationScopes, roles } from '../db/tables.ts';
import { fieldSearchCondition } from '../services/field-search.ts';
import { keywordCondition, toOrganizationRole, toOrganizationScope } from '../services/organizations.ts';
import { toRole } from '../services/roles.ts';
import { entitySearchQuery } from './params.ts';

/** The keyword of a list's query (`q` or `search`). */
type KeywordQuery = { q?: string | undefined; search?: string | undefined };

/**
 * Related entities that several relations list alike (a `list` declaration spreads one and adds its
 * summary): the table, what `q`/`search` matches, the order, and the answered shape.
 */

/** Roles, newest first (a user's, an application's), with the reference's search syntax. */
export const roleRows = {
  query: entitySearchQuery,
  searchSyntax: true,
  item: roleSchema,
  page: 'A page of roles, newest first.',
  related: roles,
  id: roles.id,
  search: (query: z.output<typeof entitySearchQuery>) =>
    fieldSearchCondition(query, { id: roles.id, name: roles.name, description: roles.description }),
  orderBy: [desc(roles.createdAt), desc(roles.id)],
  toApi: (_tenant: unknown, rows: (typeof roles.$inferSelect)[]) => rows.map(toRole),
};

/** Organization roles, by name (a member's, an organization application's). */
export const organizationRoleRows = {
  query: keywordQuerySchema,
  item: organizationRoleSchema,
  page: 'A page of roles, by name.',
  related: organizationRoles,
  id: organizationRoles.id,
  search: (query: KeywordQuery) => keywordCondition(query, [organizationRoles.name]),
  orderBy: [asc(organizationRoles.name)],
  toApi: (_tenant: unknown, rows: (typeof organizationRoles.$inferSelect)[]) => rows.map(toOrganizationRole),
};

/** Organization scopes (permissions), by name (an organization role's, a member's). */
export const organizationScopeRows = {
  query: keywordQuerySchema,
  item: organizationScopeSchema,
  page: 'A page of organization permissions, by name.',
  related: organizationScopes,
  id: organizationScopes.id,
  search: (query: KeywordQuery) => keywordCondition(query, [organizationScopes.name]),
  orderBy: [asc(organizationScopes.name)],
  toApi: (_tenant: unknown, rows: (typeof organizationScopes.$inferSelect)[]) => rows.map(toOrganizationScope),
};

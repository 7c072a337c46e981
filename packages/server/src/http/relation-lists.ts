import { keywordQuerySchema, organizationRoleSchema, organizationScopeSchema, roleSchema } from '@gatehouse/schemas';
import { relatedOrganizationRoles, relatedOrganizationScopes, relatedRoles } from '../services/relation-rows.ts';
import { entitySearchQuery } from './params.ts';

/**
 * Related entities that several relations list alike (a `list` declaration spreads one and adds its summary): the
 * query, the answered shape and what a page is, with the service's rows (table, keyword condition, order, answer;
 * `services/relation-rows.ts`).
 */

/** Roles, newest first (a user's, an application's), with the reference's search syntax. */
export const roleRows = {
  query: entitySearchQuery,
  searchSyntax: true,
  item: roleSchema,
  page: 'A page of roles, newest first.',
  ...relatedRoles,
};

/** Organization roles, by name (a member's, an organization application's). */
export const organizationRoleRows = {
  query: keywordQuerySchema,
  item: organizationRoleSchema,
  page: 'A page of roles, by name.',
  ...relatedOrganizationRoles,
};

/** Organization scopes (permissions), by name (an organization role's, a member's). */
export const organizationScopeRows = {
  query: keywordQuerySchema,
  item: organizationScopeSchema,
  page: 'A page of organization permissions, by name.',
  ...relatedOrganizationScopes,
};

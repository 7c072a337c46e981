import {
  keywordQuerySchema,
  organizationRoleResourceScopesAssignSchema,
  organizationRoleResourceScopesReplaceSchema,
  organizationRoleScopesAssignSchema,
  organizationRoleScopesReplaceSchema,
  roleScopeSchema,
} from '@gatehouse/schemas';
import { idParams, pathIdSchema } from '../http/params.ts';
import { organizationScopeRows } from '../http/relation-lists.ts';
import { idsIn, ownerById, relationRoutes } from '../http/relation-routes.ts';
import { createRouter, errorResponse } from '../http/route-kit.ts';
import {
  assertOrganizationScopesExist,
  assertResourceScopesAllowed,
  rolePermissionsState,
  scopesUpdatedEvents,
} from '../services/organization-roles.ts';
import {
  findOrganizationRole,
  type OrganizationRoleRow,
  roleResourceScopesOf,
  roleScopesOf,
} from '../services/organizations.ts';
import { relatedResourceScopesByName } from '../services/relation-rows.ts';
import { auditOwner } from '../services/relations.ts';

/** An organization role's permissions: organization scopes and API resource scopes, two relations audited as one. */

const organizationRole = {
  tags: ['Organization roles'],
  params: idParams,
  owner: ownerById(findOrganizationRole),
  // Both permission sets before and after, whichever changed, and the role's OrganizationRole.Scopes.Updated.
  audit: auditOwner('Admin.OrganizationRole.Updated', 'OrganizationRole', rolePermissionsState),
  events: scopesUpdatedEvents,
};
const errors = {
  404: errorResponse('No such organization role (`entity.not_exists_with_id`).'),
  422: errorResponse(
    'A scope id does not exist (`entity.relation_foreign_key_not_found`) or a management API permission for a user role (`role.management_api_scope_for_user_role`); data.ids names them.',
  ),
};

const acceptOrganizationScopes = idsIn('organizationScopeIds', assertOrganizationScopesExist);
const acceptResourceScopes = idsIn('scopeIds', (tx, ids, role: OrganizationRoleRow) =>
  assertResourceScopesAllowed(tx, role, ids),
);

const scopesRoutes = relationRoutes({
  ...organizationRole,
  path: '/organization-roles/{id}/scopes',
  links: ({ id }) => roleScopesOf(id),
  list: {
    summary: 'List the organization permissions of a role',
    ...organizationScopeRows,
    pagination: 'optional',
  },
  add: {
    summary: 'Add organization permissions to a role',
    body: organizationRoleScopesAssignSchema,
    accept: acceptOrganizationScopes,
    answer: 'Added (permissions already there stay as they are).',
    errors,
  },
  replace: {
    summary: "Replace a role's organization permissions (an empty list removes them all)",
    body: organizationRoleScopesReplaceSchema,
    accept: acceptOrganizationScopes,
    answer: 'Replaced.',
    errors,
  },
  remove: {
    summary: 'Remove an organization permission from a role',
    param: 'organizationScopeId',
    schema: pathIdSchema,
  },
});

const resourceScopesRoutes = relationRoutes({
  ...organizationRole,
  path: '/organization-roles/{id}/resource-scopes',
  links: ({ id }) => roleResourceScopesOf(id),
  list: {
    summary: 'List the API resource permissions of a role, with their API resource',
    query: keywordQuerySchema,
    item: roleScopeSchema,
    page: 'A page of API permissions, by name.',
    ...relatedResourceScopesByName,
    pagination: 'optional',
  },
  add: {
    summary: 'Add API resource permissions to a role',
    body: organizationRoleResourceScopesAssignSchema,
    accept: acceptResourceScopes,
    answer: 'Added (permissions already there stay as they are).',
    errors,
  },
  replace: {
    summary: "Replace a role's API resource permissions (an empty list removes them all)",
    body: organizationRoleResourceScopesReplaceSchema,
    accept: acceptResourceScopes,
    answer: 'Replaced.',
    errors,
  },
  remove: { summary: 'Remove an API resource permission from a role', param: 'scopeId', schema: pathIdSchema },
});

export const organizationRoleScopesRoutes = createRouter().route('/', scopesRoutes).route('/', resourceScopesRoutes);

import {
  organizationRoleCreateSchema,
  organizationRoleListQuerySchema,
  organizationRolePatchSchema,
  organizationRoleSchema,
  organizationRoleWithScopesSchema,
} from '@gatehouse/schemas';
import { entityRoutes } from '../http/entity-routes.ts';
import { pathIdSchema } from '../http/params.ts';
import { conflictResponse, errorResponse, notFoundResponse } from '../http/route-kit.ts';
import * as organizationRoleService from '../services/organization-roles.ts';

/** The organization template's roles and their permissions (organization scopes and API resource scopes). */

export const organizationRolesRoutes = entityRoutes({
  tags: ['Organization roles'],
  path: '/organization-roles',
  id: { param: 'id', schema: pathIdSchema },
  list: {
    summary: 'List organization roles with the names of their permissions',
    description: '`q` (or `search`) matches a substring of the name; `type` keeps roles of that type.',
    query: organizationRoleListQuerySchema,
    item: { schema: organizationRoleWithScopesSchema, description: 'A page of roles, by name.' },
    rows: ({ tenant }, query) => organizationRoleService.organizationRoleList(tenant, query),
    toApi: (rows, { tenant }) => organizationRoleService.withScopes(tenant, rows),
  },
  create: {
    summary: 'Create an organization role, optionally with permissions',
    body: organizationRoleCreateSchema,
    status: 201,
    answer: { schema: organizationRoleSchema, description: 'The new role.' },
    errors: {
      422: errorResponse(
        'The name is taken (`entity.unique_integrity_violation`), a scope id does not exist (`entity.relation_foreign_key_not_found`, data.ids) or a management API permission for a user role (`role.management_api_scope_for_user_role`).',
      ),
    },
    run: ({ write }, body) => organizationRoleService.createOrganizationRole(write(), body),
  },
  get: {
    summary: 'Get an organization role',
    description:
      'The shape of the create answer (reference); its permissions are `…/scopes` and `…/resource-scopes`, and the list shows their names.',
    answer: { schema: organizationRoleSchema, description: 'The role.' },
    run: ({ tenant, params }) => organizationRoleService.getOrganizationRole(tenant, params.id),
  },
  patch: {
    summary: 'Update the name or description of an organization role',
    body: organizationRolePatchSchema,
    answer: { schema: organizationRoleSchema, description: 'The updated role.' },
    errors: { ...notFoundResponse, ...conflictResponse },
    run: ({ write, params }, body) => organizationRoleService.updateOrganizationRole(write(), params.id, body),
  },
  delete: {
    summary: 'Delete an organization role (members, applications, invitations and JIT settings lose it)',
    run: ({ write, params }) => organizationRoleService.deleteOrganizationRole(write(), params.id),
  },
});

import { applicationRolesAssignSchema, idSchema, roleSchema } from '@gatehouse/schemas';
import { desc } from 'drizzle-orm';
import { roles } from '../db/tables.ts';
import { idParams, searchQuery } from '../http/params.ts';
import { relationRoutes } from '../http/relation-routes.ts';
import { errorResponse, notFoundResponse } from '../http/route-kit.ts';
import { acceptApplicationRoles, applicationRoleLinks, findApplication } from '../services/role-assignments.ts';
import { toRole } from '../services/roles.ts';

/** The roles of a machine-to-machine application: the application side of role ↔ application (see role-relations). */
export const applicationRolesRoutes = relationRoutes({
  tags: ['Applications'],
  path: '/applications/{id}/roles',
  params: idParams,
  owner: (tx, { id }) => findApplication(tx, id),
  links: ({ id }) => applicationRoleLinks(id),
  // The audit entry names the roles a request touched.
  audit: { key: 'Admin.Application.Updated', entity: ({ id }) => ({ type: 'Application', id }), state: 'roleIds' },
  list: {
    summary: 'List the roles of a machine-to-machine application',
    query: searchQuery,
    item: roleSchema,
    page: 'A page of roles, newest first.',
    related: roles,
    id: roles.id,
    search: [roles.id, roles.name, roles.description],
    orderBy: [desc(roles.createdAt), desc(roles.id)],
    toApi: (_tenant, rows) => rows.map(toRole),
  },
  add: {
    summary: 'Assign machine-to-machine roles to a machine-to-machine application',
    body: applicationRolesAssignSchema,
    accept: ({ tx, owner, body }) => acceptApplicationRoles(tx, owner, body.roleIds),
    exists: 'application.role_exists',
    answer: 'Assigned.',
    errors: {
      ...notFoundResponse,
      422: errorResponse(
        'The type does not allow it (`application.invalid_type`, `role.invalid_type`) or it already exists.',
      ),
    },
  },
  remove: { summary: 'Remove a role from an application', param: 'roleId', schema: idSchema },
});

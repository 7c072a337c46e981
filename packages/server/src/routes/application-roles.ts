import { applicationRolesAssignSchema, idSchema } from '@gatehouse/schemas';
import { idParams } from '../http/params.ts';
import { roleRows } from '../http/relation-lists.ts';
import { idsIn, relationRoutes } from '../http/relation-routes.ts';
import { errorResponse, notFoundResponse } from '../http/route-kit.ts';
import { auditOwner } from '../services/relations.ts';
import { applicationRoleLinks, assertRolesForApplication, findApplication } from '../services/role-assignments.ts';

/** The roles of a machine-to-machine application: the application side of role ↔ application (see role-relations). */
export const applicationRolesRoutes = relationRoutes({
  tags: ['Applications'],
  path: '/applications/{id}/roles',
  params: idParams,
  owner: (tx, { id }) => findApplication(tx, id),
  links: ({ id }) => applicationRoleLinks(id),
  // The audit entry names the roles a request touched.
  audit: auditOwner('Admin.Application.Updated', 'Application', 'roleIds'),
  list: {
    summary: 'List the roles of a machine-to-machine application',
    ...roleRows,
  },
  add: {
    summary: 'Assign machine-to-machine roles to a machine-to-machine application',
    body: applicationRolesAssignSchema,
    accept: idsIn('roleIds', assertRolesForApplication),
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

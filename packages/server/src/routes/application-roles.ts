import {
  applicationRolesAssignedSchema,
  applicationRolesAssignSchema,
  applicationRolesReplaceSchema,
} from '@gatehouse/schemas';
import { idParams, pathIdSchema } from '../http/params.ts';
import { roleRows } from '../http/relation-lists.ts';
import { idsIn, relationRoutes } from '../http/relation-routes.ts';
import { errorResponse } from '../http/route-kit.ts';
import { auditOwner } from '../services/relations.ts';
import {
  applicationRoleLinks,
  assertRolesForApplication,
  findMachineToMachineApplication,
} from '../services/role-assignments.ts';

const wrongType = {
  422: errorResponse('The application is not machine-to-machine (`application.invalid_type`).'),
};
const assignmentErrors = {
  404: errorResponse(
    'No such application (`entity.not_exists_with_id`) or a role id does not exist (`entity.not_exists_with_id`, data.ids).',
  ),
  422: errorResponse(
    'The application is not machine-to-machine (`application.invalid_type`) or a role is not (`application.invalid_role_type`, data.ids).',
  ),
};

/**
 * The roles of a machine-to-machine application: the application side of role ↔ application (see role-relations).
 * Every route answers 422 `application.invalid_type` for an application of another type, as the reference does.
 */
export const applicationRolesRoutes = relationRoutes({
  tags: ['Applications'],
  path: '/applications/{id}/roles',
  params: idParams,
  owner: (tx, { id }) => findMachineToMachineApplication(tx, id),
  links: ({ id }) => applicationRoleLinks(id),
  // The audit entry names the roles a request touched.
  audit: auditOwner('Admin.Application.Updated', 'Application', 'roleIds'),
  list: {
    summary: 'List the roles of a machine-to-machine application',
    ...roleRows,
    errors: wrongType,
  },
  add: {
    summary: 'Assign machine-to-machine roles to a machine-to-machine application (roles it holds stay as they are)',
    body: applicationRolesAssignSchema,
    accept: idsIn('roleIds', assertRolesForApplication),
    answer: {
      schema: applicationRolesAssignedSchema,
      description: 'The role ids asked for, and those this request added.',
      of: ({ added }, body) => ({ roleIds: body.roleIds, addedRoleIds: added }),
    },
    errors: assignmentErrors,
  },
  replace: {
    summary: "Replace a machine-to-machine application's roles (an empty list removes them all)",
    body: applicationRolesReplaceSchema,
    accept: idsIn('roleIds', assertRolesForApplication),
    // As the reference: 200 without a body.
    answer: 'Replaced.',
    emptyStatus: 200,
    errors: assignmentErrors,
  },
  remove: {
    summary: 'Remove a role from an application',
    param: 'roleId',
    schema: pathIdSchema,
    errors: wrongType,
    findsOwner: true,
  },
});

import {
  applicationSchema,
  roleApplicationsAssignSchema,
  roleScopeSchema,
  roleScopesAssignSchema,
  roleUserSchema,
  roleUsersAssignSchema,
  scopeSchema,
  userIdSchema,
} from '@gatehouse/schemas';
import { z } from 'zod';
import { entitySearchQuery, idParams, pathIdSchema, userSearchQuery } from '../http/params.ts';
import { idsIn, ownerById, relationRoutes } from '../http/relation-routes.ts';
import { createRouter, errorResponse } from '../http/route-kit.ts';
import { assertQuota } from '../services/quota.ts';
import { relatedRoleApplications, relatedRoleScopes, relatedRoleUsers } from '../services/relation-rows.ts';
import { auditOwner, wholeSet } from '../services/relations.ts';
import {
  assertApplicationsForRole,
  assertScopesForRole,
  assertUsersForRole,
  findRole,
  type RoleRow,
  roleApplicationLinks,
  roleScopeLinks,
  roleScopesUpdatedEvent,
  roleUserLinks,
  scopesOfRole,
} from '../services/role-assignments.ts';

/** A role's permissions, users and machine-to-machine applications (their other sides: user-roles, application-roles). */

const role = {
  tags: ['Roles'],
  params: idParams,
  owner: ownerById(findRole),
};
const roleAudit = <S>(state: S) => auditOwner('Admin.Role.Updated', 'Role', state);
const assignErrors = {
  404: errorResponse(
    'No such role (`entity.not_exists_with_id`) or an assigned id does not exist (`entity.not_exists_with_id`, data.ids).',
  ),
  422: errorResponse(
    'The types do not match (`role.invalid_type`, `application.invalid_type`, `role.management_api_scope_for_user_role`) or the assignment exists.',
  ),
};

const roleScopesRoutes = relationRoutes({
  ...role,
  path: '/roles/{id}/scopes',
  links: ({ id }) => roleScopeLinks(id),
  audit: roleAudit(wholeSet('scopeIds', ({ id }: { id: string }) => roleScopeLinks(id))),
  events: async (tx, _role, _change, { id }) => [await roleScopesUpdatedEvent(tx, id)],
  list: {
    summary: 'List the permissions (scopes) of a role, with their API resource',
    query: entitySearchQuery,
    searchSyntax: true,
    item: roleScopeSchema,
    page: 'A page of scopes, newest first.',
    ...relatedRoleScopes,
    pagination: 'optional',
  },
  add: {
    summary: 'Add permissions (scopes) to a role',
    body: roleScopesAssignSchema,
    accept: idsIn('scopeIds', async (tx, ids, role: RoleRow, config) => {
      await assertQuota(tx, 'scopesPerRoleLimit', config, { parentId: role.id, added: ids.length });
      await assertScopesForRole(tx, ids, role);
    }),
    exists: 'role.scope_exists',
    // As the reference: the role's permissions after the assignment (its clients read them from the answer).
    answer: {
      schema: z.array(scopeSchema),
      description: 'Assigned: every permission of the role now.',
      of: (_result, _body, { tenant, params }) => scopesOfRole(tenant, params.id),
    },
    errors: assignErrors,
  },
  remove: { summary: 'Remove a permission from a role', param: 'scopeId', schema: pathIdSchema },
});

// A role may have very many users and applications: the audit entry names the ones a request touched.

const roleUsersRoutes = relationRoutes({
  ...role,
  path: '/roles/{id}/users',
  links: ({ id }) => roleUserLinks(id),
  audit: roleAudit('userIds'),
  list: {
    summary: 'List the users holding a role',
    query: userSearchQuery,
    searchSyntax: true,
    item: roleUserSchema,
    page: 'A page of users, newest first.',
    ...relatedRoleUsers,
  },
  add: {
    summary: 'Give a user role to users',
    body: roleUsersAssignSchema,
    accept: idsIn('userIds', assertUsersForRole),
    exists: 'role.user_exists',
    answer: 'Assigned.',
    errors: assignErrors,
  },
  remove: { summary: 'Take a role away from a user', param: 'userId', schema: userIdSchema },
});

const roleApplicationsRoutes = relationRoutes({
  ...role,
  path: '/roles/{id}/applications',
  links: ({ id }) => roleApplicationLinks(id),
  audit: roleAudit('applicationIds'),
  list: {
    summary: 'List the machine-to-machine applications holding a role',
    query: entitySearchQuery,
    searchSyntax: true,
    item: applicationSchema,
    page: 'A page of applications, newest first.',
    ...relatedRoleApplications,
  },
  add: {
    summary: 'Give a machine-to-machine role to machine-to-machine applications',
    body: roleApplicationsAssignSchema,
    accept: idsIn('applicationIds', assertApplicationsForRole),
    exists: 'role.application_exists',
    answer: 'Assigned.',
    errors: assignErrors,
  },
  remove: { summary: 'Take a role away from an application', param: 'applicationId', schema: pathIdSchema },
});

export const roleRelationsRoutes = createRouter()
  .route('/', roleScopesRoutes)
  .route('/', roleUsersRoutes)
  .route('/', roleApplicationsRoutes);

import {
  idSchema,
  roleSchema,
  userRolesAssignedSchema,
  userRolesAssignSchema,
  userRolesReplaceSchema,
} from '@gatehouse/schemas';
import { desc } from 'drizzle-orm';
import { z } from 'zod';
import { roles } from '../db/tables.ts';
import { searchQuery, userIdParams } from '../http/params.ts';
import { relationRoutes } from '../http/relation-routes.ts';
import { errorResponse } from '../http/route-kit.ts';
import { wholeSet } from '../services/relations.ts';
import { acceptUserRoles, userRoleLinks } from '../services/role-assignments.ts';
import { toRole } from '../services/roles.ts';
import { findUser } from '../services/users.ts';

/** A user's roles: the user side of the role ↔ user relation (the role side is /roles/{id}/users). */

const assignmentErrors = {
  404: errorResponse(
    'No such user (`entity.not_found`) or a role id does not exist (`entity.relation_foreign_key_not_found`, data.ids).',
  ),
  422: errorResponse('A machine-to-machine role cannot be given to a user (`role.invalid_type`, data.ids).'),
};

export const userRolesRoutes = relationRoutes({
  tags: ['Users'],
  path: '/users/{userId}/roles',
  params: userIdParams,
  owner: (tx, { userId }) => findUser(tx, userId),
  links: ({ userId }) => userRoleLinks(userId),
  // A user holds few roles, so before/after are the whole set.
  audit: {
    key: 'Admin.User.Updated',
    entity: ({ userId }) => ({ type: 'User', id: userId }),
    state: wholeSet('roleIds', ({ userId }: { userId: string }) => userRoleLinks(userId)),
  },
  list: {
    summary: "List a user's roles",
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
    summary: 'Give user roles to a user (roles the user already holds are left as they are)',
    body: userRolesAssignSchema,
    accept: ({ tx, body }) => acceptUserRoles(tx, body.roleIds),
    answer: {
      schema: userRolesAssignedSchema,
      description: "The user's roles now, and the ones this request added.",
      of: ({ after, added }) => ({ roleIds: after.roleIds, addedRoleIds: added }),
    },
    errors: assignmentErrors,
  },
  replace: {
    summary: "Replace a user's roles (an empty list removes them all)",
    body: userRolesReplaceSchema,
    accept: ({ tx, body }) => acceptUserRoles(tx, body.roleIds),
    answer: {
      schema: z.object({ roleIds: z.array(idSchema) }),
      description: "The user's roles now.",
      of: ({ after }) => ({ roleIds: after.roleIds }),
    },
    errors: assignmentErrors,
  },
  remove: { summary: 'Take a role away from a user', param: 'roleId', schema: idSchema },
});

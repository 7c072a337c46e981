import { userRolesAssignedSchema, userRolesAssignSchema, userRolesReplaceSchema } from '@gatehouse/schemas';
import { pathIdSchema, userIdParams } from '../http/params.ts';
import { roleRows } from '../http/relation-lists.ts';
import { idsIn, relationRoutes } from '../http/relation-routes.ts';
import { errorResponse } from '../http/route-kit.ts';
import { wholeSet } from '../services/relations.ts';
import { assertRolesForUser, userRoleLinks } from '../services/role-assignments.ts';
import { findUser } from '../services/users.ts';

/** A user's roles: the user side of the role ↔ user relation (the role side is /roles/{id}/users). */

const assignmentErrors = {
  404: errorResponse(
    'No such user (`entity.not_exists_with_id`) or a role id does not exist (`entity.not_exists_with_id`, data.ids).',
  ),
  422: errorResponse('A machine-to-machine role cannot be given to a user (`user.invalid_role_type`, data.ids).'),
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
    ...roleRows,
  },
  add: {
    summary: 'Give user roles to a user (roles the user already holds are left as they are)',
    body: userRolesAssignSchema,
    accept: idsIn('roleIds', assertRolesForUser),
    answer: {
      schema: userRolesAssignedSchema,
      description: 'The role ids of the request, and the ones it added (reference).',
      of: ({ requested, added }) => ({ roleIds: requested, addedRoleIds: added }),
    },
    errors: assignmentErrors,
  },
  replace: {
    summary: "Replace a user's roles (an empty list removes them all)",
    body: userRolesReplaceSchema,
    accept: idsIn('roleIds', assertRolesForUser),
    // As the reference: 200 without a body.
    answer: 'Replaced.',
    emptyStatus: 200,
    errors: assignmentErrors,
  },
  remove: { summary: 'Take a role away from a user', param: 'roleId', schema: pathIdSchema },
});

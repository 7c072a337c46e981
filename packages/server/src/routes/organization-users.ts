import {
  organizationMemberListQuerySchema,
  organizationMemberRolesAddedSchema,
  organizationMemberRolesAssignSchema,
  organizationMemberRolesReplaceSchema,
  organizationMemberSchema,
  organizationUsersAddedSchema,
  organizationUsersAddSchema,
  organizationUsersReplaceSchema,
  organizationUsersRolesAssignSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { organizationParams, pathIdSchema, userIdPathSchema } from '../http/params.ts';
import { organizationRoleRows, organizationScopeRows } from '../http/relation-lists.ts';
import { idsIn, relationRoutes } from '../http/relation-routes.ts';
import { createRouter, errorResponse, errorResponses, jsonBody } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { memberScopeCondition } from '../services/organization-access.ts';
import {
  assertUsersExist,
  assignRolesToMembers,
  findMember,
  memberRoleIdsOf,
  memberRolesState,
  membershipEvent,
} from '../services/organization-members.ts';
import { findOrganization, memberRolesOf, membersOf } from '../services/organizations.ts';
import { relatedOrganizationMembers } from '../services/relation-rows.ts';
import { auditOwner } from '../services/relations.ts';

/** Members of an organization and the organization roles they hold there. */

const tags = ['Organization members'];
const memberParams = organizationParams.extend({ userId: userIdPathSchema });
const organizationAudit = <S>(state: S) => auditOwner('Admin.Organization.Updated', 'Organization', state);
const errors = {
  404: errorResponse('No such organization (`entity.not_exists_with_id`).'),
  422: errorResponse(
    'An id in the body does not exist (`entity.relation_foreign_key_not_found`, data.ids) or a role name does not (`organization.role_names_not_found`, data.names), not a member (`entity.relation_foreign_key_not_found` in a bulk body, `organization.require_membership` in the path) or a machine-to-machine role (`organization_role.invalid_type`, data.ids).',
  ),
};

const acceptUsers = idsIn('userIds', assertUsersExist);

const membersRoutes = relationRoutes({
  tags,
  path: '/organizations/{id}/users',
  params: organizationParams,
  owner: (tx, { id }) => findOrganization(tx, id),
  links: ({ id }) => membersOf(id),
  // An organization may have very many members: before/after name the users a request touched.
  audit: organizationAudit('userIds'),
  events: (_tx, _organization, change, { id }) => membershipEvent(id, { kind: 'users', ...change }),
  list: {
    summary: 'List the members of an organization with their organization roles',
    description:
      '`q` (or `search`) matches a substring of id, username, email, phone or name; `organizationRoleId` keeps the members holding that role.',
    query: organizationMemberListQuerySchema,
    item: organizationMemberSchema,
    page: 'A page of members, newest users first.',
    ...relatedOrganizationMembers,
  },
  add: {
    summary: 'Add users to an organization (members already there stay as they are)',
    body: organizationUsersAddSchema,
    accept: acceptUsers,
    answer: {
      schema: organizationUsersAddedSchema,
      description: 'The user ids of the request (reference).',
      of: (_result, body: { userIds: string[] }) => ({ userIds: body.userIds }),
    },
    errors,
  },
  replace: {
    summary: 'Replace the members of an organization (those left out lose their roles there)',
    body: organizationUsersReplaceSchema,
    accept: acceptUsers,
    answer: 'Replaced.',
    errors,
  },
  remove: {
    summary: 'Remove a member (and the organization roles held there)',
    param: 'userId',
    schema: userIdPathSchema,
  },
});

const assignRolesToMembersRoute = createRoute({
  method: 'post',
  path: '/organizations/{id}/users/roles',
  tags,
  summary: 'Give organization roles to several members (roles already held stay as they are)',
  request: { params: organizationParams, body: jsonBody(organizationUsersRolesAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...errors },
});

/** The member named by the path: the organization (404), then the user in it (422 `organization.require_membership`). */
const member = {
  tags,
  params: memberParams,
  owner: findMember,
};

const memberRolesRoutes = relationRoutes({
  ...member,
  path: '/organizations/{id}/users/{userId}/roles',
  links: ({ id, userId }) => memberRolesOf(id, userId),
  // A member holds few roles, so before/after are the whole set.
  audit: organizationAudit(memberRolesState),
  list: {
    summary: "List a member's organization roles",
    ...organizationRoleRows,
    pagination: 'optional',
  },
  add: {
    summary: 'Give organization roles to a member, by id and/or name (roles already held stay as they are)',
    body: organizationMemberRolesAssignSchema,
    accept: ({ tx, body }) => memberRoleIdsOf(tx, body),
    answer: {
      schema: organizationMemberRolesAddedSchema,
      description: 'The ids of the roles the request named, names resolved (reference).',
      of: ({ requested }) => ({ organizationRoleIds: requested }),
    },
    errors,
  },
  replace: {
    summary: "Replace a member's organization roles (an empty list removes them all)",
    body: organizationMemberRolesReplaceSchema,
    accept: ({ tx, body }) => memberRoleIdsOf(tx, body),
    answer: 'Replaced.',
    errors,
  },
  remove: {
    summary: 'Take an organization role away from a member',
    param: 'organizationRoleId',
    schema: pathIdSchema,
  },
});

const memberScopesRoutes = relationRoutes({
  ...member,
  path: '/organizations/{id}/users/{userId}/scopes',
  list: {
    summary: "List the organization permissions a member's roles grant",
    ...organizationScopeRows,
    rows: (tenant, { id, userId }) => memberScopeCondition(tenant, id, { userId }),
    pagination: 'optional',
  },
});

export const organizationUsersRoutes = createRouter()
  .route('/', membersRoutes)
  .openapi(assignRolesToMembersRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { userIds, organizationRoleIds } = c.req.valid('json');
    await assignRolesToMembers(writeContext(c), 'users', id, { memberIds: userIds, organizationRoleIds });
    return c.body(null, 201);
  })
  .route('/', memberRolesRoutes)
  .route('/', memberScopesRoutes);

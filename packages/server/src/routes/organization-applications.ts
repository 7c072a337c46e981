import {
  keywordQuerySchema,
  organizationApplicationSchema,
  organizationApplicationsAddSchema,
  organizationApplicationsReplaceSchema,
  organizationApplicationsRolesAssignSchema,
  organizationRoleIdsAssignSchema,
  organizationRoleIdsReplaceSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { organizationParams, pathIdSchema } from '../http/params.ts';
import { organizationRoleRows } from '../http/relation-lists.ts';
import { idsIn, relationRoutes } from '../http/relation-routes.ts';
import { createRouter, errorResponse, errorResponses, jsonBody } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import {
  applicationRolesState,
  assignRolesToMembers,
  findMachineApplications,
  findMemberApplication,
  membershipEvent,
} from '../services/organization-members.ts';
import {
  applicationRolesOf,
  applicationsOf,
  findOrganization,
  findOrganizationRoles,
} from '../services/organizations.ts';
import { relatedOrganizationApplications } from '../services/relation-rows.ts';
import { auditOwner } from '../services/relations.ts';

/** Machine-to-machine applications of an organization and the organization roles they hold there. */

const tags = ['Organization applications'];
const applicationParams = organizationParams.extend({ applicationId: pathIdSchema });
const organizationAudit = <S>(state: S) => auditOwner('Admin.Organization.Updated', 'Organization', state);
const errors = {
  404: errorResponse('No such organization (`entity.not_exists_with_id`).'),
  422: errorResponse(
    'An id in the body does not exist (`entity.relation_foreign_key_not_found`), not machine-to-machine (`application.invalid_type`, `organization_role.invalid_type`), data.ids naming them; an application outside the organization is `entity.relation_foreign_key_not_found` in a bulk body, `organization.require_membership` in the path.',
  ),
};

const acceptApplications = idsIn('applicationIds', findMachineApplications);

const applicationsRoutes = relationRoutes({
  tags,
  path: '/organizations/{id}/applications',
  params: organizationParams,
  owner: (tx, { id }) => findOrganization(tx, id),
  links: ({ id }) => applicationsOf(id),
  // Before/after name the applications a request touched.
  audit: organizationAudit('applicationIds'),
  events: (_tx, _organization, change, { id }) => membershipEvent(id, { kind: 'applications', ...change }),
  list: {
    summary: 'List the applications of an organization with their organization roles',
    query: keywordQuerySchema,
    item: organizationApplicationSchema,
    page: 'A page of applications, newest first.',
    ...relatedOrganizationApplications,
  },
  add: {
    summary: 'Add machine-to-machine applications to an organization',
    body: organizationApplicationsAddSchema,
    accept: acceptApplications,
    answer: 'Added (applications already there stay as they are).',
    errors,
  },
  replace: {
    summary: 'Replace the applications of an organization (those left out lose their roles there)',
    body: organizationApplicationsReplaceSchema,
    accept: acceptApplications,
    answer: 'Replaced.',
    errors,
  },
  remove: {
    summary: 'Remove an application from an organization (and its organization roles there)',
    param: 'applicationId',
    schema: pathIdSchema,
  },
});

const assignRolesToApplicationsRoute = createRoute({
  method: 'post',
  path: '/organizations/{id}/applications/roles',
  tags,
  summary: 'Give organization roles to several applications of the organization (roles already held stay)',
  request: { params: organizationParams, body: jsonBody(organizationApplicationsRolesAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...errors },
});

const acceptApplicationRoles = idsIn('organizationRoleIds', (tx, ids) =>
  findOrganizationRoles(tx, ids, 'MachineToMachine'),
);

const applicationRolesRoutes = relationRoutes({
  tags,
  path: '/organizations/{id}/applications/{applicationId}/roles',
  params: applicationParams,
  // The organization (404), then the application in it (422 `organization.require_membership`, reference).
  owner: findMemberApplication,
  links: ({ id, applicationId }) => applicationRolesOf(id, applicationId),
  // An application holds few roles, so before/after are the whole set.
  audit: organizationAudit(applicationRolesState),
  list: {
    summary: "List an application's organization roles",
    ...organizationRoleRows,
    pagination: 'optional',
  },
  add: {
    summary: 'Give machine-to-machine organization roles to an application of the organization',
    body: organizationRoleIdsAssignSchema,
    accept: acceptApplicationRoles,
    answer: 'Assigned (roles already held stay as they are).',
    errors,
  },
  replace: {
    summary: "Replace an application's organization roles (an empty list removes them all)",
    body: organizationRoleIdsReplaceSchema,
    accept: acceptApplicationRoles,
    answer: 'Replaced.',
    errors,
  },
  remove: {
    summary: 'Take an organization role away from an application',
    param: 'organizationRoleId',
    schema: pathIdSchema,
  },
});

export const organizationApplicationsRoutes = createRouter()
  .route('/', applicationsRoutes)
  .openapi(assignRolesToApplicationsRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { applicationIds, organizationRoleIds } = c.req.valid('json');
    await assignRolesToMembers(writeContext(c), 'applications', id, { memberIds: applicationIds, organizationRoleIds });
    return c.body(null, 201);
  })
  .route('/', applicationRolesRoutes);

import {
  organizationCreateSchema,
  organizationListItemSchema,
  organizationListQuerySchema,
  organizationPatchSchema,
  organizationSchema,
  organizationWithRolesSchema,
  paginationQuerySchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { entityRoutes } from '../http/entity-routes.ts';
import { organizationParams, pathIdSchema } from '../http/params.ts';
import {
  errorResponses,
  jsonResponse,
  listOptionalPage,
  notFoundResponse,
  optionalPaginatedHeaders,
} from '../http/route-kit.ts';
import * as organizationService from '../services/organizations.ts';
import { findApplication } from '../services/role-assignments.ts';
import { findUser } from '../services/users.ts';

/** Organizations (spec §3): list, create, read, update, delete; and the organizations of a user or an application. */

const tags = ['Organizations'];
const listUserOrganizations = createRoute({
  method: 'get',
  path: '/users/{userId}/organizations',
  tags,
  summary: 'List the organizations a user is a member of, with the organization roles held in each',
  request: { params: z.object({ userId: pathIdSchema }), query: paginationQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationWithRolesSchema), 'A page of organizations, newest first.'),
      headers: optionalPaginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const listApplicationOrganizations = createRoute({
  method: 'get',
  path: '/applications/{id}/organizations',
  tags,
  summary: 'List the organizations a machine-to-machine application belongs to, with its organization roles there',
  request: { params: z.object({ id: pathIdSchema }), query: paginationQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationWithRolesSchema), 'A page of organizations, newest first.'),
      headers: optionalPaginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

export const organizationsRoutes = entityRoutes({
  tags,
  path: '/organizations',
  id: { param: 'id', schema: organizationParams.shape.id },
  list: {
    summary: 'List organizations, newest first',
    description:
      "`q` (or `search`) matches a substring of the id or the name, any case. `showFeatured=1` adds each organization's member count (`usersCount`) and up to three members (`featuredUsers`).",
    query: organizationListQuerySchema,
    item: { schema: organizationListItemSchema, description: 'A page of organizations, newest first.' },
    rows: ({ tenant }, query) => organizationService.organizationList(tenant, query),
    toApi: async (rows, { tenant }, query) =>
      query.showFeatured
        ? await organizationService.withFeaturedUsers(tenant, rows)
        : rows.map(organizationService.toOrganization),
  },
  create: {
    summary: 'Create an organization',
    body: organizationCreateSchema,
    status: 201,
    answer: { schema: organizationSchema, description: 'The new organization.' },
    run: ({ write, config }, body) => organizationService.createOrganization(write(), config, body),
  },
  get: {
    summary: 'Get an organization',
    answer: { schema: organizationSchema, description: 'The organization.' },
    run: async ({ tenant, params }) =>
      organizationService.toOrganization(await organizationService.findOrganization(tenant, params.id)),
  },
  patch: {
    summary: 'Update an organization',
    description: 'Each given field replaces the stored one (`customData`, `color` and `branding` as whole objects).',
    body: organizationPatchSchema,
    answer: { schema: organizationSchema, description: 'The updated organization.' },
    run: ({ write, params }, body) => organizationService.updateOrganization(write(), params.id, body),
  },
  delete: {
    summary: 'Delete an organization (its memberships, roles held there, invitations and JIT settings go with it)',
    run: ({ write, params }) => organizationService.deleteOrganization(write(), params.id),
  },
})
  .openapi(listUserOrganizations, async (c) => {
    const { userId } = c.req.valid('param');
    const tenant = c.get('tenant');
    await findUser(tenant, userId);
    const member = { userId };
    const rows = await listOptionalPage(c, organizationService.organizationsOf(tenant, member), c.req.valid('query'));
    return c.json(await organizationService.withRolesHeld(tenant, member, rows), 200);
  })
  .openapi(listApplicationOrganizations, async (c) => {
    const { id } = c.req.valid('param');
    const tenant = c.get('tenant');
    await findApplication(tenant, id);
    const member = { applicationId: id };
    const rows = await listOptionalPage(c, organizationService.organizationsOf(tenant, member), c.req.valid('query'));
    return c.json(await organizationService.withRolesHeld(tenant, member, rows), 200);
  });

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
import { organizations } from '../db/tables.ts';
import { organizationParams, pathIdSchema } from '../http/params.ts';
import {
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listOptionalPage,
  listPage,
  notFoundResponse,
  optionalPaginatedHeaders,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as organizationService from '../services/organizations.ts';
import { findApplication } from '../services/role-assignments.ts';
import { findUser } from '../services/users.ts';

/** Organizations (spec §3): list, create, read, update, delete; and the organizations of a user or an application. */

const tags = ['Organizations'];
const listOrganizations = createRoute({
  method: 'get',
  path: '/organizations',
  tags,
  summary: 'List organizations, newest first',
  description:
    "`q` (or `search`) matches a substring of the id or the name, any case. `showFeatured=1` adds each organization's member count (`usersCount`) and up to three members (`featuredUsers`).",
  request: { query: organizationListQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationListItemSchema), 'A page of organizations, newest first.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
  },
});

const createOrganization = createRoute({
  method: 'post',
  path: '/organizations',
  tags,
  summary: 'Create an organization',
  request: { body: jsonBody(organizationCreateSchema) },
  responses: { 201: jsonResponse(organizationSchema, 'The new organization.'), ...errorResponses },
});

const getOrganization = createRoute({
  method: 'get',
  path: '/organizations/{id}',
  tags,
  summary: 'Get an organization',
  request: { params: organizationParams },
  responses: { 200: jsonResponse(organizationSchema, 'The organization.'), ...errorResponses, ...notFoundResponse },
});

const patchOrganization = createRoute({
  method: 'patch',
  path: '/organizations/{id}',
  tags,
  summary: 'Update an organization',
  description: 'Each given field replaces the stored one (`customData`, `color` and `branding` as whole objects).',
  request: { params: organizationParams, body: jsonBody(organizationPatchSchema) },
  responses: {
    200: jsonResponse(organizationSchema, 'The updated organization.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const deleteOrganization = createRoute({
  method: 'delete',
  path: '/organizations/{id}',
  tags,
  summary: 'Delete an organization (its memberships, roles held there, invitations and JIT settings go with it)',
  request: { params: organizationParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

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

export const organizationsRoutes = createRouter()
  .openapi(listOrganizations, async (c) => {
    const query = c.req.valid('query');
    const list = await organizationService.organizationListQuery(c.get('tenant'), query);
    const rows = await listPage(c, organizations, query, list);
    if (query.showFeatured) return c.json(await organizationService.withFeaturedUsers(c.get('tenant'), rows), 200);
    return c.json(rows.map(organizationService.toOrganization), 200);
  })
  .openapi(createOrganization, async (c) => {
    const created = await organizationService.createOrganization(writeContext(c), c.get('config'), c.req.valid('json'));
    return c.json(created, 201);
  })
  .openapi(getOrganization, async (c) => {
    const row = await organizationService.findOrganization(c.get('tenant'), c.req.valid('param').id);
    return c.json(organizationService.toOrganization(row), 200);
  })
  .openapi(patchOrganization, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await organizationService.updateOrganization(writeContext(c), id, c.req.valid('json')), 200);
  })
  .openapi(deleteOrganization, async (c) => {
    await organizationService.deleteOrganization(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(listUserOrganizations, async (c) => {
    const { userId } = c.req.valid('param');
    const tenant = c.get('tenant');
    await findUser(tenant, userId);
    const member = { userId };
    const rows = await listOptionalPage(
      c,
      organizations,
      c.req.valid('query'),
      organizationService.organizationsOfQuery(tenant, member),
    );
    return c.json(await organizationService.withRolesHeld(tenant, member, rows), 200);
  })
  .openapi(listApplicationOrganizations, async (c) => {
    const { id } = c.req.valid('param');
    const tenant = c.get('tenant');
    await findApplication(tenant, id);
    const member = { applicationId: id };
    const rows = await listOptionalPage(
      c,
      organizations,
      c.req.valid('query'),
      organizationService.organizationsOfQuery(tenant, member),
    );
    return c.json(await organizationService.withRolesHeld(tenant, member, rows), 200);
  });

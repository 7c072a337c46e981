import {
  keywordQuerySchema,
  organizationScopeCreateSchema,
  organizationScopePatchSchema,
  organizationScopeSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { organizationScopes } from '../db/tables.ts';
import { pathIdSchema } from '../http/params.ts';
import {
  conflictResponse,
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listOptionalPage,
  notFoundResponse,
  optionalPaginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as organizationScopeService from '../services/organization-scopes.ts';
import { toOrganizationScope } from '../services/organizations.ts';

/** The organization template's permissions (organization scopes). */

const tags = ['Organization scopes'];
const idParams = z.object({ id: pathIdSchema });

const listScopes = createRoute({
  method: 'get',
  path: '/organization-scopes',
  tags,
  summary: 'List organization permissions',
  description: '`q` (or `search`) matches a substring of the name, any case.',
  request: { query: keywordQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationScopeSchema), 'A page of organization permissions, by name.'),
      headers: optionalPaginatedHeaders,
    },
    ...errorResponses,
  },
});

const createScope = createRoute({
  method: 'post',
  path: '/organization-scopes',
  tags,
  summary: 'Create an organization permission (names are unique in the tenant)',
  request: { body: jsonBody(organizationScopeCreateSchema) },
  responses: {
    201: jsonResponse(organizationScopeSchema, 'The new permission.'),
    ...errorResponses,
    ...conflictResponse,
  },
});

const getScope = createRoute({
  method: 'get',
  path: '/organization-scopes/{id}',
  tags,
  summary: 'Get an organization permission',
  request: { params: idParams },
  responses: {
    200: jsonResponse(organizationScopeSchema, 'The permission.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const patchScope = createRoute({
  method: 'patch',
  path: '/organization-scopes/{id}',
  tags,
  summary: 'Update an organization permission',
  request: { params: idParams, body: jsonBody(organizationScopePatchSchema) },
  responses: {
    200: jsonResponse(organizationScopeSchema, 'The updated permission.'),
    ...errorResponses,
    ...notFoundResponse,
    ...conflictResponse,
  },
});

const deleteScope = createRoute({
  method: 'delete',
  path: '/organization-scopes/{id}',
  tags,
  summary: 'Delete an organization permission (every organization role loses it)',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

export const organizationScopesRoutes = createRouter()
  .openapi(listScopes, async (c) => {
    const query = c.req.valid('query');
    const rows = await listOptionalPage(
      c,
      organizationScopes,
      query,
      organizationScopeService.organizationScopeListQuery(query),
    );
    return c.json(rows.map(toOrganizationScope), 200);
  })
  .openapi(createScope, async (c) => {
    return c.json(await organizationScopeService.createOrganizationScope(writeContext(c), c.req.valid('json')), 201);
  })
  .openapi(getScope, async (c) => {
    return c.json(await organizationScopeService.getOrganizationScope(c.get('tenant'), c.req.valid('param').id), 200);
  })
  .openapi(patchScope, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(
      await organizationScopeService.updateOrganizationScope(writeContext(c), id, c.req.valid('json')),
      200,
    );
  })
  .openapi(deleteScope, async (c) => {
    await organizationScopeService.deleteOrganizationScope(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  });

import {
  paginationQuerySchema,
  resourceCreateSchema,
  resourceIsDefaultSchema,
  resourcePatchSchema,
  resourceSchema,
  resourceWithScopesSchema,
  scopeCreateSchema,
  scopePatchSchema,
  scopeSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { resources, scopes } from '../db/tables.ts';
import { entitySearchQuery, pathIdSchema } from '../http/params.ts';
import {
  conflictResponse,
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listOptionalPage,
  listPage,
  notFoundResponse,
  optionalPaginatedHeaders,
  paginatedHeaders,
  searchSyntaxHook,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as resourceService from '../services/resources.ts';

const tags = ['API resources'];
const idParams = z.object({ id: pathIdSchema });
const scopeParams = z.object({ id: pathIdSchema, scopeId: pathIdSchema });
const searchQuery = paginationQuerySchema.extend({ search: z.string().max(256).optional() });

const readOnlyResponse = {
  403: errorResponse(
    'The token lacks scope `all` (`auth.forbidden`), or the resource is built in (`resource.read_only`).',
  ),
} as const;

const listResources = createRoute({
  method: 'get',
  path: '/resources',
  tags,
  summary: 'List API resources',
  request: {
    query: searchQuery.extend({
      includeScopes: z.enum(['true', 'false']).optional().meta({ description: 'Attach each resource’s scopes.' }),
    }),
  },
  responses: {
    200: {
      ...jsonResponse(z.array(resourceWithScopesSchema.partial({ scopes: true })), 'A page of API resources.'),
      headers: optionalPaginatedHeaders,
    },
    ...errorResponses,
  },
});

const createResource = createRoute({
  method: 'post',
  path: '/resources',
  tags,
  summary: 'Create an API resource',
  request: { body: jsonBody(resourceCreateSchema) },
  responses: {
    201: jsonResponse(resourceWithScopesSchema, 'The new resource (without scopes yet).'),
    ...errorResponses,
    ...conflictResponse,
  },
});

const getResource = createRoute({
  method: 'get',
  path: '/resources/{id}',
  tags,
  summary: 'Get an API resource',
  request: { params: idParams },
  responses: { 200: jsonResponse(resourceSchema, 'The resource.'), ...errorResponses, ...notFoundResponse },
});

const patchResource = createRoute({
  method: 'patch',
  path: '/resources/{id}',
  tags,
  summary: 'Update an API resource (name, access-token TTL)',
  request: { params: idParams, body: jsonBody(resourcePatchSchema) },
  responses: {
    200: jsonResponse(resourceSchema, 'The updated resource.'),
    ...errorResponses,
    ...readOnlyResponse,
    ...notFoundResponse,
  },
});

const patchResourceIsDefault = createRoute({
  method: 'patch',
  path: '/resources/{id}/is-default',
  tags,
  summary: 'Make an API resource the default one, or stop it being the default',
  description: 'At most one resource of a tenant is the default; setting it unsets the previous one.',
  request: { params: idParams, body: jsonBody(resourceIsDefaultSchema) },
  responses: {
    200: jsonResponse(resourceSchema, 'The updated resource.'),
    ...errorResponses,
    ...readOnlyResponse,
    ...notFoundResponse,
  },
});

const deleteResource = createRoute({
  method: 'delete',
  path: '/resources/{id}',
  tags,
  summary: 'Delete an API resource with its scopes (roles lose them)',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...readOnlyResponse, ...notFoundResponse },
});

const listScopes = createRoute({
  method: 'get',
  path: '/resources/{id}/scopes',
  tags,
  summary: 'List the scopes (permissions) of an API resource',
  description:
    "The reference's search syntax: `search` matches a substring of id, name or description (any case); " +
    '`search.<field>`, `mode[.<field>]`, `joint` and `isCaseSensitive` as on `GET /users`.',
  request: { params: idParams, query: entitySearchQuery },
  responses: {
    200: { ...jsonResponse(z.array(scopeSchema), 'A page of scopes, newest first.'), headers: paginatedHeaders },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const createScope = createRoute({
  method: 'post',
  path: '/resources/{id}/scopes',
  tags,
  summary: 'Create a scope (permission)',
  request: { params: idParams, body: jsonBody(scopeCreateSchema) },
  responses: {
    201: jsonResponse(scopeSchema, 'The new scope.'),
    ...errorResponses,
    ...readOnlyResponse,
    ...notFoundResponse,
    ...conflictResponse,
  },
});

const patchScope = createRoute({
  method: 'patch',
  path: '/resources/{id}/scopes/{scopeId}',
  tags,
  summary: 'Update a scope',
  request: { params: scopeParams, body: jsonBody(scopePatchSchema) },
  responses: {
    200: jsonResponse(scopeSchema, 'The updated scope.'),
    ...errorResponses,
    ...readOnlyResponse,
    ...notFoundResponse,
    ...conflictResponse,
  },
});

const deleteScope = createRoute({
  method: 'delete',
  path: '/resources/{id}/scopes/{scopeId}',
  tags,
  summary: 'Delete a scope (roles lose it)',
  request: { params: scopeParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...readOnlyResponse, ...notFoundResponse },
});

export const resourcesRoutes = createRouter()
  .openapi(listResources, async (c) => {
    const query = c.req.valid('query');
    const rows = (await listOptionalPage(c, resources, query, resourceService.resourceListQuery(query))).map(
      resourceService.toResource,
    );
    if (query.includeScopes !== 'true') return c.json(rows, 200);
    return c.json(await resourceService.withScopes(c.get('tenant'), rows), 200);
  })
  .openapi(createResource, async (c) => {
    const resource = await resourceService.createResource(writeContext(c), c.get('config'), c.req.valid('json'));
    return c.json({ ...resource, scopes: [] }, 201);
  })
  .openapi(getResource, async (c) => {
    const row = await resourceService.findResource(c.get('tenant'), c.req.valid('param').id);
    return c.json(resourceService.toResource(row), 200);
  })
  .openapi(patchResource, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await resourceService.updateResource(writeContext(c), id, c.req.valid('json')), 200);
  })
  .openapi(patchResourceIsDefault, async (c) => {
    const { id } = c.req.valid('param');
    const { isDefault } = c.req.valid('json');
    return c.json(await resourceService.setDefaultResource(writeContext(c), id, isDefault), 200);
  })
  .openapi(deleteResource, async (c) => {
    await resourceService.deleteResource(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(
    listScopes,
    async (c) => {
      const { id } = c.req.valid('param');
      const query = c.req.valid('query');
      await resourceService.findResource(c.get('tenant'), id);
      const rows = await listPage(c, scopes, query, resourceService.scopeListQuery(id, query));
      return c.json(rows.map(resourceService.toScope), 200);
    },
    searchSyntaxHook,
  )
  .openapi(createScope, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await resourceService.createScope(writeContext(c), c.get('config'), id, c.req.valid('json')), 201);
  })
  .openapi(patchScope, async (c) => {
    const { id, scopeId } = c.req.valid('param');
    return c.json(await resourceService.updateScope(writeContext(c), id, scopeId, c.req.valid('json')), 200);
  })
  .openapi(deleteScope, async (c) => {
    const { id, scopeId } = c.req.valid('param');
    await resourceService.deleteScope(writeContext(c), id, scopeId);
    return c.body(null, 204);
  });

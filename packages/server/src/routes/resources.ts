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
import { entityRoutes } from '../http/entity-routes.ts';
import { entitySearchQuery, pathIdSchema } from '../http/params.ts';
import {
  conflictResponse,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as resourceService from '../services/resources.ts';

const tags = ['API resources'];
const idParams = z.object({ id: pathIdSchema });
const searchQuery = paginationQuerySchema.extend({ search: z.string().max(256).optional() });

const readOnlyResponse = {
  403: errorResponse(
    'The token lacks scope `all` (`auth.forbidden`), or the resource is built in (`resource.read_only`).',
  ),
} as const;

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

/** The scopes (permissions) of an API resource: `/resources/{id}/scopes`, 404 without the resource. */
const scopesRoutes = entityRoutes({
  tags,
  path: '/resources/{id}/scopes',
  params: idParams,
  id: { param: 'scopeId', schema: pathIdSchema },
  list: {
    summary: 'List the scopes (permissions) of an API resource',
    description:
      "The reference's search syntax: `search` matches a substring of id, name or description (any case); " +
      '`search.<field>`, `mode[.<field>]`, `joint` and `isCaseSensitive` as on `GET /users`.',
    query: entitySearchQuery,
    searchSyntax: true,
    item: { schema: scopeSchema, description: 'A page of scopes, newest first.' },
    errors: notFoundResponse,
    rows: async ({ tenant, params }, query) => {
      await resourceService.findResource(tenant, params.id);
      return resourceService.scopeList(tenant, params.id, query);
    },
    toApi: (rows) => rows.map(resourceService.toScope),
  },
  create: {
    summary: 'Create a scope (permission)',
    body: scopeCreateSchema,
    status: 201,
    answer: { schema: scopeSchema, description: 'The new scope.' },
    errors: { ...readOnlyResponse, ...notFoundResponse, ...conflictResponse },
    run: ({ write, config, params }, body) => resourceService.createScope(write(), config, params.id, body),
  },
  patch: {
    summary: 'Update a scope',
    body: scopePatchSchema,
    answer: { schema: scopeSchema, description: 'The updated scope.' },
    errors: { ...readOnlyResponse, ...notFoundResponse, ...conflictResponse },
    run: ({ write, params }, body) => resourceService.updateScope(write(), params.id, params.scopeId, body),
  },
  delete: {
    summary: 'Delete a scope (roles lose it)',
    errors: { ...readOnlyResponse, ...notFoundResponse },
    run: ({ write, params }) => resourceService.deleteScope(write(), params.id, params.scopeId),
  },
});

export const resourcesRoutes = entityRoutes({
  tags,
  path: '/resources',
  id: { param: 'id', schema: pathIdSchema },
  list: {
    summary: 'List API resources',
    query: searchQuery.extend({
      includeScopes: z.enum(['true', 'false']).optional().meta({ description: 'Attach each resource’s scopes.' }),
    }),
    pagination: 'optional',
    item: { schema: resourceWithScopesSchema.partial({ scopes: true }), description: 'A page of API resources.' },
    rows: ({ tenant }, query) => resourceService.resourceList(tenant, query),
    toApi: async (rows, { tenant }, query) => {
      const resources = rows.map(resourceService.toResource);
      return query.includeScopes === 'true' ? await resourceService.withScopes(tenant, resources) : resources;
    },
  },
  create: {
    summary: 'Create an API resource',
    body: resourceCreateSchema,
    status: 201,
    answer: { schema: resourceWithScopesSchema, description: 'The new resource (without scopes yet).' },
    errors: conflictResponse,
    run: async ({ write, config }, body) => ({
      ...(await resourceService.createResource(write(), config, body)),
      scopes: [],
    }),
  },
  get: {
    summary: 'Get an API resource',
    answer: { schema: resourceSchema, description: 'The resource.' },
    run: async ({ tenant, params }) =>
      resourceService.toResource(await resourceService.findResource(tenant, params.id)),
  },
  patch: {
    summary: 'Update an API resource (name, access-token TTL)',
    body: resourcePatchSchema,
    answer: { schema: resourceSchema, description: 'The updated resource.' },
    errors: { ...readOnlyResponse, ...notFoundResponse },
    run: ({ write, params }, body) => resourceService.updateResource(write(), params.id, body),
  },
  delete: {
    summary: 'Delete an API resource with its scopes (roles lose them)',
    errors: { ...readOnlyResponse, ...notFoundResponse },
    run: ({ write, params }) => resourceService.deleteResource(write(), params.id),
  },
})
  .openapi(patchResourceIsDefault, async (c) => {
    const { id } = c.req.valid('param');
    const { isDefault } = c.req.valid('json');
    return c.json(await resourceService.setDefaultResource(writeContext(c), id, isDefault), 200);
  })
  .route('/', scopesRoutes);

import {
  errorBodySchema,
  generateId,
  idSchema,
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
import { and, asc, desc, eq, ilike, inArray, ne, or, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { allOf, anyOf } from '../db/conditions.ts';
import { resources, scopes } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError, notFound } from '../http/errors.ts';
import {
  conflictResponse,
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  likePattern,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { isBuiltInIndicator } from '../services/built-in-resources.ts';
import { assertQuota } from '../services/quota.ts';
import { toResource, toScope } from '../services/resources.ts';
import { performWrite } from '../services/write-path.ts';

const tags = ['API resources'];
const idParams = z.object({ id: idSchema });
const scopeParams = z.object({ id: idSchema, scopeId: idSchema });
const searchQuery = paginationQuerySchema.extend({ search: z.string().max(256).optional() });

/** The resource, or 404; built-in APIs (management, me) answer 403 `resource.read_only` to writes. */
async function writableResource(tx: TenantDb, id: string) {
  const row = await tx.findOne(resources, eq(resources.id, id));
  if (!row) throw notFound();
  if (isBuiltInIndicator(row.indicator)) throw new ApiError(403, 'resource.read_only');
  return row;
}

async function findResource(tenant: TenantDb, id: string) {
  const row = await tenant.findOne(resources, eq(resources.id, id));
  if (!row) throw notFound();
  return row;
}

const readOnlyResponse = {
  403: {
    description: 'The token lacks scope `all` (`auth.forbidden`), or the resource is built in (`resource.read_only`).',
    content: { 'application/json': { schema: errorBodySchema } },
  },
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
      headers: paginatedHeaders,
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
  request: { params: idParams, query: searchQuery },
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
    const where = query.search
      ? or(
          ilike(resources.id, likePattern(query.search)),
          ilike(resources.name, likePattern(query.search)),
          ilike(resources.indicator, likePattern(query.search)),
        )
      : undefined;
    const rows = (
      await listPage(c, resources, query, { where, orderBy: [desc(resources.createdAt), desc(resources.id)] })
    ).map(toResource);
    if (query.includeScopes !== 'true' || rows.length === 0) return c.json(rows, 200);
    const scopeRows = await c.get('tenant').findMany(scopes, {
      where: inArray(
        scopes.resourceId,
        rows.map((row) => row.id),
      ),
      orderBy: [asc(scopes.name)],
    });
    return c.json(
      rows.map((row) => ({
        ...row,
        scopes: scopeRows.filter((scope) => scope.resourceId === row.id).map(toScope),
      })),
      200,
    );
  })
  .openapi(createResource, async (c) => {
    const resource = await performWrite(
      writeContext(c),
      { key: 'Admin.Resource.Created', schema: resourceCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        if (isBuiltInIndicator(input.indicator)) throw new ApiError(422, 'resource.reserved_indicator');
        await assertQuota(tx, 'resourcesLimit', c.get('config'));
        const created = toResource(await tx.insert(resources, { id: generateId(), ...input }));
        return { result: created, entity: { type: 'Resource', id: created.id }, before: null, after: created };
      },
    );
    return c.json({ ...resource, scopes: [] }, 201);
  })
  .openapi(getResource, async (c) => {
    return c.json(toResource(await findResource(c.get('tenant'), c.req.valid('param').id)), 200);
  })
  .openapi(patchResource, async (c) => {
    const { id } = c.req.valid('param');
    const resource = await performWrite(
      writeContext(c),
      { key: 'Admin.Resource.Updated', schema: resourcePatchSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const before = toResource(await writableResource(tx, id));
        const [row] = await tx.update(resources, eq(resources.id, id), input);
        if (!row) throw notFound();
        const after = toResource(row);
        return { result: after, entity: { type: 'Resource', id }, before, after };
      },
    );
    return c.json(resource, 200);
  })
  .openapi(patchResourceIsDefault, async (c) => {
    const { id } = c.req.valid('param');
    const resource = await performWrite(
      writeContext(c),
      { key: 'Admin.Resource.Updated', schema: resourceIsDefaultSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const before = toResource(await writableResource(tx, id));
        // The previous default stops being one in the same transaction (the unique index holds the rule).
        if (input.isDefault) {
          await tx.update(resources, allOf(eq(resources.isDefault, true), ne(resources.id, id)), {
            isDefault: false,
          });
        }
        const [row] = await tx.update(resources, eq(resources.id, id), { isDefault: input.isDefault });
        if (!row) throw notFound();
        const after = toResource(row);
        return { result: after, entity: { type: 'Resource', id }, before, after };
      },
    );
    return c.json(resource, 200);
  })
  .openapi(deleteResource, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Resource.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        const resource = toResource(await writableResource(tx, id));
        const removedScopes = (
          await tx.findMany(scopes, { where: eq(scopes.resourceId, id), orderBy: [asc(scopes.name)] })
        ).map(toScope);
        // Scopes and their role assignments go with the resource (foreign keys cascade).
        await tx.delete(resources, eq(resources.id, id));
        return {
          result: undefined,
          entity: { type: 'Resource', id },
          before: { ...resource, scopes: removedScopes },
          after: null,
          events: removedScopes.map((scope) => ({ event: 'Scope.Deleted' as const, data: scope })),
        };
      },
    );
    return c.body(null, 204);
  })
  .openapi(listScopes, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    await findResource(c.get('tenant'), id);
    const conditions: SQL[] = [eq(scopes.resourceId, id)];
    if (query.search) {
      const pattern = likePattern(query.search);
      conditions.push(
        anyOf(ilike(scopes.id, pattern), ilike(scopes.name, pattern), ilike(scopes.description, pattern)),
      );
    }
    const rows = await listPage(c, scopes, query, {
      where: and(...conditions),
      orderBy: [desc(scopes.createdAt), desc(scopes.id)],
    });
    return c.json(rows.map(toScope), 200);
  })
  .openapi(createScope, async (c) => {
    const { id } = c.req.valid('param');
    const scope = await performWrite(
      writeContext(c),
      { key: 'Admin.Scope.Created', schema: scopeCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        await writableResource(tx, id);
        await assertQuota(tx, 'scopesPerResourceLimit', c.get('config'), { parentId: id });
        const created = toScope(await tx.insert(scopes, { id: generateId(), resourceId: id, ...input }));
        return {
          result: created,
          entity: { type: 'Scope', id: created.id },
          before: null,
          after: created,
          events: [{ event: 'Scope.Created', data: created }],
        };
      },
    );
    return c.json(scope, 201);
  })
  .openapi(patchScope, async (c) => {
    const { id, scopeId } = c.req.valid('param');
    const scope = await performWrite(
      writeContext(c),
      { key: 'Admin.Scope.Updated', schema: scopePatchSchema, input: c.req.valid('json') },
      async (tx, input) => {
        await writableResource(tx, id);
        const where = allOf(eq(scopes.id, scopeId), eq(scopes.resourceId, id));
        const existing = await tx.findOne(scopes, where);
        if (!existing) throw notFound();
        const [row] = await tx.update(scopes, where, input);
        if (!row) throw notFound();
        const after = toScope(row);
        return {
          result: after,
          entity: { type: 'Scope', id: scopeId },
          before: toScope(existing),
          after,
          events: [{ event: 'Scope.Data.Updated', data: after }],
        };
      },
    );
    return c.json(scope, 200);
  })
  .openapi(deleteScope, async (c) => {
    const { id, scopeId } = c.req.valid('param');
    await performWrite(writeContext(c), { key: 'Admin.Scope.Deleted', schema: z.object({}), input: {} }, async (tx) => {
      await writableResource(tx, id);
      const [row] = await tx.delete(scopes, allOf(eq(scopes.id, scopeId), eq(scopes.resourceId, id)));
      if (!row) throw notFound();
      const before = toScope(row);
      return {
        result: undefined,
        entity: { type: 'Scope', id: scopeId },
        before,
        after: null,
        events: [{ event: 'Scope.Deleted', data: before }],
      };
    });
    return c.body(null, 204);
  });

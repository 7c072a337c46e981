import {
  generateId,
  idSchema,
  keywordQuerySchema,
  organizationScopeCreateSchema,
  organizationScopePatchSchema,
  organizationScopeSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { organizationScopes } from '../db/tables.ts';
import {
  conflictResponse,
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { findOrganizationScope, keywordCondition, toOrganizationScope } from '../services/organizations.ts';
import { performWrite } from '../services/write-path.ts';

/** The organization template's permissions (organization scopes). */

const tags = ['Organization scopes'];
const idParams = z.object({ id: idSchema });

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
      headers: paginatedHeaders,
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
    const rows = await listPage(c, organizationScopes, query, {
      where: keywordCondition(query, [organizationScopes.name]),
      orderBy: [asc(organizationScopes.name)],
    });
    return c.json(rows.map(toOrganizationScope), 200);
  })
  .openapi(createScope, async (c) => {
    const scope = await performWrite(
      writeContext(c),
      { key: 'Admin.OrganizationScope.Created', schema: organizationScopeCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const created = toOrganizationScope(await tx.insert(organizationScopes, { id: generateId(), ...input }));
        return {
          result: created,
          entity: { type: 'OrganizationScope', id: created.id },
          before: null,
          after: created,
          events: [{ event: 'OrganizationScope.Created', data: created }],
        };
      },
    );
    return c.json(scope, 201);
  })
  .openapi(getScope, async (c) => {
    return c.json(toOrganizationScope(await findOrganizationScope(c.get('tenant'), c.req.valid('param').id)), 200);
  })
  .openapi(patchScope, async (c) => {
    const { id } = c.req.valid('param');
    const scope = await performWrite(
      writeContext(c),
      { key: 'Admin.OrganizationScope.Updated', schema: organizationScopePatchSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const before = toOrganizationScope(await findOrganizationScope(tx, id));
        // An empty patch changes nothing: no statement, no event (the audit entry shows no changes).
        if (!Object.keys(input).length)
          return { result: before, entity: { type: 'OrganizationScope', id }, before, after: before };
        const [row] = await tx.update(organizationScopes, eq(organizationScopes.id, id), input);
        if (!row) throw new Error('the organization scope vanished inside its transaction');
        const after = toOrganizationScope(row);
        return {
          result: after,
          entity: { type: 'OrganizationScope', id },
          before,
          after,
          events: [{ event: 'OrganizationScope.Data.Updated', data: after }],
        };
      },
    );
    return c.json(scope, 200);
  })
  .openapi(deleteScope, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.OrganizationScope.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        const before = toOrganizationScope(await findOrganizationScope(tx, id));
        await tx.delete(organizationScopes, eq(organizationScopes.id, id));
        return {
          result: undefined,
          entity: { type: 'OrganizationScope', id },
          before,
          after: null,
          events: [{ event: 'OrganizationScope.Deleted', data: before }],
        };
      },
    );
    return c.body(null, 204);
  });

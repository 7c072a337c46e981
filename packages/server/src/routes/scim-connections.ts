import {
  scimConnectionCreateSchema,
  scimConnectionListQuerySchema,
  scimConnectionMembersQuerySchema,
  scimConnectionPatchSchema,
  scimConnectionSchema,
  scimConnectionWithTokenSchema,
  scimGroupSchema,
  scimProvisionedUserSchema,
  scimRequestSchema,
  userScimProvisioningSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { entityRoutes } from '../http/entity-routes.ts';
import { idParams, pathIdSchema, userIdParams } from '../http/params.ts';
import {
  errorResponse,
  errorResponses,
  jsonResponse,
  notFoundResponse,
  paginatedHeaders,
  setPaginationHeaders,
  toPage,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { listProvisionedGroups } from '../services/scim/groups.ts';
import { listProvisionedUsers } from '../services/scim/users.ts';
import * as connections from '../services/scim-connections.ts';
import type { AppEnv } from '../shared/app-env.ts';

/**
 * SCIM provisioning connections (issue 45; docs/areas/scim.md): one per enterprise SSO connector, with the bearer
 * token its directory presents (shown by the creation and by a rotation only), what its groups grant, what a SCIM
 * DELETE does, the users and groups it provisioned and its last requests. The SCIM service itself is routes/scim.ts.
 */

const tags = ['SCIM provisioning'];
const once = 'The token is in this answer only: the server keeps a hash of it.';

const baseUrlOf = (c: Context<AppEnv>) => {
  return connections.scimBaseUrl(c.get('config').publicUrl, c.get('tenant').tenantId);
};

const rotateToken = createRoute({
  method: 'post',
  path: '/scim-connections/{id}/token',
  tags,
  summary: 'Make a new bearer token (the previous one stops at once)',
  description: once,
  request: { params: idParams },
  responses: {
    200: jsonResponse(scimConnectionWithTokenSchema, 'The connection and its new token.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const revokeToken = createRoute({
  method: 'delete',
  path: '/scim-connections/{id}/token',
  tags,
  summary: 'Revoke the bearer token (the directory is refused until a new one is made)',
  request: { params: idParams },
  responses: { 204: { description: 'Revoked.' }, ...errorResponses, ...notFoundResponse },
});

const listRequests = createRoute({
  method: 'get',
  path: '/scim-connections/{id}/requests',
  tags,
  summary: "A SCIM connection's last requests, newest first (at most 200)",
  request: { params: idParams },
  responses: {
    200: jsonResponse(z.array(scimRequestSchema), 'The requests.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const listUsers = createRoute({
  method: 'get',
  path: '/scim-connections/{id}/users',
  tags,
  summary: 'The users a SCIM connection provisioned, oldest first',
  description: '`search` matches a substring of the userName, the email or the name.',
  request: { params: idParams, query: scimConnectionMembersQuerySchema },
  responses: {
    200: { ...jsonResponse(z.array(scimProvisionedUserSchema), 'A page of users.'), headers: paginatedHeaders },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const listGroups = createRoute({
  method: 'get',
  path: '/scim-connections/{id}/groups',
  tags,
  summary: 'The groups a SCIM connection provisioned, oldest first, with their member counts',
  description: '`search` matches a substring of the display name.',
  request: { params: idParams, query: scimConnectionMembersQuerySchema },
  responses: {
    200: { ...jsonResponse(z.array(scimGroupSchema), 'A page of groups.'), headers: paginatedHeaders },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const userProvisioning = createRoute({
  method: 'get',
  path: '/users/{userId}/scim',
  tags,
  summary: 'Which SCIM connection provisioned a user (`provisioning: null` when none)',
  request: { params: userIdParams },
  responses: {
    200: jsonResponse(userScimProvisioningSchema, "The user's provisioning."),
    ...errorResponses,
    404: errorResponse('No such user (`entity.not_found`).'),
  },
});

export const scimConnectionsRoutes = entityRoutes({
  tags,
  path: '/scim-connections',
  id: { param: 'id', schema: pathIdSchema },
  list: {
    summary: 'SCIM connections, oldest first',
    description: 'Optionally paginated: every connection without `page` and `page_size`.',
    query: scimConnectionListQuerySchema,
    pagination: 'optional',
    item: { schema: scimConnectionSchema, description: 'The connections.' },
    rows: ({ tenant }, query) => connections.scimConnectionList(tenant, query),
    toApi: async (rows, { tenant, c }) => {
      const last = await connections.lastRequestsOf(
        tenant,
        rows.map((row) => row.id),
      );
      const baseUrl = baseUrlOf(c);
      return rows.map((row) => connections.toScimConnection(row, baseUrl, last.get(row.id) ?? null));
    },
  },
  create: {
    summary: "Create an SSO connector's SCIM connection, with its bearer token",
    description: `\`groupMapping\` defaults to \`{"kind": "roles"}\`, \`deprovision\` to \`suspend\`. ${once}`,
    body: scimConnectionCreateSchema,
    status: 201,
    answer: { schema: scimConnectionWithTokenSchema, description: 'The new connection and its token.' },
    errors: {
      404: errorResponse(
        'The SSO connector or the organization does not exist (`entity.relation_foreign_key_not_found`, data.ids).',
      ),
      422: errorResponse('The SSO connector has a SCIM connection already (`scim_connection.sso_connector_in_use`).'),
    },
    run: ({ write, c }, body) => connections.createScimConnection(write(), body, baseUrlOf(c)),
  },
  get: {
    summary: 'One SCIM connection',
    answer: { schema: scimConnectionSchema, description: 'The connection.' },
    run: ({ tenant, params, c }) => connections.getScimConnection(tenant, params.id, baseUrlOf(c)),
  },
  patch: {
    summary: 'Rename a SCIM connection, or change what its groups grant or what its SCIM DELETE does',
    description: 'A new group mapping applies to the group changes from now on.',
    body: scimConnectionPatchSchema,
    answer: { schema: scimConnectionSchema, description: 'The connection.' },
    errors: {
      404: errorResponse(
        'No such connection (`entity.not_exists_with_id`), or no such organization (`entity.relation_foreign_key_not_found`).',
      ),
    },
    run: ({ write, params, c }, body) => connections.updateScimConnection(write(), params.id, body, baseUrlOf(c)),
  },
  delete: {
    summary: 'Delete a SCIM connection (its token stops at once; the users it provisioned stay)',
    errors: { 404: errorResponse('No such connection (`entity.not_found`).') },
    run: ({ write, params }) => connections.deleteScimConnection(write(), params.id),
  },
})
  .openapi(rotateToken, async (c) =>
    c.json(await connections.rotateScimToken(writeContext(c), c.req.valid('param').id, baseUrlOf(c)), 200),
  )
  .openapi(revokeToken, async (c) => {
    await connections.revokeScimToken(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  })
  .openapi(listRequests, async (c) =>
    c.json(await connections.listScimRequests(c.get('tenant'), c.req.valid('param').id), 200),
  )
  .openapi(listUsers, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    await connections.findScimConnection(c.get('tenant'), id);
    const page = toPage(query);
    const { rows, total } = await listProvisionedUsers(c.get('tenant'), id, page, query.search);
    setPaginationHeaders(c, page, total);
    return c.json(rows, 200);
  })
  .openapi(listGroups, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    await connections.findScimConnection(c.get('tenant'), id);
    const page = toPage(query);
    const { rows, total } = await listProvisionedGroups(c.get('tenant'), id, page, query.search);
    setPaginationHeaders(c, page, total);
    return c.json(rows, 200);
  })
  .openapi(userProvisioning, async (c) =>
    c.json(await connections.userScimProvisioning(c.get('tenant'), c.req.valid('param').userId), 200),
  );

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
import { scimConnections } from '../db/tables.ts';
import { idParams, userIdParams } from '../http/params.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listOptionalPage,
  notFoundResponse,
  optionalPaginatedHeaders,
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

const listConnections = createRoute({
  method: 'get',
  path: '/scim-connections',
  tags,
  summary: 'SCIM connections, oldest first',
  description: 'Optionally paginated: every connection without `page` and `page_size`.',
  request: { query: scimConnectionListQuerySchema },
  responses: {
    200: { ...jsonResponse(z.array(scimConnectionSchema), 'The connections.'), headers: optionalPaginatedHeaders },
    ...errorResponses,
  },
});

const createConnection = createRoute({
  method: 'post',
  path: '/scim-connections',
  tags,
  summary: "Create an SSO connector's SCIM connection, with its bearer token",
  description: `\`groupMapping\` defaults to \`{"kind": "roles"}\`, \`deprovision\` to \`suspend\`. ${once}`,
  request: { body: jsonBody(scimConnectionCreateSchema) },
  responses: {
    201: jsonResponse(scimConnectionWithTokenSchema, 'The new connection and its token.'),
    ...errorResponses,
    404: errorResponse(
      'The SSO connector or the organization does not exist (`entity.relation_foreign_key_not_found`, data.ids).',
    ),
    422: errorResponse('The SSO connector has a SCIM connection already (`scim_connection.sso_connector_in_use`).'),
  },
});

const getConnection = createRoute({
  method: 'get',
  path: '/scim-connections/{id}',
  tags,
  summary: 'One SCIM connection',
  request: { params: idParams },
  responses: { 200: jsonResponse(scimConnectionSchema, 'The connection.'), ...errorResponses, ...notFoundResponse },
});

const patchConnection = createRoute({
  method: 'patch',
  path: '/scim-connections/{id}',
  tags,
  summary: 'Rename a SCIM connection, or change what its groups grant or what its SCIM DELETE does',
  description: 'A new group mapping applies to the group changes from now on.',
  request: { params: idParams, body: jsonBody(scimConnectionPatchSchema) },
  responses: {
    200: jsonResponse(scimConnectionSchema, 'The connection.'),
    ...errorResponses,
    404: errorResponse(
      'No such connection (`entity.not_exists_with_id`), or no such organization (`entity.relation_foreign_key_not_found`).',
    ),
  },
});

const deleteConnection = createRoute({
  method: 'delete',
  path: '/scim-connections/{id}',
  tags,
  summary: 'Delete a SCIM connection (its token stops at once; the users it provisioned stay)',
  request: { params: idParams },
  responses: {
    204: { description: 'Deleted.' },
    ...errorResponses,
    404: errorResponse('No such connection (`entity.not_found`).'),
  },
});

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

export const scimConnectionsRoutes = createRouter()
  .openapi(listConnections, async (c) => {
    const query = c.req.valid('query');
    const rows = await listOptionalPage(c, scimConnections, query, connections.scimConnectionListQuery(query));
    const last = await connections.lastRequestsOf(
      c.get('tenant'),
      rows.map((row) => row.id),
    );
    const baseUrl = baseUrlOf(c);
    return c.json(
      rows.map((row) => connections.toScimConnection(row, baseUrl, last.get(row.id) ?? null)),
      200,
    );
  })
  .openapi(createConnection, async (c) =>
    c.json(await connections.createScimConnection(writeContext(c), c.req.valid('json'), baseUrlOf(c)), 201),
  )
  .openapi(getConnection, async (c) =>
    c.json(await connections.getScimConnection(c.get('tenant'), c.req.valid('param').id, baseUrlOf(c)), 200),
  )
  .openapi(patchConnection, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await connections.updateScimConnection(writeContext(c), id, c.req.valid('json'), baseUrlOf(c)), 200);
  })
  .openapi(deleteConnection, async (c) => {
    await connections.deleteScimConnection(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
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

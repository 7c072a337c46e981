import { userGrantSchema, userGrantsQuerySchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { userIdParams } from '../http/params.ts';
import { createRouter, errorResponses, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { listUserGrants, revokeUserGrant } from '../services/user-grants.ts';

/** What a user allowed applications (reference `/users/{userId}/grants`): list, and revoke one. */

const tags = ['Users'];

const listGrants = createRoute({
  method: 'get',
  path: '/users/{userId}/grants',
  tags,
  summary: "A user's live grants, newest first (not paginated)",
  description: '`appType` keeps only first-party or third-party applications.',
  request: { params: userIdParams, query: userGrantsQuerySchema },
  responses: { 200: jsonResponse(z.array(userGrantSchema), 'The grants.'), ...errorResponses, ...notFoundResponse },
});

const revokeGrant = createRoute({
  method: 'delete',
  path: '/users/{userId}/grants/{grantId}',
  tags,
  summary: 'Revoke a grant',
  description:
    'Ends the grant and what was issued under it: authorization codes, refresh tokens and opaque access tokens. JWT ' +
    'access tokens already issued stay valid until they expire. A third-party application asks for consent again.',
  request: { params: userIdParams.extend({ grantId: z.string().min(1).max(128) }) },
  responses: { 204: { description: 'Revoked.' }, ...errorResponses, ...notFoundResponse },
});

export const userGrantsRoutes = createRouter()
  .openapi(listGrants, async (c) =>
    c.json(await listUserGrants(c.get('tenant'), c.req.valid('param').userId, c.req.valid('query').appType), 200),
  )
  .openapi(revokeGrant, async (c) => {
    const { userId, grantId } = c.req.valid('param');
    await revokeUserGrant(writeContext(c), userId, grantId);
    return c.body(null, 204);
  });

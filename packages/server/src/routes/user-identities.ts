import { userIdentitySchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { notFound } from '../http/errors.ts';
import { userIdParams } from '../http/params.ts';
import { createRouter, errorResponses, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as userService from '../services/users.ts';

/** A user's social and enterprise identities, keyed by connector target (spec §3 `identities`). */

const tags = ['Users'];
const targetParams = userIdParams.extend({ target: z.string().min(1).max(128) });
const identitiesSchema = z.record(z.string(), z.unknown());

const listIdentities = createRoute({
  method: 'get',
  path: '/users/{userId}/identities',
  tags,
  summary: "A user's identities, keyed by connector target",
  request: { params: userIdParams },
  responses: {
    200: jsonResponse(identitiesSchema, 'The identities object ({} when there are none).'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const getIdentity = createRoute({
  method: 'get',
  path: '/users/{userId}/identities/{target}',
  tags,
  summary: 'One identity of a user',
  request: { params: targetParams },
  responses: {
    200: jsonResponse(userIdentitySchema, 'The identity: the user id at the provider and its details.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const deleteIdentity = createRoute({
  method: 'delete',
  path: '/users/{userId}/identities/{target}',
  tags,
  summary: 'Unlink an identity from a user',
  request: { params: targetParams },
  responses: { 204: { description: 'Unlinked.' }, ...errorResponses, ...notFoundResponse },
});

const hasIdentity = (identities: Record<string, unknown>, target: string) => Object.hasOwn(identities, target);

export const userIdentitiesRoutes = createRouter()
  .openapi(listIdentities, async (c) => {
    const user = await userService.findUser(c.get('tenant'), c.req.valid('param').userId);
    return c.json(user.identities, 200);
  })
  .openapi(getIdentity, async (c) => {
    const { userId, target } = c.req.valid('param');
    const user = await userService.findUser(c.get('tenant'), userId);
    if (!hasIdentity(user.identities, target)) throw notFound();
    return c.json(user.identities[target] as z.infer<typeof userIdentitySchema>, 200);
  })
  .openapi(deleteIdentity, async (c) => {
    const { userId, target } = c.req.valid('param');
    await userService.deleteIdentity(writeContext(c), userId, target);
    return c.body(null, 204);
  });

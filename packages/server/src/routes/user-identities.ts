import {
  type UserAllIdentities,
  userAllIdentitiesSchema,
  userIdentitySchema,
  userSsoIdentityAnswerSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { ApiError } from '../http/errors.ts';
import { pathIdSchema, userIdParams } from '../http/params.ts';
import { createRouter, errorResponse, errorResponses, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { userSsoIdentitiesOf } from '../services/sso-connectors.ts';
import * as userService from '../services/users.ts';

/** A user's social and enterprise identities, keyed by connector target (spec §3 `identities`). */

const tags = ['Users'];
const targetParams = userIdParams.extend({ target: pathIdSchema });
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

const listAllIdentities = createRoute({
  method: 'get',
  path: '/users/{userId}/all-identities',
  tags,
  summary: "A user's social and enterprise SSO identities",
  description:
    'Social identities by connector target, and enterprise SSO identities by connector. No token secrets: Gatehouse ' +
    'stores no identity-provider tokens, so the reference’s `includeTokenSecret` adds nothing.',
  request: { params: userIdParams },
  responses: {
    200: jsonResponse(userAllIdentitiesSchema, 'The identities (empty lists when there are none).'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const getSsoIdentity = createRoute({
  method: 'get',
  path: '/users/{userId}/sso-identities/{ssoConnectorId}',
  tags,
  summary: "A user's identity at one enterprise SSO connector",
  request: { params: userIdParams.extend({ ssoConnectorId: z.string().min(1).max(256) }) },
  responses: {
    200: jsonResponse(userSsoIdentityAnswerSchema, 'The identity.'),
    ...errorResponses,
    404: errorResponse(
      'No such user (`entity.not_exists_with_id`), or no identity at that connector (`user.enterprise_sso_identity_not_exists`).',
    ),
  },
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
    if (!hasIdentity(user.identities, target)) throw new ApiError(404, 'user.identity_not_exist');
    return c.json(user.identities[target] as z.infer<typeof userIdentitySchema>, 200);
  })
  .openapi(deleteIdentity, async (c) => {
    const { userId, target } = c.req.valid('param');
    await userService.deleteIdentity(writeContext(c), userId, target);
    return c.body(null, 204);
  })
  .openapi(listAllIdentities, async (c) => {
    const tenant = c.get('tenant');
    const user = await userService.findUser(tenant, c.req.valid('param').userId);
    const answer: UserAllIdentities = {
      socialIdentities: Object.entries(user.identities).map(([target, identity]) => ({
        target,
        identity: identity as UserAllIdentities['socialIdentities'][number]['identity'],
      })),
      ssoIdentities: (await userSsoIdentitiesOf(tenant, user.id)).map((ssoIdentity) => ({
        ssoConnectorId: ssoIdentity.ssoConnectorId,
        ssoIdentity,
      })),
    };
    return c.json(answer, 200);
  })
  .openapi(getSsoIdentity, async (c) => {
    const { userId, ssoConnectorId } = c.req.valid('param');
    const tenant = c.get('tenant');
    const user = await userService.findUser(tenant, userId);
    const ssoIdentity = (await userSsoIdentitiesOf(tenant, user.id)).find(
      (identity) => identity.ssoConnectorId === ssoConnectorId,
    );
    if (!ssoIdentity) throw new ApiError(404, 'user.enterprise_sso_identity_not_exists');
    return c.json({ ssoIdentity }, 200);
  });

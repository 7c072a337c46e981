import {
  personalAccessTokenCreateSchema,
  personalAccessTokenDeleteSchema,
  personalAccessTokenPatchSchema,
  personalAccessTokenRenameSchema,
  personalAccessTokenSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { userIdParams } from '../http/params.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as pats from '../services/personal-access-tokens.ts';

/**
 * A user's personal access tokens (issue 24), on the reference's paths: list, create (the value shown once), rename
 * and delete, each of the last two in both of the reference's forms (by path name, or by body).
 */

const tags = ['Users'];
const path = '/users/{userId}/personal-access-tokens';
const tokenParams = userIdParams.extend({ name: z.string().min(1).max(256) });
const nameInUseResponse = {
  422: errorResponse('The user already has a token of that name (`user.personal_access_token_name_exists`).'),
} as const;
const notFoundTokenResponse = {
  404: errorResponse('No such user, or the user has no token of that name (`entity.not_exists_with_id`).'),
} as const;

const listTokens = createRoute({
  method: 'get',
  path,
  tags,
  summary: "A user's personal access tokens, values masked",
  description: 'Oldest first. `value` is a fixed mask: the value is shown once, by the creation, and never stored.',
  request: { params: userIdParams },
  responses: {
    200: jsonResponse(z.array(personalAccessTokenSchema), 'The tokens.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const createToken = createRoute({
  method: 'post',
  path,
  tags,
  summary: 'Create a personal access token; its value is in this answer only',
  description:
    '`expiresAt` is epoch milliseconds in the future, or null or absent for a token that never expires. The server keeps only a hash of the value: it cannot be shown again.',
  request: { params: userIdParams, body: jsonBody(personalAccessTokenCreateSchema) },
  responses: {
    201: jsonResponse(personalAccessTokenSchema, 'The new token with its value (shown once).'),
    ...errorResponses,
    ...notFoundResponse,
    ...nameInUseResponse,
  },
});

const renameTokenByBody = createRoute({
  method: 'patch',
  path,
  tags,
  summary: 'Rename a personal access token named in the body',
  description: 'The reference’s form of `PATCH …/personal-access-tokens/{name}`: `{currentName, name}`.',
  request: { params: userIdParams, body: jsonBody(personalAccessTokenRenameSchema) },
  responses: {
    200: jsonResponse(personalAccessTokenSchema, 'The renamed token, value masked.'),
    ...errorResponses,
    ...notFoundTokenResponse,
    ...nameInUseResponse,
  },
});

const deleteTokenByBody = createRoute({
  method: 'post',
  path: `${path}/delete`,
  tags,
  summary: 'Delete a personal access token named in the body',
  description: 'The reference’s form of `DELETE …/personal-access-tokens/{name}`: `{name}`.',
  request: { params: userIdParams, body: jsonBody(personalAccessTokenDeleteSchema) },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundTokenResponse },
});

const renameToken = createRoute({
  method: 'patch',
  path: `${path}/{name}`,
  tags,
  summary: 'Rename a personal access token',
  request: { params: tokenParams, body: jsonBody(personalAccessTokenPatchSchema) },
  responses: {
    200: jsonResponse(personalAccessTokenSchema, 'The renamed token, value masked.'),
    ...errorResponses,
    ...notFoundTokenResponse,
    ...nameInUseResponse,
  },
});

const deleteToken = createRoute({
  method: 'delete',
  path: `${path}/{name}`,
  tags,
  summary: 'Delete a personal access token',
  request: { params: tokenParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundTokenResponse },
});

export const userPersonalAccessTokensRoutes = createRouter()
  .openapi(listTokens, async (c) => {
    return c.json(await pats.listPersonalAccessTokens(c.get('tenant'), c.req.valid('param').userId), 200);
  })
  .openapi(createToken, async (c) => {
    const { userId } = c.req.valid('param');
    return c.json(await pats.createPersonalAccessToken(writeContext(c), userId, c.req.valid('json')), 201);
  })
  .openapi(renameTokenByBody, async (c) => {
    const { userId } = c.req.valid('param');
    const { currentName, name } = c.req.valid('json');
    return c.json(await pats.renamePersonalAccessToken(writeContext(c), userId, currentName, name), 200);
  })
  .openapi(deleteTokenByBody, async (c) => {
    const { userId } = c.req.valid('param');
    await pats.deletePersonalAccessToken(writeContext(c), userId, c.req.valid('json').name);
    return c.body(null, 204);
  })
  .openapi(renameToken, async (c) => {
    const { userId, name } = c.req.valid('param');
    return c.json(await pats.renamePersonalAccessToken(writeContext(c), userId, name, c.req.valid('json').name), 200);
  })
  .openapi(deleteToken, async (c) => {
    const { userId, name } = c.req.valid('param');
    await pats.deletePersonalAccessToken(writeContext(c), userId, name);
    return c.body(null, 204);
  });

import {
  oneTimeTokenCreateSchema,
  oneTimeTokenListQuerySchema,
  oneTimeTokenSchema,
  oneTimeTokenStatusUpdateSchema,
  oneTimeTokenVerifySchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { idParams } from '../http/params.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listOptionalPage,
  notFoundResponse,
  optionalPaginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as tokens from '../services/one-time-tokens.ts';

/**
 * One-time tokens on the reference's paths (`/one-time-tokens`): issue one for an email address (its value in that
 * answer only), list, read, verify (spend), change the status, delete. Not usable at sign-in yet (the reference's
 * magic link): docs/areas/users.md.
 */

const tags = ['One-time tokens'];
const masked = 'The value is shown by the creation only (the server keeps a hash): here `token` is a mask.';

const listTokens = createRoute({
  method: 'get',
  path: '/one-time-tokens',
  tags,
  summary: 'One-time tokens, newest first',
  description: `Optionally paginated: every token (at most 10,000) without \`page\` and \`page_size\`. ${masked}`,
  request: { query: oneTimeTokenListQuerySchema },
  responses: {
    200: { ...jsonResponse(z.array(oneTimeTokenSchema), 'The tokens.'), headers: optionalPaginatedHeaders },
    ...errorResponses,
  },
});

const createToken = createRoute({
  method: 'post',
  path: '/one-time-tokens',
  tags,
  summary: 'Issue a one-time token for an email address; its value is in this answer only',
  description: '`expiresIn` is seconds from now (default 600). `context` is stored as given.',
  request: { body: jsonBody(oneTimeTokenCreateSchema) },
  responses: { 201: jsonResponse(oneTimeTokenSchema, 'The new token with its value.'), ...errorResponses },
});

const verifyToken = createRoute({
  method: 'post',
  path: '/one-time-tokens/verify',
  tags,
  summary: 'Spend a one-time token: it must be active, unexpired and issued for this email address',
  description:
    'The token becomes `consumed`. 404 `one_time_token.token_not_found`; 400 `one_time_token.email_mismatch`, ' +
    '`one_time_token.token_expired`, `one_time_token.token_consumed` or `one_time_token.token_revoked`.',
  request: { body: jsonBody(oneTimeTokenVerifySchema) },
  responses: {
    200: jsonResponse(oneTimeTokenSchema, 'The spent token.'),
    ...errorResponses,
    404: errorResponse('No token has this value (`one_time_token.token_not_found`).'),
  },
});

const getToken = createRoute({
  method: 'get',
  path: '/one-time-tokens/{id}',
  tags,
  summary: 'One one-time token',
  description: masked,
  request: { params: idParams },
  responses: { 200: jsonResponse(oneTimeTokenSchema, 'The token.'), ...errorResponses, ...notFoundResponse },
});

const setStatus = createRoute({
  method: 'put',
  path: '/one-time-tokens/{id}/status',
  tags,
  summary: "Change a one-time token's status (revoke it, for example)",
  description: 'Any status but `active`: a token is never reactivated (400 `one_time_token.cannot_reactivate_token`).',
  request: { params: idParams, body: jsonBody(oneTimeTokenStatusUpdateSchema) },
  responses: { 200: jsonResponse(oneTimeTokenSchema, 'The token.'), ...errorResponses, ...notFoundResponse },
});

const deleteToken = createRoute({
  method: 'delete',
  path: '/one-time-tokens/{id}',
  tags,
  summary: 'Delete a one-time token',
  request: { params: idParams },
  responses: {
    204: { description: 'Deleted.' },
    ...errorResponses,
    404: errorResponse('No such token (`entity.not_found`).'),
  },
});

export const oneTimeTokensRoutes = createRouter()
  .openapi(listTokens, async (c) => {
    const query = c.req.valid('query');
    const rows = await listOptionalPage(c, tokens.oneTimeTokenList(c.get('tenant'), query), query);
    return c.json(
      rows.map((row) => tokens.toOneTimeToken(row)),
      200,
    );
  })
  .openapi(createToken, async (c) => {
    return c.json(await tokens.createOneTimeToken(writeContext(c), c.req.valid('json')), 201);
  })
  .openapi(verifyToken, async (c) => {
    return c.json(await tokens.verifyOneTimeToken(writeContext(c), c.req.valid('json')), 200);
  })
  .openapi(getToken, async (c) => {
    return c.json(await tokens.getOneTimeToken(c.get('tenant'), c.req.valid('param').id), 200);
  })
  .openapi(setStatus, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await tokens.setOneTimeTokenStatus(writeContext(c), id, c.req.valid('json').status), 200);
  })
  .openapi(deleteToken, async (c) => {
    await tokens.deleteOneTimeToken(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  });

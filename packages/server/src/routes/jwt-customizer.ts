import {
  idTokenConfigSchema,
  jwtCustomizerListSchema,
  jwtCustomizerPatchSchema,
  jwtCustomizerPutSchema,
  jwtCustomizerResponseSchema,
  jwtCustomizerTestResultSchema,
  jwtCustomizerTestSchema,
  jwtCustomizerTokenTypes,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as customizers from '../services/jwt-customizer.ts';
import type { AppEnv } from '../shared/app-env.ts';

/** Custom JWT (issue 22, reference `/configs/jwt-customizer`, `/configs/id-token`; docs/custom-jwt.md). */

const tags = ['Custom JWT'];
const typeParams = z.object({ tokenTypePath: z.enum(jwtCustomizerTokenTypes) });
const planGate = {
  403: errorResponse('The plan does not include custom JWT (`subscription.quota_exceeded`), or the caller may not.'),
};

const quotaDeps = (c: Context<AppEnv>) => ({ edition: c.get('config').edition });

const listCustomizers = createRoute({
  method: 'get',
  path: '/configs/jwt-customizer',
  tags,
  summary: 'The saved custom JWT scripts',
  description: '`key` is `jwt.accessToken` or `jwt.clientCredentials`; environment variables are masked.',
  responses: { 200: jsonResponse(jwtCustomizerListSchema, 'The scripts.'), ...errorResponses },
});

const getCustomizer = createRoute({
  method: 'get',
  path: '/configs/jwt-customizer/{tokenTypePath}',
  tags,
  summary: 'The custom JWT script of a token type',
  request: { params: typeParams },
  responses: { 200: jsonResponse(jwtCustomizerResponseSchema, 'The script.'), ...errorResponses, ...notFoundResponse },
});

const putCustomizer = createRoute({
  method: 'put',
  path: '/configs/jwt-customizer/{tokenTypePath}',
  tags,
  summary: 'Create or replace the custom JWT script of a token type',
  description:
    'Environment variables are stored encrypted; a variable sent as `********` keeps its stored value. ' +
    '`blockIssuanceOnError` defaults to true. An empty script is stored and adds no claims.',
  request: { params: typeParams, body: jsonBody(jwtCustomizerPutSchema) },
  responses: {
    200: jsonResponse(jwtCustomizerResponseSchema, 'Replaced.'),
    201: jsonResponse(jwtCustomizerResponseSchema, 'Created.'),
    ...errorResponses,
    ...planGate,
  },
});

const patchCustomizer = createRoute({
  method: 'patch',
  path: '/configs/jwt-customizer/{tokenTypePath}',
  tags,
  summary: 'Change the custom JWT script of a token type',
  request: { params: typeParams, body: jsonBody(jwtCustomizerPatchSchema) },
  responses: {
    200: jsonResponse(jwtCustomizerResponseSchema, 'The script.'),
    ...errorResponses,
    ...notFoundResponse,
    ...planGate,
  },
});

const deleteCustomizer = createRoute({
  method: 'delete',
  path: '/configs/jwt-customizer/{tokenTypePath}',
  tags,
  summary: 'Delete the custom JWT script of a token type',
  description: 'Tokens are issued without extra claims from then on.',
  request: { params: typeParams },
  responses: {
    204: { description: 'Deleted.' },
    ...errorResponses,
    404: errorResponse('No script for that token type (`entity.not_found`).'),
  },
});

const testCustomizer = createRoute({
  method: 'post',
  path: '/configs/jwt-customizer/test',
  tags,
  summary: 'Run a script against a sample token and context',
  description:
    'In the same sandbox as token issuance. Answers the token payload with the claims merged and the reserved ' +
    'claims the script tried to set; a failing script is 422 `jwt_customizer.general` (or ' +
    '`jwt_customizer.access_denied` for `api.denyAccess`) with the script’s error in `data`.',
  request: { body: jsonBody(jwtCustomizerTestSchema) },
  responses: {
    200: jsonResponse(jwtCustomizerTestResultSchema, 'The resulting payload.'),
    ...errorResponses,
    422: errorResponse('The script failed or denied the token.'),
  },
});

const getIdToken = createRoute({
  method: 'get',
  path: '/configs/id-token',
  tags,
  summary: 'The extended claims ID tokens carry',
  responses: { 200: jsonResponse(idTokenConfigSchema, 'The ID token config.'), ...errorResponses },
});

const putIdToken = createRoute({
  method: 'put',
  path: '/configs/id-token',
  tags,
  summary: 'Choose the extended claims ID tokens carry',
  description: 'A claim left out is still answered by userinfo when its scope is granted.',
  request: { body: jsonBody(idTokenConfigSchema) },
  responses: { 200: jsonResponse(idTokenConfigSchema, 'The ID token config.'), ...errorResponses },
});

/** This process's providers drop the tenant's token settings at once (others hear the change notice at commit). */
const changedHere = (c: Context<AppEnv>) =>
  c.get('notices')?.changedHere({ kind: 'token-settings', tenantId: c.get('tenant').tenantId });

export const jwtCustomizerRoutes = createRouter()
  .openapi(listCustomizers, async (c) => c.json(await customizers.listCustomizers(c.get('tenant')), 200))
  .openapi(testCustomizer, async (c) =>
    c.json(await customizers.testCustomizer(c.get('tenant'), c.req.valid('json'), { sandbox: c.get('scripts') }), 200),
  )
  .openapi(getCustomizer, async (c) =>
    c.json(await customizers.getCustomizer(c.get('tenant'), c.req.valid('param').tokenTypePath), 200),
  )
  .openapi(putCustomizer, async (c) => {
    const { created, value } = await customizers.putCustomizer(
      writeContext(c),
      c.req.valid('param').tokenTypePath,
      c.req.valid('json'),
      quotaDeps(c),
    );
    changedHere(c);
    return created ? c.json(value, 201) : c.json(value, 200);
  })
  .openapi(patchCustomizer, async (c) => {
    const patched = await customizers.patchCustomizer(
      writeContext(c),
      c.req.valid('param').tokenTypePath,
      c.req.valid('json'),
      quotaDeps(c),
    );
    changedHere(c);
    return c.json(patched, 200);
  })
  .openapi(deleteCustomizer, async (c) => {
    await customizers.deleteCustomizer(writeContext(c), c.req.valid('param').tokenTypePath);
    changedHere(c);
    return c.body(null, 204);
  })
  .openapi(getIdToken, async (c) => c.json(await customizers.readIdTokenConfig(c.get('tenant')), 200))
  .openapi(putIdToken, async (c) => {
    const saved = await customizers.putIdTokenConfig(writeContext(c), c.req.valid('json'));
    changedHere(c);
    return c.json(saved, 200);
  });

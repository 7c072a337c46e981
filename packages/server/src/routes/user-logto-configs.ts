import { userLogtoConfigPatchSchema, userLogtoConfigSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { userIdParams } from '../http/params.ts';
import { createRouter, errorResponse, errorResponses, jsonBody, jsonResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as logtoConfigs from '../services/user-logto-configs.ts';

/**
 * A user's sign-in preferences on the reference's path (`/users/{userId}/logto-configs`): the MFA flags and the
 * passkey offer's skip. What each flag maps to is in services/user-logto-configs.ts.
 */

const tags = ['Users'];
const path = '/users/{userId}/logto-configs';
const userMissResponse = { 404: errorResponse('No such user (`entity.not_found`).') } as const;

const getConfig = createRoute({
  method: 'get',
  path,
  tags,
  summary: "A user's MFA and passkey sign-in flags",
  description:
    '`mfa.skipped`: the user chose "Skip for now" at an optional MFA prompt. `passkeySignIn.skipped`: no passkey is ' +
    'offered after a password sign-in. `mfa.enabled` and `mfa.skipMfaOnSignIn` are kept as given and change nothing ' +
    'at sign-in (a factor the user holds is always asked for).',
  request: { params: userIdParams },
  responses: {
    200: jsonResponse(userLogtoConfigSchema, 'The flags.'),
    ...errorResponses,
    ...userMissResponse,
  },
});

const patchConfig = createRoute({
  method: 'patch',
  path,
  tags,
  summary: "Change a user's MFA and passkey sign-in flags",
  description: 'Only the fields given change. `mfa.skipped: false` has the MFA prompting policies ask the user again.',
  request: { params: userIdParams, body: jsonBody(userLogtoConfigPatchSchema) },
  responses: {
    200: jsonResponse(userLogtoConfigSchema, 'The flags after the change.'),
    ...errorResponses,
    ...userMissResponse,
  },
});

export const userLogtoConfigsRoutes = createRouter()
  .openapi(getConfig, async (c) => {
    return c.json(await logtoConfigs.getUserLogtoConfig(c.get('tenant'), c.req.valid('param').userId), 200);
  })
  .openapi(patchConfig, async (c) => {
    const { userId } = c.req.valid('param');
    return c.json(await logtoConfigs.patchUserLogtoConfig(writeContext(c), userId, c.req.valid('json')), 200);
  });

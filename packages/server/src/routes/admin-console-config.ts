import { adminConsoleConfigPatchSchema, adminConsoleConfigSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { patchAdminConsoleConfig, readAdminConsoleConfig } from '../services/admin-console-config.ts';

const tags = ['Configs'];

const getConfig = createRoute({
  method: 'get',
  path: '/configs/admin-console',
  tags,
  summary: "The console's config for this tenant",
  responses: {
    200: jsonResponse(
      adminConsoleConfigSchema,
      'The config: `signInExperienceCustomized` and `organizationCreated` are false until set.',
    ),
    ...errorResponses,
  },
});

const patchConfig = createRoute({
  method: 'patch',
  path: '/configs/admin-console',
  tags,
  summary: 'Merge into the console config',
  description:
    'Any subset of the fields: each given one replaces the stored one (an object field is replaced whole, as the ' +
    'reference merges only the top level); the answer is the whole config.',
  request: { body: jsonBody(adminConsoleConfigPatchSchema) },
  responses: { 200: jsonResponse(adminConsoleConfigSchema, 'The whole config after the change.'), ...errorResponses },
});

export const adminConsoleConfigRoutes = createRouter()
  .openapi(getConfig, async (c) => c.json(await readAdminConsoleConfig(c.get('tenant')), 200))
  .openapi(patchConfig, async (c) => c.json(await patchAdminConsoleConfig(writeContext(c), c.req.valid('json')), 200));

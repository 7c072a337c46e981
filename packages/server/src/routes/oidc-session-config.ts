import { oidcSessionConfigPatchSchema, oidcSessionConfigSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { patchOidcSessionConfig, readOidcSessionConfig } from '../services/oidc-session-config.ts';

/** How long users stay signed in at the tenant's provider (reference `/configs/oidc/session`). */

const tags = ['Configs'];

const getSession = createRoute({
  method: 'get',
  path: '/configs/oidc/session',
  tags,
  summary: 'The sign-in session lifetime',
  description: '`ttl` in seconds; 14 days until set.',
  responses: { 200: jsonResponse(oidcSessionConfigSchema, 'The session config.'), ...errorResponses },
});

const patchSession = createRoute({
  method: 'patch',
  path: '/configs/oidc/session',
  tags,
  summary: 'Change the sign-in session lifetime',
  description: 'From 1 second to 1 year; sessions started from then on last that long.',
  request: { body: jsonBody(oidcSessionConfigPatchSchema) },
  responses: { 200: jsonResponse(oidcSessionConfigSchema, 'The session config.'), ...errorResponses },
});

export const oidcSessionConfigRoutes = createRouter()
  .openapi(getSession, async (c) => c.json(await readOidcSessionConfig(c.get('tenant')), 200))
  .openapi(patchSession, async (c) => {
    const config = await patchOidcSessionConfig(writeContext(c), c.req.valid('json'));
    // This process builds the tenant's provider again at its next request; others when the notice arrives.
    c.get('notices')?.changedHere({ kind: 'oidc-session', tenantId: c.get('tenant').tenantId });
    return c.json(config, 200);
  });

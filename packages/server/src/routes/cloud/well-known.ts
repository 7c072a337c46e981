import { notFound, tenantEndpointsSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { issuerPath } from '../../auth/issuers.ts';
import { createRouter, jsonResponse, notFoundResponse } from '../../http/route-kit.ts';
import { findTenantRow } from '../../services/tenants.ts';
import { type CloudDeps, tags } from './shared.ts';

/** Public: where a tenant's endpoints are (no token; the console shows them). */

const getEndpoints = createRoute({
  method: 'get',
  path: '/.well-known/endpoints/{tenantId}',
  tags,
  summary: "A tenant's endpoint URL; its OIDC issuer is `{user}/oidc`",
  security: [],
  request: { params: z.object({ tenantId: z.string().min(1).max(64) }) },
  responses: { 200: jsonResponse(tenantEndpointsSchema, 'The endpoint URL.'), ...notFoundResponse },
});

/** The tenant's path prefix below the public URL: '' for the default tenant, `/t/{id}` otherwise. */
const tenantPrefix = (tenantId: string) => issuerPath(tenantId).replace(/\/oidc$/, '');

export function cloudWellKnownRoutes({ db }: CloudDeps) {
  return createRouter({ undeclaredKeys: 'refuse' }).openapi(getEndpoints, async (c) => {
    const { tenantId } = c.req.valid('param');
    if (!(await findTenantRow(db, tenantId))) throw notFound();
    c.header('Cache-Control', 'no-store');
    return c.json({ user: `${c.get('config').publicUrl}${tenantPrefix(tenantId)}` }, 200);
  });
}

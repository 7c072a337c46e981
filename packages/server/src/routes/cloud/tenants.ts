import { tenantCreateSchema, tenantSchema, tenantUpdateSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { assertFreeTenantAllowance } from '../../billing/payments.ts';
import { ApiError } from '../../http/errors.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../../http/route-kit.ts';
import { writeContext } from '../../http/write-context.ts';
import { createTenant, deleteTenant, listUserTenants, renameTenant } from '../../services/tenants.ts';

import { type CloudDeps, idParams, tags } from './shared.ts';
import { tenantAccess, tenantRoute } from './tenant-access.ts';

/** The signed-in user's tenants: list, create, rename, delete (spec §7). */

const listTenants = createRoute({
  method: 'get',
  path: '/tenants',
  tags,
  summary: "The signed-in user's tenants, oldest first",
  responses: { 200: jsonResponse(z.array(tenantSchema), 'Tenants with the user’s role in each.'), ...errorResponses },
});

const createTenantRoute = createRoute({
  method: 'post',
  path: '/tenants',
  tags,
  summary: 'Create a tenant; the caller becomes its admin',
  description: 'Needs the cloud scope `create:tenant`.',
  request: { body: jsonBody(tenantCreateSchema) },
  responses: {
    201: jsonResponse(tenantSchema, 'The new tenant.'),
    ...errorResponses,
    422: errorResponse('The caller already owns the most Free production tenants (`subscription.free_tenant_limit`).'),
  },
});

const updateTenant = tenantRoute({
  access: 'manage:tenant',
  method: 'patch',
  path: '/tenants/{id}',
  tags,
  summary: 'Rename a tenant (tenant permission `manage:tenant`)',
  request: { params: idParams, body: jsonBody(tenantUpdateSchema) },
  responses: { 200: jsonResponse(tenantSchema, 'The tenant.'), ...errorResponses, ...notFoundResponse },
});

const deleteTenantRoute = tenantRoute({
  access: 'manage:tenant',
  method: 'delete',
  path: '/tenants/{id}',
  tags,
  summary: 'Delete a tenant and all its data (tenant permission `manage:tenant`)',
  responses: {
    204: { description: 'Deleted.' },
    ...errorResponses,
    ...notFoundResponse,
    422: jsonResponse(z.object({ code: z.string(), message: z.string() }), 'A built-in tenant (`tenant.reserved`).'),
  },
  request: { params: idParams },
});

export function cloudTenantsRoutes(deps: CloudDeps) {
  const { db } = deps;
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(listTenants, async (c) => c.json(await listUserTenants(db, c.get('auth').actor.id), 200))
    .openapi(createTenantRoute, async (c) => {
      if (!c.get('auth').scopes.has('create:tenant')) throw new ApiError(403, 'auth.forbidden');
      const { tenant: _admin, ...ctx } = writeContext(c);
      const userId = c.get('auth').actor.id;
      // A production tenant created here is on Free (paid plans go through checkout): spec §5's allowance applies.
      const created = await createTenant(db, ctx, userId, c.req.valid('json'), {
        beforeInsert: (tx, parsed) =>
          parsed.tag === 'production' ? assertFreeTenantAllowance(tx, userId) : Promise.resolve(),
      });
      return c.json(created, 201);
    })
    .openapi(updateTenant, async (c) => {
      const { tenant: _admin, ...ctx } = writeContext(c);
      return c.json(await renameTenant(db, ctx, tenantAccess(c), c.req.valid('json')), 200);
    })
    .openapi(deleteTenantRoute, async (c) => {
      const { tenant: _admin, ...ctx } = writeContext(c);
      await deleteTenant(db, ctx, tenantAccess(c));
      deps.forgetTenant(c.req.valid('param').id);
      return c.body(null, 204);
    });
}

import { DomainError } from '@gatehouse/schemas';
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Database } from '../src/db/client.ts';
import { httpStatus } from '../src/http/errors.ts';
import { createRouter } from '../src/http/route-kit.ts';
import { TENANT_ROUTES, tenantAccess, tenantAccessGuard, tenantRoute } from '../src/routes/cloud/tenant-access.ts';
import type { AppEnv } from '../src/shared/app-env.ts';

/**
 * The access check of the cloud tenant routes fails closed. The full behaviour per route (404 for a non-member,
 * 403 without the permission, a member acting on themselves) is in cloud-api.test.ts and cloud-billing.test.ts.
 */

/** A database the guard must not reach: a refused request is refused before any query. */
const untouchedDb = new Proxy({} as Database, {
  get: () => {
    throw new Error('the database was used');
  },
});

const responses = { 200: { description: 'Reached.' } };
const params = z.object({ id: z.string() });

/** A cloud router as routes/cloud/index.ts builds it, mounted at /api behind a signed-in caller. */
function appWith(register: (router: ReturnType<typeof createRouter>) => void) {
  const router = createRouter();
  router.use(TENANT_ROUTES, tenantAccessGuard(untouchedDb));
  register(router);
  const app = new OpenAPIHono<AppEnv>();
  app.onError((error, c) =>
    error instanceof DomainError
      ? c.json({ code: error.code }, httpStatus(error))
      : c.json({ code: error.message }, 500),
  );
  app.use('*', async (c, next) => {
    c.set('auth', { actor: { type: 'user', id: 'u1' }, scopes: new Set(), issuerTenantId: 'admin' });
    await next();
  });
  app.route('/api', router);
  return app;
}

describe('tenant access guard', () => {
  it('answers 403 for a route of a tenant that declares no access requirement, without running its handler', async () => {
    let reached = false;
    const app = appWith((router) => {
      const undeclared = createRoute({
        method: 'get',
        path: '/tenants/{id}/undeclared',
        request: { params },
        responses,
      });
      router.openapi(undeclared, (c) => {
        reached = true;
        return c.json({}, 200);
      });
      router.post('/tenants/:id', (c) => {
        reached = true;
        return c.json({});
      });
    });
    for (const [method, path] of [
      ['GET', '/api/tenants/t1/undeclared'],
      ['HEAD', '/api/tenants/t1/undeclared'],
      ['POST', '/api/tenants/t1'],
    ] as const) {
      const response = await app.request(path, { method });
      expect(response.status, `${method} ${path}`).toBe(403);
      if (method !== 'HEAD') expect(await response.json()).toEqual({ code: 'auth.forbidden' });
    }
    expect(reached, 'no handler ran').toBe(false);
  });

  it('lets a request that matches no route through to the not-found answer', async () => {
    const app = appWith((router) => {
      router.get('/tenants', (c) => c.json({ list: true }));
    });
    expect((await app.request('/api/tenants/t1/nothing-here')).status).toBe(404);
    expect((await app.request('/api/tenants')).status, 'the guard covers the routes of a tenant only').toBe(200);
  });

  it('gives a handler no access it did not check', async () => {
    const app = new OpenAPIHono<AppEnv>();
    app.onError((error, c) => c.json({ message: error.message }, 500));
    app.get('/tenants/:id/unguarded', (c) => c.json(tenantAccess(c)));
    const response = await app.request('/tenants/t1/unguarded');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: 'no tenant access check ran for GET /tenants/t1/unguarded' });
  });

  it('takes requirements for routes of a tenant only, one per route', () => {
    const route = { method: 'get', request: { params }, responses } as const;
    expect(() => tenantRoute({ ...route, access: 'member', path: '/skus-of/{id}' })).toThrow(
      'is not a route of a tenant',
    );
    tenantRoute({ ...route, access: 'manage:tenant', path: '/tenants/{id}/twice' });
    tenantRoute({ ...route, access: 'manage:tenant', path: '/tenants/{id}/twice' });
    expect(() => tenantRoute({ ...route, access: 'member', path: '/tenants/{id}/twice' })).toThrow(
      'declared twice with different access requirements',
    );
  });
});

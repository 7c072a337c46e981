import type { TenantPermission } from '@gatehouse/schemas';
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Database } from '../../db/client.ts';
import { ApiError } from '../../http/errors.ts';
import { requireTenantAccess, type TenantAccess } from '../../services/tenants.ts';
import type { AppEnv } from '../../shared/app-env.ts';

/**
 * What a route under `/tenants/{id}` requires of the caller, declared beside its definition (the Keycloak
 * route-object style): `'member'`, any member of the tenant; a tenant permission; or a permission that a member
 * acting on themselves does not need (`unlessSelf` names the path parameter that holds the user id).
 */
export type TenantAccessRequirement =
  | 'member'
  | TenantPermission
  | { permission: TenantPermission; unlessSelf: string };

/** The caller's access to the tenant of the request, as {@link tenantAccessGuard} checked it. */
const checked = new WeakMap<Context, TenantAccess>();

/**
 * The caller's access to the tenant of the path (its row, their role and permissions), for the handler of a
 * route of a tenant. Throws if the guard did not run for this request: a handler never works unchecked.
 */
export function tenantAccess(c: Context): TenantAccess {
  const access = checked.get(c);
  if (!access) throw new Error(`no tenant access check ran for ${c.req.method} ${c.req.path}`);
  return access;
}

/** Where the guard is mounted: every route of a tenant, `/tenants/{id}` itself included. */
export const TENANT_ROUTES = '/tenants/:id/*';
const TENANT_PREFIX = TENANT_ROUTES.slice(0, -2);

/** Requirements by `METHOD /routing/path` (Hono's form: `/tenants/:id/members`). Routes are module constants. */
const requirements = new Map<string, TenantAccessRequirement>();
const keyOf = (method: string, routingPath: string) => `${method.toUpperCase()} ${routingPath}`;

/**
 * `createRoute` for a route of a tenant, with what it requires. The requirement is kept out of the route
 * config, so the OpenAPI document is what `createRoute` alone gives.
 */
export function tenantRoute<P extends string, R extends Omit<RouteConfig, 'path'> & { path: P }>(
  config: R & { access: TenantAccessRequirement },
) {
  const { access, ...definition } = config;
  const route = createRoute<P, R>(definition as unknown as R);
  const routingPath = route.getRoutingPath();
  const key = keyOf(route.method, routingPath);
  if (routingPath !== TENANT_PREFIX && !routingPath.startsWith(`${TENANT_PREFIX}/`)) {
    throw new Error(`${key} is not a route of a tenant`);
  }
  const known = requirements.get(key);
  if (known !== undefined && JSON.stringify(known) !== JSON.stringify(access)) {
    throw new Error(`${key} is declared twice with different access requirements`);
  }
  requirements.set(key, access);
  return route;
}

/**
 * The one access check of the tenant routes, mounted on {@link TENANT_ROUTES}: finds the route the request
 * matched, enforces its declared requirement (404 for a non-member or an unknown tenant, never a hint that it
 * exists; 403 `auth.forbidden` without the permission) and hands the caller's access to the handler
 * ({@link tenantAccess}). It fails closed: a route of a tenant that declares nothing answers 403.
 * A path that matched no route passes on (to `route.not_found`).
 */
export function tenantAccessGuard(db: Database): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const endpoint = matchedEndpoint(c);
    if (!endpoint) return next();
    const requirement = requirements.get(keyOf(endpoint.method, endpoint.path));
    if (requirement === undefined) throw new ApiError(403, 'auth.forbidden');
    const callerId = c.get('auth').actor.id;
    checked.set(c, await requireTenantAccess(db, c.req.param('id') ?? '', callerId, permissionFor(requirement)));
    return next();

    function permissionFor(required: TenantAccessRequirement): TenantPermission | undefined {
      if (required === 'member') return undefined;
      if (typeof required === 'string') return required;
      return endpoint?.params[required.unlessSelf] === callerId ? undefined : required.permission;
    }
  };
}

/**
 * The route that will answer this request, after the guard: the first one matched for the request's method
 * (HEAD is answered by GET routes), with its path relative to where the guard is mounted and its parameters.
 * Undefined when no route of a tenant matched (a catch-all further on is not one).
 */
function matchedEndpoint(c: Context<AppEnv>) {
  const routes = matchedRoutes(c);
  const own = c.req.routeIndex;
  const mountedAt = (routes[own]?.path ?? '').slice(0, -TENANT_ROUTES.length);
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  const index = routes.findIndex((route, at) => at > own && route.method === method);
  const route = routes[index];
  const path = route?.path.slice(mountedAt.length);
  if (!route || !path || !route.path.startsWith(mountedAt) || !path.startsWith(TENANT_PREFIX)) return undefined;
  // The endpoint's own parameters (`userId`, …): the guard's pattern only knows `id`.
  c.req.routeIndex = index;
  try {
    return { method, path, params: c.req.param() as Record<string, string> };
  } finally {
    c.req.routeIndex = own;
  }
}

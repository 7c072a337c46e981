import { getConnInfo } from '@hono/node-server/conninfo';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { RequestContext, WriteContext } from '../services/write-path.ts';
import type { AppEnv } from '../shared/app-env.ts';

/** The write context of an authenticated management request. */
export function writeContext(c: Context<AppEnv>): WriteContext {
  let ip: string | undefined;
  try {
    ip = getConnInfo(c).remote.address;
  } catch {
    // In-process requests (tests) have no socket.
    ip = undefined;
  }
  return {
    tenant: c.get('tenant'),
    actor: c.get('auth').actor,
    requestId: c.get('requestId'),
    ip,
    userAgent: c.req.header('User-Agent'),
    request: requestContext(c),
    notices: c.get('notices'),
  };
}

/** Who sends a request (asks for or submits a code), for the rate limits and the audit log. */
export function requestMeta(c: Context<AppEnv>) {
  return { ip: writeContext(c).ip, userAgent: c.req.header('User-Agent'), log: c.get('log') };
}

/** `/api` (OSS) or `/m/{tenantId}/api` (cloud): what the reference's paths leave out. */
const managementBase = /^(?:\/m\/[^/]+)?\/api(?=\/|$)/;
const cloudTenantParam = 'tenantId';

/**
 * Route templates whose parameter the reference names differently (`/resources/:resourceId/scopes`): a receiver keys
 * on the reference's `matchedRoute`, so the webhook says it the reference's way.
 */
const referenceRouteNames: readonly { ours: RegExp; theirs: string; params: Record<string, string> }[] = [
  { ours: /^\/resources\/:id\/scopes/, theirs: '/resources/:resourceId/scopes', params: { id: 'resourceId' } },
];

/** Each management route's success status (`METHOD /path/:param`), from the routes' OpenAPI contracts. */
const successStatuses = new Map<string, number>();

/**
 * Records the success status each route declares (the lowest 2xx of its contract), so an event written during a
 * request can carry the status the request answers, as the reference's webhooks do; called once with the management
 * router.
 */
export function recordSuccessStatuses<R extends OpenAPIHono<AppEnv>>(router: R): R {
  for (const definition of router.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { method, path, responses } = definition.route;
    const statuses = Object.keys(responses)
      .map(Number)
      .filter((status) => status >= 200 && status < 300)
      .sort((a, b) => a - b);
    if (statuses[0] !== undefined) {
      successStatuses.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`, statuses[0]);
    }
  }
  return router;
}

/**
 * The reference's API context of a request (its webhooks' `path`, `method`, `matchedRoute`, `status`, `params`):
 * paths without the `/api` base, the route template with `:param`s.
 */
function requestContext(c: Context<AppEnv>): RequestContext {
  const method = c.req.method.toUpperCase();
  let matchedRoute = c.req.routePath.replace(managementBase, '') || '/';
  const params: Record<string, string> = { ...c.req.param() };
  if (c.req.routePath.startsWith('/m/')) delete params[cloudTenantParam];
  const status = successStatuses.get(`${method} ${matchedRoute}`) ?? (method === 'DELETE' ? 204 : 200);
  for (const rename of referenceRouteNames) {
    if (!rename.ours.test(matchedRoute)) continue;
    matchedRoute = matchedRoute.replace(rename.ours, rename.theirs);
    for (const [ours, theirs] of Object.entries(rename.params)) {
      if (ours in params) {
        params[theirs] = params[ours] as string;
        delete params[ours];
      }
    }
  }
  return { path: c.req.path.replace(managementBase, '') || '/', method, matchedRoute, status, params };
}

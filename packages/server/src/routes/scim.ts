import { DomainError, SCIM_REQUESTS_PER_MINUTE } from '@gatehouse/schemas';
import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Config } from '../config.ts';
import { fromDatabaseError } from '../db/database-errors.ts';
import { httpStatus } from '../http/errors.ts';
import { errorMessage } from '../i18n/messages.ts';
import type { FailureThrottle } from '../services/failure-throttle.ts';
import { badRequest, ScimError, type ScimType, scimErrorBody, scimNotFound } from '../services/scim/errors.ts';
import * as groups from '../services/scim/groups.ts';
import { listResponse, type ScimScope } from '../services/scim/paging.ts';
import { type JsonObject, projectionOf } from '../services/scim/resources.ts';
import { resourceTypes, schemaDocuments, serviceProviderConfig } from '../services/scim/schema.ts';
import * as scimUsers from '../services/scim/users.ts';
import {
  findConnectionByToken,
  recordScimRequest,
  type ScimConnectionRow,
  scimActor,
  scimBaseUrl,
} from '../services/scim-connections.ts';
import type { WriteContext } from '../services/write-path.ts';
import type { AppEnv } from '../shared/app-env.ts';

/**
 * The SCIM 2.0 service provider of a tenant (RFC 7643, 7644; docs/areas/scim.md), beside its issuer: `/scim/v2` for
 * the default tenant, `/t/{tenantId}/scim/v2` for the others (cloud). A directory authenticates with its connection's bearer token; each connection's
 * requests are throttled ({@link SCIM_REQUESTS_PER_MINUTE} a minute, 429 with `Retry-After`) and its last ones
 * recorded for the console. Every answer, refusals included, is `application/scim+json`; bodies are read as JSON
 * whatever their content type says (`application/scim+json` or `application/json`).
 */

type ScimEnv = { Variables: AppEnv['Variables'] & { scim: ScimScope; scimType: ScimType | undefined } };
type ScimContext = Context<ScimEnv>;

const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** The throttle's key of a connection: its requests count together, whichever process serves them. */
export const scimThrottleKey = (tenantId: string, connectionId: string) => `scim:${tenantId}:${connectionId}`;

function send(c: ScimContext, body: unknown, status: ContentfulStatusCode, headers: Record<string, string> = {}) {
  return c.body(JSON.stringify(body), status, { 'Content-Type': SCIM_CONTENT_TYPE, ...headers });
}

/** An error of any layer as a SCIM error (RFC 7644 §3.12): the domain's refusals by their kind. */
function toScimError(error: unknown): ScimError | undefined {
  const mapped = fromDatabaseError(error);
  if (mapped instanceof ScimError) return mapped;
  if (mapped instanceof DomainError) {
    const detail = errorMessage(mapped.code, 'en');
    if (mapped.kind === 'conflict') return new ScimError(409, 'uniqueness', detail);
    if (mapped.code === 'entity.relation_foreign_key_not_found') return badRequest('invalidValue', detail);
    const status = httpStatus(mapped);
    if (status === 400 || status === 422) return badRequest('invalidValue', detail);
    return new ScimError(status, undefined, detail);
  }
  if (mapped instanceof HTTPException && mapped.status < 500)
    return badRequest('invalidSyntax', 'The request cannot be read.');
  return undefined;
}

async function readJson(c: ScimContext): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) throw badRequest('invalidSyntax', 'The request has no body.');
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('invalidSyntax', 'The body is not JSON.');
  }
}

function writeContextOf(c: ScimContext, connection: ScimConnectionRow): WriteContext {
  let ip: string | undefined;
  try {
    ip = getConnInfo(c).remote.address;
  } catch {
    // In-process requests (tests) have no socket.
    ip = undefined;
  }
  return {
    tenant: c.get('tenant'),
    actor: scimActor(connection),
    requestId: c.get('requestId'),
    ip,
    userAgent: c.req.header('User-Agent'),
  };
}

/** The request's path below the SCIM base, with its query (the request log's `path`). */
function relativePath(c: ScimContext): string {
  const url = new URL(c.req.url);
  return `${url.pathname.replace(/^.*?\/scim\/v2/, '') || '/'}${url.search}`;
}

type Deps = {
  config: Config;
  throttle: FailureThrottle;
  /** Resolves the URL's tenant (`/scim/v2`: the default tenant) into a TenantDb; unknown tenants are 404. */
  tenantContext: MiddlewareHandler<AppEnv>;
  limitBody: MiddlewareHandler<AppEnv>;
};

/** The connection whose token the request bears, its throttle, and the record of the request once answered. */
function authenticate(deps: Deps): MiddlewareHandler<ScimEnv> {
  return async (c, next) => {
    const tenant = c.get('tenant');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '')?.[1];
    const connection = bearer ? await findConnectionByToken(tenant, bearer) : undefined;
    if (!connection) {
      c.header('WWW-Authenticate', 'Bearer realm="SCIM"');
      throw new ScimError(401, undefined, 'A valid bearer token of a SCIM connection is required.');
    }
    const record = async () => {
      const status = c.res.status;
      const scimType = c.get('scimType') ?? null;
      await recordScimRequest(tenant, connection.id, {
        method: c.req.method,
        path: relativePath(c),
        status,
        scimType,
      }).catch((error: unknown) => c.get('log').warn({ err: error }, 'SCIM request not recorded'));
    };
    const key = [scimThrottleKey(tenant.tenantId, connection.id), SCIM_REQUESTS_PER_MINUTE] as const;
    const wait = await deps.throttle.retryAfter([key]);
    if (wait > 0) {
      c.res = send(c, scimErrorBody(429, undefined, 'Too many requests: try again later.'), 429, {
        'Retry-After': String(wait),
      });
      await record();
      return c.res;
    }
    await deps.throttle.fail([key]);
    c.set('scim', { connection, baseUrl: scimBaseUrl(deps.config.publicUrl, tenant.tenantId) });
    await next();
    await record();
  };
}

const listQuery = (c: ScimContext) => ({
  filter: c.req.query('filter'),
  startIndex: c.req.query('startIndex'),
  count: c.req.query('count'),
  attributes: c.req.query('attributes'),
  excludedAttributes: c.req.query('excludedAttributes'),
});
const projection = (c: ScimContext) => projectionOf(listQuery(c));
const written = (c: ScimContext) => writeContextOf(c, c.get('scim').connection);

function discoveryRoutes(router: Hono<ScimEnv>) {
  const base = (c: ScimContext) => c.get('scim').baseUrl;
  router.get('/ServiceProviderConfig', (c) => send(c, serviceProviderConfig(base(c)), 200));
  router.get('/ResourceTypes', (c) => {
    const all = resourceTypes(base(c));
    return send(c, listResponse(all, all.length, { startIndex: 1, count: all.length }), 200);
  });
  router.get('/ResourceTypes/:id', (c) => {
    const found = resourceTypes(base(c)).find((type) => type.id === c.req.param('id'));
    if (!found) throw scimNotFound('No such resource type.');
    return send(c, found, 200);
  });
  router.get('/Schemas', (c) => {
    const all = schemaDocuments(base(c)) as unknown as JsonObject[];
    return send(c, listResponse(all, all.length, { startIndex: 1, count: all.length }), 200);
  });
  router.get('/Schemas/:id', (c) => {
    const id = c.req.param('id').toLowerCase();
    const found = schemaDocuments(base(c)).find((schema) => schema.id.toLowerCase() === id);
    if (!found) throw scimNotFound('No such schema.');
    return send(c, found, 200);
  });
}

function userRoutes(router: Hono<ScimEnv>) {
  router.get('/Users', async (c) =>
    send(c, await scimUsers.listScimUsers(c.get('tenant'), c.get('scim'), listQuery(c)), 200),
  );
  router.post('/Users', async (c) => {
    const created = await scimUsers.createScimUser(written(c), c.get('scim'), await readJson(c));
    const location = (created.meta as JsonObject).location;
    return send(c, created, 201, typeof location === 'string' ? { Location: location } : {});
  });
  router.get('/Users/:id', async (c) =>
    send(c, await scimUsers.getScimUser(c.get('tenant'), c.get('scim'), c.req.param('id'), projection(c)), 200),
  );
  router.put('/Users/:id', async (c) =>
    send(c, await scimUsers.replaceScimUser(written(c), c.get('scim'), c.req.param('id'), await readJson(c)), 200),
  );
  router.patch('/Users/:id', async (c) =>
    send(c, await scimUsers.patchScimUser(written(c), c.get('scim'), c.req.param('id'), await readJson(c)), 200),
  );
  router.delete('/Users/:id', async (c) => {
    await scimUsers.deleteScimUser(written(c), c.get('scim'), c.req.param('id'));
    return c.body(null, 204);
  });
}

function groupRoutes(router: Hono<ScimEnv>) {
  router.get('/Groups', async (c) =>
    send(c, await groups.listScimGroups(c.get('tenant'), c.get('scim'), listQuery(c)), 200),
  );
  router.post('/Groups', async (c) => {
    const created = await groups.createScimGroup(written(c), c.get('scim'), await readJson(c));
    const location = (created.meta as JsonObject).location;
    return send(c, created, 201, typeof location === 'string' ? { Location: location } : {});
  });
  router.get('/Groups/:id', async (c) =>
    send(c, await groups.getScimGroup(c.get('tenant'), c.get('scim'), c.req.param('id'), projection(c)), 200),
  );
  router.put('/Groups/:id', async (c) =>
    send(c, await groups.replaceScimGroup(written(c), c.get('scim'), c.req.param('id'), await readJson(c)), 200),
  );
  // 204 as Entra ID and Okta expect (RFC 7644 §3.5.2 lets a server answer a PATCH either way).
  router.patch('/Groups/:id', async (c) => {
    await groups.patchScimGroup(written(c), c.get('scim'), c.req.param('id'), await readJson(c));
    return c.body(null, 204);
  });
  router.delete('/Groups/:id', async (c) => {
    await groups.deleteScimGroup(written(c), c.get('scim'), c.req.param('id'));
    return c.body(null, 204);
  });
}

export function scimRoutes(deps: Deps) {
  const router = new Hono<ScimEnv>();
  router.onError((error, c) => {
    const scimError = toScimError(error);
    if (!scimError) c.get('log')?.error({ err: error }, 'SCIM request failed');
    const status = (scimError?.status ?? 500) as ContentfulStatusCode;
    const scimType = scimError?.scimType;
    c.set('scimType', scimType);
    return send(c, scimErrorBody(status, scimType, scimError?.message ?? 'Internal error.'), status);
  });
  router.use(deps.limitBody as unknown as MiddlewareHandler<ScimEnv>);
  router.use(deps.tenantContext as unknown as MiddlewareHandler<ScimEnv>);
  router.use(authenticate(deps));
  discoveryRoutes(router);
  userRoutes(router);
  groupRoutes(router);
  router.post('/Bulk', () => {
    throw new ScimError(501, undefined, 'Bulk operations are not supported.');
  });
  router.post('/:type/.search', () => {
    throw new ScimError(501, undefined, 'Searching with POST is not supported: use GET with a filter.');
  });
  router.all('*', () => {
    throw scimNotFound('No such endpoint.');
  });
  return router;
}

import { ADMIN_TENANT_ID, CLOUD_API_RESOURCE, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ME_RESOURCE, managementResource } from '../src/auth/issuers.ts';
import { users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createTestApp, type TestApp, type TokenOptions } from './support/app.ts';

// Issue 23: every route of the management, 'me' and cloud APIs, read from the OpenAPI document the server
// generates, against every kind of bad or wrong-kind token. A new route is covered without anyone writing a test;
// a new public route must be named in PUBLIC below, or this fails.

/** Routes that answer without a token, by design (health, discovery, documents, signed provider callbacks). */
const PUBLIC = new Set([
  'GET /api/status',
  'GET /api/openapi.json',
  'GET /api/.well-known/console',
  'GET /api/.well-known/endpoints/{tenantId}',
  'GET /api/.well-known/sign-in-exp',
  'GET /api/.well-known/phrases',
  'GET /m/{tenantId}/api/.well-known/sign-in-exp',
  'GET /m/{tenantId}/api/.well-known/phrases',
  'POST /api/payment-webhooks/{providerId}',
  'GET /api/saml-applications/{id}/metadata',
  'GET /m/{tenantId}/api/saml-applications/{id}/metadata',
]);

type Operation = { method: string; path: string; key: string; url: string };

/**
 * Every operation of the served OpenAPI document, with its path parameters filled by an id that exists nowhere. The
 * cloud edition serves the management API of a tenant under /m/{tenantId}: the default tenant's is used.
 */
async function operationsOf(app: TestApp): Promise<Operation[]> {
  const document = (await app.call('/api/openapi.json', { auth: false })).json as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => ({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        url: path.replace(/^\/m\/\{tenantId\}/, `/m/${DEFAULT_TENANT_ID}`).replace(/\{[^}]+\}/g, 'matrix-nothing'),
      })),
  );
}

/** One request with the given Authorization header (or none); a JSON body for writes, valid or not. */
async function send(app: TestApp, operation: Operation, authorization: string | undefined) {
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(operation.method);
  return app.call(operation.url, {
    method: operation.method,
    auth: false,
    ...(authorization ? { headers: { Authorization: authorization } } : {}),
    ...(hasBody ? { body: {} } : {}),
  });
}

const api = (operation: Pick<Operation, 'path'>) =>
  operation.path.startsWith('/m/')
    ? 'mgmt'
    : operation.path.startsWith('/api/me')
      ? 'me'
      : /^\/api\/(tenants|invitations|skus|checkout-session|payment-provider)/.test(operation.path)
        ? 'cloud'
        : 'mgmt';

let oss: TestApp;
let cloud: TestApp;
let forgedJwk: Record<string, unknown>;
beforeAll(async () => {
  oss = await createTestApp();
  cloud = await createTestApp({ EDITION: 'cloud' });
  // The console user the right tokens name ('me' and cloud answer 401 for a user who does not exist).
  for (const app of [oss, cloud]) {
    await new TenantDb(app.db, ADMIN_TENANT_ID).insert(users, { id: ADMIN_USER, username: 'matrix_admin' });
  }
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  forgedJwk = { ...(await exportJWK(privateKey)), kid: 'forged' };
});
afterAll(async () => {
  await oss.close();
  await cloud.close();
});

/** The audience each API takes (the management API of the default tenant). */
const audienceOf = { mgmt: managementResource(DEFAULT_TENANT_ID), me: ME_RESOURCE, cloud: CLOUD_API_RESOURCE };
const otherApi = { mgmt: ME_RESOURCE, me: CLOUD_API_RESOURCE, cloud: managementResource(DEFAULT_TENANT_ID) };

/** Token kinds that must be refused with 401 on every protected route, per the route's API. */
const refused: [string, (app: TestApp, target: keyof typeof audienceOf) => Promise<string | undefined>][] = [
  ['no token', async () => undefined],
  ['a malformed header', async () => 'Bearer not.a.jwt'],
  ['another scheme', async () => 'Basic dXNlcjpwYXNz'],
  ['a forged signature', async (app, target) => bearer(app, { audience: audienceOf[target], privateJwk: forgedJwk })],
  [
    'an expired token',
    async (app, target) => bearer(app, { audience: audienceOf[target], expiresIn: Math.floor(Date.now() / 1000) - 60 }),
  ],
  ['a token without exp', async (app, target) => bearer(app, { audience: audienceOf[target], expiresIn: null })],
  [
    'a token issued in the future',
    async (app, target) => bearer(app, { audience: audienceOf[target], issuedAt: Math.floor(Date.now() / 1000) + 600 }),
  ],
  ['a token for another of our APIs', async (app, target) => bearer(app, { audience: otherApi[target] })],
  [
    "an end user's token of the tenant",
    async (app, target) =>
      bearer(app, { audience: audienceOf[target], issuerTenantId: DEFAULT_TENANT_ID, subject: 'end-user-1' }),
  ],
  [
    "a token for another tenant's management API",
    async (app, target) =>
      bearer(app, {
        audience: target === 'mgmt' ? managementResource(ADMIN_TENANT_ID) : otherApi[target],
        tenantId: ADMIN_TENANT_ID,
      }),
  ],
];
const ADMIN_USER = 'matrixadmin1';
const bearer = async (app: TestApp, options: TokenOptions) => `Bearer ${await app.token(options)}`;

describe('the authorization matrix', () => {
  it('refuses every kind of bad or wrong-kind token on every protected route, and lets the right one through', {
    timeout: 240_000,
  }, async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const app of [oss, cloud]) {
      const edition = app === oss ? 'oss' : 'cloud';
      const operations = await operationsOf(app);
      expect(operations.length, `${edition}: the document lists the routes`).toBeGreaterThan(100);
      for (const operation of operations) {
        const target = api(operation);
        if (PUBLIC.has(operation.key)) {
          const open = await send(app, operation, undefined);
          // (A payment webhook with a bad signature is a 401 of its own, not the token check's.)
          if (open.json?.code === 'auth.unauthorized')
            failures.push(`${edition} ${operation.key}: public, yet asks for a token`);
          continue;
        }
        for (const [name, make] of refused) {
          cells++;
          const response = await send(app, operation, await make(app, target));
          if (response.status !== 401 || response.json?.code !== 'auth.unauthorized') {
            failures.push(`${edition} ${operation.key} with ${name}: ${response.status} ${response.json?.code}`);
          }
        }
        if (target === 'mgmt') {
          cells++;
          // The management API needs its scope: a console user's token without it is forbidden, not unknown.
          const unscoped = await send(app, operation, await bearer(app, { scope: 'read:data' }));
          if (unscoped.status !== 403)
            failures.push(`${edition} ${operation.key} without the scope: ${unscoped.status}`);
        }
        // The right kind of token gets past authentication and authorization (the answer may be 400/404/422:
        // the ids and bodies are made up). A cloud tenant route answers 404 to a user who is not its member.
        cells++;
        const allowed = await send(
          app,
          operation,
          await bearer(app, {
            audience: audienceOf[target],
            subject: ADMIN_USER,
            ...(target === 'mgmt' ? {} : { scope: 'all' }),
          }),
        );
        if (allowed.status === 401 || allowed.status === 403 || allowed.status >= 500) {
          failures.push(`${edition} ${operation.key} with the right token: ${allowed.status} ${allowed.json?.code}`);
        }
        // Deleting one's own account (cloud) is the one route the right token really carries out (the console user has
        // no password to prove): the user comes back for the routes after it.
        if (operation.key === 'DELETE /api/me') {
          await new TenantDb(app.db, ADMIN_TENANT_ID).insertIfAbsent(users, {
            id: ADMIN_USER,
            username: 'matrix_admin',
          });
        }
      }
    }
    if (failures.length) console.log(`MATRIX\n${failures.join('\n')}`);
    expect(failures).toEqual([]);
    expect(cells, 'routes × cases').toBeGreaterThan(1500);
  });
});

import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { and, eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { oidcModelInstances } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';

/**
 * The provider applies each application's token settings (spec §3 customClientMetadata): id token and refresh token
 * lifetimes, issuing a refresh token without offline_access, rotation, and CORS origins. Real tokens, real sign-in.
 */

let base: string;
let close: () => Promise<void>;
let adminToken: string;
let database: Awaited<ReturnType<typeof startTestHttpServer>>['database'];
const user = { username: 'policy_user', password: 'Policy-User-Pass-42' };
const spaOrigin = 'https://spa.example.com';
const redirectUri = `${spaOrigin}/callback`;

type TokenResponse = { access_token: string; id_token?: string; refresh_token?: string; expires_in: number };

// biome-ignore lint/suspicious/noExplicitAny: test responses are read loosely and checked by the expectations.
async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const response = await fetch(`${base}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${adminToken}`,
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  expect(response.ok, `${init.method ?? 'GET'} ${path}: ${response.status} ${text}`).toBe(true);
  return text ? JSON.parse(text) : undefined;
}

/** A SPA with these token settings; returns its client id. */
async function spa(customClientMetadata: Record<string, unknown>): Promise<string> {
  const created = await api('/applications', {
    method: 'POST',
    body: { name: `policy spa ${Math.random()}`, type: 'SPA', oidcClientMetadata: { redirectUris: [redirectUri] } },
  });
  await api(`/applications/${created.id}`, { method: 'PATCH', body: { customClientMetadata } });
  return String(created.id);
}

/** Signs the user in to `clientId` through the real pages and redeems the code. */
async function signIn(clientId: string, scope: string): Promise<TokenResponse> {
  const oidc = oidcClient(base, { tenantId: DEFAULT_TENANT_ID, clientId, redirectUri, defaultResources: [] });
  const jar = new CookieJar();
  const { verifier, signInPage } = await oidc.startAuthorization(jar, { scope });
  const callback = await oidc.followToCallback(jar, await oidc.submit(jar, signInPage, user.username, user.password));
  const response = await oidc.redeemCode(callback.searchParams.get('code') ?? '', verifier);
  expect(response.status).toBe(200);
  return (await response.json()) as TokenResponse;
}

function refresh(clientId: string, refreshToken: string) {
  return fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: clientId, grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
}

/** A stored refresh token's lifetime, read from the provider's own record of it. */
async function refreshTokenLifetime(clientId: string): Promise<number> {
  const rows = await database.db
    .select({ payload: oidcModelInstances.payload })
    .from(oidcModelInstances)
    .where(
      and(
        eq(oidcModelInstances.modelName, 'RefreshToken'),
        sql`${oidcModelInstances.payload}->>'clientId' = ${clientId}`,
      ),
    );
  expect(rows, 'one refresh token was stored').toHaveLength(1);
  const payload = rows[0]?.payload ?? {};
  return Number(payload.exp) - Number(payload.iat);
}

beforeAll(async () => {
  const server = await startTestHttpServer();
  ({ base, close, database } = server);
  const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
  const bootstrap = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'bootstrap');
  const token = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Basic ${Buffer.from(`${bootstrap.clientId}:${bootstrap.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      resource: managementResource(DEFAULT_TENANT_ID),
      scope: 'all',
    }),
  });
  adminToken = ((await token.json()) as TokenResponse).access_token;
  await api('/users', { method: 'POST', body: user });
});
afterAll(() => close());

describe('token lifetimes', () => {
  it('id tokens live as long as the application says, one hour by default', async () => {
    const configured = await signIn(await spa({ idTokenTtl: 600 }), 'openid');
    const claims = decodeJwt(configured.id_token ?? '');
    expect(Number(claims.exp) - Number(claims.iat)).toBe(600);

    const plain = decodeJwt((await signIn(await spa({}), 'openid')).id_token ?? '');
    expect(Number(plain.exp) - Number(plain.iat), 'spec §9 default').toBe(3600);
  });

  it('refresh tokens live the configured number of days, 14 by default', async () => {
    const twoDays = await spa({ refreshTokenTtlInDays: 2 });
    expect((await signIn(twoDays, 'openid offline_access')).refresh_token).toBeTruthy();
    expect(await refreshTokenLifetime(twoDays)).toBe(2 * 86_400);

    const defaults = await spa({});
    await signIn(defaults, 'openid offline_access');
    expect(await refreshTokenLifetime(defaults), 'spec §9 default').toBe(14 * 86_400);
  });

  it("follow the console's days once set, over seconds an API client set (the reference's order)", async () => {
    // An API client sets 30 days in seconds; the console then edits the days field to 5.
    const seconds = await spa({ refreshTokenTtl: 30 * 86_400 });
    await signIn(seconds, 'openid offline_access');
    expect(await refreshTokenLifetime(seconds), 'seconds alone count').toBe(30 * 86_400);

    const edited = await spa({ refreshTokenTtl: 30 * 86_400 });
    await api(`/applications/${edited}`, {
      method: 'PATCH',
      body: { customClientMetadata: { refreshTokenTtlInDays: 5 } },
    });
    expect((await signIn(edited, 'openid offline_access')).refresh_token).toBeTruthy();
    expect(await refreshTokenLifetime(edited), 'the days the console shows win').toBe(5 * 86_400);
  });
});

describe('refresh tokens', () => {
  it('are issued without offline_access only when the application always wants one', async () => {
    expect((await signIn(await spa({}), 'openid')).refresh_token, 'not asked for, not given').toBeUndefined();
    expect((await signIn(await spa({ alwaysIssueRefreshToken: true }), 'openid')).refresh_token).toBeTruthy();
  });

  it('rotate on use by default, and not when rotation is off', async () => {
    const rotating = await spa({});
    const first = (await signIn(rotating, 'openid offline_access')).refresh_token ?? '';
    const rotated = (await (await refresh(rotating, first)).json()) as TokenResponse;
    expect(rotated.refresh_token, 'a new refresh token').toBeTruthy();
    expect(rotated.refresh_token).not.toBe(first);
    expect((await refresh(rotating, first)).status, 'the used one is spent').toBe(400);

    const fixed = await spa({ rotateRefreshToken: false });
    const kept = (await signIn(fixed, 'openid offline_access')).refresh_token ?? '';
    const once = await refresh(fixed, kept);
    expect(once.status).toBe(200);
    expect(((await once.json()) as TokenResponse).refresh_token ?? kept, 'the same token comes back').toBe(kept);
    expect((await refresh(fixed, kept)).status, 'and keeps working').toBe(200);
  });
});

describe('CORS', () => {
  async function preflight(clientId: string, origin: string) {
    // The provider decides per client on the actual request; the token endpoint names the client in the body.
    const response = await fetch(`${base}/oidc/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      body: new URLSearchParams({ client_id: clientId, grant_type: 'refresh_token', refresh_token: 'unknown' }),
    });
    return response.headers.get('Access-Control-Allow-Origin');
  }

  it('answers browsers from the allowed origins and the redirect URIs origin, and no others', async () => {
    const clientId = await spa({ corsAllowedOrigins: ['https://admin.example.com'] });
    expect(await preflight(clientId, 'https://admin.example.com')).toBe('https://admin.example.com');
    expect(await preflight(clientId, spaOrigin), 'where the SPA itself runs').toBe(spaOrigin);
    expect(await preflight(clientId, 'https://evil.example.com')).toBeNull();
  });
});

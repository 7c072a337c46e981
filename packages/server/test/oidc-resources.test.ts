import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementResource } from '../src/auth/issuers.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { createManagementMachineApp } from '../src/services/machine-apps.ts';
import { CookieJar, startTestHttpServer } from './support/http-server.ts';
import { oidcClient } from './support/oidc-flow.ts';

/**
 * Tokens follow the API resource settings (spec §3 resource): the lifetime is the resource's accessTokenTtl, a
 * request that names no resource gets the tenant's default API, and only scopes of the resource that a role grants
 * are ever in a token. Real tokens from the provider: client credentials and authorization code + PKCE.
 */

let base: string;
let close: () => Promise<void>;
let adminToken: string;

const basic = (clientId: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function clientCredentials(clientId: string, secret: string, params: Record<string, string>) {
  return fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basic(clientId, secret) },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...params }),
  });
}

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

type TokenResponse = { access_token: string; expires_in: number; scope?: string; token_type: string };

/** The lifetime the token itself states, and the claims that matter here. */
function readToken(accessToken: string) {
  const claims = decodeJwt(accessToken);
  return { claims, lifetime: Number(claims.exp) - Number(claims.iat) };
}

const isJwt = (token: string) => token.split('.').length === 3;

const orders = { name: 'Orders', indicator: 'https://orders.example.com/api' };
const billing = { name: 'Billing', indicator: 'https://billing.example.com/api' };
let ordersId: string;
let billingId: string;
let machine: { clientId: string; secret: string };
const spaRedirect = 'https://spa.example.com/callback';
let spaId: string;
const user = { username: 'resource_user', password: 'Resource-User-Pass-42' };

async function createResource(resource: { name: string; indicator: string }, accessTokenTtl: number) {
  const created = await api('/resources', { method: 'POST', body: { ...resource, accessTokenTtl } });
  return String(created.id);
}

async function addScopes(resourceId: string, names: readonly string[]) {
  const ids: string[] = [];
  for (const name of names) {
    ids.push(String((await api(`/resources/${resourceId}/scopes`, { method: 'POST', body: { name } })).id));
  }
  return ids;
}

beforeAll(async () => {
  const server = await startTestHttpServer();
  ({ base, close } = server);
  const tenant = new TenantDb(server.database.db, DEFAULT_TENANT_ID);
  const bootstrap = await createManagementMachineApp(tenant, { type: 'system', id: 'test' }, 'bootstrap');
  const token = await clientCredentials(bootstrap.clientId, bootstrap.clientSecret, {
    resource: managementResource(DEFAULT_TENANT_ID),
    scope: 'all',
  });
  adminToken = ((await token.json()) as TokenResponse).access_token;

  ordersId = await createResource(orders, 120);
  billingId = await createResource(billing, 900);
  const [readOrders, writeOrders] = await addScopes(ordersId, ['read:orders', 'write:orders', 'delete:orders']);
  const [readInvoices] = await addScopes(billingId, ['read:invoices']);

  // A machine app whose role grants read/write on orders and read on invoices (not delete:orders).
  const app = await api('/applications', { method: 'POST', body: { name: 'orders robot', type: 'MachineToMachine' } });
  const secret = await api(`/applications/${app.id}/secrets`, { method: 'POST', body: { name: 'test' } });
  machine = { clientId: String(app.id), secret: String(secret.value) };
  const m2mRole = await api('/roles', {
    method: 'POST',
    body: { name: 'orders robot role', type: 'MachineToMachine', scopeIds: [readOrders, writeOrders, readInvoices] },
  });
  await api(`/applications/${app.id}/roles`, { method: 'POST', body: { roleIds: [m2mRole.id] } });

  // A signed-in user of an SPA, whose role grants read:orders and read:invoices.
  const spa = await api('/applications', {
    method: 'POST',
    body: { name: 'shop', type: 'SPA', oidcClientMetadata: { redirectUris: [spaRedirect] } },
  });
  spaId = String(spa.id);
  const created = await api('/users', { method: 'POST', body: user });
  const userRole = await api('/roles', {
    method: 'POST',
    body: { name: 'shopper', type: 'User', scopeIds: [readOrders, readInvoices] },
  });
  await api(`/roles/${userRole.id}/users`, { method: 'POST', body: { userIds: [created.id] } });
});
afterAll(() => close());

const setDefault = (resourceId: string, isDefault: boolean) =>
  api(`/resources/${resourceId}/is-default`, { method: 'PATCH', body: { isDefault } });

describe('client credentials', () => {
  it('issue tokens that live as long as the resource says, read at issue time', async () => {
    const response = await clientCredentials(machine.clientId, machine.secret, {
      resource: orders.indicator,
      scope: 'read:orders',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as TokenResponse;
    expect(decodeProtectedHeader(body.access_token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    const { claims, lifetime } = readToken(body.access_token);
    expect(claims.aud).toBe(orders.indicator);
    expect(lifetime, 'exp - iat is the resource TTL').toBe(120);
    expect(body.expires_in).toBe(120);

    const other = (await (
      await clientCredentials(machine.clientId, machine.secret, { resource: billing.indicator, scope: 'read:invoices' })
    ).json()) as TokenResponse;
    expect(readToken(other.access_token).lifetime, 'another resource, its own TTL').toBe(900);

    await api(`/resources/${ordersId}`, { method: 'PATCH', body: { accessTokenTtl: 45 } });
    const changed = (await (
      await clientCredentials(machine.clientId, machine.secret, { resource: orders.indicator, scope: 'read:orders' })
    ).json()) as TokenResponse;
    expect(readToken(changed.access_token).lifetime, 'a changed TTL applies to the next token').toBe(45);
    await api(`/resources/${ordersId}`, { method: 'PATCH', body: { accessTokenTtl: 120 } });
  });

  it('grant only requested scopes that the resource has and a role grants', async () => {
    const response = await clientCredentials(machine.clientId, machine.secret, {
      resource: orders.indicator,
      // unknown:thing exists nowhere; read:invoices belongs to another resource; delete:orders is not in the role.
      scope: 'read:orders unknown:thing read:invoices delete:orders write:orders',
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as TokenResponse;
    expect(body.scope?.split(' ').sort()).toEqual(['read:orders', 'write:orders']);
    expect(String(readToken(body.access_token).claims.scope).split(' ').sort()).toEqual([
      'read:orders',
      'write:orders',
    ]);

    const nothingKnown = (await (
      await clientCredentials(machine.clientId, machine.secret, { resource: orders.indicator, scope: 'unknown:thing' })
    ).json()) as TokenResponse;
    expect(nothingKnown.scope, 'no scope at all rather than an unknown one').toBeUndefined();
    expect(readToken(nothingKnown.access_token).claims.scope).toBeUndefined();
  });

  it('use the default API when the request names no resource, and only then', async () => {
    const withoutDefault = (await (
      await clientCredentials(machine.clientId, machine.secret, { scope: 'read:invoices' })
    ).json()) as TokenResponse;
    expect(isJwt(withoutDefault.access_token), 'no default API: no resource token').toBe(false);

    await setDefault(billingId, true);
    try {
      const response = await clientCredentials(machine.clientId, machine.secret, {
        scope: 'read:invoices read:orders',
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as TokenResponse;
      const { claims, lifetime } = readToken(body.access_token);
      expect(claims.aud, 'the default API is the audience').toBe(billing.indicator);
      expect(claims.scope, "only the default API's scopes").toBe('read:invoices');
      expect(lifetime, "and the default API's TTL").toBe(900);

      const named = (await (
        await clientCredentials(machine.clientId, machine.secret, { resource: orders.indicator, scope: 'read:orders' })
      ).json()) as TokenResponse;
      expect(readToken(named.access_token).claims.aud, 'a named resource still wins').toBe(orders.indicator);

      // Moving the default moves the audience of the next request.
      await setDefault(ordersId, true);
      const moved = (await (
        await clientCredentials(machine.clientId, machine.secret, { scope: 'read:orders' })
      ).json()) as TokenResponse;
      expect(readToken(moved.access_token).claims).toMatchObject({ aud: orders.indicator, scope: 'read:orders' });
      expect(readToken(moved.access_token).lifetime).toBe(120);
    } finally {
      await setDefault(ordersId, false);
      await setDefault(billingId, false);
    }
  });
});

describe('authorization code + PKCE for a signed-in user', () => {
  const flow = () =>
    oidcClient(base, { tenantId: DEFAULT_TENANT_ID, clientId: spaId, redirectUri: spaRedirect, defaultResources: [] });

  /** Signs the user in through the real pages; returns the authorization code and its PKCE verifier. */
  async function authorize(options: { scope: string; resources?: string[] }) {
    const oidc = flow();
    const jar = new CookieJar();
    const { verifier, signInPage } = await oidc.startAuthorization(jar, options);
    const callback = await oidc.followToCallback(jar, await oidc.submit(jar, signInPage, user.username, user.password));
    const code = callback.searchParams.get('code');
    expect(code, `callback ${callback}`).toBeTruthy();
    return { redeem: (extra?: Record<string, string>) => oidc.redeemCode(code ?? '', verifier, extra) };
  }

  /** Signs in and redeems the code without naming a resource; returns the token response. */
  async function signIn(options: { scope: string; resources?: string[] }): Promise<TokenResponse> {
    const response = await (await authorize(options)).redeem();
    expect(response.status).toBe(200);
    return (await response.json()) as TokenResponse;
  }

  it("gets a token for a named resource with the resource's TTL and only its granted, existing scopes", async () => {
    const body = await signIn({
      scope: 'openid read:orders write:orders unknown:thing read:invoices',
      resources: [orders.indicator],
    });
    const { claims, lifetime } = readToken(body.access_token);
    expect(claims.aud).toBe(orders.indicator);
    // write:orders exists but the user's role does not grant it; the others are not scopes of this resource.
    expect(claims.scope).toBe('read:orders');
    expect(lifetime).toBe(120);
    expect(body.expires_in).toBe(120);
  });

  it('gets a token for the default API when the authorization request names no resource', async () => {
    await setDefault(billingId, true);
    try {
      const body = await signIn({ scope: 'openid offline_access read:invoices read:orders unknown:thing' });
      const { claims, lifetime } = readToken(body.access_token);
      expect(claims.aud, 'the default API is the audience').toBe(billing.indicator);
      expect(claims.scope).toBe('read:invoices');
      expect(lifetime).toBe(900);
    } finally {
      await setDefault(billingId, false);
    }

    // Without a default API the same request gets no resource token (the userinfo token of plain OIDC).
    const plain = await signIn({ scope: 'openid read:invoices' });
    expect(isJwt(plain.access_token)).toBe(false);
  });

  it('redeems a code granted for several APIs for the default one when the token request names none', async () => {
    const both = { scope: 'openid read:orders read:invoices', resources: [orders.indicator, billing.indicator] };
    const undecided = await (await authorize(both)).redeem();
    expect(undecided.status, 'no default API: the client must name one').toBe(400);
    expect(((await undecided.json()) as { error: string }).error).toBe('invalid_target');

    await setDefault(billingId, true);
    try {
      const grant = await authorize(both);
      const response = await grant.redeem();
      expect(response.status).toBe(200);
      const { claims, lifetime } = readToken(((await response.json()) as TokenResponse).access_token);
      expect(claims).toMatchObject({ aud: billing.indicator, scope: 'read:invoices' });
      expect(lifetime).toBe(900);

      const named = await (await authorize(both)).redeem({ resource: orders.indicator });
      const ordersToken = readToken(((await named.json()) as TokenResponse).access_token);
      expect(ordersToken.claims, 'naming one still chooses it').toMatchObject({
        aud: orders.indicator,
        scope: 'read:orders',
      });
      expect(ordersToken.lifetime).toBe(120);
    } finally {
      await setDefault(billingId, false);
    }
  });
});

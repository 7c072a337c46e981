import {
  ADMIN_TENANT_ID,
  DEFAULT_TENANT_ID,
  issuerPath,
  MANAGEMENT_API_SCOPE_ALL,
  ssoProviderNames,
} from '@gatehouse/schemas';
import { desc, eq } from 'drizzle-orm';
import { importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuerUrl, managementResource } from '../src/auth/issuers.ts';
import { jwsAlgorithmOf, SigningKeyStore } from '../src/auth/signing-keys.ts';
import { logs, tenantConfigs, tenantSubscriptions, userSsoIdentities } from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { organizationsForSsoConnector, provisionBySsoConnector } from '../src/services/organization-jit.ts';
import { generateSamlCertificate } from '../src/services/saml-certificates.ts';
import { renderIdentityProviderMetadata } from '../src/services/saml-metadata.ts';
import {
  findSsoConnector,
  listSsoConnectorsForSignIn,
  ssoConnectorsForEmailDomain,
} from '../src/services/sso-connectors.ts';
import { startTestHttpServer } from './support/http-server.ts';

/**
 * The enterprise SSO management API (reference §8): connectors, the provider catalogue, organization JIT by
 * connector and users' SSO identities. One real HTTP server in the cloud edition (two tenants' APIs side by side), with
 * private addresses allowed so a connector can read the server's own OpenID Connect issuer as its IdP.
 */

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let keys: SigningKeyStore;
const own = () => new TenantDb(server.database.db, DEFAULT_TENANT_ID);

beforeAll(async () => {
  server = await startTestHttpServer({ EDITION: 'cloud', OUTBOUND_PRIVATE_ADDRESSES: 'allow' });
  keys = new SigningKeyStore(new TenantDbs(server.database.db));
}, 60_000);
afterAll(() => server?.close());

/** A console user's management token for a tenant, signed by the admin tenant's key (as the console's tokens are). */
async function tokenFor(tenantId: string, scope = MANAGEMENT_API_SCOPE_ALL): Promise<string> {
  const [jwk] = await keys.privateKeys(ADMIN_TENANT_ID);
  if (!jwk) throw new Error('no admin signing key');
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: jwsAlgorithmOf(jwk), kid: String(jwk.kid) })
    .setIssuer(issuerUrl(server.base, ADMIN_TENANT_ID))
    .setAudience(managementResource(tenantId))
    .setSubject('sso-admin')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(await importJWK(jwk, jwsAlgorithmOf(jwk)));
}

type Json = Record<string, unknown> & { code?: string; message?: string };
// biome-ignore lint/suspicious/noExplicitAny: assertions read untyped JSON; `expect` does the checking.
type Answer = { status: number; headers: Headers; json: any };

async function call(
  path: string,
  init: { method?: string; body?: unknown; tenantId?: string; token?: string | null; language?: string } = {},
): Promise<Answer> {
  const tenantId = init.tenantId ?? DEFAULT_TENANT_ID;
  const headers: Record<string, string> = {};
  const token = init.token === undefined ? await tokenFor(tenantId) : init.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (init.language) headers['Accept-Language'] = init.language;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${server.base}/m/${tenantId}/api${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
}

const create = (body: Record<string, unknown>) => call('/sso-connectors', { method: 'POST', body });

function expectError(answer: Answer, status: number, code: string) {
  expect(answer.status, JSON.stringify(answer.json)).toBe(status);
  expect(answer.json.code).toBe(code);
  expect(typeof answer.json.message).toBe('string');
}

async function samlMetadataXml(): Promise<{ xml: string; certificate: string }> {
  const generated = await generateSamlCertificate('Test IdP', 1);
  const xml = renderIdentityProviderMetadata({
    entityId: 'https://idp.example.com/saml',
    singleSignOnUrl: 'https://idp.example.com/saml/sso',
    certificatePem: generated.certificate,
    nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  });
  return { xml, certificate: generated.certificate };
}

describe('providers and access', () => {
  it('lists every provider, localised, with its protocol and logos', async () => {
    const answer = await call('/sso-connector-providers', { language: 'de' });
    expect(answer.status).toBe(200);
    expect(answer.json.map((provider: Json) => provider.providerName).sort()).toEqual([...ssoProviderNames].sort());
    for (const provider of answer.json as Json[]) {
      expect(['OIDC', 'SAML']).toContain(provider.providerType);
      expect(typeof provider.logo).toBe('string');
      expect(typeof provider.description).toBe('string');
    }
  });

  it('every route answers 401 without a token and 403 without scope all', async () => {
    const weak = await tokenFor(DEFAULT_TENANT_ID, 'read:data');
    const routes: [string, string, unknown?][] = [
      ['GET', '/sso-connector-providers'],
      ['GET', '/sso-connectors'],
      ['POST', '/sso-connectors', { providerName: 'OIDC', connectorName: 'x' }],
      ['GET', '/sso-connectors/some-id'],
      ['PATCH', '/sso-connectors/some-id', {}],
      ['DELETE', '/sso-connectors/some-id'],
      ['GET', '/organizations/some-org/jit/sso-connectors'],
      ['GET', '/users/some-user/all-identities'],
      ['GET', '/users/some-user/sso-identities/some-id'],
      ['GET', '/sso-connectors/some-id/idp-initiated-auth-config'],
      ['PUT', '/sso-connectors/some-id/idp-initiated-auth-config', { defaultApplicationId: 'x' }],
      ['DELETE', '/sso-connectors/some-id/idp-initiated-auth-config'],
    ];
    for (const [method, path, body] of routes) {
      expectError(await call(path, { method, body, token: null }), 401, 'auth.unauthorized');
      expectError(await call(path, { method, body, token: weak }), 403, 'auth.forbidden');
    }
  });
});

describe('connectors', () => {
  it('saves a draft, masks the secret, keeps it on a masked round trip and never logs it', async () => {
    const created = await create({
      providerName: 'OIDC',
      connectorName: 'Acme draft',
      config: { clientId: 'acme-client', clientSecret: 'first-secret-value' },
      domains: ['Acme.COM', 'acme.com', 'eu.acme.com'],
      branding: { displayName: 'Acme' },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = String(created.json.id);
    expect(created.json).toMatchObject({
      tenantId: DEFAULT_TENANT_ID,
      providerName: 'OIDC',
      providerType: 'OIDC',
      connectorName: 'Acme draft',
      config: { clientId: 'acme-client', clientSecret: '********' },
      domains: ['acme.com', 'eu.acme.com'],
      branding: { displayName: 'Acme' },
      syncProfile: false,
      enableTokenStorage: false,
    });
    expect(typeof created.json.providerLogo).toBe('string');
    expect(created.json.providerConfig, 'a draft has no provider config').toBeUndefined();

    const got = await call(`/sso-connectors/${id}`);
    expect(got.json.config.clientSecret).toBe('********');

    const roundTrip = await call(`/sso-connectors/${id}`, {
      method: 'PATCH',
      body: { config: { ...got.json.config, scope: 'openid email' }, syncProfile: true },
    });
    expect(roundTrip.status, JSON.stringify(roundTrip.json)).toBe(200);
    expect(roundTrip.json).toMatchObject({
      config: { clientSecret: '********', scope: 'openid email' },
      syncProfile: true,
    });
    expect((await findSsoConnector(own(), id)).config, 'the mask kept the stored secret').toMatchObject({
      clientId: 'acme-client',
      clientSecret: 'first-secret-value',
      scope: 'openid email',
    });

    const changed = await call(`/sso-connectors/${id}`, {
      method: 'PATCH',
      body: { config: { clientSecret: 'second-secret-value', scope: null } },
    });
    expect(changed.status).toBe(200);
    const stored = (await findSsoConnector(own(), id)).config;
    expect(stored, 'merged: other keys stay, null removes one').toEqual({
      clientId: 'acme-client',
      clientSecret: 'second-secret-value',
    });

    const entries = await own().findMany(logs, { orderBy: [desc(logs.createdAt)] });
    const mine = entries.filter((row) => (row.payload.entity as { id?: string } | undefined)?.id === id);
    expect(mine.map((row) => row.key).sort()).toEqual([
      'Admin.SsoConnector.Created',
      'Admin.SsoConnector.Updated',
      'Admin.SsoConnector.Updated',
    ]);
    const text = JSON.stringify(mine);
    expect(text).not.toContain('first-secret-value');
    expect(text).not.toContain('second-secret-value');
  });

  it('refuses bad config, public domains and a taken name; pages the list as the reference', async () => {
    const unknownKey = await create({ providerName: 'SAML', connectorName: 'Bad', config: { bogus: 1 } });
    expectError(unknownKey, 400, 'guard.invalid_input');
    expect(unknownKey.json.data.map((field: { path: string }) => field.path)[0]).toMatch(/^config/);
    const wrongType = await create({ providerName: 'OIDC', connectorName: 'Bad', config: { clientId: 5 } });
    expectError(wrongType, 400, 'guard.invalid_input');
    expect(wrongType.json.data.map((field: { path: string }) => field.path)).toContain('config.clientId');
    expectError(await create({ providerName: 'Nope', connectorName: 'Bad' }), 400, 'guard.invalid_input');
    expectError(await create({ providerName: 'OIDC' }), 400, 'guard.invalid_input');

    const forbidden = await create({
      providerName: 'OIDC',
      connectorName: 'Webmail',
      domains: ['example.org', 'GMail.com'],
    });
    expectError(forbidden, 422, 'single_sign_on.forbidden_domains');
    expect(forbidden.json.data).toEqual({ domains: ['gmail.com'] });

    expect((await create({ providerName: 'SAML', connectorName: 'Taken' })).status).toBe(200);
    expectError(
      await create({ providerName: 'OIDC', connectorName: 'Taken' }),
      422,
      'single_sign_on.duplicate_connector_name',
    );
    const other = await create({ providerName: 'SAML', connectorName: 'Other' });
    expectError(
      await call(`/sso-connectors/${other.json.id}`, { method: 'PATCH', body: { connectorName: 'Taken' } }),
      422,
      'single_sign_on.duplicate_connector_name',
    );
    expectError(
      await call(`/sso-connectors/${other.json.id}`, { method: 'PATCH', body: { domains: ['qq.com'] } }),
      422,
      'single_sign_on.forbidden_domains',
    );

    const all = await call('/sso-connectors');
    expect(all.status).toBe(200);
    expect(all.headers.get('Total-Number'), 'no page asked: every row, no total').toBeNull();
    const page = await call('/sso-connectors?page=1&page_size=1');
    expect(page.json).toHaveLength(1);
    expect(page.headers.get('Total-Number')).toBe(String(all.json.length));
    expect(page.json[0].id, 'newest first').toBe(all.json[0].id);
  });

  it('answers 404 for unknown ids and deletes with 204', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const body = method === 'PATCH' ? { syncProfile: true } : undefined;
      expectError(await call('/sso-connectors/no-such-connector', { method, body }), 404, 'entity.not_exists_with_id');
    }
    const created = await create({ providerName: 'OIDC', connectorName: 'Short-lived' });
    expect((await call(`/sso-connectors/${created.json.id}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await call(`/sso-connectors/${created.json.id}`), 404, 'entity.not_exists_with_id');
  });

  it("another tenant cannot read, change or delete a tenant's connector", async () => {
    const created = await create({ providerName: 'OIDC', connectorName: 'Isolated', config: { clientSecret: 'x' } });
    const id = String(created.json.id);
    const asAdmin = { tenantId: ADMIN_TENANT_ID };
    expectError(await call(`/sso-connectors/${id}`, asAdmin), 404, 'entity.not_exists_with_id');
    expectError(
      await call(`/sso-connectors/${id}`, { ...asAdmin, method: 'PATCH', body: { connectorName: 'Hijacked' } }),
      404,
      'entity.not_exists_with_id',
    );
    expectError(
      await call(`/sso-connectors/${id}`, { ...asAdmin, method: 'DELETE' }),
      404,
      'entity.not_exists_with_id',
    );
    expect((await call('/sso-connectors', asAdmin)).json.map((row: Json) => row.id)).not.toContain(id);
    expect((await call(`/sso-connectors/${id}`)).json.connectorName, 'untouched').toBe('Isolated');
  });
});

describe('what the identity provider says', () => {
  it('a complete SAML config given as metadata XML answers the IdP and our service provider', async () => {
    const { xml, certificate } = await samlMetadataXml();
    const created = await create({ providerName: 'Okta', connectorName: 'Okta by XML', config: { metadata: xml } });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const id = String(created.json.id);
    const expected = {
      entityId: 'https://idp.example.com/saml',
      signInEndpoint: 'https://idp.example.com/saml/sso',
      serviceProvider: {
        entityId: `${server.base}/enterprise-sso/${DEFAULT_TENANT_ID}/${id}`,
        assertionConsumerServiceUrl: `${server.base}/callback/sso/${DEFAULT_TENANT_ID}/${id}`,
        metadataUrl: `${server.base}/enterprise-sso/${DEFAULT_TENANT_ID}/${id}/saml-metadata`,
      },
    };
    expect(created.json).toMatchObject({ providerType: 'SAML', providerConfig: expected });
    const got = await call(`/sso-connectors/${id}`);
    expect(got.json.providerConfig).toMatchObject(expected);
    const bare = certificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
    expect(JSON.stringify(got.json.providerConfig)).toContain(bare.slice(0, 40));

    const broken = await create({ providerName: 'SAML', connectorName: 'Broken XML', config: { metadata: '<nope/>' } });
    expect(broken.status, JSON.stringify(broken.json)).toBe(400);
    expect(broken.json.code).toMatch(/^(connector\.|single_sign_on\.)/);
  });

  it("an OIDC config pointing at this server's own issuer answers its discovered endpoints", async () => {
    const issuer = `${server.base}${issuerPath(DEFAULT_TENANT_ID)}`;
    const created = await create({
      providerName: 'OIDC',
      connectorName: 'Own issuer',
      config: { issuer, clientId: 'client-at-idp', clientSecret: 'idp-secret' },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json.providerConfig).toMatchObject({ issuer });
    expect(created.json.providerConfig.authorizationEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(created.json.providerConfig.serviceProvider).toBeUndefined();
    expect((await call(`/sso-connectors/${created.json.id}`)).json.providerConfig).toMatchObject({ issuer });

    const unreachable = await create({
      providerName: 'OIDC',
      connectorName: 'Nowhere',
      config: { issuer: 'http://127.0.0.1:9/oidc', clientId: 'c', clientSecret: 's' },
    });
    expect(unreachable.status, JSON.stringify(unreachable.json)).toBe(400);
    expect(unreachable.json.code).toMatch(/^connector\./);
  });
});

describe('organizations and users', () => {
  it('links connectors to an organization for JIT and provisions their users with the JIT roles', async () => {
    const connector = String((await create({ providerName: 'SAML', connectorName: 'JIT connector' })).json.id);
    const organization = String((await call('/organizations', { method: 'POST', body: { name: 'Acme' } })).json.id);
    const path = `/organizations/${organization}/jit/sso-connectors`;

    expect((await call(path, { method: 'POST', body: { ssoConnectorIds: [connector] } })).status).toBe(201);
    const listed = await call(path);
    expect(listed.status).toBe(200);
    expect(listed.json.map((row: Json) => row.id)).toEqual([connector]);
    expect(listed.headers.get('Total-Number')).toBeNull();
    expect((await call(`${path}?page=1`)).headers.get('Total-Number')).toBe('1');
    const unknown = await call(path, { method: 'POST', body: { ssoConnectorIds: ['no-such-connector'] } });
    expectError(unknown, 422, 'entity.relation_foreign_key_not_found');
    expect(unknown.json.data).toEqual({ ids: ['no-such-connector'] });
    expectError(await call('/organizations/no-such-org/jit/sso-connectors'), 404, 'entity.not_exists_with_id');
    expect(await organizationsForSsoConnector(own(), connector)).toEqual([organization]);

    const role = String(
      (await call('/organization-roles', { method: 'POST', body: { name: 'sso-member', type: 'User' } })).json.id,
    );
    await call(`/organizations/${organization}/jit/roles`, { method: 'POST', body: { organizationRoleIds: [role] } });
    const user = String((await call('/users', { method: 'POST', body: { username: 'sso_jit_user' } })).json.id);
    const provisioned = await own().transaction((tx) => provisionBySsoConnector(tx, user, connector));
    expect(provisioned.organizationIds).toEqual([organization]);
    const members = await call(`/organizations/${organization}/users`);
    expect(members.json).toEqual([
      expect.objectContaining({ id: user, organizationRoles: [expect.objectContaining({ id: role })] }),
    ]);

    expect((await call(path, { method: 'PUT', body: { ssoConnectorIds: [] } })).status).toBe(204);
    expect((await call(path)).json).toEqual([]);
    await call(path, { method: 'POST', body: { ssoConnectorIds: [connector] } });
    expect((await call(`${path}/${connector}`, { method: 'DELETE' })).status).toBe(204);
    expectError(await call(`${path}/${connector}`, { method: 'DELETE' }), 404, 'entity.not_found');
  });

  it("answers a user's SSO identities: none, then the one sign-in linked", async () => {
    const user = String((await call('/users', { method: 'POST', body: { username: 'sso_identity_user' } })).json.id);
    const connector = String(
      (await create({ providerName: 'OIDC', connectorName: 'Identity connector', domains: ['identity.example'] })).json
        .id,
    );
    expect((await call(`/users/${user}?includeSsoIdentities=true`)).json.ssoIdentities).toEqual([]);
    expect((await call(`/users/${user}`)).json.ssoIdentities).toBeUndefined();
    expect((await call(`/users/${user}/all-identities`)).json).toEqual({ socialIdentities: [], ssoIdentities: [] });
    expectError(
      await call(`/users/${user}/sso-identities/${connector}`),
      404,
      'user.enterprise_sso_identity_not_exists',
    );
    expectError(await call('/users/no-such-user/all-identities'), 404, 'entity.not_found');

    // What the sign-in pages write when the user signs in through the connector.
    await own().insert(userSsoIdentities, {
      id: 'identity-1',
      userId: user,
      ssoConnectorId: connector,
      issuer: 'https://idp.identity.example',
      identityId: 'subject-1',
      detail: { email: 'someone@identity.example' },
    });
    const identity = expect.objectContaining({ userId: user, ssoConnectorId: connector, identityId: 'subject-1' });
    expect((await call(`/users/${user}?includeSsoIdentities=1`)).json.ssoIdentities).toEqual([identity]);
    expect((await call(`/users/${user}/all-identities`)).json.ssoIdentities).toEqual([
      { ssoConnectorId: connector, ssoIdentity: identity },
    ]);
    expect((await call(`/users/${user}/sso-identities/${connector}`)).json).toEqual({ ssoIdentity: identity });
  });

  it('gives the sign-in pages the full config, the connectors of an email domain and all connectors', async () => {
    const created = await create({
      providerName: 'OIDC',
      connectorName: 'Sign-in reads',
      config: { clientId: 'reader', clientSecret: 'clear-secret' },
      domains: ['reads.example', 'other.example'],
    });
    const id = String(created.json.id);
    expect((await findSsoConnector(own(), id)).config.clientSecret).toBe('clear-secret');
    expect((await ssoConnectorsForEmailDomain(own(), 'Reads.Example')).map((row) => row.id)).toEqual([id]);
    expect(await ssoConnectorsForEmailDomain(own(), 'reads.example.com')).toEqual([]);
    expect((await listSsoConnectorsForSignIn(own())).map((row) => row.id)).toContain(id);
    expect(
      await ssoConnectorsForEmailDomain(new TenantDb(server.database.db, ADMIN_TENANT_ID), 'reads.example'),
    ).toEqual([]);
  });
});

describe('quota (cloud)', () => {
  it('a plan without enterprise SSO refuses a new connector with 403 subscription.quota_exceeded', async () => {
    const now = new Date();
    await server.database.db.insert(tenantSubscriptions).values({
      tenantId: DEFAULT_TENANT_ID,
      planId: 'Free',
      currentPeriodStart: now,
      currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000),
    });
    try {
      const refused = await create({ providerName: 'OIDC', connectorName: 'Over the plan' });
      expectError(refused, 403, 'subscription.quota_exceeded');
      expect(refused.json.data.quota.enterpriseSsoLimit).toMatchObject({ limit: 0 });
    } finally {
      await server.database.db.delete(tenantSubscriptions).where(eq(tenantSubscriptions.tenantId, DEFAULT_TENANT_ID));
    }
  });
});

describe('IdP-initiated sign-in settings', () => {
  const path = (id: string) => `/sso-connectors/${id}/idp-initiated-auth-config`;
  const subscribe = (planId: string) => {
    const now = new Date();
    return server.database.db.insert(tenantSubscriptions).values({
      tenantId: DEFAULT_TENANT_ID,
      planId,
      currentPeriodStart: now,
      currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000),
    });
  };
  const unsubscribe = () =>
    server.database.db.delete(tenantSubscriptions).where(eq(tenantSubscriptions.tenantId, DEFAULT_TENANT_ID));
  const application = async (body: Record<string, unknown>) => {
    const created = await call('/applications', { method: 'POST', body });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    return String(created.json.id);
  };

  it('sets, reads, refuses bad settings, audits and turns off (on a plan that has it)', async () => {
    const saml = String((await create({ providerName: 'SAML', connectorName: 'IdP-initiated SAML' })).json.id);
    const oidc = String((await create({ providerName: 'OIDC', connectorName: 'IdP-initiated OIDC' })).json.id);
    const portal = await application({
      name: 'Portal',
      type: 'Traditional',
      oidcClientMetadata: { redirectUris: ['https://portal.example.com/callback'] },
    });
    const machine = await application({ name: 'Machine', type: 'MachineToMachine' });
    const good = {
      defaultApplicationId: portal,
      redirectUri: 'https://portal.example.com/callback',
      authParameters: { scope: 'openid profile email' },
      autoSendAuthorizationRequest: false,
      clientIdpInitiatedAuthCallbackUri: 'https://portal.example.com/sso-start',
    };

    // The default tenant is on the Development plan, which leaves IdP-initiated SSO out.
    const offPlan = await call(path(saml), { method: 'PUT', body: good });
    expectError(offPlan, 403, 'subscription.quota_exceeded');
    expect(offPlan.json.data.quota.idpInitiatedSsoEnabled).toMatchObject({ limit: false });

    await subscribe('Pro202411');
    try {
      expectError(await call(path(saml)), 404, 'entity.not_exists_with_id');
      const saved = await call(path(saml), { method: 'PUT', body: good });
      expect(saved.status, JSON.stringify(saved.json)).toBe(200);
      expect(saved.json).toMatchObject({
        tenantId: DEFAULT_TENANT_ID,
        connectorId: saml,
        defaultApplicationId: portal,
        redirectUri: 'https://portal.example.com/callback',
        authParameters: { scope: 'openid profile email' },
        autoSendAuthorizationRequest: false,
        clientIdpInitiatedAuthCallbackUri: 'https://portal.example.com/sso-start',
      });
      expect((await call(path(saml))).json).toEqual(saved.json);
      // A change without a redirect URI; http is fine for localhost only.
      const changed = await call(path(saml), {
        method: 'PUT',
        body: { defaultApplicationId: portal, clientIdpInitiatedAuthCallbackUri: 'http://localhost:3000/sso' },
      });
      expect(changed.status, JSON.stringify(changed.json)).toBe(200);
      expect(changed.json).toMatchObject({ redirectUri: null, authParameters: {}, createdAt: saved.json.createdAt });

      const refusals: [string, unknown, number, string, string?][] = [
        [oidc, good, 400, 'single_sign_on.idp_initiated_authentication_not_supported'],
        [
          saml,
          { ...good, defaultApplicationId: machine },
          400,
          'single_sign_on.idp_initiated_authentication_invalid_application_type',
        ],
        [
          saml,
          { ...good, redirectUri: 'https://evil.example.com/callback' },
          400,
          'single_sign_on.idp_initiated_authentication_redirect_uri_not_registered',
        ],
        [
          saml,
          { ...good, autoSendAuthorizationRequest: true },
          400,
          'single_sign_on.idp_initiated_authentication_auto_send_not_supported',
        ],
        [
          saml,
          { ...good, authParameters: { client_id: 'other' } },
          400,
          'guard.invalid_input',
          'authParameters.client_id',
        ],
        [saml, { ...good, authParameters: { prompt: 'none' } }, 400, 'guard.invalid_input', 'authParameters.prompt'],
        [
          saml,
          { ...good, clientIdpInitiatedAuthCallbackUri: undefined },
          400,
          'guard.invalid_input',
          'clientIdpInitiatedAuthCallbackUri',
        ],
        [
          saml,
          { ...good, clientIdpInitiatedAuthCallbackUri: 'http://portal.example.com/sso' },
          400,
          'guard.invalid_input',
          'clientIdpInitiatedAuthCallbackUri',
        ],
        [saml, { ...good, defaultApplicationId: 'no-such-app' }, 422, 'entity.relation_foreign_key_not_found'],
        ['no-such-connector', good, 404, 'entity.not_exists_with_id'],
      ];
      for (const [id, body, status, code, field] of refusals) {
        const answer = await call(path(id), { method: 'PUT', body });
        expectError(answer, status, code);
        if (field) expect(answer.json.data.map((item: { path: string }) => item.path)).toContain(field);
      }
      expect((await call(path(saml))).json, 'refusals change nothing').toEqual(changed.json);

      // Another tenant sees none of it.
      const asAdmin = { tenantId: ADMIN_TENANT_ID };
      expectError(await call(path(saml), asAdmin), 404, 'entity.not_exists_with_id');
      expectError(await call(path(saml), { ...asAdmin, method: 'PUT', body: good }), 404, 'entity.not_exists_with_id');
      expectError(await call(path(saml), { ...asAdmin, method: 'DELETE' }), 404, 'entity.not_exists_with_id');

      expect((await call(path(saml), { method: 'DELETE' })).status).toBe(204);
      expectError(await call(path(saml)), 404, 'entity.not_exists_with_id');
      expectError(await call(path(saml), { method: 'DELETE' }), 404, 'entity.not_exists_with_id');

      const entries = await own().findMany(logs, { orderBy: [desc(logs.createdAt)] });
      const mine = entries.filter(
        (row) =>
          (row.payload.entity as { id?: string } | undefined)?.id === saml && row.key === 'Admin.SsoConnector.Updated',
      );
      expect(mine).toHaveLength(3);
      const [turnedOff] = mine;
      expect(turnedOff?.payload).toMatchObject({
        before: { idpInitiatedAuthConfig: { defaultApplicationId: portal } },
        after: { idpInitiatedAuthConfig: null },
      });

      // Deleting the connector deletes its settings.
      expect((await call(path(saml), { method: 'PUT', body: good })).status).toBe(200);
      expect((await call(`/sso-connectors/${saml}`, { method: 'DELETE' })).status).toBe(204);
      expect(
        await own().findMany(tenantConfigs, { where: eq(tenantConfigs.key, `sso_idp_initiated_auth:${saml}`) }),
      ).toEqual([]);
    } finally {
      await unsubscribe();
    }
  });
});

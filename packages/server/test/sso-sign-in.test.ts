import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { ADMIN_TENANT_ID, DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { desc, eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignedXml } from 'xml-crypto';
import {
  applications,
  logs,
  organizationJitRoles,
  organizationJitSsoConnectors,
  organizationUserRoles,
  organizationUsers,
  ssoConnectors,
  userSsoIdentities,
  users,
} from '../src/db/tables.ts';
import { TenantDb, TenantDbs } from '../src/db/tenant-db.ts';
import { createApplication } from '../src/services/applications.ts';
import { createFirstConsoleAdmin } from '../src/services/console-admin.ts';
import { generateSamlCertificate } from '../src/services/saml-certificates.ts';
import { serviceProviderOf, ssoCallbackUrl } from '../src/services/sso/idp.ts';
import { createUser } from '../src/services/users.ts';
import { bootstrapManagementToken, startTestHttpServer } from './support/http-server.ts';
import { nextHop } from './support/next-hop.ts';

/**
 * Enterprise SSO at sign-in, with real identity providers: another Gatehouse issuer (the admin tenant's) as the OIDC
 * IdP, and a SAML IdP made here whose responses are signed with xml-crypto. Each flow starts at an application's
 * authorization request and ends with its tokens; the SAML attacks must each be refused with nothing created.
 */

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let token: string;
let rp: client.Configuration;
const rpRedirect = 'https://books.example.com/callback';
const OIDC_ID = 'acmeoidc';
const SAML_ID = 'globexsaml';
const SAML_IDP = 'https://idp.globex.test/entity';
let idpKey: string;
let idpCert: string;
let otherKey: string;
let organizationId: string;
let organizationRoleId: string;

type Json = Record<string, unknown>;
async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.base}/api${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
  return (text ? JSON.parse(text) : {}) as Json;
}

const tenant = () => new TenantDb(server.database.db, DEFAULT_TENANT_ID);
const admin = () => new TenantDb(server.database.db, ADMIN_TENANT_ID);

beforeAll(async () => {
  server = await startTestHttpServer();
  token = await bootstrapManagementToken(server);
  const system = { tenant: admin(), actor: { type: 'system' as const, id: 'test' } };
  // The OIDC IdP: the admin tenant's issuer, with a web application whose redirect URI is our SSO callback.
  await createFirstConsoleAdmin(new TenantDbs(server.database.db), {
    username: 'idp_owner',
    password: 'Owner-Pass-77',
  });
  const idpApp = await createApplication(
    system,
    { edition: 'oss' },
    {
      name: 'Default tenant SSO',
      type: 'Traditional',
      oidcClientMetadata: { redirectUris: [ssoCallbackUrl(server.base, DEFAULT_TENANT_ID, OIDC_ID)] },
    },
  );
  const [idpRow] = await admin().findMany(applications, { where: eq(applications.id, idpApp.id) });
  for (const [username, email] of [
    ['ann', 'ann@acme.test'],
    ['bob', 'bob@acme.test'],
    ['zed', 'zed@elsewhere.test'],
  ] as const) {
    await createUser(system, { username, primaryEmail: email, name: `${username} IdP`, password: 'Idp-Pass-2468' });
  }
  const generated = await generateSamlCertificate('Globex IdP', 1);
  idpKey = generated.privateKey;
  idpCert = generated.certificate;
  otherKey = (await generateSamlCertificate('Mallory', 1)).privateKey;

  // The connectors, as the management API would store them.
  await tenant().insert(ssoConnectors, {
    id: OIDC_ID,
    providerName: 'OIDC',
    connectorName: 'Acme',
    config: { issuer: `${server.base}/t/admin/oidc`, clientId: idpApp.id, clientSecret: idpRow?.secret },
    domains: ['acme.test'],
    branding: { displayName: 'Acme Workforce' },
    syncProfile: true,
  });
  await tenant().insert(ssoConnectors, {
    id: SAML_ID,
    providerName: 'SAML',
    connectorName: 'Globex',
    config: { entityId: SAML_IDP, signInEndpoint: 'https://idp.globex.test/sso', x509Certificate: idpCert },
    domains: ['globex.test'],
  });
  await api('PATCH', '/sign-in-exp', { singleSignOnEnabled: true });
  // An organization that takes the Acme connector's users in just in time, with a role.
  organizationId = String((await api('POST', '/organizations', { name: 'Acme Inc' })).id);
  organizationRoleId = String((await api('POST', '/organization-roles', { name: 'acme-member' })).id);
  await tenant().insert(organizationJitRoles, { organizationId, organizationRoleId });
  await tenant().insert(organizationJitSsoConnectors, { organizationId, ssoConnectorId: OIDC_ID });

  const app = await api('POST', '/applications', {
    name: 'Book Club',
    type: 'SPA',
    oidcClientMetadata: { redirectUris: [rpRedirect] },
  });
  rp = await client.discovery(new URL(`${server.base}/oidc`), String(app.id), undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
}, 60_000);

afterAll(() => server.close());

const absolute = (location: string) => new URL(location, server.base).toString();

/** A browser's cookie jar with paths: the IdP and the application's issuer are one origin here. */
class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const { pathname } = new URL(url);
    const matching = [...this.#cookies.values()]
      .filter(
        (cookie) =>
          pathname === cookie.path || pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
      )
      .sort((a, b) => b.path.length - a.path.length);
    const headers = new Headers(init.headers);
    if (matching.length) headers.set('Cookie', matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) || '/';
      const expired = attributes.some(
        (attribute) => /^max-age=0$/i.test(attribute) || /expires=Thu, 01 Jan 1970/i.test(attribute),
      );
      if (expired || value === '') this.#cookies.delete(`${name} ${path}`);
      else this.#cookies.set(`${name} ${path}`, { name, value, path });
    }
    return response;
  }
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});

/** Follows redirects until `stop` says the URL is the one wanted. */
async function follow(jar: CookieJar, response: Response, stop: (url: string) => boolean) {
  let current = response;
  for (let hops = 0; hops < 15; hops++) {
    const location = nextHop(current);
    if (!location) return { url: undefined, response: current };
    const next = absolute(location);
    if (stop(next)) return { url: next, response: current };
    current = await jar.fetch(next);
  }
  throw new Error('too many redirects');
}

/** The application's authorization request in a fresh browser: the interaction's sign-in page. */
async function openSignIn(extra: Record<string, string> = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp, {
    redirect_uri: rpRedirect,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  });
  const jar = new CookieJar();
  const page = absolute((await jar.fetch(url.href)).headers.get('Location') ?? '');
  return { jar, page, verifier, state };
}

/** The page's `Refresh` header target (one connector for the email), as a browser would go on. */
const refreshTarget = (response: Response) => {
  const refresh = response.headers.get('Refresh') ?? '';
  return absolute(/url=(.+)$/.exec(refresh)?.[1] ?? '');
};

/** Redeems the code the application got back. */
async function tokensAt(url: string | undefined, flow: { verifier: string; state: string }) {
  if (!url) return undefined;
  const tokens = await client.authorizationCodeGrant(rp, new URL(url), {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
  });
  return tokens.claims() as Json;
}

/** OIDC enterprise SSO: `first_screen=single_sign_on`, the work email, the IdP's sign-in as `username`. */
async function oidcSignIn(username: string, email: string) {
  const flow = await openSignIn({ first_screen: 'single_sign_on' });
  const screen = await (await flow.jar.fetch(flow.page)).text();
  expect(screen).toContain('name="email"');
  const chosen = await flow.jar.fetch(`${flow.page}/sso`, form({ email }));
  expect(chosen.status).toBe(200);
  const choice = await chosen.text();
  expect(choice).toContain('Continue with Acme Workforce');
  expect(choice, 'asked for, not enforced').not.toContain('Your organization signs in with single sign-on.');
  const atIdp = await follow(flow.jar, await flow.jar.fetch(refreshTarget(chosen)), (next) =>
    next.includes('/interaction/admin/'),
  );
  expect(atIdp.url).toBeTruthy();
  const login = await flow.jar.fetch(`${atIdp.url}/login`, form({ identifier: username, password: 'Idp-Pass-2468' }));
  const back = await follow(flow.jar, login, (next) => next.startsWith(rpRedirect));
  return { claims: await tokensAt(back.url, flow), page: back.response };
}

const identitiesOf = (connectorId: string) =>
  tenant().findMany(userSsoIdentities, { where: eq(userSsoIdentities.ssoConnectorId, connectorId) });
const userCount = async () => (await tenant().findMany(users)).length;

describe('enterprise SSO with an OpenID Connect IdP', () => {
  it('creates the user with the SSO identity, joins the JIT organization, and finds the same user again', async () => {
    const first = await oidcSignIn('ann', 'ann@acme.test');
    expect(first.claims).toMatchObject({ email: 'ann@acme.test', email_verified: true });
    const userId = String(first.claims?.sub);
    const idpUser = await admin().findOne(users, eq(users.username, 'ann'));
    expect(await identitiesOf(OIDC_ID)).toEqual([
      expect.objectContaining({ userId, issuer: `${server.base}/t/admin/oidc`, identityId: idpUser?.id }),
    ]);
    expect(await tenant().findMany(organizationUsers, { where: eq(organizationUsers.userId, userId) })).toEqual([
      expect.objectContaining({ organizationId }),
    ]);
    expect(await tenant().findMany(organizationUserRoles, { where: eq(organizationUserRoles.userId, userId) })).toEqual(
      [expect.objectContaining({ organizationRoleId })],
    );
    const [registered] = await tenant().findMany(logs, {
      where: sql`${logs.key} = 'Interaction.Register.Submit' and ${logs.payload}->'entity'->>'id' = ${userId}`,
    });
    expect(registered?.payload).toMatchObject({ after: { method: 'SingleSignOn', ssoConnectorId: OIDC_ID } });

    expect(first.claims?.name).toBe('ann IdP');
    // syncProfile: the IdP's new name comes along at the next sign-in.
    await admin().update(users, eq(users.username, 'ann'), { name: 'Ann Renamed' });
    const second = await oidcSignIn('ann', 'ann@acme.test');
    expect(second.claims?.sub).toBe(userId);
    expect(second.claims?.name).toBe('Ann Renamed');
    expect(await identitiesOf(OIDC_ID)).toHaveLength(1);
    const signIns = await tenant().findMany(logs, {
      where: sql`${logs.key} = 'Interaction.SignIn.Submit' and ${logs.userId} = ${userId}`,
    });
    expect(signIns.map((entry) => entry.payload)).toEqual([
      expect.objectContaining({ result: 'Success', method: 'SingleSignOn', ssoConnectorId: OIDC_ID }),
    ]);
  });

  it('links an existing account with the same email', async () => {
    const existing = await api('POST', '/users', { username: 'bob_here', primaryEmail: 'bob@acme.test' });
    const result = await oidcSignIn('bob', 'bob@acme.test');
    expect(result.claims?.sub, 'the existing account, not a new one').toBe(existing.id);
    expect((await identitiesOf(OIDC_ID)).map((identity) => identity.userId)).toContain(existing.id);
  });

  it('refuses an IdP account whose email is outside the connector domains, creating nothing', async () => {
    const before = await userCount();
    const result = await oidcSignIn('zed', 'ann@acme.test');
    expect(result.claims).toBeUndefined();
    expect(result.page.status).toBe(403);
    const text = await result.page.text();
    expect(text).toContain('did not share an email address of your organization');
    expect(text).toContain('Back to sign in');
    expect(await userCount()).toBe(before);
  });

  it('refuses a callback that is not the answer to our request, with a way back, audited', async () => {
    const flow = await openSignIn();
    expect((await flow.jar.fetch(`${flow.page}/sso/${OIDC_ID}`)).status).toBe(303);
    const callback = await flow.jar.fetch(`${ssoCallbackUrl(server.base, 'default', OIDC_ID)}?code=forged&state=wrong`);
    const complete = await flow.jar.fetch(absolute(nextHop(callback) ?? ''));
    expect(complete.status).toBe(400);
    const text = await complete.text();
    expect(text).toContain('Signing in with Acme Workforce did not work');
    expect(text).toContain(`href="${new URL(flow.page).pathname}"`);
    const [failure] = await tenant().findMany(logs, {
      where: sql`${logs.payload}->>'ssoConnectorId' = ${OIDC_ID} and ${logs.payload}->>'result' = 'Error'`,
      orderBy: [desc(logs.createdAt)],
      limit: 1,
    });
    expect(failure?.payload).toMatchObject({ method: 'SingleSignOn', result: 'Error', error: expect.any(String) });
    // Without the cookie the callback leads nowhere.
    expect((await fetch(`${ssoCallbackUrl(server.base, 'default', OIDC_ID)}?code=a&state=b`)).status).toBe(400);
  });

  it('answers the connectors in the public sign-in experience, never their config', async () => {
    const response = await fetch(`${server.base}/api/.well-known/sign-in-exp`);
    const body = (await response.json()) as { ssoConnectors: Json[] };
    expect(body.ssoConnectors).toEqual([
      { id: OIDC_ID, connectorName: 'Acme Workforce', logo: '' },
      { id: SAML_ID, connectorName: 'Globex', logo: '' },
    ]);
    expect(JSON.stringify(body)).not.toContain('clientSecret');
  });
});

describe('where enterprise SSO starts', () => {
  it('shows the SSO link, says when no connector has the domain, and sends SSO domains from password and sign-up', async () => {
    const flow = await openSignIn();
    const page = await (await flow.jar.fetch(flow.page)).text();
    expect(page).toContain(`href="/interaction/default/${flow.page.split('/').pop()}?screen=single_sign_on"`);
    const none = await flow.jar.fetch(`${flow.page}/sso`, form({ email: 'someone@nowhere.test' }));
    expect(none.status).toBe(404);
    expect(await none.text()).toContain('Single sign-on is not set up for this email domain');

    // A password typed for an SSO-domain address is never checked: the user is sent to the IdP.
    const failures = await tenant().count(logs, sql`${logs.payload}->>'identifier' = 'ann@acme.test'`);
    const login = await flow.jar.fetch(`${flow.page}/login`, form({ identifier: 'ANN@acme.test', password: 'x' }));
    expect(login.status).toBe(200);
    expect(refreshTarget(login)).toBe(`${flow.page}/sso/${OIDC_ID}`);
    expect(await login.text()).toContain('Your organization signs in with single sign-on.');
    expect(await tenant().count(logs, sql`${logs.payload}->>'identifier' = 'ann@acme.test'`)).toBe(failures);
    // Nor is one needed to get there: the combined form without a password goes to the IdP (issue 37 item 7).
    const noPassword = await flow.jar.fetch(`${flow.page}/login`, form({ identifier: 'ann@acme.test', password: '' }));
    expect(noPassword.status).toBe(200);
    expect(refreshTarget(noPassword)).toBe(`${flow.page}/sso/${OIDC_ID}`);
    // Another address without a password is still asked for one.
    const other = await flow.jar.fetch(`${flow.page}/login`, form({ identifier: 'ann@elsewhere.test', password: '' }));
    expect(other.status).toBe(400);

    const register = await flow.jar.fetch(
      `${flow.page}/register`,
      form({
        username: 'newbie',
        email: 'newbie@globex.test',
        password: 'Long-Pass-1357',
        password_confirm: 'Long-Pass-1357',
      }),
    );
    // Sign-up says why it leaves for the IdP and waits for the user to continue (issue 37 item 7).
    expect(register.headers.get('Refresh'), 'not sent away without a word').toBeNull();
    const registerPage = await register.text();
    expect(registerPage).toContain('Your organization signs in with single sign-on.');
    expect(registerPage).toContain(`href="${new URL(flow.page).pathname}/sso/${SAML_ID}"`);
    expect(await tenant().findOne(users, eq(users.username, 'newbie'))).toBeUndefined();
  });
});

// ——— SAML ———

const ACS = () => ssoCallbackUrl(server.base, DEFAULT_TENANT_ID, SAML_ID);
const SP = () => serviceProviderOf(server.base, DEFAULT_TENANT_ID, SAML_ID).entityId;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

type AssertionOptions = {
  inResponseTo: string;
  nameId?: string;
  email?: string;
  audience?: string;
  notOnOrAfterMs?: number;
  id?: string;
};

function assertionXml(options: AssertionOptions) {
  const end = iso(options.notOnOrAfterMs ?? 5 * 60_000);
  return `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${options.id ?? `_a${randomBytes(8).toString('hex')}`}" Version="2.0" IssueInstant="${iso(-1000)}"><saml:Issuer>${SAML_IDP}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${options.nameId ?? 'globex-user-1'}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${options.inResponseTo}" NotOnOrAfter="${end}" Recipient="${ACS()}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${end}"><saml:AudienceRestriction><saml:Audience>${options.audience ?? SP()}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(-1000)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${options.email ?? 'gina@globex.test'}</saml:AttributeValue></saml:Attribute><saml:Attribute Name="name"><saml:AttributeValue>Gina Globex</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion>`;
}

/** The assertion signed (enveloped, exclusive c14n, RSA-SHA256) with `key`, as an IdP does. */
function signAssertion(xml: string, key: string) {
  const signer = new SignedXml({
    privateKey: key,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return signer.getSignedXml();
}

const responseXml = (inResponseTo: string, assertions: string) =>
  `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(0)}" Destination="${ACS()}" InResponseTo="${inResponseTo}"><saml:Issuer>${SAML_IDP}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${assertions}</samlp:Response>`;

/** Up to the IdP: the AuthnRequest (HTTP-Redirect: deflated, base64) read for its ID, and the RelayState. */
async function samlStart() {
  const flow = await openSignIn();
  const chosen = await flow.jar.fetch(`${flow.page}/sso`, form({ email: 'gina@globex.test' }));
  const toIdp = await flow.jar.fetch(refreshTarget(chosen));
  expect(toIdp.status).toBe(303);
  const location = new URL(toIdp.headers.get('Location') ?? '');
  expect(location.origin + location.pathname).toBe('https://idp.globex.test/sso');
  const request = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
  const requestId = /\sID="([^"]+)"/.exec(request)?.[1] ?? '';
  expect(request).toContain(`AssertionConsumerServiceURL="${ACS()}"`);
  const relayState = location.searchParams.get('RelayState') ?? '';
  expect(relayState.length, 'SAML bindings §3.4.3: at most 80 bytes').toBeLessThanOrEqual(80);
  return { ...flow, requestId, relayState };
}

/** A form POST on a connection of its own (a refused upload closes its connection; the pool's stay usable). */
function postOnItsOwnConnection(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      agent: false,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) },
    });
    request.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** The IdP's POST to our callback (a cross-site POST: no cookie), then the browser on to its interaction. */
async function samlFinish(flow: Awaited<ReturnType<typeof samlStart>>, xml: string, relayState = flow.relayState) {
  const posted = await fetch(ACS(), {
    ...form({ SAMLResponse: Buffer.from(xml).toString('base64'), RelayState: relayState }),
    redirect: 'manual',
  });
  // A page that goes on by itself (not a redirect, which the IdP page's form-action would govern, issue 37 item 2).
  if (posted.status !== 200 || !nextHop(posted)) return { claims: undefined, status: posted.status };
  // The checked answer travels sealed: the URL names no one.
  const sealed = new URL(nextHop(posted) ?? '', server.base).searchParams.get('saml') ?? '';
  expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('@globex.test');
  const back = await follow(flow.jar, posted, (next) => next.startsWith(rpRedirect));
  return { claims: await tokensAt(back.url, flow), status: back.response.status, page: back.response };
}

describe('enterprise SSO with a SAML IdP', () => {
  it('signs in with a signed assertion answering our AuthnRequest, and serves our SP metadata', async () => {
    const flow = await samlStart();
    const result = await samlFinish(
      flow,
      responseXml(flow.requestId, signAssertion(assertionXml({ inResponseTo: flow.requestId }), idpKey)),
    );
    expect(result.claims).toMatchObject({ email: 'gina@globex.test', name: 'Gina Globex' });
    expect(await identitiesOf(SAML_ID)).toEqual([
      expect.objectContaining({ userId: result.claims?.sub, issuer: SAML_IDP, identityId: 'globex-user-1' }),
    ]);
    const metadata = await fetch(`${server.base}/enterprise-sso/default/${SAML_ID}/saml-metadata`);
    expect(metadata.status).toBe(200);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${SP()}"`);
    expect(xml).toContain(`Location="${ACS()}"`);
    expect((await fetch(`${server.base}/enterprise-sso/default/${OIDC_ID}/saml-metadata`)).status).toBe(404);
  });

  it("asks for the tenant's MFA after the IdP when the user has an authenticator", async () => {
    const gina = await tenant().findOne(users, sql`${users.primaryEmail} = 'gina@globex.test'`);
    await api('POST', `/users/${gina?.id}/mfa-verifications`, { type: 'Totp' });
    const flow = await samlStart();
    const result = await samlFinish(
      flow,
      responseXml(flow.requestId, signAssertion(assertionXml({ inResponseTo: flow.requestId }), idpKey)),
    );
    expect(result.claims, 'no code without the second factor').toBeUndefined();
    expect(await result.page?.text()).toContain('Enter the 6-digit code from your authenticator app.');
  });

  it('refuses forged, stale, misdirected and replayed answers, creating nothing', async () => {
    const before = await userCount();
    const refusals: Record<string, (flow: Awaited<ReturnType<typeof samlStart>>) => string> = {
      unsigned: (flow) =>
        responseXml(
          flow.requestId,
          assertionXml({ inResponseTo: flow.requestId, nameId: 'x1', email: 'x1@globex.test' }),
        ),
      'wrong certificate': (flow) =>
        responseXml(
          flow.requestId,
          signAssertion(
            assertionXml({ inResponseTo: flow.requestId, nameId: 'x2', email: 'x2@globex.test' }),
            otherKey,
          ),
        ),
      'wrong audience': (flow) =>
        responseXml(
          flow.requestId,
          signAssertion(
            assertionXml({
              inResponseTo: flow.requestId,
              nameId: 'x3',
              email: 'x3@globex.test',
              audience: 'urn:other',
            }),
            idpKey,
          ),
        ),
      expired: (flow) =>
        responseXml(
          flow.requestId,
          signAssertion(
            assertionXml({
              inResponseTo: flow.requestId,
              nameId: 'x4',
              email: 'x4@globex.test',
              notOnOrAfterMs: -10 * 60_000,
            }),
            idpKey,
          ),
        ),
      'another request': () =>
        responseXml(
          '_other',
          signAssertion(assertionXml({ inResponseTo: '_other', nameId: 'x5', email: 'x5@globex.test' }), idpKey),
        ),
      // Signature wrapping: the signed assertion stays, an unsigned one naming someone else goes beside it.
      'wrapped assertion': (flow) =>
        responseXml(
          flow.requestId,
          assertionXml({ inResponseTo: flow.requestId, nameId: 'x6', email: 'x6@globex.test' }) +
            signAssertion(
              assertionXml({ inResponseTo: flow.requestId, nameId: 'x7', email: 'x7@globex.test' }),
              idpKey,
            ),
        ),
    };
    for (const [attack, build] of Object.entries(refusals)) {
      const flow = await samlStart();
      const result = await samlFinish(flow, build(flow));
      expect(result.claims, attack).toBeUndefined();
      expect(result.status, attack).toBe(400);
    }

    // A good answer with its RelayState tampered with, or carried to another browser's interaction.
    const flow = await samlStart();
    const good = responseXml(
      flow.requestId,
      signAssertion(assertionXml({ inResponseTo: flow.requestId, nameId: 'x8', email: 'x8@globex.test' }), idpKey),
    );
    const [uid, exp, mac] = flow.relayState.split('.');
    expect(
      (await samlFinish(flow, good, [uid, (Number.parseInt(exp ?? '', 36) + 600).toString(36), mac].join('.'))).status,
    ).toBe(400);
    const stranger = await samlStart();
    const elsewhere = await samlFinish(stranger, good, flow.relayState);
    expect(elsewhere.claims, 'another browser').toBeUndefined();
    expect(elsewhere.status).toBe(400);
    // The same good answer, replayed once it has been used, finds its interaction gone.
    const used = await samlFinish(flow, good);
    expect(used.claims).toMatchObject({ email: 'x8@globex.test' });
    const replayed = await samlFinish(flow, good);
    expect(replayed.claims).toBeUndefined();
    expect(await postOnItsOwnConnection(ACS(), `SAMLResponse=${'A'.repeat(600 * 1024)}`), 'a huge body').toBe(413);
    expect(await userCount()).toBe(before + 1);
    const failed = await tenant().findMany(logs, {
      where: sql`${logs.payload}->>'ssoConnectorId' = ${SAML_ID} and ${logs.payload}->>'result' = 'Error'`,
    });
    expect(failed.length).toBeGreaterThanOrEqual(Object.keys(refusals).length);
  });
});

describe('a SAML IdP that takes the POST binding only', () => {
  it('shows a form to the IdP with the AuthnRequest and RelayState, which the page CSP lets through', async () => {
    const metadata = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.initech.test"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${idpCert.replace(/-----[A-Z ]+-----|\s/g, '')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor><md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.initech.test/sso/post"/></md:IDPSSODescriptor></md:EntityDescriptor>`;
    await tenant().insert(ssoConnectors, {
      id: 'initech',
      providerName: 'SAML',
      connectorName: 'Initech',
      config: { metadata },
      domains: ['initech.test'],
    });
    const flow = await openSignIn();
    const chosen = await flow.jar.fetch(`${flow.page}/sso`, form({ email: 'peter@initech.test' }));
    const start = await flow.jar.fetch(refreshTarget(chosen));
    expect(start.status).toBe(200);
    expect(start.headers.get('Content-Security-Policy')).toContain('https://idp.initech.test');
    const page = await start.text();
    expect(page).toContain('<form method="post" action="https://idp.initech.test/sso/post">');
    const request = Buffer.from(/name="SAMLRequest" value="([^"]+)"/.exec(page)?.[1] ?? '', 'base64').toString();
    expect(request).toContain('Destination="https://idp.initech.test/sso/post"');
    expect(page).toMatch(/name="RelayState" value="[^"]{20,80}"/);
  });
});

describe('several connectors for one domain', () => {
  it('lists them to choose from; direct_sign_in=sso:{id} goes straight to one', async () => {
    await tenant().insert(ssoConnectors, {
      id: 'acmebackup',
      providerName: 'OIDC',
      connectorName: 'Acme backup',
      config: {},
      domains: ['acme.test'],
      branding: { logo: 'https://cdn.acme.test/logo.png' },
    });
    const flow = await openSignIn();
    const chosen = await flow.jar.fetch(`${flow.page}/sso`, form({ email: 'ann@acme.test' }));
    expect(chosen.headers.get('Refresh')).toBeNull();
    const page = await chosen.text();
    expect(page).toContain(`href="${new URL(flow.page).pathname}/sso/${OIDC_ID}"`);
    expect(page).toContain('<img src="https://cdn.acme.test/logo.png" alt=""><span>Continue with Acme backup</span>');

    const direct = await openSignIn({ direct_sign_in: `sso:${OIDC_ID}` });
    const toStart = await direct.jar.fetch(direct.page);
    expect(toStart.status).toBe(303);
    expect(absolute(toStart.headers.get('Location') ?? '')).toBe(`${direct.page}/sso/${OIDC_ID}`);
  });
});

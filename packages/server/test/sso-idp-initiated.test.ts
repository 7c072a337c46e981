import { randomBytes } from 'node:crypto';
import { DEFAULT_TENANT_ID } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignedXml } from 'xml-crypto';
import { applications, logs, ssoConnectors, userSsoIdentities, users } from '../src/db/tables.ts';
import { TenantDb } from '../src/db/tenant-db.ts';
import { generateSamlCertificate } from '../src/services/saml-certificates.ts';
import { serviceProviderOf, ssoCallbackUrl } from '../src/services/sso/idp.ts';
import { bootstrapManagementToken, startTestHttpServer } from './support/http-server.ts';
import { nextHop } from './support/next-hop.ts';

/**
 * IdP-initiated SAML sign-in end to end over HTTP: a SAML IdP made here (responses signed with xml-crypto) posts an
 * unsolicited Response to the connector's callback; the browser goes on to the application's IdP-initiated callback,
 * the application starts its own sign-in (PKCE), and that interaction signs the user in with the checked answer. Each
 * attack on the answer must be refused, audited, and sign no one in.
 */

let server: Awaited<ReturnType<typeof startTestHttpServer>>;
let token: string;
let portal: client.Configuration;
let other: client.Configuration;
let portalId: string;
let idpKey: string;
const PORTAL_REDIRECT = 'https://portal.example.com/callback';
const PORTAL_START = 'https://portal.example.com/sso-start';
const OTHER_REDIRECT = 'https://other.example.com/callback';
const SAML_ID = 'globexidp';
const BARE_ID = 'initechidp';
const SAML_IDP = 'https://idp.globex.test/entity';

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

/** A relying party for an application of the tenant, authenticating with its secret when it has one. */
async function relyingParty(id: string, secret?: string) {
  return client.discovery(
    new URL(`${server.base}/oidc`),
    id,
    secret ? { client_secret: secret } : undefined,
    secret ? client.ClientSecretBasic(secret) : client.None(),
    { execute: [client.allowInsecureRequests] },
  );
}

beforeAll(async () => {
  server = await startTestHttpServer();
  token = await bootstrapManagementToken(server);
  const generated = await generateSamlCertificate('Globex IdP', 1);
  idpKey = generated.privateKey;
  for (const [id, name, domains] of [
    [SAML_ID, 'Globex', ['globex.test']],
    [BARE_ID, 'Initech', ['initech.test']],
  ] as const) {
    await tenant().insert(ssoConnectors, {
      id,
      providerName: 'SAML',
      connectorName: name,
      config: {
        entityId: SAML_IDP,
        signInEndpoint: 'https://idp.globex.test/sso',
        x509Certificate: generated.certificate,
      },
      domains: [...domains],
    });
  }
  await api('PATCH', '/sign-in-exp', { singleSignOnEnabled: true });
  portalId = String(
    (
      await api('POST', '/applications', {
        name: 'Portal',
        type: 'Traditional',
        oidcClientMetadata: { redirectUris: [PORTAL_REDIRECT] },
      })
    ).id,
  );
  const [row] = await tenant().findMany(applications, { where: eq(applications.id, portalId) });
  portal = await relyingParty(portalId, row?.secret);
  const otherId = String(
    (
      await api('POST', '/applications', {
        name: 'Other',
        type: 'SPA',
        oidcClientMetadata: { redirectUris: [OTHER_REDIRECT] },
      })
    ).id,
  );
  other = await relyingParty(otherId);
  await api('PUT', `/sso-connectors/${SAML_ID}/idp-initiated-auth-config`, {
    defaultApplicationId: portalId,
    redirectUri: PORTAL_REDIRECT,
    authParameters: { scope: 'openid profile email' },
    clientIdpInitiatedAuthCallbackUri: PORTAL_START,
  });
}, 60_000);

afterAll(() => server.close());

const absolute = (location: string) => new URL(location, server.base).toString();

/** A browser's cookie jar with paths. */
class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string; attributes: string[] }>();

  get(name: string) {
    return [...this.#cookies.values()].find((cookie) => cookie.name === name);
  }

  set(name: string, value: string, path: string) {
    this.#cookies.set(`${name} ${path}`, { name, value, path, attributes: [] });
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const { pathname } = new URL(url);
    const matching = [...this.#cookies.values()].filter(
      (cookie) =>
        pathname === cookie.path || pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`),
    );
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
      else this.#cookies.set(`${name} ${path}`, { name, value, path, attributes });
    }
    return response;
  }
}

// ——— The IdP ———

const ACS = (connectorId = SAML_ID) => ssoCallbackUrl(server.base, DEFAULT_TENANT_ID, connectorId);
const SP = (connectorId = SAML_ID) => serviceProviderOf(server.base, DEFAULT_TENANT_ID, connectorId).entityId;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

type AssertionOptions = {
  connectorId?: string;
  inResponseTo?: string;
  nameId?: string;
  email?: string;
  audience?: string;
  notOnOrAfterMs?: number;
};

function assertionXml(options: AssertionOptions = {}) {
  const end = iso(options.notOnOrAfterMs ?? 5 * 60_000);
  const inResponseTo = options.inResponseTo ? ` InResponseTo="${options.inResponseTo}"` : '';
  return `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_a${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(-1000)}"><saml:Issuer>${SAML_IDP}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${options.nameId ?? 'gina-1'}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${end}" Recipient="${ACS(options.connectorId)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(-60_000)}" NotOnOrAfter="${end}"><saml:AudienceRestriction><saml:Audience>${options.audience ?? SP(options.connectorId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(-1000)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${options.email ?? 'gina@globex.test'}</saml:AttributeValue></saml:Attribute><saml:Attribute Name="name"><saml:AttributeValue>Gina Globex</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion>`;
}

/** The assertion signed (enveloped, exclusive c14n, RSA-SHA256), as an IdP does. */
function signAssertion(xml: string) {
  const signer = new SignedXml({
    privateKey: idpKey,
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

/** An unsolicited Response (no InResponseTo unless asked) around a signed assertion. */
function unsolicited(options: AssertionOptions = {}, responseInResponseTo?: string) {
  const inResponseTo = responseInResponseTo ? ` InResponseTo="${responseInResponseTo}"` : '';
  const response = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(8).toString('hex')}" Version="2.0" IssueInstant="${iso(0)}" Destination="${ACS(options.connectorId)}"${inResponseTo}><saml:Issuer>${SAML_IDP}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>${signAssertion(assertionXml(options))}</samlp:Response>`;
  return Buffer.from(response).toString('base64');
}

/** The IdP's page posts the Response to our callback in the user's browser (a cross-site POST). */
function postToAcs(jar: CookieJar, samlResponse: string, connectorId = SAML_ID, relayState?: string) {
  const fields: Record<string, string> = { SAMLResponse: samlResponse };
  if (relayState !== undefined) fields.RelayState = relayState;
  return jar.fetch(ACS(connectorId), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

// ——— The application ———

/** The application's own sign-in, started at its IdP-initiated callback: authorization code + PKCE + state. */
async function appSignIn(jar: CookieJar, rp: client.Configuration, redirectUri: string, extra: Json = {}) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(rp, {
    redirect_uri: redirectUri,
    scope: 'openid profile email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...(extra as Record<string, string>),
  });
  let response = await jar.fetch(url.href);
  for (let hops = 0; hops < 15; hops++) {
    const location = nextHop(response);
    if (!location) return { claims: undefined, page: response };
    const next = absolute(location);
    // Off to an identity provider: this sign-in goes on elsewhere.
    if (!next.startsWith(server.base) && !next.startsWith(redirectUri))
      return { claims: undefined, page: response, url: next };
    if (next.startsWith(redirectUri)) {
      const tokens = await client.authorizationCodeGrant(rp, new URL(next), {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      return { claims: tokens.claims() as Json, page: response };
    }
    response = await jar.fetch(next);
  }
  throw new Error('too many redirects');
}

const failuresOf = (connectorId: string) =>
  tenant().findMany(logs, {
    where: sql`${logs.key} = 'Interaction.SignIn.Submit' and ${logs.payload}->>'ssoConnectorId' = ${connectorId} and ${logs.payload}->>'result' = 'Error'`,
  });
const userCount = async () => (await tenant().findMany(users)).length;

describe('IdP-initiated SAML sign-in', () => {
  it("signs the user in to the default application through the application's own sign-in, once", async () => {
    const jar = new CookieJar();
    const posted = await postToAcs(jar, unsolicited());
    expect(posted.status, await posted.clone().text()).toBe(200);
    // On to the application's IdP-initiated callback, by a page of our own.
    // The admin's extra parameters go along, for the application's own request.
    expect(nextHop(posted)).toBe(`${PORTAL_START}?scope=openid+profile+email&ssoConnectorId=${SAML_ID}`);
    const cookie = jar.get('gatehouse_sso_idp');
    expect(cookie?.path).toBe(`/interaction/${DEFAULT_TENANT_ID}`);
    expect(cookie?.attributes.map((attribute) => attribute.toLowerCase())).toEqual(
      expect.arrayContaining(['httponly', 'samesite=lax']),
    );
    // The cookie names a ticket; the profile is not in it.
    expect(Buffer.from(cookie?.value ?? '', 'base64url').toString('latin1')).not.toContain('globex.test');

    const signedIn = await appSignIn(jar, portal, PORTAL_REDIRECT, { direct_sign_in: `sso:${SAML_ID}` });
    expect(signedIn.claims).toMatchObject({ email: 'gina@globex.test', name: 'Gina Globex' });
    const userId = String(signedIn.claims?.sub);
    expect(
      await tenant().findMany(userSsoIdentities, { where: eq(userSsoIdentities.ssoConnectorId, SAML_ID) }),
    ).toEqual([expect.objectContaining({ userId, issuer: SAML_IDP, identityId: 'gina-1' })]);
    expect(jar.get('gatehouse_sso_idp'), 'the ticket is used up').toBeUndefined();
    // The cookie kept and sent again (another browser) finds its ticket gone.
    const thief = new CookieJar();
    thief.set('gatehouse_sso_idp', cookie?.value ?? '', `/interaction/${DEFAULT_TENANT_ID}`);
    const stolen = await appSignIn(thief, portal, PORTAL_REDIRECT);
    expect(stolen.claims).toBeUndefined();
    expect(await stolen.page.text()).toContain('name="identifier"');

    // Again, for an account that exists now: the same user (linked by the SSO identity), the sign-in audited.
    const again = new CookieJar();
    await postToAcs(again, unsolicited());
    const second = await appSignIn(again, portal, PORTAL_REDIRECT);
    expect(second.claims?.sub).toBe(userId);
    const [entry] = await tenant().findMany(logs, {
      where: sql`${logs.key} = 'Interaction.SignIn.Submit' and ${logs.userId} = ${userId} and ${logs.payload}->>'idpInitiated' = 'true'`,
    });
    expect(entry?.payload).toMatchObject({ result: 'Success', method: 'SingleSignOn', ssoConnectorId: SAML_ID });
  });

  it("leaves the ticket to the default application: another application's sign-in goes on as before", async () => {
    const jar = new CookieJar();
    await postToAcs(jar, unsolicited({ nameId: 'gina-2', email: 'gina2@globex.test' }));
    const elsewhere = await appSignIn(jar, other, OTHER_REDIRECT);
    expect(elsewhere.claims, 'no one signed in to the other application').toBeUndefined();
    expect(elsewhere.page.status).toBe(200);
    expect(await elsewhere.page.text()).toContain('name="identifier"');
    expect(jar.get('gatehouse_sso_idp'), 'kept for the default application').toBeDefined();
    // A sign-in of the default application asking for another connector does not take it either.
    const otherConnector = await appSignIn(jar, portal, PORTAL_REDIRECT, { direct_sign_in: `sso:${BARE_ID}` });
    expect(otherConnector.claims).toBeUndefined();
    expect(otherConnector.url, "straight to that connector's IdP").toMatch(/^https:\/\/idp\.globex\.test\/sso\?/);
    expect(jar.get('gatehouse_sso_idp')).toBeDefined();

    const mine = await appSignIn(jar, portal, PORTAL_REDIRECT);
    expect(mine.claims).toMatchObject({ email: 'gina2@globex.test' });
  });

  it('refuses a replayed, solicited, misaddressed or unexpected answer, audited, signing no one in', async () => {
    const before = await userCount();
    const failuresBefore = (await failuresOf(SAML_ID)).length;
    const used = unsolicited({ nameId: 'gina-3', email: 'gina3@globex.test' });
    const first = new CookieJar();
    expect((await postToAcs(first, used)).status).toBe(200);
    expect((await appSignIn(first, portal, PORTAL_REDIRECT)).claims).toMatchObject({ email: 'gina3@globex.test' });

    const refusals: Record<string, () => Promise<Response>> = {
      replayed: () => postToAcs(new CookieJar(), used),
      'InResponseTo in the assertion': () =>
        postToAcs(new CookieJar(), unsolicited({ nameId: 'x1', email: 'x1@globex.test', inResponseTo: '_ours' })),
      'InResponseTo on the response': () =>
        postToAcs(new CookieJar(), unsolicited({ nameId: 'x2', email: 'x2@globex.test' }, '_ours')),
      'wrong audience': () =>
        postToAcs(new CookieJar(), unsolicited({ nameId: 'x3', email: 'x3@globex.test', audience: 'urn:other' })),
      expired: () =>
        postToAcs(
          new CookieJar(),
          unsolicited({ nameId: 'x4', email: 'x4@globex.test', notOnOrAfterMs: -10 * 60_000 }),
        ),
      // Signed for the other connector's callback (its audience, Recipient and Destination).
      'another connector': () =>
        postToAcs(new CookieJar(), unsolicited({ nameId: 'x5', email: 'x5@globex.test', connectorId: BARE_ID })),
      'RelayState not ours': () =>
        postToAcs(
          new CookieJar(),
          unsolicited({ nameId: 'x6', email: 'x6@globex.test', inResponseTo: '_ours' }),
          SAML_ID,
          'uid.kz0.forgedmac',
        ),
    };
    for (const [attack, post] of Object.entries(refusals)) {
      const answer = await post();
      expect(answer.status, attack).toBe(400);
      expect(nextHop(answer), attack).toBeNull();
      expect(answer.headers.getSetCookie().join(), attack).not.toContain('gatehouse_sso_idp');
      expect(await answer.text(), attack).toContain('Signing in with Globex did not work');
    }
    const failures = await failuresOf(SAML_ID);
    expect(failures.length - failuresBefore).toBe(Object.keys(refusals).length);
    expect(failures.map((row) => row.payload.error)).toEqual(
      expect.arrayContaining(['idp_initiated: assertion already used']),
    );
    expect(await userCount()).toBe(before + 1);
  });

  it('refuses answers for a connector without IdP-initiated sign-in, and once it is turned off', async () => {
    const answer = await postToAcs(new CookieJar(), unsolicited({ connectorId: BARE_ID }), BARE_ID);
    expect(answer.status).toBe(400);
    expect((await failuresOf(BARE_ID)).map((row) => row.payload.error)).toContain(
      'idp_initiated: idp_initiated_not_enabled',
    );
    // A ticket issued before the admin turned it off is not honoured either.
    const jar = new CookieJar();
    expect((await postToAcs(jar, unsolicited({ nameId: 'late', email: 'late@globex.test' }))).status).toBe(200);
    await api('DELETE', `/sso-connectors/${SAML_ID}/idp-initiated-auth-config`);
    try {
      const late = await appSignIn(jar, portal, PORTAL_REDIRECT);
      expect(late.claims).toBeUndefined();
      expect(jar.get('gatehouse_sso_idp'), 'a ticket that cannot be used goes').toBeUndefined();
      expect((await postToAcs(new CookieJar(), unsolicited())).status).toBe(400);
    } finally {
      await api('PUT', `/sso-connectors/${SAML_ID}/idp-initiated-auth-config`, {
        defaultApplicationId: portalId,
        redirectUri: PORTAL_REDIRECT,
        clientIdpInitiatedAuthCallbackUri: PORTAL_START,
      });
    }
  });

  it("applies the connector's rules: an email outside its domains signs no one in", async () => {
    const jar = new CookieJar();
    expect((await postToAcs(jar, unsolicited({ nameId: 'zed', email: 'zed@elsewhere.test' }))).status).toBe(200);
    const result = await appSignIn(jar, portal, PORTAL_REDIRECT);
    expect(result.claims).toBeUndefined();
    expect(result.page.status).toBe(403);
    expect(await result.page.text()).toContain('did not share an email address of your organization');
  });
});

import { randomBytes } from 'node:crypto';
import type { SsoProviderName } from '@gatehouse/schemas';
import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import * as client from 'openid-client';
import type { TenantDb } from '../db/tenant-db.ts';
import { type OutboundPolicy, outboundFetch } from './outbound.ts';
import {
  openState,
  readState,
  type StateBase,
  sameMac,
  sealState,
  signState,
  stateMac,
  tenantCookieKey,
} from './signed-state.ts';
import { type OidcIdp, resolveIdp, type SamlIdp, serviceProviderOf, ssoCallbackUrl } from './sso/idp.ts';
import { type SsoConnectorRow, ssoConnectorsForEmailDomain } from './sso-connectors.ts';

/**
 * Enterprise SSO at sign-in: the user's email domain picks the company's connector; the sign-in page sends the
 * browser to the IdP (OIDC: code + PKCE + state + nonce; SAML: an AuthnRequest), the IdP returns to one fixed
 * address per connector (`ssoCallbackUrl`), and the interaction finds or makes the account. The checks of the IdP's
 * answer travel in state signed with the tenant's cookie key (`signed-state.ts`, shared with social sign-in), never
 * in a process's memory: any process may take the callback.
 */

export const SSO_COOKIE = 'gatehouse_sso';
const SSO_TTL_SECONDS = 10 * 60;
/** A validated SAML answer waits this long for the browser to reach its interaction (one redirect). */
const RESULT_TTL_SECONDS = 2 * 60;
const TIMEOUT_MS = 15_000;
/** Clock skew accepted on SAML NotBefore / NotOnOrAfter. */
const SAML_SKEW_MS = 60_000;

const contextOf = (outbound: OutboundPolicy) => ({ fetch: outboundFetch(outbound), timeoutMs: TIMEOUT_MS });

/** The domain of an email address, lower case ('' when there is none). */
export const emailDomainOf = (email: string) => {
  const at = email.lastIndexOf('@');
  const domain = at > 0 ? email.slice(at + 1) : '';
  return domain.trim().toLowerCase();
};

/** The connectors that sign in this email's domain (none for a typed value that is not an address). */
export function ssoConnectorsForEmail(tenant: TenantDb, email: string): Promise<SsoConnectorRow[]> {
  const domain = emailDomainOf(email);
  return domain ? ssoConnectorsForEmailDomain(tenant, domain) : Promise.resolve([]);
}

/** How a connector shows on the sign-in page and in the public sign-in experience (reference `SsoConnectorMetadata`). */
export function ssoConnectorMetadata(connector: SsoConnectorRow) {
  const branding = connector.branding as { displayName?: string; logo?: string; darkLogo?: string };
  return {
    id: connector.id,
    connectorName: branding.displayName || connector.connectorName,
    logo: branding.logo ?? '',
    ...(branding.darkLogo ? { darkLogo: branding.darkLogo } : {}),
  };
}
export type SsoConnectorMetadata = ReturnType<typeof ssoConnectorMetadata>;

// ——— State ———

/** The OIDC flow's cookie: which interaction and connector, and the checks of the IdP's answer. */
export type SsoOidcState = StateBase & {
  uid: string;
  connectorId: string;
  state: string;
  nonce: string;
  verifier: string;
};

export const readSsoCookie = (tenant: TenantDb, cookie: string | undefined) =>
  readState<SsoOidcState>(tenant, 'sso-oidc', cookie);

/**
 * SAML's RelayState: the interaction and the end (epoch seconds), with a 128-bit HMAC under the tenant's cookie key
 * over those and the tenant and connector (which the callback's address carries): `uid.exp.mac`, 73 characters with
 * oidc-provider's 43-character uids, inside the 80 bytes SAML allows (bindings §3.4.3). The AuthnRequest's id is
 * derived from the same values by another HMAC, so the callback knows which request the answer must be to
 * (InResponseTo) without keeping anything: any process may take it.
 */
export type SamlRelay = { uid: string; exp: number; requestId: string };

const relayParts = (tenantId: string, connectorId: string, uid: string, exp: number) =>
  [tenantId, connectorId, uid, exp].join('\n');

async function samlRelayOf(tenant: TenantDb, connectorId: string, uid: string, exp: number) {
  const key = await tenantCookieKey(tenant);
  const parts = relayParts(tenant.tenantId, connectorId, uid, exp);
  return {
    mac: stateMac(key, 'sso-saml-relay', parts).slice(0, 22),
    // An xsd:ID: a name character first.
    requestId: `_${stateMac(key, 'sso-saml-request', parts).slice(0, 22)}`,
  };
}

/** The RelayState and AuthnRequest id of a new SAML sign-in of an interaction. */
export async function signSamlRelay(tenant: TenantDb, connectorId: string, uid: string, exp: number) {
  const { mac, requestId } = await samlRelayOf(tenant, connectorId, uid, exp);
  return { relayState: [uid, exp.toString(36), mac].join('.'), requestId };
}

/** The RelayState's interaction, end and request id when its MAC is right and it has not expired. */
export async function readSamlRelay(
  tenant: TenantDb,
  connectorId: string,
  relayState: string | undefined,
): Promise<SamlRelay | undefined> {
  const parts = (relayState ?? '').split('.');
  const [uid = '', exp36 = '', mac = ''] = parts;
  if (parts.length !== 3 || !uid || !mac) return undefined;
  const exp = Number.parseInt(exp36, 36);
  if (!Number.isFinite(exp) || exp.toString(36) !== exp36 || exp <= Date.now() / 1000) return undefined;
  const expected = await samlRelayOf(tenant, connectorId, uid, exp);
  return sameMac(expected.mac, mac) ? { uid, exp, requestId: expected.requestId } : undefined;
}

/** Who the IdP says the user is. */
export type SsoProfile = {
  /** OIDC issuer or SAML entity id. */
  issuer: string;
  /** OIDC `sub`, SAML NameID or the mapped id attribute. */
  identityId: string;
  email?: string | undefined;
  name?: string | undefined;
  /** The claims or attributes as the IdP sent them (kept on the identity). */
  raw: Record<string, unknown>;
};

/** A SAML answer checked at the callback, on its way to the interaction (sealed; bound to the interaction). */
type SamlResult = StateBase & { uid: string; connectorId: string } & (
    | { ok: true; profile: SsoProfile }
    | { ok: false; error: string }
  );

export const signSamlResult = (tenant: TenantDb, result: Omit<SamlResult, 'tenantId' | 'exp'>) =>
  sealState(tenant, 'sso-saml-result', {
    ...result,
    tenantId: tenant.tenantId,
    exp: Math.floor(Date.now() / 1000) + RESULT_TTL_SECONDS,
  } as SamlResult);

export const readSamlResult = (tenant: TenantDb, token: string | undefined) =>
  openState<SamlResult>(tenant, 'sso-saml-result', token);

// ——— Start ———

const resolveConnectorIdp = (connector: SsoConnectorRow, outbound: OutboundPolicy) =>
  resolveIdp(connector.providerName as SsoProviderName, connector.config, contextOf(outbound));

/** The IdP answered with something other than a user: the reason, for the audit log. */
export class SsoAnswerError extends Error {}

/** Where the browser goes to sign in at the IdP. */
export type SsoStart =
  | { binding: 'redirect'; url: string; cookie?: string | undefined }
  | { binding: 'post'; url: string; fields: Record<string, string> };

/**
 * SAML as node-saml reads it for one connector, one AuthnRequest id, and this process's clock. Without a request id
 * (an unsolicited, IdP-initiated answer) node-saml checks no InResponseTo: `samlUnsolicitedProfile` then requires that
 * there is none, and checks the subject confirmations node-saml only checks along with InResponseTo.
 */
function samlOf(tenantId: string, connectorId: string, idp: SamlIdp, publicUrl: string, requestId: string | undefined) {
  const sp = serviceProviderOf(publicUrl, tenantId, connectorId);
  // InResponseTo is checked against the request id of the signed RelayState, not against a process-local cache.
  const cacheProvider: CacheProvider = {
    saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }),
    getAsync: async (key) => (requestId !== undefined && key === requestId ? new Date().toISOString() : null),
    removeAsync: async (key) => key,
  };
  return new SAML({
    callbackUrl: sp.assertionConsumerServiceUrl,
    entryPoint: idp.signInEndpoint,
    issuer: sp.entityId,
    audience: sp.entityId,
    idpCert: idp.certificates,
    idpIssuer: idp.entityId,
    // node-saml requires the response or else its one assertion to be signed by one of these certificates.
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: SAML_SKEW_MS,
    validateInResponseTo: requestId === undefined ? ValidateInResponseTo.never : ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: SSO_TTL_SECONDS * 1000,
    cacheProvider,
    generateUniqueId: () => requestId ?? `_${randomBytes(16).toString('hex')}`,
    authnRequestBinding: idp.signInBinding === 'post' ? 'HTTP-POST' : 'HTTP-Redirect',
    // HTTP-POST carries the request base64 only; DEFLATE belongs to HTTP-Redirect (SAML bindings §3.5.4, §3.4.4.1).
    skipRequestCompression: idp.signInBinding === 'post',
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
  });
}

/**
 * Starts the IdP's sign-in for an interaction: OIDC's authorization URL and the signed cookie of its checks, or
 * SAML's AuthnRequest (redirect or POST binding, as the IdP says) with the signed RelayState.
 */
export async function startSsoSignIn(
  tenant: TenantDb,
  connector: SsoConnectorRow,
  input: { uid: string; publicUrl: string; outbound: OutboundPolicy },
): Promise<SsoStart> {
  const idp = await resolveConnectorIdp(connector, input.outbound);
  const exp = Math.floor(Date.now() / 1000) + SSO_TTL_SECONDS;
  if (idp.type === 'OIDC') {
    const verifier = client.randomPKCECodeVerifier();
    const state: SsoOidcState = {
      tenantId: tenant.tenantId,
      uid: input.uid,
      connectorId: connector.id,
      state: randomBytes(16).toString('base64url'),
      nonce: randomBytes(16).toString('base64url'),
      verifier,
      exp,
    };
    const url = client.buildAuthorizationUrl(idp.configuration, {
      redirect_uri: ssoCallbackUrl(input.publicUrl, tenant.tenantId, connector.id),
      scope: idp.scope,
      state: state.state,
      nonce: state.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    return { binding: 'redirect', url: url.href, cookie: await signState(tenant, 'sso-oidc', state) };
  }
  const { relayState, requestId } = await signSamlRelay(tenant, connector.id, input.uid, exp);
  const saml = samlOf(tenant.tenantId, connector.id, idp, input.publicUrl, requestId);
  if (idp.signInBinding === 'post') {
    const message = await saml.getAuthorizeMessageAsync(relayState);
    return {
      binding: 'post',
      url: idp.signInEndpoint,
      fields: Object.fromEntries(Object.entries(message).map(([key, value]) => [key, String(value)])),
    };
  }
  return { binding: 'redirect', url: await saml.getAuthorizeUrlAsync(relayState, undefined, {}) };
}

// ——— The IdP's answer ———

const text = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() ? first.trim() : undefined;
};

/** Redeems the OIDC callback (the address as it arrived): code, PKCE, state, nonce and the ID token are checked. */
export async function oidcProfile(
  connector: SsoConnectorRow,
  state: SsoOidcState,
  callbackUrl: URL,
  outbound: OutboundPolicy,
): Promise<SsoProfile> {
  const idp = await resolveConnectorIdp(connector, outbound);
  if (idp.type !== 'OIDC') throw new SsoAnswerError('not an OIDC connector');
  return redeemOidc(idp, state, callbackUrl);
}

async function redeemOidc(idp: OidcIdp, state: SsoOidcState, callbackUrl: URL): Promise<SsoProfile> {
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(idp.configuration, callbackUrl, {
      pkceCodeVerifier: state.verifier,
      expectedState: state.state,
      expectedNonce: state.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw new SsoAnswerError(error instanceof Error ? error.message : String(error));
  }
  const claims = tokens.claims();
  if (!claims) throw new SsoAnswerError('no ID token');
  let info: Record<string, unknown> = { ...claims };
  if (!text(claims.email) && idp.configuration.serverMetadata().userinfo_endpoint) {
    info = { ...info, ...(await client.fetchUserInfo(idp.configuration, tokens.access_token, claims.sub)) };
  }
  const email = text(info.email);
  // An address the IdP does not say it verified counts only when the connector trusts it to (its switch).
  const trusted = info.email_verified === true || idp.trustUnverifiedEmail;
  return {
    issuer: idp.issuer,
    identityId: claims.sub,
    email: trusted ? email : undefined,
    name: text(info.name) ?? text(info.preferred_username),
    raw: info,
  };
}

/** The attributes of every `SubjectConfirmationData` and of the Response, for Recipient and Destination checks. */
function addressedTo(xml: string): { destination?: string | undefined; recipients: string[] } {
  const doc = new DOMParser().parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  const recipients: string[] = [];
  const data = root
    ? root.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'SubjectConfirmationData')
    : [];
  for (let index = 0; index < data.length; index++) {
    const recipient = data[index]?.getAttribute('Recipient');
    if (recipient) recipients.push(recipient);
  }
  return { destination: root?.getAttribute('Destination') || undefined, recipients };
}

/**
 * Checks a SAML Response POSTed to the callback: node-saml verifies the signature (of the response or its single
 * assertion) against the IdP's certificates, the audience (our SP entity id), NotBefore/NotOnOrAfter with a minute
 * of skew, and InResponseTo against the request id of the signed RelayState; then the issuer must be the IdP's
 * entity id and Destination and every Recipient our callback address.
 */
export async function samlProfile(
  tenant: TenantDb,
  connector: SsoConnectorRow,
  relay: SamlRelay,
  samlResponse: string,
  input: { publicUrl: string; outbound: OutboundPolicy },
): Promise<SsoProfile> {
  const idp = await resolveConnectorIdp(connector, input.outbound);
  if (idp.type !== 'SAML') throw new SsoAnswerError('not a SAML connector');
  const saml = samlOf(tenant.tenantId, connector.id, idp, input.publicUrl, relay.requestId);
  const profile = await validatedSamlProfile(saml, samlResponse);
  return profileOfSaml(idp, profile, samlResponse, ssoCallbackUrl(input.publicUrl, tenant.tenantId, connector.id));
}

/** An IdP-initiated answer, checked: who the user is, the assertion's ID and until when it is valid (epoch ms). */
export type UnsolicitedSamlAnswer = { profile: SsoProfile; assertionId: string; validUntil: number };

const SAML_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/**
 * Checks an unsolicited SAML Response (IdP-initiated: no AuthnRequest) as strictly as an answer to our request —
 * node-saml's signature, audience, issuer, Conditions NotBefore/NotOnOrAfter with the same skew, Destination and every
 * Recipient — and further, as the SAML web browser SSO profile asks of unsolicited answers (profiles §4.1.4.2,
 * §4.1.4.5): no InResponseTo anywhere (a solicited answer replayed unsolicited is refused), a bearer subject
 * confirmation with our callback as Recipient and a NotOnOrAfter that has not passed, and an assertion ID, which the
 * caller accepts once until `validUntil`.
 */
export async function samlUnsolicitedProfile(
  tenant: TenantDb,
  connector: SsoConnectorRow,
  samlResponse: string,
  input: { publicUrl: string; outbound: OutboundPolicy },
): Promise<UnsolicitedSamlAnswer> {
  const idp = await resolveConnectorIdp(connector, input.outbound);
  if (idp.type !== 'SAML') throw new SsoAnswerError('not a SAML connector');
  const acs = ssoCallbackUrl(input.publicUrl, tenant.tenantId, connector.id);
  const root = parseXml(Buffer.from(samlResponse, 'base64').toString('utf8'));
  if (root?.getAttribute('InResponseTo')) throw new SsoAnswerError('unsolicited answer with InResponseTo');
  const saml = samlOf(tenant.tenantId, connector.id, idp, input.publicUrl, undefined);
  const validated = await validatedSamlProfile(saml, samlResponse);
  const profile = profileOfSaml(idp, validated, samlResponse, acs);
  // The assertion node-saml verified the signature of (or the one inside the signed response).
  const assertion = parseXml(validated.getAssertionXml?.() ?? '');
  const assertionId = assertion?.getAttribute('ID');
  if (!assertion || !assertionId) throw new SsoAnswerError('assertion without ID');
  const now = Date.now();
  const confirmations = assertion.getElementsByTagNameNS(SAML_NS, 'SubjectConfirmation');
  let confirmedUntil: number | undefined;
  for (let index = 0; index < confirmations.length; index++) {
    const confirmation = confirmations[index];
    const data = confirmation?.getElementsByTagNameNS(SAML_NS, 'SubjectConfirmationData')[0];
    if (data?.getAttribute('InResponseTo')) throw new SsoAnswerError('unsolicited answer with InResponseTo');
    if (!confirmation || !data || confirmation.getAttribute('Method') !== BEARER) continue;
    const notOnOrAfter = Date.parse(data.getAttribute('NotOnOrAfter') ?? '');
    const notBefore = data.getAttribute('NotBefore') ? Date.parse(data.getAttribute('NotBefore') ?? '') : undefined;
    if (data.getAttribute('Recipient') !== acs || !Number.isFinite(notOnOrAfter)) continue;
    if (now >= notOnOrAfter + SAML_SKEW_MS) continue;
    if (notBefore !== undefined && !(Number.isFinite(notBefore) && now + SAML_SKEW_MS >= notBefore)) continue;
    confirmedUntil = Math.max(confirmedUntil ?? 0, notOnOrAfter);
  }
  if (confirmedUntil === undefined) throw new SsoAnswerError('no valid bearer subject confirmation');
  const conditionsEnd = Date.parse(
    assertion.getElementsByTagNameNS(SAML_NS, 'Conditions')[0]?.getAttribute('NotOnOrAfter') ?? '',
  );
  const validUntil = Math.max(confirmedUntil, Number.isFinite(conditionsEnd) ? conditionsEnd : 0) + SAML_SKEW_MS;
  return { profile, assertionId, validUntil };
}

function parseXml(xml: string) {
  if (!xml) return undefined;
  try {
    return new DOMParser().parseFromString(xml, 'text/xml').documentElement ?? undefined;
  } catch {
    return undefined;
  }
}

type SamlValidated = NonNullable<Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile']>;

async function validatedSamlProfile(saml: SAML, samlResponse: string): Promise<SamlValidated> {
  let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile'];
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw new SsoAnswerError(error instanceof Error ? error.message : String(error));
  }
  if (!profile) throw new SsoAnswerError('no assertion');
  return profile;
}

/** The checks node-saml leaves to us (issuer, Destination, Recipient), then the user as the connector maps them. */
function profileOfSaml(idp: SamlIdp, profile: SamlValidated, samlResponse: string, acs: string): SsoProfile {
  if (profile.issuer !== idp.entityId) throw new SsoAnswerError('issuer is not the IdP');
  const { destination, recipients } = addressedTo(Buffer.from(samlResponse, 'base64').toString('utf8'));
  if (destination && destination !== acs) throw new SsoAnswerError('Destination is not our callback');
  if (recipients.some((recipient) => recipient !== acs)) throw new SsoAnswerError('Recipient is not our callback');
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const mapping = idp.attributeMapping;
  const identityId = (mapping.id ? text(attributes[mapping.id]) : undefined) ?? profile.nameID;
  if (!identityId) throw new SsoAnswerError('no user id (NameID)');
  return {
    issuer: idp.entityId,
    identityId,
    email:
      text(attributes[mapping.email]) ?? (profile.nameIDFormat?.endsWith(':emailAddress') ? profile.nameID : undefined),
    name: text(attributes[mapping.name]),
    raw: { nameID: profile.nameID, nameIDFormat: profile.nameIDFormat, attributes },
  };
}

/** Our SP metadata for a SAML connector (what its admin gives the IdP). */
export function samlServiceProviderMetadata(publicUrl: string, tenantId: string, connectorId: string): string {
  const sp = serviceProviderOf(publicUrl, tenantId, connectorId);
  const saml = new SAML({
    callbackUrl: sp.assertionConsumerServiceUrl,
    issuer: sp.entityId,
    idpCert: 'unused',
    identifierFormat: null,
    wantAssertionsSigned: false,
  });
  return saml.generateServiceProviderMetadata(null);
}

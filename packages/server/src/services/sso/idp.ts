import { X509Certificate } from 'node:crypto';
import {
  DomainError,
  type SsoProviderConfig,
  type SsoProviderName,
  type SsoSamlConfig,
  ssoOidcConfigSchema,
  ssoProviderTypeOf,
  ssoSamlConfigSchema,
  ssoSecretBinding,
} from '@gatehouse/schemas';
import { DOMParser, onErrorStopParsing, type Element as XmlElement } from '@xmldom/xmldom';
import type * as client from 'openid-client';
import type { fetch as undiciFetch } from 'undici';
import { discover } from '../connectors/social.ts';
import { ConnectorError } from '../connectors/types.ts';
import { excerpt, networkFailure } from '../outbound.ts';

export { ssoProvider, ssoProviderCatalogue } from './providers.ts';

/**
 * An enterprise SSO connector's identity provider, read from the connector's config (docs/areas/enterprise-sso.md):
 * an OIDC provider by discovery, a SAML provider by its metadata (a URL or pasted XML) or by its three parts typed in.
 * The management API shows what was read (`providerConfig`); the sign-in flow uses it. Every request goes through
 * the caller's outbound policy (the tenant chose the addresses).
 */

export type IdpContext = { fetch: typeof undiciFetch; timeoutMs: number };

export type OidcIdp = {
  type: 'OIDC';
  issuer: string;
  /** openid-client's configuration: discovered (cached 5 minutes), client authentication chosen, our fetch set. */
  configuration: client.Configuration;
  /** Always has `openid`. */
  scope: string;
  trustUnverifiedEmail: boolean;
};

export type SamlIdp = {
  type: 'SAML';
  entityId: string;
  signInEndpoint: string;
  signInBinding: 'redirect' | 'post';
  /** The IdP's signing certificates, bare base64 DER (node-saml's `idpCert`). */
  certificates: string[];
  /** When the first certificate expires (epoch ms). */
  certificateExpiresAt?: number;
  /** Which attribute holds the user's email and name (and id, else the NameID). */
  attributeMapping: { id?: string; email: string; name: string };
};

export type Idp = OidcIdp | SamlIdp;

/** Fields a connector answers masked (`********`); a mask sent back keeps the stored value. */
export const ssoConfidentialKeys: readonly string[] = ssoSecretBinding.secrets;

const GOOGLE_ISSUER = 'https://accounts.google.com';
const DEFAULT_OIDC_SCOPE = 'openid profile email';
const METADATA_MAX_BYTES = 1024 * 1024;

const SAML_METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const XML_DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const BINDING_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const BINDING_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/**
 * Where each provider puts the email and the name by default: Microsoft's claim URIs for Entra ID, plain names for
 * the others (Okta's and most IdPs' attribute statements are configured with `email` and `name`). The admin's
 * `attributeMapping` wins.
 */
const defaultAttributes: Record<'AzureAD' | 'Okta' | 'SAML', { email: string; name: string }> = {
  AzureAD: {
    email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    name: 'http://schemas.microsoft.com/identity/claims/displayname',
  },
  Okta: { email: 'email', name: 'name' },
  SAML: { email: 'email', name: 'name' },
};

const notReady = (detail: string) => new DomainError('invalid', 'single_sign_on.connector_not_ready', { detail });

/**
 * Reads the IdP from a connector's full (unmasked) config. 400 `single_sign_on.connector_not_ready` when the config
 * is a draft; a connector error (400) when the IdP cannot be read or what it says is unusable.
 */
export async function resolveIdp(
  providerName: SsoProviderName,
  config: Record<string, unknown>,
  ctx: IdpContext,
): Promise<Idp> {
  return ssoProviderTypeOf[providerName] === 'OIDC'
    ? resolveOidc(providerName, config, ctx)
    : resolveSaml(providerName as keyof typeof defaultAttributes, config, ctx);
}

async function resolveOidc(
  providerName: SsoProviderName,
  config: Record<string, unknown>,
  ctx: IdpContext,
): Promise<OidcIdp> {
  const parsed = ssoOidcConfigSchema.safeParse(config);
  if (!parsed.success) throw notReady('the client ID and client secret are needed');
  const { clientId, clientSecret, scope, trustUnverifiedEmail } = parsed.data;
  const issuer = providerName === 'GoogleWorkspace' ? GOOGLE_ISSUER : parsed.data.issuer;
  if (!issuer) throw notReady('the issuer is needed');
  const configuration = await discover(issuer, clientId, clientSecret, ctx);
  const scopes = new Set((scope?.trim() || DEFAULT_OIDC_SCOPE).split(/\s+/));
  scopes.add('openid');
  return {
    type: 'OIDC',
    issuer: configuration.serverMetadata().issuer,
    configuration,
    scope: [...scopes].join(' '),
    trustUnverifiedEmail: trustUnverifiedEmail === true,
  };
}

async function resolveSaml(
  providerName: keyof typeof defaultAttributes,
  config: Record<string, unknown>,
  ctx: IdpContext,
): Promise<SamlIdp> {
  const parsed = ssoSamlConfigSchema.safeParse(config);
  if (!parsed.success) throw notReady('the SAML settings do not match their schema');
  const saml = parsed.data;
  const defaults = defaultAttributes[providerName] ?? defaultAttributes.SAML;
  const attributeMapping = {
    ...(saml.attributeMapping?.id ? { id: saml.attributeMapping.id } : {}),
    email: saml.attributeMapping?.email ?? defaults.email,
    name: saml.attributeMapping?.name ?? defaults.name,
  };
  const fromIdp = await samlSettings(saml, ctx);
  const certificates = fromIdp.certificates.map(normaliseCertificate);
  const expiresAt = certificates[0] ? certificateExpiry(certificates[0]) : undefined;
  return {
    type: 'SAML',
    entityId: fromIdp.entityId,
    signInEndpoint: fromIdp.signInEndpoint,
    signInBinding: fromIdp.signInBinding,
    certificates,
    ...(expiresAt === undefined ? {} : { certificateExpiresAt: expiresAt }),
    attributeMapping,
  };
}

type SamlSettings = Pick<SamlIdp, 'entityId' | 'signInEndpoint' | 'signInBinding' | 'certificates'>;

/** Metadata XML first, then the metadata URL, then the three fields typed in. */
async function samlSettings(saml: SsoSamlConfig, ctx: IdpContext): Promise<SamlSettings> {
  if (saml.metadata) return parseSamlMetadata(saml.metadata);
  if (saml.metadataUrl) return parseSamlMetadata(await fetchMetadata(saml.metadataUrl, ctx));
  if (saml.entityId && saml.signInEndpoint && saml.x509Certificate) {
    return {
      entityId: saml.entityId,
      signInEndpoint: saml.signInEndpoint,
      signInBinding: 'redirect',
      certificates: [saml.x509Certificate],
    };
  }
  throw notReady('the IdP metadata (a URL or the XML) or its entity ID, sign-in URL and certificate are needed');
}

async function fetchMetadata(url: string, ctx: IdpContext): Promise<string> {
  let response: Awaited<ReturnType<IdpContext['fetch']>>;
  try {
    response = await ctx.fetch(url, { signal: AbortSignal.timeout(ctx.timeoutMs), redirect: 'follow' });
  } catch (error) {
    throw new ConnectorError(
      'connector.invalid_config',
      `the metadata URL could not be read: ${networkFailure(error)}`,
    );
  }
  if (!response.ok)
    throw new ConnectorError('connector.invalid_response', `the metadata URL answered ${response.status}`);
  const body = await response.text();
  if (Buffer.byteLength(body) > METADATA_MAX_BYTES) {
    throw new ConnectorError('connector.invalid_response', 'the metadata is larger than 1 MB');
  }
  return body;
}

const children = (parent: XmlElement, ns: string, name: string): XmlElement[] =>
  Array.from(parent.getElementsByTagNameNS(ns, name));

/**
 * The IdP's entity id, its sign-in endpoint (HTTP-Redirect preferred, else HTTP-POST) and its signing certificates
 * (`use="signing"` or no `use`), from an `EntityDescriptor` with an `IDPSSODescriptor` (inside an
 * `EntitiesDescriptor` too). xmldom resolves no external entities, so the XML cannot make us read anything else.
 */
export function parseSamlMetadata(xml: string): SamlSettings {
  const invalid = (detail: string) => new ConnectorError('connector.invalid_metadata', detail);
  let document: ReturnType<DOMParser['parseFromString']>;
  try {
    // Errors stop the parse (and are not printed): metadata that is not well-formed is refused, not guessed at.
    document = new DOMParser({ onError: onErrorStopParsing }).parseFromString(xml, 'text/xml');
  } catch (error) {
    // The parser's message quotes the document: an excerpt of it at most.
    throw invalid(`the metadata is not XML: ${excerpt(error instanceof Error ? error.message : String(error))}`);
  }
  const root = document.documentElement;
  if (!root) throw invalid('the metadata is empty');
  const entity = [root, ...children(root, SAML_METADATA_NS, 'EntityDescriptor')].find(
    (element) =>
      element.localName === 'EntityDescriptor' &&
      element.namespaceURI === SAML_METADATA_NS &&
      children(element, SAML_METADATA_NS, 'IDPSSODescriptor').length > 0,
  );
  if (!entity) throw invalid('the metadata has no identity provider (IDPSSODescriptor)');
  const entityId = entity.getAttribute('entityID');
  if (!entityId) throw invalid('the metadata has no entityID');
  const [descriptor] = children(entity, SAML_METADATA_NS, 'IDPSSODescriptor');
  if (!descriptor) throw invalid('the metadata has no identity provider (IDPSSODescriptor)');
  const services = children(descriptor, SAML_METADATA_NS, 'SingleSignOnService');
  const redirect = services.find((service) => service.getAttribute('Binding') === BINDING_REDIRECT);
  const post = services.find((service) => service.getAttribute('Binding') === BINDING_POST);
  const service = redirect ?? post;
  const signInEndpoint = service?.getAttribute('Location');
  if (!signInEndpoint || !/^https?:\/\//i.test(signInEndpoint)) {
    throw invalid('the metadata has no HTTP-Redirect or HTTP-POST SingleSignOnService');
  }
  const certificates = children(descriptor, SAML_METADATA_NS, 'KeyDescriptor')
    .filter((key) => {
      const use = key.getAttribute('use');
      return !use || use === 'signing';
    })
    .flatMap((key) => children(key, XML_DSIG_NS, 'X509Certificate'))
    .map((element) => element.textContent ?? '')
    .filter((text) => text.trim() !== '');
  if (certificates.length === 0) throw invalid('the metadata has no signing certificate');
  return { entityId, signInEndpoint, signInBinding: service === redirect ? 'redirect' : 'post', certificates };
}

/** A certificate in PEM or bare base64, as bare base64 DER; refused unless it parses as X.509. */
export function normaliseCertificate(certificate: string): string {
  const base64 = certificate
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\s+/g, '')
    .trim();
  try {
    new X509Certificate(Buffer.from(base64, 'base64'));
  } catch {
    throw new ConnectorError('connector.invalid_certificate', 'the signing certificate is not an X.509 certificate');
  }
  return base64;
}

function certificateExpiry(base64: string): number | undefined {
  const expires = Date.parse(new X509Certificate(Buffer.from(base64, 'base64')).validTo);
  return Number.isNaN(expires) ? undefined : expires;
}

/** What the API shows of the IdP (`providerConfig`, without our side). */
export function describeIdp(idp: Idp): SsoProviderConfig {
  if (idp.type === 'OIDC') {
    const metadata = idp.configuration.serverMetadata();
    return {
      issuer: metadata.issuer,
      ...(metadata.authorization_endpoint ? { authorizationEndpoint: metadata.authorization_endpoint } : {}),
      ...(metadata.token_endpoint ? { tokenEndpoint: metadata.token_endpoint } : {}),
      ...(metadata.userinfo_endpoint ? { userinfoEndpoint: metadata.userinfo_endpoint } : {}),
      ...(metadata.jwks_uri ? { jwksUri: metadata.jwks_uri } : {}),
    };
  }
  const [certificate] = idp.certificates;
  return {
    entityId: idp.entityId,
    signInEndpoint: idp.signInEndpoint,
    ...(certificate ? { x509Certificate: toPem(certificate) } : {}),
    ...(idp.certificateExpiresAt === undefined ? {} : { certificateExpiresAt: idp.certificateExpiresAt }),
  };
}

const toPem = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)?.join('\n') ?? base64}\n-----END CERTIFICATE-----`;

/** The OIDC redirect URI and the SAML assertion consumer service: one address per connector (GET code, POST SAML). */
export const ssoCallbackUrl = (publicUrl: string, tenantId: string, connectorId: string) =>
  `${publicUrl}/callback/sso/${encodeURIComponent(tenantId)}/${encodeURIComponent(connectorId)}`;

/** Our side of a SAML connection, to register at the IdP. */
export function serviceProviderOf(publicUrl: string, tenantId: string, connectorId: string) {
  const base = `${publicUrl}/enterprise-sso/${encodeURIComponent(tenantId)}/${encodeURIComponent(connectorId)}`;
  return {
    entityId: base,
    assertionConsumerServiceUrl: ssoCallbackUrl(publicUrl, tenantId, connectorId),
    metadataUrl: `${base}/saml-metadata`,
  };
}

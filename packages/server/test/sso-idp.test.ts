import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@gatehouse/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowAllOutbound, outboundFetch } from '../src/services/outbound.ts';
import { certificateBase64, generateSamlCertificate } from '../src/services/saml-certificates.ts';
import {
  describeIdp,
  normaliseCertificate,
  parseSamlMetadata,
  resolveIdp,
  serviceProviderOf,
  ssoProviderCatalogue,
} from '../src/services/sso/idp.ts';

const ctx = { fetch: outboundFetch(allowAllOutbound), timeoutMs: 5_000 };

const metadataXml = (certificate: string, extra = '') => `<?xml version="1.0"?>
<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">
  <md:EntityDescriptor entityID="https://sp.example/not-an-idp"><md:SPSSODescriptor/></md:EntityDescriptor>
  <md:EntityDescriptor entityID="https://idp.example/metadata">
    <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
      <md:KeyDescriptor use="encryption"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>AAAA</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
      <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>
        ${certificate}
      </ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
      <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example/sso/post"/>
      ${extra}
    </md:IDPSSODescriptor>
  </md:EntityDescriptor>
</md:EntitiesDescriptor>`;

let certificate: string;
let expiresAt: Date;
let server: Server;
let metadataUrl: string;

beforeAll(async () => {
  const generated = await generateSamlCertificate('Test IdP', 2);
  certificate = certificateBase64(generated.certificate);
  expiresAt = generated.expiresAt;
  server = createServer((request, response) => {
    if (request.url === '/metadata') {
      response.writeHead(200, { 'content-type': 'application/xml' }).end(metadataXml(certificate));
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  metadataUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metadata`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('enterprise SSO: reading the IdP', () => {
  it('reads SAML metadata: the IdP entity, the signing certificate only, HTTP-Redirect preferred', () => {
    const post = parseSamlMetadata(metadataXml(certificate));
    expect(post).toEqual({
      entityId: 'https://idp.example/metadata',
      signInEndpoint: 'https://idp.example/sso/post',
      signInBinding: 'post',
      certificates: [expect.stringContaining(certificate)],
    });
    const redirect = parseSamlMetadata(
      metadataXml(
        certificate,
        '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/sso/redirect"/>',
      ),
    );
    expect(redirect).toMatchObject({ signInEndpoint: 'https://idp.example/sso/redirect', signInBinding: 'redirect' });
  });

  it('refuses metadata that is not XML, has no IdP, or no signing certificate, naming what is missing', () => {
    for (const [xml, words] of [
      ['not xml at all <', /XML|IDPSSODescriptor|empty/],
      ['<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>', /IDPSSODescriptor/],
      [metadataXml('').replace(/<md:KeyDescriptor use="signing">[\s\S]*?<\/md:KeyDescriptor>/, ''), /certificate/],
    ] as const) {
      let caught: unknown;
      try {
        parseSamlMetadata(xml);
      } catch (error) {
        caught = error;
      }
      expect(caught, xml).toBeInstanceOf(DomainError);
      expect((caught as DomainError).code).toBe('connector.invalid_metadata');
      expect(JSON.stringify((caught as DomainError).data)).toMatch(words);
    }
  });

  it('resolves SAML by metadata XML, by metadata URL, or by the three fields, with the certificate expiry', async () => {
    const pem = `-----BEGIN CERTIFICATE-----\n${certificate}\n-----END CERTIFICATE-----`;
    const byXml = await resolveIdp('SAML', { metadata: metadataXml(certificate) }, ctx);
    const byUrl = await resolveIdp('Okta', { metadataUrl }, ctx);
    const byHand = await resolveIdp(
      'AzureAD',
      { entityId: 'urn:idp', signInEndpoint: 'https://idp.example/sso', x509Certificate: pem },
      ctx,
    );
    for (const idp of [byXml, byUrl, byHand]) {
      expect(idp).toMatchObject({ type: 'SAML', certificates: [certificate] });
      expect(idp.type === 'SAML' && idp.certificateExpiresAt).toBe(Math.floor(expiresAt.getTime() / 1000) * 1000);
    }
    expect(byHand).toMatchObject({ entityId: 'urn:idp', signInBinding: 'redirect' });
    // Entra ID sends Microsoft's claim URIs; the others plain names; the admin's mapping wins.
    expect(byHand.type === 'SAML' && byHand.attributeMapping.email).toMatch(/claims\/emailaddress$/);
    expect(byUrl.type === 'SAML' && byUrl.attributeMapping).toEqual({ email: 'email', name: 'name' });
    const mapped = await resolveIdp(
      'SAML',
      { metadata: metadataXml(certificate), attributeMapping: { id: 'uid', email: 'mail' } },
      ctx,
    );
    expect(mapped.type === 'SAML' && mapped.attributeMapping).toEqual({ id: 'uid', email: 'mail', name: 'name' });
    expect(describeIdp(byXml)).toMatchObject({
      entityId: 'https://idp.example/metadata',
      signInEndpoint: 'https://idp.example/sso/post',
      x509Certificate: expect.stringMatching(/^-----BEGIN CERTIFICATE-----\n/),
    });
  });

  it('says a draft is not ready, and an unreadable IdP or certificate why', async () => {
    expect((await refusal(resolveIdp('SAML', {}, ctx))).code).toBe('single_sign_on.connector_not_ready');
    expect((await refusal(resolveIdp('SAML', { entityId: 'urn:idp' }, ctx))).code).toBe(
      'single_sign_on.connector_not_ready',
    );
    expect((await refusal(resolveIdp('OIDC', { clientId: 'a' }, ctx))).code).toBe('single_sign_on.connector_not_ready');
    expect((await refusal(resolveIdp('OIDC', { clientId: 'a', clientSecret: 'b' }, ctx))).code).toBe(
      'single_sign_on.connector_not_ready',
    );
    expect(
      (
        await refusal(
          resolveIdp(
            'SAML',
            { entityId: 'urn:idp', signInEndpoint: 'https://idp.example/sso', x509Certificate: 'bm90IGEgY2VydA==' },
            ctx,
          ),
        )
      ).code,
    ).toBe('connector.invalid_certificate');
    expect((await refusal(resolveIdp('SAML', { metadataUrl: `${metadataUrl}-missing` }, ctx))).code).toBe(
      'connector.invalid_response',
    );
    const unreachable = await refusal(
      resolveIdp('OIDC', { issuer: 'http://127.0.0.1:9/nothing', clientId: 'a', clientSecret: 'b' }, ctx),
    );
    expect(unreachable.code).toBe('connector.invalid_config');
    expect(() => normaliseCertificate('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toThrow();
  });

  it('names our side per connector, and lists the providers in the caller’s language', () => {
    expect(serviceProviderOf('https://auth.example', 'acme', 'c1')).toEqual({
      entityId: 'https://auth.example/enterprise-sso/acme/c1',
      assertionConsumerServiceUrl: 'https://auth.example/callback/sso/acme/c1',
      metadataUrl: 'https://auth.example/enterprise-sso/acme/c1/saml-metadata',
    });
    const english = ssoProviderCatalogue('en');
    expect(english.map((provider) => provider.providerName)).toEqual([
      'OIDC',
      'SAML',
      'AzureAD',
      'AzureAdOidc',
      'GoogleWorkspace',
      'Okta',
    ]);
    expect(english.find((provider) => provider.providerName === 'Okta')).toMatchObject({
      providerType: 'SAML',
      description: 'Sign in with Okta accounts over SAML 2.0.',
      logo: '/console/connectors/okta.svg',
    });
    expect(ssoProviderCatalogue('de')[0]?.description).toBe(
      'Jeder Identitätsanbieter, der OpenID Connect unterstützt.',
    );
  });
});

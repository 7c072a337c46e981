import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { generateSamlCertificate } from '../src/services/saml-certificates.ts';
import { renderIdentityProviderMetadata } from '../src/services/saml-metadata.ts';

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';

describe('identity provider metadata', () => {
  it('is well-formed XML whose values read back exactly, markup in them included', async () => {
    const { certificate } = await generateSamlCertificate('test', 1);
    const hostile = 'https://idp.example/saml/t&x/<a>"\'';
    const xml = renderIdentityProviderMetadata({
      entityId: hostile,
      singleSignOnUrl: `${hostile}/authn`,
      certificatePem: certificate,
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    });
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<md:EntityDescriptor')).toBe(true);
    const errors: string[] = [];
    const document = new DOMParser({ onError: (_level, message) => errors.push(message) }).parseFromString(
      xml,
      'text/xml',
    );
    expect(errors).toEqual([]);
    const root = document.documentElement;
    expect(root?.namespaceURI).toBe(MD);
    expect(root?.getAttribute('entityID')).toBe(hostile);
    const services = [...document.getElementsByTagNameNS(MD, 'SingleSignOnService')];
    expect(services.map((service) => service.getAttribute('Location'))).toEqual([
      `${hostile}/authn`,
      `${hostile}/authn`,
    ]);
    expect(services.map((service) => service.getAttribute('Binding'))).toEqual([
      'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
      'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST',
    ]);
    const body = document.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate')[0]
      ?.textContent;
    expect(new X509Certificate(Buffer.from(body ?? '', 'base64')).fingerprint256).toBe(
      new X509Certificate(certificate).fingerprint256,
    );
  });
});

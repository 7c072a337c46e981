import { notFound } from '@gatehouse/schemas';
import { DOMImplementation, type Element, XMLSerializer } from '@xmldom/xmldom';
import { eq } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { samlApplicationCertificates } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { findSamlApplication } from './saml-applications.ts';
import { certificateBase64 } from './saml-certificates.ts';

/** Where this application's identity provider lives: its entity ID and single sign-on endpoint. */
export function samlIdentityProvider(publicUrl: string, tenantId: string, applicationId: string) {
  const entityId = `${publicUrl}/saml/${encodeURIComponent(tenantId)}/${encodeURIComponent(applicationId)}`;
  return { entityId, singleSignOnUrl: `${entityId}/authn` };
}

const bindings = ['HTTP-Redirect', 'HTTP-POST'] as const;

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';

/**
 * SAML 2.0 metadata of the identity provider that this application (the service provider) trusts, built as a DOM and
 * serialised by @xmldom/xmldom (which escapes every value), not by string templates.
 */
export function renderIdentityProviderMetadata(options: {
  entityId: string;
  singleSignOnUrl: string;
  certificatePem: string;
  nameIdFormat: string;
}): string {
  const document = new DOMImplementation().createDocument(MD, 'md:EntityDescriptor', null);
  const element = (parent: Element, namespace: string, name: string, attributes: Record<string, string> = {}) => {
    const child = document.createElementNS(namespace, name);
    for (const [attribute, value] of Object.entries(attributes)) child.setAttribute(attribute, value);
    parent.appendChild(child);
    return child;
  };
  const root = document.documentElement;
  if (!root) throw new Error('no metadata root');
  root.setAttributeNS('http://www.w3.org/2000/xmlns/', 'xmlns:ds', DS);
  root.setAttribute('entityID', options.entityId);
  const idp = element(root, MD, 'md:IDPSSODescriptor', {
    WantAuthnRequestsSigned: 'false',
    protocolSupportEnumeration: 'urn:oasis:names:tc:SAML:2.0:protocol',
  });
  const keyInfo = element(element(idp, MD, 'md:KeyDescriptor', { use: 'signing' }), DS, 'ds:KeyInfo');
  element(element(keyInfo, DS, 'ds:X509Data'), DS, 'ds:X509Certificate').appendChild(
    document.createTextNode(certificateBase64(options.certificatePem)),
  );
  element(idp, MD, 'md:NameIDFormat').appendChild(document.createTextNode(options.nameIdFormat));
  for (const binding of bindings) {
    element(idp, MD, 'md:SingleSignOnService', {
      Binding: `urn:oasis:names:tc:SAML:2.0:bindings:${binding}`,
      Location: options.singleSignOnUrl,
    });
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(document)}\n`;
}

/** The identity provider's SAML 2.0 metadata for an application, with its active signing certificate (else 404). */
export async function samlMetadata(tenant: TenantDb, publicUrl: string, applicationId: string): Promise<string> {
  const { config } = await findSamlApplication(tenant, applicationId, { hideOtherTypes: true });
  const active = await tenant.findOne(
    samlApplicationCertificates,
    allOf(eq(samlApplicationCertificates.applicationId, applicationId), eq(samlApplicationCertificates.isActive, true)),
  );
  if (!active) throw notFound();
  return renderIdentityProviderMetadata({
    ...samlIdentityProvider(publicUrl, tenant.tenantId, applicationId),
    certificatePem: active.certificate,
    nameIdFormat: config.nameIdFormat,
  });
}

import { eq } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { samlApplicationCertificates } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { notFound } from '../http/errors.ts';
import { findSamlApplication } from './saml-applications.ts';
import { certificateBase64 } from './saml-certificates.ts';

const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch] ?? ch,
  );

/** Where this application's identity provider lives: its entity ID and single sign-on endpoint. */
export function samlIdentityProvider(publicUrl: string, tenantId: string, applicationId: string) {
  const entityId = `${publicUrl}/saml/${encodeURIComponent(tenantId)}/${encodeURIComponent(applicationId)}`;
  return { entityId, singleSignOnUrl: `${entityId}/authn` };
}

const bindings = ['HTTP-Redirect', 'HTTP-POST'] as const;

/** SAML 2.0 metadata of the identity provider that this application (the service provider) trusts. */
export function renderIdentityProviderMetadata(options: {
  entityId: string;
  singleSignOnUrl: string;
  certificatePem: string;
  nameIdFormat: string;
}): string {
  const location = escapeXml(options.singleSignOnUrl);
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escapeXml(options.entityId)}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo>
        <ds:X509Data>
          <ds:X509Certificate>${certificateBase64(options.certificatePem)}</ds:X509Certificate>
        </ds:X509Data>
      </ds:KeyInfo>
    </md:KeyDescriptor>
    <md:NameIDFormat>${escapeXml(options.nameIdFormat)}</md:NameIDFormat>
${bindings
  .map(
    (binding) =>
      `    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="${location}"/>`,
  )
  .join('\n')}
  </md:IDPSSODescriptor>
</md:EntityDescriptor>
`;
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

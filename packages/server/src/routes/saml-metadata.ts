import { idSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import { samlApplicationCertificates } from '../db/tables.ts';
import { notFound } from '../http/errors.ts';
import { createRouter, errorResponses, notFoundResponse } from '../http/route-kit.ts';
import { findSamlApplication } from '../services/saml-applications.ts';
import { certificateBase64 } from '../services/saml-certificates.ts';

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

const getMetadata = createRoute({
  method: 'get',
  path: '/saml-applications/{id}/metadata',
  tags: ['SAML applications'],
  summary: "The identity provider's SAML metadata for this application (public, no token)",
  security: [],
  request: { params: z.object({ id: idSchema }) },
  responses: {
    200: {
      description: 'SAML 2.0 metadata (EntityDescriptor with the active signing certificate).',
      content: { 'application/samlmetadata+xml': { schema: z.string() } },
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

/** Mounted beside the management API but before its token check: service providers fetch it anonymously. */
export const samlMetadataRoutes = createRouter().openapi(getMetadata, async (c) => {
  const tenant = c.get('tenant');
  const { id } = c.req.valid('param');
  const { config } = await findSamlApplication(tenant, id);
  const active = await tenant.findOne(
    samlApplicationCertificates,
    allOf(eq(samlApplicationCertificates.applicationId, id), eq(samlApplicationCertificates.isActive, true)),
  );
  if (!active) throw notFound();
  const xml = renderIdentityProviderMetadata({
    ...samlIdentityProvider(c.get('config').publicUrl, tenant.tenantId, id),
    certificatePem: active.certificate,
    nameIdFormat: config.nameIdFormat,
  });
  return c.body(xml, 200, { 'Content-Type': 'application/samlmetadata+xml; charset=utf-8' });
});

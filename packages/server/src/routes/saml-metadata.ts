import { idSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { createRouter, errorResponses, notFoundResponse } from '../http/route-kit.ts';
import { samlMetadata } from '../services/saml-metadata.ts';

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
  const xml = await samlMetadata(c.get('tenant'), c.get('config').publicUrl, c.req.valid('param').id);
  return c.body(xml, 200, { 'Content-Type': 'application/samlmetadata+xml; charset=utf-8' });
});

import {
  idSchema,
  samlCertificateCreateSchema,
  samlCertificatePatchSchema,
  samlCertificateSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as saml from '../services/saml-applications.ts';

const tags = ['SAML applications'];
const idParams = z.object({ id: idSchema });
const certificateParams = z.object({ id: idSchema, secretId: idSchema });
/** An application of another type: 422, as the reference answers. */
const samlOnlyResponse = {
  422: errorResponse('The application is not a SAML application (`application.saml.saml_application_only`).'),
} as const;

const listCertificates = createRoute({
  method: 'get',
  path: '/saml-applications/{id}/secrets',
  tags,
  summary: "List a SAML application's signing certificates (newest first; no private keys)",
  request: { params: idParams },
  responses: {
    200: jsonResponse(z.array(samlCertificateSchema), 'The certificates.'),
    ...errorResponses,
    ...notFoundResponse,
    ...samlOnlyResponse,
  },
});

const createCertificate = createRoute({
  method: 'post',
  path: '/saml-applications/{id}/secrets',
  tags,
  summary: 'Create a signing certificate (inactive unless the application has no active one)',
  request: { params: idParams, body: jsonBody(samlCertificateCreateSchema) },
  responses: {
    201: jsonResponse(samlCertificateSchema, 'The new certificate.'),
    ...errorResponses,
    ...notFoundResponse,
    ...samlOnlyResponse,
  },
});

const activateCertificate = createRoute({
  method: 'patch',
  path: '/saml-applications/{id}/secrets/{secretId}',
  tags,
  summary: 'Activate a signing certificate; the previously active one is deactivated',
  request: { params: certificateParams, body: jsonBody(samlCertificatePatchSchema) },
  responses: {
    200: jsonResponse(samlCertificateSchema, 'The certificate.'),
    ...errorResponses,
    ...notFoundResponse,
    ...samlOnlyResponse,
  },
});

const deleteCertificate = createRoute({
  method: 'delete',
  path: '/saml-applications/{id}/secrets/{secretId}',
  tags,
  summary: 'Delete an inactive signing certificate',
  description: 'The active one is refused with 400 `application.saml.can_not_delete_active_secret`.',
  request: { params: certificateParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse, ...samlOnlyResponse },
});

export const samlCertificatesRoutes = createRouter()
  .openapi(listCertificates, async (c) => {
    return c.json(await saml.listSamlCertificates(c.get('tenant'), c.req.valid('param').id), 200);
  })
  .openapi(createCertificate, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await saml.addSamlCertificate(writeContext(c), id, c.req.valid('json')), 201);
  })
  .openapi(activateCertificate, async (c) => {
    const { id, secretId } = c.req.valid('param');
    return c.json(await saml.activateSamlCertificate(writeContext(c), id, secretId), 200);
  })
  .openapi(deleteCertificate, async (c) => {
    const { id, secretId } = c.req.valid('param');
    await saml.deleteSamlCertificate(writeContext(c), id, secretId);
    return c.body(null, 204);
  });

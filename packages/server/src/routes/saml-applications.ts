import {
  idSchema,
  samlApplicationCreateSchema,
  samlApplicationPatchSchema,
  samlApplicationSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import {
  conflictResponse,
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
/** An application of another type on a SAML route: 422, as the reference answers. */
const samlOnlyResponse = {
  422: errorResponse('The application is not a SAML application (`application.saml.saml_application_only`).'),
} as const;

const createSamlApplication = createRoute({
  method: 'post',
  path: '/saml-applications',
  tags,
  summary: 'Create a SAML application with its service-provider settings',
  request: { body: jsonBody(samlApplicationCreateSchema) },
  responses: {
    201: jsonResponse(samlApplicationSchema, 'The new SAML application.'),
    ...errorResponses,
    ...conflictResponse,
  },
});

const getSamlApplication = createRoute({
  method: 'get',
  path: '/saml-applications/{id}',
  tags,
  summary: 'Get a SAML application',
  request: { params: idParams },
  responses: {
    200: jsonResponse(samlApplicationSchema, 'The application.'),
    ...errorResponses,
    ...notFoundResponse,
    ...samlOnlyResponse,
  },
});

const patchSamlApplication = createRoute({
  method: 'patch',
  path: '/saml-applications/{id}',
  tags,
  summary: 'Update a SAML application (each given field replaces the stored one)',
  request: { params: idParams, body: jsonBody(samlApplicationPatchSchema) },
  responses: {
    200: jsonResponse(samlApplicationSchema, 'The updated application.'),
    ...errorResponses,
    ...notFoundResponse,
    422: errorResponse(
      'The entity ID is in use (`application.saml.entity_id_in_use`), the binding is not HTTP-POST ' +
        '(`application.saml.acs_url_binding_not_supported`) or the application is not a SAML application ' +
        '(`application.saml.saml_application_only`).',
    ),
  },
});

const deleteSamlApplication = createRoute({
  method: 'delete',
  path: '/saml-applications/{id}',
  tags,
  summary: 'Delete a SAML application',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse, ...samlOnlyResponse },
});

export const samlApplicationsRoutes = createRouter()
  .openapi(createSamlApplication, async (c) => {
    return c.json(await saml.createSamlApplication(writeContext(c), c.get('config'), c.req.valid('json')), 201);
  })
  .openapi(getSamlApplication, async (c) => {
    return c.json(await saml.getSamlApplication(c.get('tenant'), c.req.valid('param').id), 200);
  })
  .openapi(patchSamlApplication, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await saml.updateSamlApplication(writeContext(c), id, c.req.valid('json')), 200);
  })
  .openapi(deleteSamlApplication, async (c) => {
    await saml.deleteSamlApplication(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  });

import {
  idSchema,
  samlApplicationCreateSchema,
  samlApplicationPatchSchema,
  samlApplicationSchema,
} from '@gatehouse/schemas';
import { entityRoutes } from '../http/entity-routes.ts';
import { conflictResponse, errorResponse, notFoundResponse } from '../http/route-kit.ts';
import * as saml from '../services/saml-applications.ts';

const tags = ['SAML applications'];
/** An application of another type on a SAML route: 422, as the reference answers. */
const samlOnlyResponse = {
  422: errorResponse('The application is not a SAML application (`application.saml.saml_application_only`).'),
} as const;

export const samlApplicationsRoutes = entityRoutes({
  tags,
  path: '/saml-applications',
  id: { param: 'id', schema: idSchema },
  create: {
    summary: 'Create a SAML application with its service-provider settings',
    body: samlApplicationCreateSchema,
    status: 201,
    answer: { schema: samlApplicationSchema, description: 'The new SAML application.' },
    errors: conflictResponse,
    run: ({ write, config }, body) => saml.createSamlApplication(write(), config, body),
  },
  get: {
    summary: 'Get a SAML application',
    answer: { schema: samlApplicationSchema, description: 'The application.' },
    errors: { ...notFoundResponse, ...samlOnlyResponse },
    run: ({ tenant, params }) => saml.getSamlApplication(tenant, params.id),
  },
  patch: {
    summary: 'Update a SAML application (each given field replaces the stored one)',
    body: samlApplicationPatchSchema,
    answer: { schema: samlApplicationSchema, description: 'The updated application.' },
    errors: {
      ...notFoundResponse,
      422: errorResponse(
        'The entity ID is in use (`application.saml.entity_id_in_use`), the binding is not HTTP-POST ' +
          '(`application.saml.acs_url_binding_not_supported`) or the application is not a SAML application ' +
          '(`application.saml.saml_application_only`).',
      ),
    },
    run: ({ write, params }, body) => saml.updateSamlApplication(write(), params.id, body),
  },
  delete: {
    summary: 'Delete a SAML application',
    errors: { ...notFoundResponse, ...samlOnlyResponse },
    run: ({ write, params }) => saml.deleteSamlApplication(write(), params.id),
  },
});

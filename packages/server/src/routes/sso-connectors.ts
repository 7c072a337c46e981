import {
  paginationQuerySchema,
  ssoConnectorCreateSchema,
  ssoConnectorPatchSchema,
  ssoConnectorProviderSchema,
  ssoConnectorWithProviderConfigSchema,
  ssoIdpInitiatedAuthConfigInputSchema,
  ssoIdpInitiatedAuthConfigSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { entityRoutes } from '../http/entity-routes.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as sso from '../services/sso-connectors.ts';
import * as idpInitiated from '../services/sso-idp-initiated.ts';
import type { AppEnv } from '../shared/app-env.ts';

/** Enterprise SSO connectors (reference `/sso-connectors`, `/sso-connector-providers`; docs/areas/enterprise-sso.md). */

const tags = ['Enterprise SSO'];
const idParams = z.object({ id: z.string().min(1).max(128) });

const saveErrors = {
  400: errorResponse(
    'Invalid input (`guard.invalid_input`: also an unknown config key or a value of the wrong type, under `config.`), or a complete config whose identity provider cannot be read (`connector.invalid_config`, `connector.invalid_certificate`, `connector.invalid_response`, with `data.detail`).',
  ),
  422: errorResponse(
    'The name is taken (`single_sign_on.duplicate_connector_name`) or a domain is a public email domain (`single_sign_on.forbidden_domains`, `data.domains`).',
  ),
} as const;

const listProviders = createRoute({
  method: 'get',
  path: '/sso-connector-providers',
  tags,
  summary: 'The identity providers an enterprise SSO connector can connect to',
  description: 'Names and descriptions follow `Accept-Language`.',
  responses: { 200: jsonResponse(z.array(ssoConnectorProviderSchema), 'The providers.'), ...errorResponses },
});

const idpInitiatedPath = '/sso-connectors/{id}/idp-initiated-auth-config';

const getIdpInitiatedConfig = createRoute({
  method: 'get',
  path: idpInitiatedPath,
  tags,
  summary: "A SAML connector's IdP-initiated sign-in settings",
  description: '404 when the connector does not exist or IdP-initiated sign-in is off for it.',
  request: { params: idParams },
  responses: {
    200: jsonResponse(ssoIdpInitiatedAuthConfigSchema, 'The settings.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const putIdpInitiatedConfig = createRoute({
  method: 'put',
  path: idpInitiatedPath,
  tags,
  summary: 'Turn on or change IdP-initiated sign-in for a SAML connector',
  description:
    'An unsolicited SAML Response from the identity provider then signs the user in to `defaultApplicationId` (a ' +
    'first-party `Traditional` or `SPA` application): the checked answer waits a few minutes while the browser goes ' +
    'to `clientIdpInitiatedAuthCallbackUri?ssoConnectorId={id}`, where the application starts its own sign-in ' +
    '(optionally with `direct_sign_in=sso:{id}`); that interaction signs the user in. `redirectUri`, when given, must ' +
    'be one of the application’s and the sign-in must use it. `authParameters` are added to the callback URI for the ' +
    'application’s request, and may not name the parameters the request sets itself (`client_id`, ' +
    '`redirect_uri`, `response_type`, `state`, `prompt`…) or `ssoConnectorId`. Gatehouse cannot send the ' +
    'authorization request itself — every request needs PKCE, whose verifier only the application can hold — so ' +
    '`autoSendAuthorizationRequest: true` is refused. Cloud: the plan’s `idpInitiatedSsoEnabled`.',
  request: { params: idParams, body: jsonBody(ssoIdpInitiatedAuthConfigInputSchema) },
  responses: {
    200: jsonResponse(ssoIdpInitiatedAuthConfigSchema, 'The settings.'),
    ...errorResponses,
    400: errorResponse(
      'Invalid input (`guard.invalid_input`: also a reserved `authParameters` name, or no ' +
        '`clientIdpInitiatedAuthCallbackUri`); an OIDC connector ' +
        '(`single_sign_on.idp_initiated_authentication_not_supported`); an application of another type or a ' +
        'third-party one (`single_sign_on.idp_initiated_authentication_invalid_application_type`); a redirect URI ' +
        'the application does not have (`single_sign_on.idp_initiated_authentication_redirect_uri_not_registered`); ' +
        '`autoSendAuthorizationRequest: true` (`single_sign_on.idp_initiated_authentication_auto_send_not_supported`).',
    ),
    403: errorResponse(
      'The token lacks the required scope (`auth.forbidden`), or the plan has no IdP-initiated SSO ' +
        '(`subscription.quota_exceeded`, `data.quota.idpInitiatedSsoEnabled`).',
    ),
    ...notFoundResponse,
    422: errorResponse('No application with this id (`entity.relation_foreign_key_not_found`, `data.ids`).'),
  },
});

const deleteIdpInitiatedConfig = createRoute({
  method: 'delete',
  path: idpInitiatedPath,
  tags,
  summary: 'Turn IdP-initiated sign-in off for a connector',
  request: { params: idParams },
  responses: { 204: { description: 'Turned off.' }, ...errorResponses, ...notFoundResponse },
});

const depsOf = (c: Context<AppEnv>): sso.SsoConnectorDeps => {
  const config = c.get('config');
  return {
    edition: config.edition,
    outbound: config.outbound,
    publicUrl: config.publicUrl,
    language: c.get('language'),
  };
};

export const ssoConnectorsRoutes = createRouter()
  .openapi(listProviders, (c) => c.json(sso.listSsoProviders(c.get('language')), 200))
  .route(
    '/',
    entityRoutes({
      tags,
      path: '/sso-connectors',
      id: { param: 'id', schema: idParams.shape.id },
      list: {
        summary: "The tenant's enterprise SSO connectors, newest first",
        description:
          'Every connector without `page` and `page_size`, else a page. `providerConfig` is what the identity provider says ' +
          '(read now); it is left out while the config is incomplete or the provider cannot be read. Secrets are masked.',
        query: paginationQuerySchema,
        pagination: 'optional',
        item: { schema: ssoConnectorWithProviderConfigSchema, description: 'The connectors.' },
        rows: ({ tenant }) => sso.ssoConnectorList(tenant),
        toApi: (rows, { c }) => sso.withProviderConfigs(rows, depsOf(c)),
      },
      create: {
        summary: 'Create an enterprise SSO connector',
        description:
          'The config is checked against the provider’s fields; an incomplete one is saved as a draft. A complete one must ' +
          'lead to a readable identity provider. Domains are lower-cased, repeats dropped. Cloud: the plan’s `enterpriseSsoLimit` applies (403 `subscription.quota_exceeded`).',
        body: ssoConnectorCreateSchema,
        status: 200,
        answer: { schema: ssoConnectorWithProviderConfigSchema, description: 'The new connector.' },
        errors: saveErrors,
        run: ({ write, c }, body) => sso.createSsoConnector(write(), depsOf(c), body),
      },
      get: {
        summary: 'Get an enterprise SSO connector',
        answer: { schema: ssoConnectorWithProviderConfigSchema, description: 'The connector.' },
        run: ({ tenant, params, c }) => sso.getSsoConnector(tenant, depsOf(c), params.id),
      },
      patch: {
        summary: 'Change an enterprise SSO connector',
        description:
          'Config keys sent replace the stored ones and the others stay; `""` or `null` removes a key, and a secret sent ' +
          'back masked (`********`) keeps its value. Domains and branding are replaced as a whole.',
        body: ssoConnectorPatchSchema,
        answer: { schema: ssoConnectorWithProviderConfigSchema, description: 'The connector.' },
        errors: { ...notFoundResponse, ...saveErrors },
        run: ({ write, params, c }, body) => sso.updateSsoConnector(write(), depsOf(c), params.id, body),
      },
      delete: {
        summary: 'Delete an enterprise SSO connector (with its users’ identities at it and its organization links)',
        run: ({ write, params }) => sso.deleteSsoConnector(write(), params.id),
      },
    }),
  )
  .openapi(getIdpInitiatedConfig, async (c) =>
    c.json(await idpInitiated.getIdpInitiatedAuthConfig(c.get('tenant'), c.req.valid('param').id), 200),
  )
  .openapi(putIdpInitiatedConfig, async (c) =>
    c.json(
      await idpInitiated.putIdpInitiatedAuthConfig(
        writeContext(c),
        { edition: c.get('config').edition },
        c.req.valid('param').id,
        c.req.valid('json'),
      ),
      200,
    ),
  )
  .openapi(deleteIdpInitiatedConfig, async (c) => {
    await idpInitiated.deleteIdpInitiatedAuthConfig(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  });

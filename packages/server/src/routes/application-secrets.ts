import {
  applicationSecretCreateSchema,
  applicationSecretPatchSchema,
  applicationSecretSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { pathIdSchema } from '../http/params.ts';
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
import * as secrets from '../services/application-secrets.ts';

const tags = ['Applications'];
const appParams = z.object({ id: pathIdSchema });
const secretParams = z.object({ id: pathIdSchema, name: z.string().min(1).max(256) });

const invalidTypeResponse = {
  422: errorResponse(
    'The application type has no secrets (`application.invalid_type`) or the name is taken (`application.secret_name_in_use`).',
  ),
} as const;

const listSecrets = createRoute({
  method: 'get',
  path: '/applications/{id}/secrets',
  tags,
  summary: 'List the secrets of an application, values masked',
  request: { params: appParams },
  responses: {
    200: jsonResponse(z.array(applicationSecretSchema), 'The secrets, oldest first.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const createSecret = createRoute({
  method: 'post',
  path: '/applications/{id}/secrets',
  tags,
  summary: 'Create a secret; its value is shown in full in this answer only',
  request: { params: appParams, body: jsonBody(applicationSecretCreateSchema) },
  responses: {
    201: jsonResponse(applicationSecretSchema, 'The new secret with its full value.'),
    ...errorResponses,
    ...notFoundResponse,
    ...invalidTypeResponse,
  },
});

const renameSecret = createRoute({
  method: 'patch',
  path: '/applications/{id}/secrets/{name}',
  tags,
  summary: 'Rename a secret',
  request: { params: secretParams, body: jsonBody(applicationSecretPatchSchema) },
  responses: {
    200: jsonResponse(applicationSecretSchema, 'The renamed secret, value masked.'),
    ...errorResponses,
    ...notFoundResponse,
    ...conflictResponse,
  },
});

const deleteSecret = createRoute({
  method: 'delete',
  path: '/applications/{id}/secrets/{name}',
  tags,
  summary: 'Delete a secret; clients using it can no longer authenticate',
  request: { params: secretParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

const revealSecret = createRoute({
  method: 'post',
  path: '/applications/{id}/secrets/{name}/reveal',
  tags,
  summary: 'Show a secret’s full value (recorded in the audit log)',
  request: { params: secretParams },
  responses: {
    200: jsonResponse(applicationSecretSchema, 'The secret with its full value.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

export const applicationSecretsRoutes = createRouter()
  .openapi(listSecrets, async (c) => {
    return c.json(await secrets.listApplicationSecrets(c.get('tenant'), c.req.valid('param').id), 200);
  })
  .openapi(createSecret, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await secrets.createApplicationSecret(writeContext(c), id, c.req.valid('json')), 201);
  })
  .openapi(renameSecret, async (c) => {
    const { id, name } = c.req.valid('param');
    return c.json(await secrets.renameApplicationSecret(writeContext(c), id, name, c.req.valid('json').name), 200);
  })
  .openapi(deleteSecret, async (c) => {
    const { id, name } = c.req.valid('param');
    await secrets.deleteApplicationSecret(writeContext(c), id, name);
    return c.body(null, 204);
  })
  .openapi(revealSecret, async (c) => {
    const { id, name } = c.req.valid('param');
    return c.json(await secrets.revealApplicationSecret(writeContext(c), id, name), 200);
  });

import {
  type ApplicationType,
  applicationSecretCreateSchema,
  applicationSecretPatchSchema,
  applicationSecretSchema,
  errorBodySchema,
  idSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import { applicationSecrets } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError, notFound } from '../http/errors.ts';
import {
  conflictResponse,
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { toApplicationSecret } from '../services/application-secrets.ts';
import { generateClientSecret } from '../services/client-secret.ts';
import { findApplication } from '../services/role-assignments.ts';
import { performWrite } from '../services/write-path.ts';

const tags = ['Applications'];
const appParams = z.object({ id: idSchema });
const secretParams = z.object({ id: idSchema, name: z.string().min(1).max(256) });

/** Only confidential clients authenticate with a secret; public ones (SPA, Native) and SAML apps do not. */
const confidentialTypes: readonly ApplicationType[] = ['MachineToMachine', 'Traditional', 'Protected'];

const secretWhere = (id: string, name: string) =>
  allOf(eq(applicationSecrets.applicationId, id), eq(applicationSecrets.name, name));

async function findSecret(tx: TenantDb, id: string, name: string) {
  await findApplication(tx, id);
  const row = await tx.findOne(applicationSecrets, secretWhere(id, name));
  if (!row) throw notFound();
  return row;
}

/** Secrets are audited as part of their application, never with their value. */
const audited = (id: string) => ({ type: 'Application', id });

const invalidTypeResponse = {
  422: {
    description:
      'The application type has no secrets (`application.invalid_type`) or the name is taken (`application.secret_name_in_use`).',
    content: { 'application/json': { schema: errorBodySchema } },
  },
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
    const { id } = c.req.valid('param');
    const tenant = c.get('tenant');
    await findApplication(tenant, id);
    const rows = await tenant.findMany(applicationSecrets, {
      where: eq(applicationSecrets.applicationId, id),
      orderBy: [asc(applicationSecrets.createdAt), asc(applicationSecrets.name)],
    });
    return c.json(
      rows.map((row) => toApplicationSecret(row)),
      200,
    );
  })
  .openapi(createSecret, async (c) => {
    const { id } = c.req.valid('param');
    const secret = await performWrite(
      writeContext(c),
      { key: 'Admin.ApplicationSecret.Created', schema: applicationSecretCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const application = await findApplication(tx, id);
        if (!confidentialTypes.includes(application.type as ApplicationType)) {
          throw new ApiError(422, 'application.invalid_type', { type: application.type });
        }
        const row = await tx.insert(applicationSecrets, {
          applicationId: id,
          name: input.name,
          value: generateClientSecret(),
          expiresAt: input.expiresAt == null ? null : new Date(input.expiresAt),
        });
        return { result: row, entity: audited(id), before: null, after: toApplicationSecret(row) };
      },
    );
    return c.json(toApplicationSecret(secret, true), 201);
  })
  .openapi(renameSecret, async (c) => {
    const { id, name } = c.req.valid('param');
    const secret = await performWrite(
      writeContext(c),
      { key: 'Admin.ApplicationSecret.Updated', schema: applicationSecretPatchSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const before = toApplicationSecret(await findSecret(tx, id, name));
        const [row] = await tx.update(applicationSecrets, secretWhere(id, name), { name: input.name });
        if (!row) throw notFound();
        const after = toApplicationSecret(row);
        return { result: after, entity: audited(id), before, after };
      },
    );
    return c.json(secret, 200);
  })
  .openapi(deleteSecret, async (c) => {
    const { id, name } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.ApplicationSecret.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        await findSecret(tx, id, name);
        const [row] = await tx.delete(applicationSecrets, secretWhere(id, name));
        if (!row) throw notFound();
        return { result: undefined, entity: audited(id), before: toApplicationSecret(row), after: null };
      },
    );
    return c.body(null, 204);
  })
  .openapi(revealSecret, async (c) => {
    const { id, name } = c.req.valid('param');
    // A read, but through the write path so that who saw the value, and when, is in the audit log.
    const secret = await performWrite(
      writeContext(c),
      { key: 'Admin.ApplicationSecret.Revealed', schema: z.object({}), input: {} },
      async (tx) => {
        const row = await findSecret(tx, id, name);
        const shown = toApplicationSecret(row);
        return { result: row, entity: audited(id), before: shown, after: shown };
      },
    );
    return c.json(toApplicationSecret(secret, true), 200);
  });

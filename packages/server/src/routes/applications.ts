import {
  type ApplicationType,
  applicationCreateSchema,
  applicationPatchFields,
  applicationPatchSchema,
  applicationSchema,
  applicationTypes,
  errorBodySchema,
  generateId,
  idSchema,
  paginationQuerySchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { anyOf } from '../db/conditions.ts';
import { applications, applicationsRoles, organizationApplications } from '../db/tables.ts';
import { ApiError, notFound } from '../http/errors.ts';
import {
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  likePattern,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { toApplication } from '../services/applications.ts';
import { generateClientSecret } from '../services/client-secret.ts';
import { applicationQuotaKey, assertQuota } from '../services/quota.ts';
import { notInRelation } from '../services/relations.ts';
import { findApplication } from '../services/role-assignments.ts';
import { performWrite } from '../services/write-path.ts';

const tags = ['Applications'];
const idParams = z.object({ id: idSchema });
const searchQuery = paginationQuerySchema.extend({ search: z.string().max(256).optional() });
const typeEnum = z.enum(applicationTypes);

/** The API shape of an application: never its internal client secret. */
const unprocessable = {
  422: {
    description: 'The type does not allow it (`application.invalid_type`, `role.invalid_type`) or it already exists.',
    content: { 'application/json': { schema: errorBodySchema } },
  },
} as const;

const listApplications = createRoute({
  method: 'get',
  path: '/applications',
  tags,
  summary: 'List applications',
  request: {
    query: searchQuery.extend({
      types: z
        .union([typeEnum, z.array(typeEnum)])
        .optional()
        .meta({ description: 'Only these types; repeat the parameter for several.' }),
      isThirdParty: z.enum(['true', 'false']).optional(),
      excludeRoleId: idSchema.optional().meta({ description: 'Leave out applications holding this role.' }),
      excludeOrganizationId: z
        .string()
        .min(1)
        .max(32)
        .optional()
        .meta({ description: 'Leave out applications of this organization (to pick ones to add).' }),
    }),
  },
  responses: {
    200: {
      ...jsonResponse(z.array(applicationSchema), 'A page of applications, newest first.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
  },
});

const createApplication = createRoute({
  method: 'post',
  path: '/applications',
  tags,
  summary: 'Create an application (SAML applications: POST /saml-applications)',
  request: { body: jsonBody(applicationCreateSchema) },
  responses: { 200: jsonResponse(applicationSchema, 'The new application.'), ...errorResponses, ...unprocessable },
});

const getApplication = createRoute({
  method: 'get',
  path: '/applications/{id}',
  tags,
  summary: 'Get an application',
  request: { params: idParams },
  responses: { 200: jsonResponse(applicationSchema, 'The application.'), ...errorResponses, ...notFoundResponse },
});

const patchApplication = createRoute({
  method: 'patch',
  path: '/applications/{id}',
  tags,
  summary: 'Update an application',
  description:
    'The type never changes. `oidcClientMetadata` and `customClientMetadata` are merged key by key with the stored ones.',
  request: { params: idParams, body: jsonBody(applicationPatchFields) },
  responses: {
    200: jsonResponse(applicationSchema, 'The updated application.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const deleteApplication = createRoute({
  method: 'delete',
  path: '/applications/{id}',
  tags,
  summary: 'Delete an application with its secrets and role assignments',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

export const applicationsRoutes = createRouter()
  .openapi(listApplications, async (c) => {
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    const conditions: SQL[] = [];
    const types = query.types === undefined ? [] : [query.types].flat();
    if (types.length) conditions.push(inArray(applications.type, types));
    if (query.isThirdParty) conditions.push(eq(applications.isThirdParty, query.isThirdParty === 'true'));
    if (query.excludeRoleId) {
      conditions.push(
        notInRelation(
          tenant,
          applications.id,
          applicationsRoles,
          applicationsRoles.applicationId,
          eq(applicationsRoles.roleId, query.excludeRoleId),
        ),
      );
    }
    if (query.excludeOrganizationId) {
      conditions.push(
        notInRelation(
          tenant,
          applications.id,
          organizationApplications,
          organizationApplications.applicationId,
          eq(organizationApplications.organizationId, query.excludeOrganizationId),
        ),
      );
    }
    if (query.search) {
      const pattern = likePattern(query.search);
      conditions.push(
        anyOf(
          ilike(applications.id, pattern),
          ilike(applications.name, pattern),
          ilike(applications.description, pattern),
        ),
      );
    }
    const rows = await listPage(c, applications, query, {
      where: conditions.length ? and(...conditions) : undefined,
      orderBy: [desc(applications.createdAt), desc(applications.id)],
    });
    return c.json(rows.map(toApplication), 200);
  })
  .openapi(createApplication, async (c) => {
    const application = await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Created', schema: applicationCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        if (input.type === 'SAML') throw new ApiError(422, 'application.saml.use_saml_app_api');
        await assertQuota(tx, applicationQuotaKey(input.type, input.isThirdParty ?? false), c.get('config'));
        const created = toApplication(
          await tx.insert(applications, {
            id: generateId(),
            name: input.name,
            type: input.type,
            description: input.description ?? null,
            // The provider's own client secret; callers use named secrets (POST /applications/{id}/secrets).
            secret: generateClientSecret(),
            oidcClientMetadata: input.oidcClientMetadata ?? {},
            customClientMetadata: input.customClientMetadata ?? {},
            customData: input.customData ?? {},
            isThirdParty: input.isThirdParty ?? false,
          }),
        );
        return { result: created, entity: { type: 'Application', id: created.id }, before: null, after: created };
      },
    );
    return c.json(application, 200);
  })
  .openapi(getApplication, async (c) => {
    return c.json(toApplication(await findApplication(c.get('tenant'), c.req.valid('param').id)), 200);
  })
  .openapi(patchApplication, async (c) => {
    const { id } = c.req.valid('param');
    // The type never changes, so it can be read before the write to pick the redirect-URI rule.
    const { type } = await findApplication(c.get('tenant'), id);
    const application = await performWrite(
      writeContext(c),
      {
        key: 'Admin.Application.Updated',
        schema: applicationPatchSchema(type as ApplicationType),
        input: c.req.valid('json'),
      },
      async (tx, input) => {
        const existing = await findApplication(tx, id);
        const { oidcClientMetadata, customClientMetadata, ...fields } = input;
        const [row] = await tx.update(applications, eq(applications.id, id), {
          ...fields,
          ...(oidcClientMetadata && {
            oidcClientMetadata: { ...existing.oidcClientMetadata, ...oidcClientMetadata },
          }),
          ...(customClientMetadata && {
            customClientMetadata: { ...existing.customClientMetadata, ...customClientMetadata },
          }),
        });
        if (!row) throw notFound();
        const before = toApplication(existing);
        const after = toApplication(row);
        return { result: after, entity: { type: 'Application', id }, before, after };
      },
    );
    return c.json(application, 200);
  })
  .openapi(deleteApplication, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        const [row] = await tx.delete(applications, eq(applications.id, id));
        if (!row) throw notFound();
        return { result: undefined, entity: { type: 'Application', id }, before: toApplication(row), after: null };
      },
    );
    return c.body(null, 204);
  });

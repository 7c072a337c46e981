import {
  type ApplicationType,
  applicationCreateSchema,
  applicationPatchFields,
  applicationPatchSchema,
  applicationRolesAssignSchema,
  applicationSchema,
  applicationTypes,
  errorBodySchema,
  generateId,
  idSchema,
  paginationQuerySchema,
  roleSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, desc, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { allOf, anyOf } from '../db/conditions.ts';
import { applications, applicationsRoles, organizationApplications, roles } from '../db/tables.ts';
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
import { inRelation, notInRelation } from '../services/relations.ts';
import { findAllRoles, findApplication, linkRolesAndApplications } from '../services/role-assignments.ts';
import { toRole } from '../services/roles.ts';
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

const listApplicationRoles = createRoute({
  method: 'get',
  path: '/applications/{id}/roles',
  tags,
  summary: 'List the roles of a machine-to-machine application',
  request: { params: idParams, query: searchQuery },
  responses: {
    200: { ...jsonResponse(z.array(roleSchema), 'A page of roles, newest first.'), headers: paginatedHeaders },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const assignApplicationRoles = createRoute({
  method: 'post',
  path: '/applications/{id}/roles',
  tags,
  summary: 'Assign machine-to-machine roles to a machine-to-machine application',
  request: { params: idParams, body: jsonBody(applicationRolesAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...notFoundResponse, ...unprocessable },
});

const removeApplicationRole = createRoute({
  method: 'delete',
  path: '/applications/{id}/roles/{roleId}',
  tags,
  summary: 'Remove a role from an application',
  request: { params: z.object({ id: idSchema, roleId: idSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
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
  })
  .openapi(listApplicationRoles, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findApplication(tenant, id);
    const conditions: SQL[] = [
      inRelation(
        tenant,
        roles.id,
        applicationsRoles,
        applicationsRoles.roleId,
        eq(applicationsRoles.applicationId, id),
      ),
    ];
    if (query.search) {
      const pattern = likePattern(query.search);
      conditions.push(anyOf(ilike(roles.id, pattern), ilike(roles.name, pattern), ilike(roles.description, pattern)));
    }
    const rows = await listPage(c, roles, query, {
      where: and(...conditions),
      orderBy: [desc(roles.createdAt), desc(roles.id)],
    });
    return c.json(rows.map(toRole), 200);
  })
  .openapi(assignApplicationRoles, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Updated', schema: applicationRolesAssignSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const application = await findApplication(tx, id);
        const assigned = await findAllRoles(tx, input.roleIds);
        await linkRolesAndApplications(tx, { roles: assigned, applications: [application] }, 'application.role_exists');
        return {
          result: undefined,
          entity: { type: 'Application', id },
          before: { roleIds: [] },
          after: { roleIds: [...input.roleIds].sort() },
        };
      },
    );
    return c.body(null, 201);
  })
  .openapi(removeApplicationRole, async (c) => {
    const { id, roleId } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Updated', schema: z.object({}), input: {} },
      async (tx) => {
        await findApplication(tx, id);
        const [row] = await tx.delete(
          applicationsRoles,
          allOf(eq(applicationsRoles.applicationId, id), eq(applicationsRoles.roleId, roleId)),
        );
        if (!row) throw notFound();
        return {
          result: undefined,
          entity: { type: 'Application', id },
          before: { roleIds: [roleId] },
          after: { roleIds: [] },
        };
      },
    );
    return c.body(null, 204);
  });

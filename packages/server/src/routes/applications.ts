import {
  applicationCreateSchema,
  applicationPatchFields,
  applicationRolesAssignSchema,
  applicationSchema,
  applicationTypes,
  idSchema,
  paginationQuerySchema,
  roleSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, desc, eq, ilike, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { allOf, anyOf } from '../db/conditions.ts';
import { applications, applicationsRoles, roles } from '../db/tables.ts';
import { notFound } from '../http/errors.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  likePattern,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as applicationService from '../services/applications.ts';
import { inRelation } from '../services/relations.ts';
import { findAllRoles, findApplication, linkRolesAndApplications } from '../services/role-assignments.ts';
import { toRole } from '../services/roles.ts';
import { performWrite } from '../services/write-path.ts';

const tags = ['Applications'];
const idParams = z.object({ id: idSchema });
const searchQuery = paginationQuerySchema.extend({ search: z.string().max(256).optional() });
const typeEnum = z.enum(applicationTypes);

const unprocessable = {
  422: errorResponse(
    'The type does not allow it (`application.invalid_type`, `role.invalid_type`) or it already exists.',
  ),
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
    const rows = await listPage(
      c,
      applications,
      query,
      applicationService.applicationListQuery(c.get('tenant'), query),
    );
    return c.json(rows.map(applicationService.toApplication), 200);
  })
  .openapi(createApplication, async (c) => {
    return c.json(
      await applicationService.createApplication(writeContext(c), c.get('config'), c.req.valid('json')),
      200,
    );
  })
  .openapi(getApplication, async (c) => {
    return c.json(await applicationService.getApplication(c.get('tenant'), c.req.valid('param').id), 200);
  })
  .openapi(patchApplication, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await applicationService.updateApplication(writeContext(c), id, c.req.valid('json')), 200);
  })
  .openapi(deleteApplication, async (c) => {
    await applicationService.deleteApplication(writeContext(c), c.req.valid('param').id);
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

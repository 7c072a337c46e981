import {
  errorBodySchema,
  idSchema,
  keywordQuerySchema,
  organizationApplicationSchema,
  organizationApplicationsAddSchema,
  organizationApplicationsReplaceSchema,
  organizationApplicationsRolesAssignSchema,
  organizationRoleIdsAssignSchema,
  organizationRoleIdsReplaceSchema,
  organizationRoleSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { asc, desc, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import {
  applications,
  organizationApplicationRoles,
  organizationApplications,
  organizationRoles,
} from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import type { AppEnv } from '../http/context.ts';
import { organizationParams } from '../http/params.ts';
import {
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  listPage,
  notFoundResponse,
  paginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { toApplication } from '../services/applications.ts';
import {
  applicationRoles,
  assertAllApplicationMembers,
  assertApplicationMember,
  findMachineApplications,
  membershipEvent,
} from '../services/organization-members.ts';
import { addIds, idsOf, removeId, replaceIds } from '../services/organization-relations.ts';
import {
  applicationRolesOf,
  applicationsOf,
  findOrganization,
  findOrganizationRoles,
  keywordCondition,
  toOrganizationRole,
} from '../services/organizations.ts';
import { inRelation } from '../services/relations.ts';
import { performWrite } from '../services/write-path.ts';

/** Machine-to-machine applications of an organization and the organization roles they hold there. */

const tags = ['Organization applications'];
const applicationParams = organizationParams.extend({ applicationId: idSchema });

const errors = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorBodySchema } },
});
const assignmentErrors = {
  404: errors(
    'No such organization or organization application (`entity.not_found`), or an id in the body does not exist (`entity.relation_foreign_key_not_found`, data.ids).',
  ),
  422: errors(
    'Already there (`organization.application_exists`, `organization.role_exists`), not machine-to-machine (`application.invalid_type`, `organization_role.invalid_type`) or not in the organization (`organization.require_membership`); data.ids names them.',
  ),
} as const;

const listApplications = createRoute({
  method: 'get',
  path: '/organizations/{id}/applications',
  tags,
  summary: 'List the applications of an organization with their organization roles',
  request: { params: organizationParams, query: keywordQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationApplicationSchema), 'A page of applications, newest first.'),
      headers: paginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const addApplications = createRoute({
  method: 'post',
  path: '/organizations/{id}/applications',
  tags,
  summary: 'Add machine-to-machine applications to an organization',
  request: { params: organizationParams, body: jsonBody(organizationApplicationsAddSchema) },
  responses: { 201: { description: 'Added.' }, ...errorResponses, ...assignmentErrors },
});

const replaceApplications = createRoute({
  method: 'put',
  path: '/organizations/{id}/applications',
  tags,
  summary: 'Replace the applications of an organization (those left out lose their roles there)',
  request: { params: organizationParams, body: jsonBody(organizationApplicationsReplaceSchema) },
  responses: { 204: { description: 'Replaced.' }, ...errorResponses, ...assignmentErrors },
});

const removeApplication = createRoute({
  method: 'delete',
  path: '/organizations/{id}/applications/{applicationId}',
  tags,
  summary: 'Remove an application from an organization (and its organization roles there)',
  request: { params: applicationParams },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

const assignRolesToApplications = createRoute({
  method: 'post',
  path: '/organizations/{id}/applications/roles',
  tags,
  summary: 'Give organization roles to several applications of the organization (roles already held stay)',
  request: { params: organizationParams, body: jsonBody(organizationApplicationsRolesAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...assignmentErrors },
});

const listApplicationRoles = createRoute({
  method: 'get',
  path: '/organizations/{id}/applications/{applicationId}/roles',
  tags,
  summary: "List an application's organization roles",
  request: { params: applicationParams, query: keywordQuerySchema },
  responses: {
    200: { ...jsonResponse(z.array(organizationRoleSchema), 'A page of roles, by name.'), headers: paginatedHeaders },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const addApplicationRoles = createRoute({
  method: 'post',
  path: '/organizations/{id}/applications/{applicationId}/roles',
  tags,
  summary: 'Give machine-to-machine organization roles to an application of the organization',
  request: { params: applicationParams, body: jsonBody(organizationRoleIdsAssignSchema) },
  responses: { 201: { description: 'Assigned.' }, ...errorResponses, ...assignmentErrors },
});

const replaceApplicationRoles = createRoute({
  method: 'put',
  path: '/organizations/{id}/applications/{applicationId}/roles',
  tags,
  summary: "Replace an application's organization roles (an empty list removes them all)",
  request: { params: applicationParams, body: jsonBody(organizationRoleIdsReplaceSchema) },
  responses: { 204: { description: 'Replaced.' }, ...errorResponses, ...assignmentErrors },
});

const removeApplicationRole = createRoute({
  method: 'delete',
  path: '/organizations/{id}/applications/{applicationId}/roles/{organizationRoleId}',
  tags,
  summary: 'Take an organization role away from an application',
  request: { params: applicationParams.extend({ organizationRoleId: idSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

/** The audited change of an organization's applications; before/after name the applications touched. */
function changeApplications(
  c: Context<AppEnv>,
  organizationId: string,
  spec: { schema: z.ZodType; input: unknown },
  work: (tx: TenantDb) => Promise<{ added: string[]; removed: string[] }>,
) {
  return performWrite(writeContext(c), { key: 'Admin.Organization.Updated', ...spec }, async (tx) => {
    await findOrganization(tx, organizationId);
    const { added, removed } = await work(tx);
    return {
      result: undefined,
      entity: { type: 'Organization', id: organizationId },
      before: { applicationIds: [...removed].sort() },
      after: { applicationIds: [...added].sort() },
      events: membershipEvent(organizationId, { kind: 'applications', added, removed }),
    };
  });
}

/** The audited change of one application's organization roles (the whole set before and after). */
function changeApplicationRoles(
  c: Context<AppEnv>,
  params: { id: string; applicationId: string },
  spec: { schema: z.ZodType; input: unknown },
  work: (tx: TenantDb) => Promise<void>,
) {
  return performWrite(writeContext(c), { key: 'Admin.Organization.Updated', ...spec }, async (tx) => {
    await findOrganization(tx, params.id);
    await assertApplicationMember(tx, params.id, params.applicationId);
    const set = applicationRolesOf(params.id, params.applicationId);
    const before = await idsOf(tx, set);
    await work(tx);
    return {
      result: undefined,
      entity: { type: 'Organization', id: params.id },
      before: { applicationId: params.applicationId, organizationRoleIds: before },
      after: { applicationId: params.applicationId, organizationRoleIds: await idsOf(tx, set) },
    };
  });
}

export const organizationApplicationsRoutes = createRouter()
  .openapi(listApplications, async (c) => {
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findOrganization(tenant, id);
    const membership = inRelation(
      tenant,
      applications.id,
      organizationApplications,
      organizationApplications.applicationId,
      eq(organizationApplications.organizationId, id),
    );
    const search = keywordCondition(query, [applications.id, applications.name, applications.description]);
    const rows = await listPage(c, applications, query, {
      where: search ? allOf(membership, search) : membership,
      orderBy: [desc(applications.createdAt), desc(applications.id)],
    });
    const held = await applicationRoles(
      tenant,
      id,
      rows.map((row) => row.id),
    );
    return c.json(
      rows.map((row) => ({ ...toApplication(row), organizationRoles: held.get(row.id) ?? [] })),
      200,
    );
  })
  .openapi(addApplications, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await changeApplications(c, id, { schema: organizationApplicationsAddSchema, input }, async (tx) => {
      await findMachineApplications(tx, input.applicationIds);
      const added = await addIds(tx, applicationsOf(id), input.applicationIds, 'organization.application_exists');
      return { added, removed: [] };
    });
    return c.body(null, 201);
  })
  .openapi(replaceApplications, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await changeApplications(c, id, { schema: organizationApplicationsReplaceSchema, input }, async (tx) => {
      await findMachineApplications(tx, input.applicationIds);
      return replaceIds(tx, applicationsOf(id), input.applicationIds);
    });
    return c.body(null, 204);
  })
  .openapi(removeApplication, async (c) => {
    const { id, applicationId } = c.req.valid('param');
    await changeApplications(c, id, { schema: z.object({}), input: {} }, async (tx) => {
      await removeId(tx, applicationsOf(id), applicationId);
      return { added: [], removed: [applicationId] };
    });
    return c.body(null, 204);
  })
  .openapi(assignRolesToApplications, async (c) => {
    const { id } = c.req.valid('param');
    const input = c.req.valid('json');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Organization.Updated', schema: organizationApplicationsRolesAssignSchema, input },
      async (tx) => {
        await findOrganization(tx, id);
        await assertAllApplicationMembers(tx, id, input.applicationIds);
        await findOrganizationRoles(tx, input.organizationRoleIds, 'MachineToMachine');
        const added: { applicationId: string; organizationRoleIds: string[] }[] = [];
        for (const applicationId of input.applicationIds) {
          const roleIds = await addIds(tx, applicationRolesOf(id, applicationId), input.organizationRoleIds);
          if (roleIds.length) added.push({ applicationId, organizationRoleIds: roleIds.sort() });
        }
        return {
          result: undefined,
          entity: { type: 'Organization', id },
          before: { applicationRoles: [] },
          after: { applicationRoles: added },
        };
      },
    );
    return c.body(null, 201);
  })
  .openapi(listApplicationRoles, async (c) => {
    const { id, applicationId } = c.req.valid('param');
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    await findOrganization(tenant, id);
    await assertApplicationMember(tenant, id, applicationId);
    const held = inRelation(
      tenant,
      organizationRoles.id,
      organizationApplicationRoles,
      organizationApplicationRoles.organizationRoleId,
      allOf(
        eq(organizationApplicationRoles.organizationId, id),
        eq(organizationApplicationRoles.applicationId, applicationId),
      ),
    );
    const search = keywordCondition(query, [organizationRoles.name]);
    const rows = await listPage(c, organizationRoles, query, {
      where: search ? allOf(held, search) : held,
      orderBy: [asc(organizationRoles.name)],
    });
    return c.json(rows.map(toOrganizationRole), 200);
  })
  .openapi(addApplicationRoles, async (c) => {
    const params = c.req.valid('param');
    const input = c.req.valid('json');
    await changeApplicationRoles(c, params, { schema: organizationRoleIdsAssignSchema, input }, async (tx) => {
      await findOrganizationRoles(tx, input.organizationRoleIds, 'MachineToMachine');
      await addIds(
        tx,
        applicationRolesOf(params.id, params.applicationId),
        input.organizationRoleIds,
        'organization.role_exists',
      );
    });
    return c.body(null, 201);
  })
  .openapi(replaceApplicationRoles, async (c) => {
    const params = c.req.valid('param');
    const input = c.req.valid('json');
    await changeApplicationRoles(c, params, { schema: organizationRoleIdsReplaceSchema, input }, async (tx) => {
      await findOrganizationRoles(tx, input.organizationRoleIds, 'MachineToMachine');
      await replaceIds(tx, applicationRolesOf(params.id, params.applicationId), input.organizationRoleIds);
    });
    return c.body(null, 204);
  })
  .openapi(removeApplicationRole, async (c) => {
    const { organizationRoleId, ...params } = c.req.valid('param');
    await changeApplicationRoles(c, params, { schema: z.object({}), input: {} }, async (tx) => {
      await removeId(tx, applicationRolesOf(params.id, params.applicationId), organizationRoleId);
    });
    return c.body(null, 204);
  });

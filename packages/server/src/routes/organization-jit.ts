import {
  emailDomainSchema,
  idSchema,
  jitEmailDomainCreateSchema,
  jitEmailDomainSchema,
  jitEmailDomainsReplaceSchema,
  organizationRoleIdsAssignSchema,
  organizationRoleIdsReplaceSchema,
  organizationRoleSchema,
  paginationQuerySchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { organizationJitEmailDomains, organizationRoles } from '../db/tables.ts';
import { organizationParams } from '../http/params.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listOptionalPage,
  notFoundResponse,
  optionalPaginatedHeaders,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as jit from '../services/organization-jit.ts';
import { findOrganization, toOrganizationRole } from '../services/organizations.ts';

/**
 * Just-in-time provisioning of an organization: new users whose verified email has one of its
 * domains join it with its default roles (services/organization-jit.ts). Enterprise SSO
 * connectors are not part of it yet: they do not exist in Gatehouse so far.
 */

const tags = ['Organization just-in-time provisioning'];

const assignmentErrors = {
  404: errorResponse('No such organization (`entity.not_exists_with_id`).'),
  422: errorResponse(
    'Already set (`organization.jit_email_domain_exists`), an unknown role (`entity.relation_foreign_key_not_found`) or a machine-to-machine role (`organization_role.invalid_type`).',
  ),
} as const;

const listEmailDomains = createRoute({
  method: 'get',
  path: '/organizations/{id}/jit/email-domains',
  tags,
  summary: 'List the email domains whose new users join the organization',
  request: { params: organizationParams, query: paginationQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(jitEmailDomainSchema), 'A page of email domains, in alphabetical order.'),
      headers: optionalPaginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const addEmailDomain = createRoute({
  method: 'post',
  path: '/organizations/{id}/jit/email-domains',
  tags,
  summary: 'Add a just-in-time email domain (stored lower-case, without a leading @)',
  request: { params: organizationParams, body: jsonBody(jitEmailDomainCreateSchema) },
  responses: { 201: jsonResponse(jitEmailDomainSchema, 'The added domain.'), ...errorResponses, ...assignmentErrors },
});

const replaceEmailDomains = createRoute({
  method: 'put',
  path: '/organizations/{id}/jit/email-domains',
  tags,
  summary: 'Replace the just-in-time email domains (an empty list removes them all)',
  request: { params: organizationParams, body: jsonBody(jitEmailDomainsReplaceSchema) },
  responses: { 204: { description: 'Replaced.' }, ...errorResponses, ...assignmentErrors },
});

const removeEmailDomain = createRoute({
  method: 'delete',
  path: '/organizations/{id}/jit/email-domains/{emailDomain}',
  tags,
  summary: 'Remove a just-in-time email domain',
  request: { params: organizationParams.extend({ emailDomain: emailDomainSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

const listRoles = createRoute({
  method: 'get',
  path: '/organizations/{id}/jit/roles',
  tags,
  summary: 'List the organization roles just-in-time members start with',
  request: { params: organizationParams, query: paginationQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(organizationRoleSchema), 'A page of roles, by name.'),
      headers: optionalPaginatedHeaders,
    },
    ...errorResponses,
    ...notFoundResponse,
  },
});

const addRoles = createRoute({
  method: 'post',
  path: '/organizations/{id}/jit/roles',
  tags,
  summary: 'Add default organization roles (type User) for just-in-time members',
  request: { params: organizationParams, body: jsonBody(organizationRoleIdsAssignSchema) },
  responses: { 201: { description: 'Added.' }, ...errorResponses, ...assignmentErrors },
});

const replaceRoles = createRoute({
  method: 'put',
  path: '/organizations/{id}/jit/roles',
  tags,
  summary: 'Replace the default organization roles of just-in-time members',
  request: { params: organizationParams, body: jsonBody(organizationRoleIdsReplaceSchema) },
  responses: { 204: { description: 'Replaced.' }, ...errorResponses, ...assignmentErrors },
});

const removeRole = createRoute({
  method: 'delete',
  path: '/organizations/{id}/jit/roles/{organizationRoleId}',
  tags,
  summary: 'Remove a default organization role of just-in-time members',
  request: { params: organizationParams.extend({ organizationRoleId: idSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

export const organizationJitRoutes = createRouter()
  .openapi(listEmailDomains, async (c) => {
    const { id } = c.req.valid('param');
    await findOrganization(c.get('tenant'), id);
    const rows = await listOptionalPage(
      c,
      organizationJitEmailDomains,
      c.req.valid('query'),
      jit.jitEmailDomainListQuery(id),
    );
    return c.json(
      rows.map((row) => ({ organizationId: row.organizationId, emailDomain: row.emailDomain })),
      200,
    );
  })
  .openapi(addEmailDomain, async (c) => {
    const { id } = c.req.valid('param');
    const { emailDomain } = c.req.valid('json');
    await jit.addJitEmailDomain(writeContext(c), id, emailDomain);
    return c.json({ organizationId: id, emailDomain }, 201);
  })
  .openapi(replaceEmailDomains, async (c) => {
    await jit.replaceJitEmailDomains(writeContext(c), c.req.valid('param').id, c.req.valid('json').emailDomains);
    return c.body(null, 204);
  })
  .openapi(removeEmailDomain, async (c) => {
    const { id, emailDomain } = c.req.valid('param');
    await jit.removeJitEmailDomain(writeContext(c), id, emailDomain);
    return c.body(null, 204);
  })
  .openapi(listRoles, async (c) => {
    const { id } = c.req.valid('param');
    const tenant = c.get('tenant');
    await findOrganization(tenant, id);
    const rows = await listOptionalPage(c, organizationRoles, c.req.valid('query'), jit.jitRoleListQuery(tenant, id));
    return c.json(rows.map(toOrganizationRole), 200);
  })
  .openapi(addRoles, async (c) => {
    await jit.addJitRoles(writeContext(c), c.req.valid('param').id, c.req.valid('json').organizationRoleIds);
    return c.body(null, 201);
  })
  .openapi(replaceRoles, async (c) => {
    await jit.replaceJitRoles(writeContext(c), c.req.valid('param').id, c.req.valid('json').organizationRoleIds);
    return c.body(null, 204);
  })
  .openapi(removeRole, async (c) => {
    const { id, organizationRoleId } = c.req.valid('param');
    await jit.removeJitRole(writeContext(c), id, organizationRoleId);
    return c.body(null, 204);
  });

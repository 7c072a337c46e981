import {
  emailDomainSchema,
  jitEmailDomainCreateSchema,
  jitEmailDomainSchema,
  jitEmailDomainsReplaceSchema,
  organizationRoleIdsAssignSchema,
  organizationRoleIdsReplaceSchema,
  organizationRoleSchema,
  paginationQuerySchema,
  ssoConnectorIdsAssignSchema,
  ssoConnectorIdsReplaceSchema,
  ssoConnectorSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { organizationParams, pathIdSchema } from '../http/params.ts';
import { idsIn, relationRoutes } from '../http/relation-routes.ts';
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
import { relatedJitSsoConnectors } from '../services/relation-rows.ts';
import { auditOwner, wholeSet } from '../services/relations.ts';
import { findSsoConnectorIds } from '../services/sso-connectors.ts';

/**
 * Just-in-time provisioning of an organization: new users whose verified email has one of its
 * domains, and users who sign in through one of its enterprise SSO connectors, join it with its
 * default roles (services/organization-jit.ts).
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
  request: { params: organizationParams.extend({ organizationRoleId: pathIdSchema }) },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

const settingsRoutes = createRouter()
  .openapi(listEmailDomains, async (c) => {
    const { id } = c.req.valid('param');
    await findOrganization(c.get('tenant'), id);
    const rows = await listOptionalPage(c, jit.jitEmailDomainList(c.get('tenant'), id), c.req.valid('query'));
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
    const rows = await listOptionalPage(c, jit.jitRoleList(tenant, id), c.req.valid('query'));
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

const ssoConnectorErrors = {
  404: errorResponse('No such organization (`entity.not_exists_with_id`).'),
  422: errorResponse('An unknown connector (`entity.relation_foreign_key_not_found`, data.ids naming them).'),
} as const;
const acceptSsoConnectors = idsIn('ssoConnectorIds', findSsoConnectorIds);

/** The organization's enterprise SSO connectors: who signs in through one joins (reference `jit/sso-connectors`). */
const ssoConnectorsRoutes = relationRoutes({
  tags,
  path: '/organizations/{id}/jit/sso-connectors',
  params: organizationParams,
  owner: (tx, { id }) => findOrganization(tx, id),
  links: ({ id }) => jit.jitSsoConnectorsOf(id),
  // An organization has few: before/after are the whole set, as for its other JIT settings.
  audit: auditOwner(
    'Admin.Organization.Updated',
    'Organization',
    wholeSet('jitSsoConnectorIds', ({ id }: { id: string }) => jit.jitSsoConnectorsOf(id)),
  ),
  list: {
    summary: 'List the enterprise SSO connectors whose users join the organization',
    query: paginationQuerySchema,
    item: ssoConnectorSchema,
    page: 'A page of connectors, by name (secrets masked).',
    ...relatedJitSsoConnectors,
    pagination: 'optional',
  },
  add: {
    summary: 'Add enterprise SSO connectors to the organization’s just-in-time provisioning',
    body: ssoConnectorIdsAssignSchema,
    accept: acceptSsoConnectors,
    answer: 'Added (connectors already there stay as they are).',
    errors: ssoConnectorErrors,
  },
  replace: {
    summary: 'Replace the enterprise SSO connectors of the organization’s just-in-time provisioning',
    body: ssoConnectorIdsReplaceSchema,
    accept: acceptSsoConnectors,
    answer: 'Replaced.',
    errors: ssoConnectorErrors,
  },
  remove: {
    summary: 'Remove an enterprise SSO connector from the organization’s just-in-time provisioning',
    param: 'ssoConnectorId',
    schema: z.string().min(1).max(256),
  },
});

export const organizationJitRoutes = createRouter().route('/', settingsRoutes).route('/', ssoConnectorsRoutes);

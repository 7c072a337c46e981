import {
  keywordQuerySchema,
  organizationScopeCreateSchema,
  organizationScopePatchSchema,
  organizationScopeSchema,
} from '@gatehouse/schemas';
import { entityRoutes } from '../http/entity-routes.ts';
import { pathIdSchema } from '../http/params.ts';
import { conflictResponse, notFoundResponse } from '../http/route-kit.ts';
import * as organizationScopeService from '../services/organization-scopes.ts';
import { toOrganizationScope } from '../services/organizations.ts';

/** The organization template's permissions (organization scopes). */

export const organizationScopesRoutes = entityRoutes({
  tags: ['Organization scopes'],
  path: '/organization-scopes',
  id: { param: 'id', schema: pathIdSchema },
  list: {
    summary: 'List organization permissions',
    description: '`q` (or `search`) matches a substring of the name, any case.',
    query: keywordQuerySchema,
    pagination: 'optional',
    item: { schema: organizationScopeSchema, description: 'A page of organization permissions, by name.' },
    rows: ({ tenant }, query) => organizationScopeService.organizationScopeList(tenant, query),
    toApi: (rows) => rows.map(toOrganizationScope),
  },
  create: {
    summary: 'Create an organization permission (names are unique in the tenant)',
    body: organizationScopeCreateSchema,
    status: 201,
    answer: { schema: organizationScopeSchema, description: 'The new permission.' },
    errors: conflictResponse,
    run: ({ write }, body) => organizationScopeService.createOrganizationScope(write(), body),
  },
  get: {
    summary: 'Get an organization permission',
    answer: { schema: organizationScopeSchema, description: 'The permission.' },
    run: ({ tenant, params }) => organizationScopeService.getOrganizationScope(tenant, params.id),
  },
  patch: {
    summary: 'Update an organization permission',
    body: organizationScopePatchSchema,
    answer: { schema: organizationScopeSchema, description: 'The updated permission.' },
    errors: { ...notFoundResponse, ...conflictResponse },
    run: ({ write, params }, body) => organizationScopeService.updateOrganizationScope(write(), params.id, body),
  },
  delete: {
    summary: 'Delete an organization permission (every organization role loses it)',
    run: ({ write, params }) => organizationScopeService.deleteOrganizationScope(write(), params.id),
  },
});

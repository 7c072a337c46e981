import {
  applicationCreateSchema,
  applicationCustomDataInputSchema,
  applicationCustomDataSchema,
  applicationPatchFields,
  applicationSchema,
  applicationTypes,
  entitySearchFields,
  idSchema,
  paginationQuerySchema,
  searchSyntaxCheck,
  searchSyntaxShape,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { entityRoutes } from '../http/entity-routes.ts';
import { pathIdSchema } from '../http/params.ts';
import { errorResponse, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as applicationService from '../services/applications.ts';

const tags = ['Applications'];
const idParams = z.object({ id: pathIdSchema });
const typeEnum = z.enum(applicationTypes);

const unprocessable = {
  422: errorResponse(
    'The type does not allow it (`application.invalid_type`, `role.invalid_type`) or it already exists.',
  ),
} as const;

const patchCustomData = createRoute({
  method: 'patch',
  path: '/applications/{id}/custom-data',
  tags,
  summary: "Merge keys into an application's custom data",
  description:
    'The given top-level keys replace the stored ones; the others stay. The merged object must be at most 64 KiB. ' +
    '`PATCH /applications/{id}` with `customData` replaces it whole.',
  request: { params: idParams, body: jsonBody(applicationCustomDataInputSchema) },
  responses: {
    200: jsonResponse(applicationCustomDataSchema, 'The whole custom data after the merge.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

export const applicationsRoutes = entityRoutes({
  tags,
  path: '/applications',
  id: { param: 'id', schema: pathIdSchema },
  list: {
    summary: 'List applications',
    description:
      "The reference's search syntax: `search` is a LIKE pattern over id, name or description, any case (`%kw%` anywhere, " +
      'without `%` the whole value); ' +
      '`search.<field>`, `mode[.<field>]`, `joint` and `isCaseSensitive` as on `GET /users`.',
    query: paginationQuerySchema
      .extend({
        ...searchSyntaxShape(
          entitySearchFields,
          'LIKE pattern over id, name or description, any case: `%kw%` anywhere, without `%` the whole value.',
        ),
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
      })
      .loose()
      .superRefine(searchSyntaxCheck(entitySearchFields)),
    searchSyntax: true,
    pagination: 'optional',
    item: { schema: applicationSchema, description: 'A page of applications, newest first.' },
    rows: ({ tenant }, query) => applicationService.applicationList(tenant, query),
    toApi: (rows) => rows.map(applicationService.toApplication),
  },
  create: {
    summary: 'Create an application (SAML applications: POST /saml-applications)',
    body: applicationCreateSchema,
    status: 200,
    answer: { schema: applicationSchema, description: 'The new application.' },
    errors: unprocessable,
    run: ({ write, config }, body) => applicationService.createApplication(write(), config, body),
  },
  get: {
    summary: 'Get an application',
    answer: { schema: applicationSchema, description: 'The application.' },
    run: ({ tenant, params }) => applicationService.getApplication(tenant, params.id),
  },
  patch: {
    summary: 'Update an application',
    description:
      'The type never changes. `oidcClientMetadata` and `customClientMetadata` are merged key by key with the stored ones. ' +
      'SAML applications change through `PATCH /saml-applications/{id}` (400 `application.saml.use_saml_app_api`).',
    body: applicationPatchFields,
    answer: { schema: applicationSchema, description: 'The updated application.' },
    run: ({ write, params }, body) => applicationService.updateApplication(write(), params.id, body),
  },
  delete: {
    summary: 'Delete an application with its secrets and role assignments',
    description:
      'SAML applications are deleted with `DELETE /saml-applications/{id}` (400 `application.saml.use_saml_app_api`).',
    run: ({ write, params }) => applicationService.deleteApplication(write(), params.id),
  },
}).openapi(patchCustomData, async (c) => {
  const { id } = c.req.valid('param');
  return c.json(await applicationService.mergeApplicationCustomData(writeContext(c), id, c.req.valid('json')), 200);
});

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
import { applications } from '../db/tables.ts';
import { pathIdSchema } from '../http/params.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  listOptionalPage,
  notFoundResponse,
  optionalPaginatedHeaders,
  searchSyntaxHook,
} from '../http/route-kit.ts';
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

const listApplications = createRoute({
  method: 'get',
  path: '/applications',
  tags,
  summary: 'List applications',
  description:
    "The reference's search syntax: `search` matches a substring of id, name or description (any case); " +
    '`search.<field>`, `mode[.<field>]`, `joint` and `isCaseSensitive` as on `GET /users`.',
  request: {
    query: paginationQuerySchema
      .extend({
        ...searchSyntaxShape(entitySearchFields, 'Substring of id, name or description.'),
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
  },
  responses: {
    200: {
      ...jsonResponse(z.array(applicationSchema), 'A page of applications, newest first.'),
      headers: optionalPaginatedHeaders,
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
    'The type never changes. `oidcClientMetadata` and `customClientMetadata` are merged key by key with the stored ones. ' +
    'SAML applications change through `PATCH /saml-applications/{id}` (400 `application.saml.use_saml_app_api`).',
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
  description:
    'SAML applications are deleted with `DELETE /saml-applications/{id}` (400 `application.saml.use_saml_app_api`).',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

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

export const applicationsRoutes = createRouter()
  .openapi(
    listApplications,
    async (c) => {
      const query = c.req.valid('query');
      const rows = await listOptionalPage(
        c,
        applications,
        query,
        applicationService.applicationListQuery(c.get('tenant'), query),
      );
      return c.json(rows.map(applicationService.toApplication), 200);
    },
    searchSyntaxHook,
  )
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
  .openapi(patchCustomData, async (c) => {
    const { id } = c.req.valid('param');
    return c.json(await applicationService.mergeApplicationCustomData(writeContext(c), id, c.req.valid('json')), 200);
  })
  .openapi(deleteApplication, async (c) => {
    await applicationService.deleteApplication(writeContext(c), c.req.valid('param').id);
    return c.body(null, 204);
  });

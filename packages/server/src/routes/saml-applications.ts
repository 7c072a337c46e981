import {
  generateId,
  idSchema,
  type SamlApplication,
  type SamlEncryption,
  type SamlNameIdFormat,
  samlApplicationCreateSchema,
  samlApplicationPatchSchema,
  samlApplicationSchema,
  type samlBindings,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { applications, samlApplicationConfigs } from '../db/tables.ts';
import { notFound } from '../http/errors.ts';
import {
  conflictResponse,
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { toApplication } from '../services/applications.ts';
import { generateClientSecret } from '../services/client-secret.ts';
import { assertQuota } from '../services/quota.ts';
import { findSamlApplication, type SamlConfigRow } from '../services/saml-applications.ts';
import { createSamlCertificate } from '../services/saml-certificates.ts';
import { performWrite } from '../services/write-path.ts';

const tags = ['SAML applications'];
const idParams = z.object({ id: idSchema });

type ApplicationRow = typeof applications.$inferSelect;
function toSamlApplication(app: ApplicationRow, config: SamlConfigRow): SamlApplication {
  const { oidcClientMetadata: _o, customClientMetadata: _c, isThirdParty: _t, ...base } = toApplication(app);
  return {
    ...base,
    entityId: config.entityId,
    acsUrl: config.acsUrl as { binding: (typeof samlBindings)[number]; url: string } | null,
    attributeMapping: config.attributeMapping,
    nameIdFormat: config.nameIdFormat as SamlNameIdFormat,
    encryption: config.encryption as SamlEncryption | null,
  };
}

/** The SAML application and its config, or 404 (also for applications of other types). */
const createSamlApplication = createRoute({
  method: 'post',
  path: '/saml-applications',
  tags,
  summary: 'Create a SAML application with its service-provider settings',
  request: { body: jsonBody(samlApplicationCreateSchema) },
  responses: {
    201: jsonResponse(samlApplicationSchema, 'The new SAML application.'),
    ...errorResponses,
    ...conflictResponse,
  },
});

const getSamlApplication = createRoute({
  method: 'get',
  path: '/saml-applications/{id}',
  tags,
  summary: 'Get a SAML application',
  request: { params: idParams },
  responses: { 200: jsonResponse(samlApplicationSchema, 'The application.'), ...errorResponses, ...notFoundResponse },
});

const patchSamlApplication = createRoute({
  method: 'patch',
  path: '/saml-applications/{id}',
  tags,
  summary: 'Update a SAML application (each given field replaces the stored one)',
  request: { params: idParams, body: jsonBody(samlApplicationPatchSchema) },
  responses: {
    200: jsonResponse(samlApplicationSchema, 'The updated application.'),
    ...errorResponses,
    ...notFoundResponse,
    ...conflictResponse,
  },
});

const deleteSamlApplication = createRoute({
  method: 'delete',
  path: '/saml-applications/{id}',
  tags,
  summary: 'Delete a SAML application',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

export const samlApplicationsRoutes = createRouter()
  .openapi(createSamlApplication, async (c) => {
    const created = await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Created', schema: samlApplicationCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const { name, description, customData, ...config } = input;
        await assertQuota(tx, 'samlApplicationsLimit', c.get('config'));
        const app = await tx.insert(applications, {
          id: generateId(),
          name,
          type: 'SAML',
          description: description ?? null,
          secret: generateClientSecret(),
          customData: customData ?? {},
        });
        const row = await tx.insert(samlApplicationConfigs, { applicationId: app.id, ...config });
        // Every SAML application starts with an active signing certificate, so its metadata is usable at once.
        await createSamlCertificate(tx, app, { active: true });
        const after = toSamlApplication(app, row);
        return { result: after, entity: { type: 'Application', id: app.id }, before: null, after };
      },
    );
    return c.json(created, 201);
  })
  .openapi(getSamlApplication, async (c) => {
    const { app, config } = await findSamlApplication(c.get('tenant'), c.req.valid('param').id);
    return c.json(toSamlApplication(app, config), 200);
  })
  .openapi(patchSamlApplication, async (c) => {
    const { id } = c.req.valid('param');
    const updated = await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Updated', schema: samlApplicationPatchSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const existing = await findSamlApplication(tx, id);
        const { name, description, customData, ...config } = input;
        const appFields = { name, description, customData };
        const hasAppFields = Object.values(appFields).some((value) => value !== undefined);
        const hasConfig = Object.values(config).some((value) => value !== undefined);
        const [app] = hasAppFields ? await tx.update(applications, eq(applications.id, id), appFields) : [existing.app];
        const [row] = hasConfig
          ? await tx.update(samlApplicationConfigs, eq(samlApplicationConfigs.applicationId, id), config)
          : [existing.config];
        if (!app || !row) throw notFound();
        const before = toSamlApplication(existing.app, existing.config);
        const after = toSamlApplication(app, row);
        return { result: after, entity: { type: 'Application', id }, before, after };
      },
    );
    return c.json(updated, 200);
  })
  .openapi(deleteSamlApplication, async (c) => {
    const { id } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        const { app, config } = await findSamlApplication(tx, id);
        // The config goes with the application (foreign key cascade).
        await tx.delete(applications, eq(applications.id, id));
        return {
          result: undefined,
          entity: { type: 'Application', id },
          before: toSamlApplication(app, config),
          after: null,
        };
      },
    );
    return c.body(null, 204);
  });

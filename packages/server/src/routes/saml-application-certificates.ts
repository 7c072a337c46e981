import {
  idSchema,
  samlCertificateCreateSchema,
  samlCertificatePatchSchema,
  samlCertificateSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import { samlApplicationCertificates } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { createRouter, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { findSamlApplication } from '../services/saml-applications.ts';
import { createSamlCertificate, type SamlCertificateRow, toSamlCertificate } from '../services/saml-certificates.ts';
import { performWrite } from '../services/write-path.ts';

const tags = ['SAML applications'];
const idParams = z.object({ id: idSchema });
const certificateParams = z.object({ id: idSchema, secretId: idSchema });

/** What the audit log keeps of a certificate: never the private key. */
const auditView = (row: SamlCertificateRow) => ({
  id: row.id,
  active: row.isActive,
  fingerprintSha256: row.fingerprintSha256,
  expiresAt: row.expiresAt.toISOString(),
});

async function findCertificate(tx: TenantDb, applicationId: string, id: string): Promise<SamlCertificateRow> {
  const row = await tx.findOne(
    samlApplicationCertificates,
    allOf(eq(samlApplicationCertificates.applicationId, applicationId), eq(samlApplicationCertificates.id, id)),
  );
  if (!row) throw notFound();
  return row;
}

const listCertificates = createRoute({
  method: 'get',
  path: '/saml-applications/{id}/secrets',
  tags,
  summary: "List a SAML application's signing certificates (newest first; no private keys)",
  request: { params: idParams },
  responses: {
    200: jsonResponse(z.array(samlCertificateSchema), 'The certificates.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const createCertificate = createRoute({
  method: 'post',
  path: '/saml-applications/{id}/secrets',
  tags,
  summary: 'Create a signing certificate (inactive unless the application has no active one)',
  request: { params: idParams, body: jsonBody(samlCertificateCreateSchema) },
  responses: {
    201: jsonResponse(samlCertificateSchema, 'The new certificate.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const activateCertificate = createRoute({
  method: 'patch',
  path: '/saml-applications/{id}/secrets/{secretId}',
  tags,
  summary: 'Activate a signing certificate; the previously active one is deactivated',
  request: { params: certificateParams, body: jsonBody(samlCertificatePatchSchema) },
  responses: { 200: jsonResponse(samlCertificateSchema, 'The certificate.'), ...errorResponses, ...notFoundResponse },
});

const deleteCertificate = createRoute({
  method: 'delete',
  path: '/saml-applications/{id}/secrets/{secretId}',
  tags,
  summary: 'Delete an inactive signing certificate',
  request: { params: certificateParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

export const samlCertificatesRoutes = createRouter()
  .openapi(listCertificates, async (c) => {
    const tenant = c.get('tenant');
    const { id } = c.req.valid('param');
    await findSamlApplication(tenant, id);
    const rows = await tenant.findMany(samlApplicationCertificates, {
      where: eq(samlApplicationCertificates.applicationId, id),
      orderBy: [desc(samlApplicationCertificates.createdAt), desc(samlApplicationCertificates.id)],
    });
    return c.json(rows.map(toSamlCertificate), 200);
  })
  .openapi(createCertificate, async (c) => {
    const { id } = c.req.valid('param');
    const created = await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Updated', schema: samlCertificateCreateSchema, input: c.req.valid('json') },
      async (tx, input) => {
        const { app } = await findSamlApplication(tx, id);
        const active = await tx.findOne(
          samlApplicationCertificates,
          allOf(eq(samlApplicationCertificates.applicationId, id), eq(samlApplicationCertificates.isActive, true)),
        );
        const row = await createSamlCertificate(tx, app, { lifeSpanInYears: input.lifeSpanInYears, active: !active });
        return {
          result: toSamlCertificate(row),
          entity: { type: 'Application', id },
          before: { certificate: null },
          after: { certificate: auditView(row) },
        };
      },
    );
    return c.json(created, 201);
  })
  .openapi(activateCertificate, async (c) => {
    const { id, secretId } = c.req.valid('param');
    const activated = await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Updated', schema: samlCertificatePatchSchema, input: c.req.valid('json') },
      async (tx) => {
        await findSamlApplication(tx, id);
        const target = await findCertificate(tx, id, secretId);
        const previous = await tx.findOne(
          samlApplicationCertificates,
          allOf(eq(samlApplicationCertificates.applicationId, id), eq(samlApplicationCertificates.isActive, true)),
        );
        // Off first: the partial unique index allows one active certificate per application.
        if (previous && previous.id !== target.id) {
          await tx.update(samlApplicationCertificates, eq(samlApplicationCertificates.id, previous.id), {
            isActive: false,
          });
        }
        const [row] = await tx.update(samlApplicationCertificates, eq(samlApplicationCertificates.id, target.id), {
          isActive: true,
        });
        if (!row) throw notFound();
        return {
          result: toSamlCertificate(row),
          entity: { type: 'Application', id },
          before: { activeCertificate: previous ? auditView(previous) : null },
          after: { activeCertificate: auditView(row) },
        };
      },
    );
    return c.json(activated, 200);
  })
  .openapi(deleteCertificate, async (c) => {
    const { id, secretId } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.Application.Updated', schema: z.object({}), input: {} },
      async (tx) => {
        await findSamlApplication(tx, id);
        const row = await findCertificate(tx, id, secretId);
        // The metadata and signatures depend on the active certificate; another must take over first.
        if (row.isActive) throw new ApiError(422, 'application.saml.active_certificate');
        await tx.delete(samlApplicationCertificates, eq(samlApplicationCertificates.id, row.id));
        return {
          result: undefined,
          entity: { type: 'Application', id },
          before: { certificate: auditView(row) },
          after: { certificate: null },
        };
      },
    );
    return c.body(null, 204);
  });

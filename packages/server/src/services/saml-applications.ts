import {
  DomainError,
  generateId,
  normalizeSamlBinding,
  notFound,
  type SamlApplication,
  type SamlBinding,
  type SamlCertificate,
  type SamlEncryption,
  type SamlNameIdFormat,
  samlAcsBindings,
  type samlApplicationCreateSchema,
  type samlApplicationPatchSchema,
} from '@gatehouse/schemas';
import { desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import { applications, samlApplicationCertificates, samlApplicationConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { toApplication } from './applications.ts';
import { generateClientSecret } from './client-secret.ts';
import { assertQuota, type QuotaDeps } from './quota.ts';
import type { ApplicationRow } from './role-assignments.ts';
import { createSamlCertificate, type SamlCertificateRow, toSamlCertificate } from './saml-certificates.ts';
import { performWrite, type WriteContext } from './write-path.ts';

export type SamlConfigRow = typeof samlApplicationConfigs.$inferSelect;

/** The reference's default name ID format: a stable, opaque identifier per user. */
const DEFAULT_NAME_ID_FORMAT: SamlNameIdFormat = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

/**
 * The SAML application and its SAML settings: 404 for an unknown id, 422 `application.saml.saml_application_only`
 * for an application of another type (as the reference answers), or 404 for it too when `hideOtherTypes` (the
 * anonymous metadata route tells a stranger nothing about other applications).
 */
export async function findSamlApplication(
  tx: TenantDb,
  id: string,
  options: { hideOtherTypes?: boolean } = {},
): Promise<{ app: ApplicationRow; config: SamlConfigRow }> {
  const app = await tx.findOne(applications, eq(applications.id, id));
  if (!app || (app.type !== 'SAML' && options.hideOtherTypes)) throw notFound();
  if (app.type !== 'SAML') throw new DomainError('unprocessable', 'application.saml.saml_application_only');
  const config = await tx.findOne(samlApplicationConfigs, eq(samlApplicationConfigs.applicationId, id));
  if (!config) throw notFound();
  return { app, config };
}

/** Only HTTP-POST can carry a SAML response to the service provider (422 otherwise, as in the reference). */
function assertAcsBinding(acsUrl: { binding: SamlBinding } | null | undefined): void {
  if (acsUrl && !samlAcsBindings.includes(acsUrl.binding)) {
    throw new DomainError('unprocessable', 'application.saml.acs_url_binding_not_supported');
  }
}

/** The API shape of a SAML application: the application without its OIDC fields, with its SAML settings. */
export function toSamlApplication(app: ApplicationRow, config: SamlConfigRow): SamlApplication {
  const { oidcClientMetadata: _o, customClientMetadata: _c, isThirdParty: _t, ...base } = toApplication(app);
  return {
    ...base,
    entityId: config.entityId,
    // Rows written before the URNs hold the short names.
    acsUrl: config.acsUrl && {
      binding: normalizeSamlBinding(config.acsUrl.binding) as SamlBinding,
      url: config.acsUrl.url,
    },
    attributeMapping: config.attributeMapping,
    nameIdFormat: config.nameIdFormat as SamlNameIdFormat,
    encryption: config.encryption as SamlEncryption | null,
  };
}

export async function getSamlApplication(tenant: TenantDb, id: string): Promise<SamlApplication> {
  const { app, config } = await findSamlApplication(tenant, id);
  return toSamlApplication(app, config);
}

/** A new SAML application with its settings and an active signing certificate, so its metadata is usable at once. */
export function createSamlApplication(
  ctx: WriteContext,
  deps: QuotaDeps,
  input: z.output<typeof samlApplicationCreateSchema>,
): Promise<SamlApplication> {
  return performWrite(ctx, 'Admin.Application.Created', async (tx) => {
    const { name, description, customData, ...config } = input;
    assertAcsBinding(config.acsUrl);
    await assertQuota(tx, 'samlApplicationsLimit', deps);
    const app = await tx.insert(applications, {
      id: generateId(),
      name,
      type: 'SAML',
      description: description ?? null,
      secret: generateClientSecret(),
      customData: customData ?? {},
    });
    const row = await tx.insert(samlApplicationConfigs, {
      applicationId: app.id,
      ...config,
      nameIdFormat: config.nameIdFormat ?? DEFAULT_NAME_ID_FORMAT,
    });
    await createSamlCertificate(tx, app, { active: true });
    const after = toSamlApplication(app, row);
    return { result: after, entity: { type: 'Application', id: app.id }, before: null, after };
  });
}

/** Application fields and SAML settings are each written only when the patch has some. */
export function updateSamlApplication(
  ctx: WriteContext,
  id: string,
  input: z.output<typeof samlApplicationPatchSchema>,
): Promise<SamlApplication> {
  return performWrite(ctx, 'Admin.Application.Updated', async (tx) => {
    const existing = await findSamlApplication(tx, id);
    const { name, description, customData, ...config } = input;
    assertAcsBinding(config.acsUrl);
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
  });
}

export function deleteSamlApplication(ctx: WriteContext, id: string): Promise<void> {
  return performWrite(ctx, 'Admin.Application.Deleted', async (tx) => {
    const { app, config } = await findSamlApplication(tx, id);
    // The config goes with the application (foreign key cascade).
    await tx.delete(applications, eq(applications.id, id));
    return {
      result: undefined,
      entity: { type: 'Application', id },
      before: toSamlApplication(app, config),
      after: null,
    };
  });
}

// The certificates of a SAML application: one is active (it signs and is in the metadata); the others wait.

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

const activeCertificateOf = (tx: TenantDb, applicationId: string) =>
  tx.findOne(
    samlApplicationCertificates,
    allOf(eq(samlApplicationCertificates.applicationId, applicationId), eq(samlApplicationCertificates.isActive, true)),
  );

/** A SAML application's certificates, newest first, without their private keys. */
export async function listSamlCertificates(tenant: TenantDb, applicationId: string): Promise<SamlCertificate[]> {
  await findSamlApplication(tenant, applicationId);
  const rows = await tenant.findMany(samlApplicationCertificates, {
    where: eq(samlApplicationCertificates.applicationId, applicationId),
    orderBy: [desc(samlApplicationCertificates.createdAt), desc(samlApplicationCertificates.id)],
  });
  return rows.map(toSamlCertificate);
}

/** A new certificate; it is active only when the application has none active. */
export function addSamlCertificate(
  ctx: WriteContext,
  applicationId: string,
  input: { lifeSpanInYears?: number | undefined },
): Promise<SamlCertificate> {
  return performWrite(ctx, 'Admin.Application.Updated', async (tx) => {
    const { app } = await findSamlApplication(tx, applicationId);
    const active = await activeCertificateOf(tx, applicationId);
    const row = await createSamlCertificate(tx, app, { lifeSpanInYears: input.lifeSpanInYears, active: !active });
    return {
      result: toSamlCertificate(row),
      entity: { type: 'Application', id: applicationId },
      before: { certificate: null },
      after: { certificate: auditView(row) },
    };
  });
}

/** Makes a certificate the active one; the previous active one stops being it. */
export function activateSamlCertificate(
  ctx: WriteContext,
  applicationId: string,
  certificateId: string,
): Promise<SamlCertificate> {
  return performWrite(ctx, 'Admin.Application.Updated', async (tx) => {
    await findSamlApplication(tx, applicationId);
    const target = await findCertificate(tx, applicationId, certificateId);
    const previous = await activeCertificateOf(tx, applicationId);
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
      entity: { type: 'Application', id: applicationId },
      before: { activeCertificate: previous ? auditView(previous) : null },
      after: { activeCertificate: auditView(row) },
    };
  });
}

/** Deletes an inactive certificate (the active one signs: 400 `application.saml.can_not_delete_active_secret`). */
export function deleteSamlCertificate(ctx: WriteContext, applicationId: string, certificateId: string): Promise<void> {
  return performWrite(ctx, 'Admin.Application.Updated', async (tx) => {
    await findSamlApplication(tx, applicationId);
    const row = await findCertificate(tx, applicationId, certificateId);
    // The metadata and signatures depend on the active certificate; another must take over first.
    if (row.isActive) throw new DomainError('invalid', 'application.saml.can_not_delete_active_secret');
    await tx.delete(samlApplicationCertificates, eq(samlApplicationCertificates.id, row.id));
    return {
      result: undefined,
      entity: { type: 'Application', id: applicationId },
      before: { certificate: auditView(row) },
      after: { certificate: null },
    };
  });
}

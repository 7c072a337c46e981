import type { ApplicationSignInExperience, ApplicationSignInExperienceInput } from '@gatehouse/schemas';
import { applicationSignInExperienceSchema, DomainError, notFound } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { applications, tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * A third-party application's branding on its consent page (one `tenant_configs` row per application, removed with
 * the application). First-party applications are the tenant's own and use the tenant's sign-in experience.
 */
const keyOf = (applicationId: string) => `applicationSignInExperience:${applicationId}`;

export async function readApplicationSignInExperience(
  tenant: TenantDb,
  applicationId: string,
): Promise<ApplicationSignInExperience | undefined> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, keyOf(applicationId)));
  if (!row) return undefined;
  const parsed = applicationSignInExperienceSchema.safeParse({
    ...(row.value as object),
    tenantId: tenant.tenantId,
    applicationId,
  });
  return parsed.success ? parsed.data : undefined;
}

export async function getApplicationSignInExperience(
  tenant: TenantDb,
  applicationId: string,
): Promise<ApplicationSignInExperience> {
  if (!(await tenant.findOne(applications, eq(applications.id, applicationId)))) throw notFound();
  const found = await readApplicationSignInExperience(tenant, applicationId);
  if (!found) throw notFound();
  return found;
}

/** PUT: replaces the application's branding; 400 for a first-party application. Answers whether it was created. */
export function putApplicationSignInExperience(
  ctx: WriteContext,
  applicationId: string,
  input: ApplicationSignInExperienceInput,
): Promise<{ experience: ApplicationSignInExperience; created: boolean }> {
  return performWrite(ctx, 'Admin.ApplicationSignInExperience.Updated', async (tx) => {
    const app = await tx.findOne(applications, eq(applications.id, applicationId));
    if (!app) throw notFound();
    if (!app.isThirdParty) throw new DomainError('invalid', 'application.third_party_application_only');
    const before = await readApplicationSignInExperience(tx, applicationId);
    const stored = {
      displayName: input.displayName ?? null,
      color: input.color ?? {},
      branding: input.branding ?? {},
      termsOfUseUrl: input.termsOfUseUrl ?? null,
      privacyPolicyUrl: input.privacyPolicyUrl ?? null,
    };
    if (before) await tx.update(tenantConfigs, eq(tenantConfigs.key, keyOf(applicationId)), { value: stored });
    else await tx.insert(tenantConfigs, { key: keyOf(applicationId), value: stored });
    const experience = { tenantId: tx.tenantId, applicationId, ...stored };
    return {
      result: { experience, created: !before },
      entity: { type: 'ApplicationSignInExperience', id: applicationId },
      before: before ?? null,
      after: experience,
    };
  });
}

/** Removes an application's branding with the application (inside its delete transaction). */
export async function removeApplicationSignInExperience(tx: TenantDb, applicationId: string): Promise<void> {
  await tx.delete(tenantConfigs, eq(tenantConfigs.key, keyOf(applicationId)));
}

import { randomBytes } from 'node:crypto';
import {
  applySignInExperiencePatch,
  type SignInExperiencePatch,
  type SignInExperienceSettings,
  signInExperiencePatchSchema,
} from '@gatehouse/schemas';
import { and, asc, eq, like, ne, sql } from 'drizzle-orm';
import { allOf } from '../db/conditions.ts';
import { applications, tenantConfigs } from '../db/tables.ts';
import type { TenantDb, TenantDbs } from '../db/tenant-db.ts';
import { readSignInExperienceSettings } from './sign-in-experience.ts';

/**
 * The console's live preview: the unsaved settings are kept for a few minutes under an unguessable token, and the
 * preview page (`/sign-in-preview/{tenantId}/{token}`) renders the real sign-in pages with them. A capability URL,
 * because an iframe cannot send the admin's bearer token; it shows only what the admin is about to publish anyway.
 */
export const PREVIEW_TTL_MS = 10 * 60_000;
const PREFIX = 'signInPreview:';
const tokenPattern = /^[\w-]{32}$/;

type StoredPreview = { patch: SignInExperiencePatch; expiresAt: number };

export async function createSignInPreview(
  tenant: TenantDb,
  patch: SignInExperiencePatch,
): Promise<{ token: string; expiresAt: number }> {
  const token = randomBytes(24).toString('base64url');
  const expiresAt = Date.now() + PREVIEW_TTL_MS;
  await tenant.transaction(async (tx) => {
    // Each preview sweeps the tenant's expired ones, so they never pile up.
    await tx.delete(
      tenantConfigs,
      allOf(like(tenantConfigs.key, `${PREFIX}%`), sql`(${tenantConfigs.value}->>'expiresAt')::bigint < ${Date.now()}`),
    );
    await tx.insert(tenantConfigs, { key: `${PREFIX}${token}`, value: { patch, expiresAt } satisfies StoredPreview });
  });
  return { token, expiresAt };
}

/** The settings a live preview token shows: the saved ones with the unsaved changes; undefined once expired. */
export async function readSignInPreview(
  tenant: TenantDb,
  token: string,
): Promise<SignInExperienceSettings | undefined> {
  if (!tokenPattern.test(token)) return undefined;
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, `${PREFIX}${token}`));
  const stored = row?.value as StoredPreview | undefined;
  if (!stored || stored.expiresAt < Date.now()) return undefined;
  const patch = signInExperiencePatchSchema.safeParse(stored.patch);
  if (!patch.success) return undefined;
  return applySignInExperiencePatch(await readSignInExperienceSettings(tenant), patch.data);
}

/** A live preview's tenant and settings (`/sign-in-preview/{tenantId}/{token}`); undefined once expired. */
export async function openSignInPreview(tenants: TenantDbs, tenantId: string, token: string) {
  const tenant = tenants.of(tenantId);
  const settings = await readSignInPreview(tenant, token);
  return settings && { tenant, settings };
}

/**
 * The application a preview signs in to: the one asked for (`?app=`), else the tenant's first that users sign in to
 * (machine-to-machine applications sign nobody in); none in a tenant without one.
 */
export async function previewApplication(tenant: TenantDb, id: string | undefined) {
  const rows = await tenant.asTenant((db) =>
    db
      .select({ id: applications.id, name: applications.name })
      .from(applications)
      .where(
        and(
          eq(applications.tenantId, tenant.tenantId),
          ne(applications.type, 'MachineToMachine'),
          id ? eq(applications.id, id) : undefined,
        ),
      )
      .orderBy(asc(applications.createdAt), asc(applications.id))
      .limit(1),
  );
  return rows[0];
}

import { DEFAULT_SESSION_TTL_SECONDS, type OidcSessionConfig } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { announceChange } from '../db/change-notices.ts';
import { tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * How long a user stays signed in at the tenant's OIDC provider (its session cookie and record), reference
 * `/configs/oidc/session`. The provider reads it when it is built; every server process builds it again when the
 * change notice arrives, and it is part of the provider's version too (auth/oidc/provider.ts `readProviderVersion`).
 */
export const OIDC_SESSION_KEY = 'oidcSession';

export async function readOidcSessionConfig(tenant: TenantDb): Promise<OidcSessionConfig> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, OIDC_SESSION_KEY));
  const ttl = (row?.value as { ttl?: unknown } | undefined)?.ttl;
  return { ttl: typeof ttl === 'number' && ttl > 0 ? ttl : DEFAULT_SESSION_TTL_SECONDS };
}

export function patchOidcSessionConfig(ctx: WriteContext, patch: OidcSessionConfig): Promise<OidcSessionConfig> {
  return performWrite(ctx, 'Admin.OidcSessionConfig.Updated', async (tx) => {
    const before = await readOidcSessionConfig(tx);
    await tx.insertIfAbsent(tenantConfigs, { key: OIDC_SESSION_KEY, value: before });
    await tx.update(tenantConfigs, eq(tenantConfigs.key, OIDC_SESSION_KEY), { value: patch });
    await announceChange(tx, 'oidc-session');
    return { result: patch, entity: { type: 'OidcSessionConfig', id: 'session' }, before, after: patch };
  });
}

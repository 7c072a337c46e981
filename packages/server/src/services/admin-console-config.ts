import { isDeepStrictEqual } from 'node:util';
import type { AdminConsoleConfig, AdminConsoleConfigPatch } from '@gatehouse/schemas';
import { adminConsoleConfigPatchSchema, defaultAdminConsoleConfig } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * The console's per-tenant config (spec §3 admin-console config), one `tenant_configs` row, in the reference's shape:
 * its flags are false until set (the reference seeds them so) and a PATCH replaces each top-level field it gives, as the
 * reference's `value || patch` does (issue 43).
 */

const CONFIG_KEY = 'adminConsole';

export async function readAdminConsoleConfig(tenant: TenantDb): Promise<AdminConsoleConfig> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY));
  // The stored fields are a patch over the defaults; a stored value this version cannot read counts as unset rather
  // than breaking the console.
  const parsed = adminConsoleConfigPatchSchema.safeParse(row?.value ?? {});
  return { ...defaultAdminConsoleConfig, ...(parsed.success ? withoutUndefined(parsed.data) : {}) };
}

const withoutUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;

/** Each given top-level field replaces the stored one; answers the whole config. */
export function patchAdminConsoleConfig(
  ctx: WriteContext,
  patch: AdminConsoleConfigPatch,
): Promise<AdminConsoleConfig> {
  return performWrite(ctx, 'Admin.AdminConsoleConfig.Updated', async (tx) => {
    // Created empty first, then updated: the UPDATE's row lock serialises concurrent merges.
    await tx.insertIfAbsent(tenantConfigs, { key: CONFIG_KEY, value: {} });
    // Setting the key to itself changes nothing but holds the row lock until the transaction ends.
    await tx.update(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY), { key: CONFIG_KEY });
    const before = await readAdminConsoleConfig(tx);
    const after: AdminConsoleConfig = { ...before, ...withoutUndefined(patch) };
    await tx.update(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY), { value: after });
    // A PATCH that changes nothing (`{}`, or the values already stored) answers the config without an audit entry.
    const unchanged = isDeepStrictEqual(before, after);
    return { result: after, entity: { type: 'AdminConsoleConfig', id: CONFIG_KEY }, before, after, unchanged };
  });
}

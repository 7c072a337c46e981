import type { AdminConsoleConfig, AdminConsoleConfigPatch } from '@gatehouse/schemas';
import { adminConsoleConfigSchema } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/** The console's per-tenant config (spec §3 admin-console config), one `tenant_configs` row. */

const CONFIG_KEY = 'adminConsole';

export async function readAdminConsoleConfig(tenant: TenantDb): Promise<AdminConsoleConfig> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY));
  const parsed = adminConsoleConfigSchema.safeParse(row?.value ?? {});
  // A stored value this version cannot read counts as unset rather than breaking the console.
  return parsed.success ? parsed.data : {};
}

/** Each given top-level object is merged into the stored one; answers the whole config. */
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
    const after: AdminConsoleConfig = {
      ...before,
      developmentTenantMigrationNotification: {
        ...before.developmentTenantMigrationNotification,
        ...patch.developmentTenantMigrationNotification,
      },
    };
    await tx.update(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY), { value: after });
    return { result: after, entity: { type: 'AdminConsoleConfig', id: CONFIG_KEY }, before, after };
  });
}

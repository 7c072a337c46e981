import { type AdminConsoleConfig, adminConsoleConfigPatchSchema, adminConsoleConfigSchema } from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { tenantConfigs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { createRouter, errorResponses, jsonBody, jsonResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { performWrite } from '../services/write-path.ts';

/** The console's per-tenant config (spec §3 admin-console config), one `tenant_configs` row. */

const CONFIG_KEY = 'adminConsole';
const tags = ['Configs'];

async function readConfig(tenant: TenantDb): Promise<AdminConsoleConfig> {
  const row = await tenant.findOne(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY));
  const parsed = adminConsoleConfigSchema.safeParse(row?.value ?? {});
  // A stored value this version cannot read counts as unset rather than breaking the console.
  return parsed.success ? parsed.data : {};
}

const getConfig = createRoute({
  method: 'get',
  path: '/configs/admin-console',
  tags,
  summary: "The console's config for this tenant",
  responses: {
    200: jsonResponse(adminConsoleConfigSchema, 'The config (`{}` until something is set).'),
    ...errorResponses,
  },
});

const patchConfig = createRoute({
  method: 'patch',
  path: '/configs/admin-console',
  tags,
  summary: 'Merge into the console config',
  description: 'Each given top-level object is merged into the stored one; the answer is the whole config.',
  request: { body: jsonBody(adminConsoleConfigPatchSchema) },
  responses: { 200: jsonResponse(adminConsoleConfigSchema, 'The whole config after the change.'), ...errorResponses },
});

export const adminConsoleConfigRoutes = createRouter()
  .openapi(getConfig, async (c) => c.json(await readConfig(c.get('tenant')), 200))
  .openapi(patchConfig, async (c) => {
    const config = await performWrite(
      writeContext(c),
      { key: 'Admin.AdminConsoleConfig.Updated', schema: adminConsoleConfigPatchSchema, input: c.req.valid('json') },
      async (tx, patch) => {
        // Created empty first, then updated: the UPDATE's row lock serialises concurrent merges.
        await tx.insertIfAbsent(tenantConfigs, { key: CONFIG_KEY, value: {} });
        // Setting the key to itself changes nothing but holds the row lock until the transaction ends.
        await tx.update(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY), { key: CONFIG_KEY });
        const before = await readConfig(tx);
        const after: AdminConsoleConfig = {
          ...before,
          developmentTenantMigrationNotification: {
            ...before.developmentTenantMigrationNotification,
            ...patch.developmentTenantMigrationNotification,
          },
        };
        await tx.update(tenantConfigs, eq(tenantConfigs.key, CONFIG_KEY), { value: after });
        return { result: after, entity: { type: 'AdminConsoleConfig', id: CONFIG_KEY }, before, after };
      },
    );
    return c.json(config, 200);
  });

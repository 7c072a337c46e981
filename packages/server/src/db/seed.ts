import { ADMIN_TENANT_ID, CONSOLE_ADMIN_ROLE, DEFAULT_TENANT_ID, generateId } from '@gatehouse/schemas';
import { ensureSigningKey } from '../auth/signing-keys.ts';
import type { Database } from './client.ts';
import { roles, tenants } from './tables.ts';

/** Rows every installation has. Idempotent: safe on every start and from several processes at once. */
export async function seed(db: Database): Promise<void> {
  await db
    .insert(tenants)
    .values([
      { id: DEFAULT_TENANT_ID, name: 'Default', tag: 'development' },
      { id: ADMIN_TENANT_ID, name: 'Admin', tag: 'production' },
    ])
    .onConflictDoNothing();
  for (const tenantId of [DEFAULT_TENANT_ID, ADMIN_TENANT_ID]) await ensureSigningKey(db, tenantId);
  await db
    .insert(roles)
    .values({
      tenantId: ADMIN_TENANT_ID,
      id: generateId(),
      name: CONSOLE_ADMIN_ROLE,
      description: 'Console administrator: full access to the management API.',
      type: 'User',
    })
    .onConflictDoNothing({ target: [roles.tenantId, roles.name] });
}

import { type Actor, generateId } from '@gatehouse/schemas';
import { z } from 'zod';
import { seededIds } from '../db/seed.ts';
import { applications, applicationsRoles } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { generateClientSecret } from './client-secret.ts';
import { performWrite } from './write-path.ts';

export { generateClientSecret } from './client-secret.ts';

const machineAppSchema = z.object({ name: z.string().trim().min(1).max(256) });

/**
 * Creates a machine-to-machine application holding the management API role, so it can obtain a
 * management token with client credentials. The secret is returned once, here.
 */
export async function createManagementMachineApp(
  tenant: TenantDb,
  actor: Actor,
  name: string,
): Promise<{ clientId: string; clientSecret: string }> {
  return performWrite(
    { tenant, actor },
    { key: 'Admin.Application.Created', schema: machineAppSchema, input: { name } },
    async (tx, input) => {
      const secret = generateClientSecret();
      const app = await tx.insert(applications, {
        id: generateId(),
        name: input.name,
        secret,
        type: 'MachineToMachine',
      });
      await tx.insert(applicationsRoles, { applicationId: app.id, roleId: seededIds.managementRole });
      // The audit entry never holds the secret.
      const after = { id: app.id, name: app.name, type: app.type, roles: [seededIds.managementRole] };
      return {
        result: { clientId: app.id, clientSecret: secret },
        entity: { type: 'Application', id: app.id },
        before: null,
        after,
      };
    },
  );
}

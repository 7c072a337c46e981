import { ADMIN_TENANT_ID } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { issuerUrl, managementResource } from '../auth/issuers.ts';
import type { Database } from '../db/client.ts';
import { tenants } from '../db/tables.ts';
import { TenantDb, TenantDbs } from '../db/tenant-db.ts';
import { createFirstConsoleAdmin } from '../services/console-admin.ts';
import { createManagementMachineApp } from '../services/machine-apps.ts';

/** A failure the CLI reports as one line and a non-zero exit. */
export class CliError extends Error {}

const cliActor = { type: 'system', id: 'cli' } as const;

export const commandSchemas = {
  'admin create': z.strictObject({
    username: z.string({ error: 'is required' }).regex(/^[A-Z_a-z]\w*$/, 'must start with a letter or underscore'),
    password: z.string({ error: 'is required' }).min(8, 'must be at least 8 characters'),
  }),
  'm2m create': z.strictObject({
    tenant: z.string().min(1).default('default'),
    name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(256),
  }),
} as const;
export type CommandName = keyof typeof commandSchemas;

/** Runs a command against the database; the same code answers the CLI directly and over the server's socket. */
export async function runCommand(
  db: Database,
  publicUrl: string,
  name: CommandName,
  rawArgs: unknown,
): Promise<unknown> {
  const parsed = commandSchemas[name].safeParse(rawArgs);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new CliError(`--${String(issue?.path[0] ?? 'arguments')} ${issue?.message ?? 'is invalid'}`);
  }
  if (name === 'admin create') {
    const args = parsed.data as z.output<(typeof commandSchemas)['admin create']>;
    const created = await createFirstConsoleAdmin(new TenantDbs(db), args);
    if (!created) throw new CliError('a console admin already exists; sign in to the console to add more');
    return { username: args.username, tenant: ADMIN_TENANT_ID };
  }
  const args = parsed.data as z.output<(typeof commandSchemas)['m2m create']>;
  const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, args.tenant));
  if (!tenant) throw new CliError(`no tenant "${args.tenant}"`);
  const { clientId, clientSecret } = await createManagementMachineApp(
    new TenantDb(db, args.tenant),
    cliActor,
    args.name,
  );
  return {
    clientId,
    clientSecret,
    tokenEndpoint: `${issuerUrl(publicUrl, args.tenant)}/token`,
    resource: managementResource(args.tenant),
    scope: 'all',
  };
}

import {
  ADMIN_TENANT_ID,
  CONSOLE_ADMIN_ROLE,
  DEFAULT_TENANT_ID,
  generateId,
  tenantOrganizationId,
  userIdSchema,
} from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { tenantRoleId } from '../db/seed.ts';
import { organizations, organizationUserRoles, organizationUsers, roles, users, usersRoles } from '../db/tables.ts';
import type { TenantDbs } from '../db/tenant-db.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD } from './passwords.ts';
import { attemptSignIn, type SignInAttempt } from './sign-in.ts';
import { performWrite } from './write-path.ts';

const firstAdminSchema = z.object({ username: z.string().min(1).max(128), password: z.string().min(8).max(256) });

/** Whether any user of the admin tenant holds the console admin role. */
export async function consoleAdminExists(tenants: TenantDbs): Promise<boolean> {
  const admin = tenants.of(ADMIN_TENANT_ID);
  const role = await admin.findOne(roles, eq(roles.name, CONSOLE_ADMIN_ROLE));
  if (!role) return false;
  return (await admin.count(usersRoles, eq(usersRoles.roleId, role.id))) > 0;
}

/**
 * Creates the first console admin unless one exists (start-up with ADMIN_USERNAME/ADMIN_PASSWORD,
 * later the welcome page and the CLI). Returns whether it created one.
 */
export async function createFirstConsoleAdmin(
  tenants: TenantDbs,
  credentials: { username: string; password: string },
): Promise<boolean> {
  if (await consoleAdminExists(tenants)) return false;
  const passwordEncrypted = await hashPassword(credentials.password);
  const admin = tenants.of(ADMIN_TENANT_ID);
  const created = performWrite(
    { tenant: admin, actor: { type: 'system', id: 'startup' } },
    { key: 'Admin.User.Created', schema: firstAdminSchema, input: credentials },
    async (tx, input) => {
      const role = await tx.findOne(roles, eq(roles.name, CONSOLE_ADMIN_ROLE));
      if (!role) throw new Error('the console admin role is missing; the seed did not run');
      const user = await tx.insert(users, {
        id: generateId(12),
        username: input.username,
        passwordEncrypted,
        passwordEncryptionMethod: PASSWORD_ENCRYPTION_METHOD,
        // The cloud console reads these: the default tenant is theirs and there is no onboarding to do.
        customData: { onboarding: { isOnboardingDone: true }, defaultTenantId: DEFAULT_TENANT_ID },
      });
      await tx.insert(usersRoles, { userId: user.id, roleId: role.id });
      // Admin of the default tenant in the cloud edition's terms (membership of `t-default`, made in
      // both editions): start-up does not know the edition, and OSS never reads these rows.
      const organizationId = tenantOrganizationId(DEFAULT_TENANT_ID);
      await tx.insertIfAbsent(organizations, { id: organizationId, name: 'Default' });
      await tx.insert(organizationUsers, { organizationId, userId: user.id });
      await tx.insert(organizationUserRoles, {
        organizationId,
        userId: user.id,
        organizationRoleId: tenantRoleId('admin'),
      });
      const after = { id: userIdSchema.parse(user.id), username: user.username, roles: [CONSOLE_ADMIN_ROLE] };
      return { result: true, entity: { type: 'User', id: user.id }, before: null, after, events: [] };
    },
  );
  try {
    return await created;
  } catch (error) {
    // Two processes starting together: the second one's insert hits the unique username.
    if (await consoleAdminExists(tenants)) return false;
    throw error;
  }
}

export type WelcomeResult = { ok: true; userId: string } | { ok: false; reason: 'exists' | 'sign_in_failed' };

/**
 * The welcome page (OSS first run): creates the first console admin and signs them in with the same credentials, so
 * the sign-in is audited and counted like any other. `exists` when another admin came first.
 */
export async function welcomeFirstConsoleAdmin(
  tenants: TenantDbs,
  credentials: { username: string; password: string },
  meta: Omit<SignInAttempt, 'identifier' | 'password'>,
): Promise<WelcomeResult> {
  if (!(await createFirstConsoleAdmin(tenants, credentials))) return { ok: false, reason: 'exists' };
  const result = await attemptSignIn(tenants.of(ADMIN_TENANT_ID), {
    identifier: credentials.username,
    password: credentials.password,
    ...meta,
  });
  return result.ok ? result : { ok: false, reason: 'sign_in_failed' };
}

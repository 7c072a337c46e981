import {
  ADMIN_TENANT_ID,
  DomainError,
  emailRegex,
  generateId,
  type PasswordRejectionCode,
  type UsernamePolicyViolation,
  usernamePolicyViolation,
  usernameSchema,
} from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { recordDailyActiveUser } from './daily-active-users.ts';
import { type EmailBlockReason, emailBlockReason } from './email-blocklist.ts';
import { interactionEventData } from './interaction-events.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD } from './passwords.ts';
import type { PwnedCheck } from './pwned-passwords.ts';
import { passwordRejections, readSignInExperienceSettings } from './sign-in-experience.ts';
import { performWrite } from './write-path.ts';

export const REGISTER_LOG_KEY = 'Interaction.Register.Submit';

/**
 * Who may create an account on a tenant's sign-in page. The admin tenant holds console accounts:
 * in the cloud edition anyone may sign up (onboarding follows); the OSS console has one
 * installation's admins, created by the welcome page or the CLI, so its registration is closed.
 */
export function registrationOpen(tenantId: string, edition: Config['edition']): boolean {
  return tenantId !== ADMIN_TENANT_ID || edition === 'cloud';
}

const registrationSchema = z.object({
  username: usernameSchema.optional(),
  email: z.string().max(128).regex(emailRegex).optional(),
  /** Digits only, as phones are stored. */
  phone: z
    .string()
    .regex(/^\d{4,20}$/)
    .optional(),
  /** Already hashed (Argon2id) by {@link prepareRegistration}; absent for a passwordless sign-up. */
  passwordEncrypted: z.string().optional(),
  /** The address was proven with an emailed code. */
  emailVerified: z.boolean(),
  /** The number was proven with a texted code. */
  phoneVerified: z.boolean().optional(),
});
export type Registration = z.infer<typeof registrationSchema>;

export type RegistrationResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'taken' }
  | { ok: false; reason: 'rejected'; rejections: PasswordRejectionCode[] };

export type PreparedRegistration =
  | { ok: true; registration: Registration }
  | { ok: false; reason: 'taken_username' | 'taken_email' | 'taken_phone' }
  | { ok: false; reason: 'email_blocked'; blocked: EmailBlockReason }
  | { ok: false; reason: 'username_policy'; violation: UsernamePolicyViolation }
  | { ok: false; reason: 'rejected'; rejections: PasswordRejectionCode[] };

/**
 * Before an account is made (or a code sent to prove its address): the username must follow the tenant's username
 * policy (lengths and character classes, as the reference's sign-up checks it: `user.username_<violation>`), the email
 * must pass the tenant's blocklist, the username and email must be free, and the password pass the tenant's policy
 * (pwned check included); the password is hashed here, so what waits for a code holds no plain password.
 */
export async function prepareRegistration(
  tenant: TenantDb,
  input: {
    username?: string | undefined;
    email?: string | undefined;
    phone?: string | undefined;
    password?: string | undefined;
  },
  meta: Meta,
  pwned?: PwnedCheck,
): Promise<PreparedRegistration> {
  const settings = input.username || input.email ? await readSignInExperienceSettings(tenant) : undefined;
  // The tenant's username policy and email blocklist first: a refused username or address is not worth a lookup.
  const violation =
    input.username && settings ? usernamePolicyViolation(input.username, settings.usernamePolicy) : undefined;
  if (violation) {
    await auditRefused(tenant, input, `user.username_${violation}`, meta);
    return { ok: false, reason: 'username_policy', violation };
  }
  const blocked = input.email && settings ? emailBlockReason(input.email, settings.emailBlocklistPolicy) : undefined;
  if (blocked) {
    await auditRefused(tenant, input, `email_blocked.${blocked}`, meta);
    return { ok: false, reason: 'email_blocked', blocked };
  }
  const phone = input.phone ? input.phone.replace(/\D/g, '') : undefined;
  if (phone && (await tenant.findOne(users, eq(users.primaryPhone, phone)))) {
    await auditRefused(tenant, input, 'user.phone_already_in_use', meta);
    return { ok: false, reason: 'taken_phone' };
  }
  const username = input.username?.toLowerCase();
  if (username && (await tenant.findOne(users, sql`lower(${users.username}) = ${username}`))) {
    await auditRefused(tenant, input, 'user.username_already_in_use', meta);
    return { ok: false, reason: 'taken_username' };
  }
  const email = input.email?.toLowerCase();
  if (email && (await tenant.findOne(users, sql`lower(${users.primaryEmail}) = ${email}`))) {
    await auditRefused(tenant, input, 'user.email_already_in_use', meta);
    return { ok: false, reason: 'taken_email' };
  }
  if (input.password === undefined) {
    return { ok: true, registration: { username: input.username, email: input.email, phone, emailVerified: false } };
  }
  const rejections = await passwordRejections(
    tenant,
    input.password,
    { username: input.username, primaryEmail: input.email },
    pwned,
  );
  if (rejections.length > 0) return { ok: false, reason: 'rejected', rejections };
  return {
    ok: true,
    registration: {
      username: input.username,
      email: input.email,
      phone,
      passwordEncrypted: await hashPassword(input.password),
      emailVerified: false,
    },
  };
}

/** A sign-up refused (a username the policy refuses, a blocked or taken identifier): audited as a failed attempt. */
function auditRefused(
  tenant: TenantDb,
  input: { username?: string | undefined; email?: string | undefined },
  error: string,
  meta: Meta,
) {
  return tenant.insert(logs, {
    id: generateId(),
    key: REGISTER_LOG_KEY,
    applicationId: meta.applicationId ?? null,
    payload: {
      result: 'Error',
      error,
      username: input.username,
      email: input.email,
      ip: meta.ip,
      userAgent: meta.userAgent,
    },
  });
}

type Meta = {
  applicationId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
  log?: Pick<Logger, 'warn'> | undefined;
};

/**
 * Creates an account prepared by {@link prepareRegistration} (and, when asked, proven by a code): the user, its audit
 * entry and the PostRegister and User.Created events in one transaction. A taken username or email
 * is a result, not an error, and is audited as a failed attempt. The new user counts as active today.
 */
export async function registerUser(tenant: TenantDb, input: Registration, meta: Meta): Promise<RegistrationResult> {
  try {
    const userId = await performWrite(
      { tenant, actor: { type: 'system', id: 'registration' }, ip: meta.ip, userAgent: meta.userAgent },
      { key: REGISTER_LOG_KEY, schema: registrationSchema, input },
      async (tx, valid) => {
        const user = await tx.insert(users, {
          id: generateId(12),
          username: valid.username ?? null,
          primaryEmail: valid.email ?? null,
          primaryEmailVerified: valid.email !== undefined && valid.emailVerified,
          primaryPhone: valid.phone ?? null,
          primaryPhoneVerified: valid.phone !== undefined && valid.phoneVerified === true,
          passwordEncrypted: valid.passwordEncrypted ?? null,
          passwordEncryptionMethod: valid.passwordEncrypted ? PASSWORD_ENCRYPTION_METHOD : null,
        });
        const after = { id: user.id, username: user.username, primaryEmail: user.primaryEmail };
        return {
          result: user.id,
          entity: { type: 'User', id: user.id },
          before: null,
          after,
          events: [
            { event: 'PostRegister', data: await interactionEventData(tx, 'PostRegister', user, meta) },
            { event: 'User.Created', data: after },
          ],
        };
      },
    );
    await recordDailyActiveUser(tenant, userId, meta.log);
    return { ok: true, userId };
  } catch (error) {
    if (error instanceof DomainError && (error.kind === 'conflict' || error.kind === 'unprocessable')) {
      await auditRefused(tenant, input, error.code, meta);
      return { ok: false, reason: 'taken' };
    }
    throw error;
  }
}

import {
  ADMIN_TENANT_ID,
  checkPassword,
  emailRegex,
  generateId,
  type PasswordRejectionCode,
  usernameSchema,
} from '@gatehouse/schemas';
import type { Interaction } from 'oidc-provider';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { ApiError } from '../http/errors.ts';
import { recordDailyActiveUser } from './daily-active-users.ts';
import { interactionEventData } from './interaction-events.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD } from './passwords.ts';
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

/**
 * Spec §2.4: the sign-up screen comes first for interaction_mode=signUp or a register first screen; the page's own
 * links (`?screen=register|sign_in`) switch between the two.
 */
export function wantsSignUp(interaction: Pick<Interaction, 'params'>, screen: string | undefined): boolean {
  if (screen === 'register') return true;
  if (screen === 'sign_in') return false;
  const { interaction_mode: mode, first_screen: firstScreen } = interaction.params;
  return mode === 'signUp' || firstScreen === 'register' || firstScreen === 'identifier:register';
}

const registrationSchema = z.object({
  username: usernameSchema,
  email: z.string().max(128).regex(emailRegex).optional(),
  password: z.string(),
});
export type Registration = z.infer<typeof registrationSchema>;

export type RegistrationResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'taken' }
  | { ok: false; reason: 'rejected'; rejections: PasswordRejectionCode[] };

type Meta = {
  applicationId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
  log?: Pick<Logger, 'warn'> | undefined;
};

/**
 * Creates an account from the sign-up page: the password policy first, then the user, its audit
 * entry and the PostRegister and User.Created events in one transaction. A taken username or email
 * is a result, not an error, and is audited as a failed attempt. The new user counts as active today.
 */
export async function registerUser(tenant: TenantDb, input: Registration, meta: Meta): Promise<RegistrationResult> {
  const rejections = checkPassword(input.password, undefined, { username: input.username, primaryEmail: input.email });
  if (rejections.length > 0) return { ok: false, reason: 'rejected', rejections };
  const passwordEncrypted = await hashPassword(input.password);
  try {
    const userId = await performWrite(
      { tenant, actor: { type: 'system', id: 'registration' }, ip: meta.ip, userAgent: meta.userAgent },
      { key: REGISTER_LOG_KEY, schema: registrationSchema, input },
      async (tx, valid) => {
        const user = await tx.insert(users, {
          id: generateId(12),
          username: valid.username,
          primaryEmail: valid.email ?? null,
          passwordEncrypted,
          passwordEncryptionMethod: PASSWORD_ENCRYPTION_METHOD,
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
    if (error instanceof ApiError && error.status === 422) {
      await tenant.insert(logs, {
        id: generateId(),
        key: REGISTER_LOG_KEY,
        applicationId: meta.applicationId ?? null,
        payload: {
          result: 'Error',
          error: error.code,
          username: input.username,
          ip: meta.ip,
          userAgent: meta.userAgent,
        },
      });
      return { ok: false, reason: 'taken' };
    }
    throw error;
  }
}

import { randomInt } from 'node:crypto';
import { generateId, type Language, type LogKey, type PasswordRejectionCode } from '@gatehouse/schemas';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { logs, passwordResetCodes, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { renderPasswordResetCode } from './email-templates.ts';
import { type InteractionMeta, queueInteractionEvent } from './interaction-events.ts';
import type { MessageDelivery } from './message-delivery.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { PwnedCheck } from './pwned-passwords.ts';
import { passwordRejections } from './sign-in-experience.ts';
import { encryptPassword } from './user-passwords.ts';
import { endUserSessions } from './user-sessions.ts';

/** Audit-log keys of the forgot-password flow, as the reference product names them. */
export const FORGOT_PASSWORD_CREATE_LOG_KEY = 'Interaction.ForgotPassword.Create';
export const FORGOT_PASSWORD_SUBMIT_LOG_KEY = 'Interaction.ForgotPassword.Submit';

/** A 6-digit code, valid 10 minutes, refused after 5 tries. */
export const RESET_CODE = { digits: 6, ttlMinutes: 10, maxAttempts: 5 } as const;
/** Codes sent per email address and per IP within the window (counted from the audit log, like sign-in lockout). */
export const RESET_RATE_LIMIT = { perAddress: 5, perIp: 20, windowMinutes: 60 } as const;

export type ResetMeta = InteractionMeta & { log?: Pick<Logger, 'warn'> | undefined };

type RecordOptions = { key: LogKey; result: 'Success' | 'Error'; email: string; meta: ResetMeta; userId?: string };

function record(tenant: TenantDb, { key, result, email, meta, userId }: RecordOptions, extra = {}) {
  return tenant.insert(logs, {
    id: generateId(),
    key,
    userId: userId ?? null,
    applicationId: meta.applicationId ?? null,
    payload: { result, email, ip: meta.ip, userAgent: meta.userAgent, ...extra },
  });
}

const normalize = (email: string) => email.trim().toLowerCase();
const userByEmail = (tenant: TenantDb, email: string) =>
  tenant.findOne(users, sql`lower(${users.primaryEmail}) = ${email}`);

/**
 * "Forgot password?": emails a new code to the user with this primary email, replacing any earlier code.
 * The caller answers the same way whatever happens here (unknown address, suspended user, rate limit),
 * and the email is sent in the background so the answer time does not tell either; every request is audited.
 */
export async function requestPasswordReset(
  tenant: TenantDb,
  input: { email: string; language: Language; delivery: MessageDelivery },
  meta: ResetMeta,
): Promise<void> {
  const email = normalize(input.email);
  const entry = (result: 'Success' | 'Error', userId?: string) =>
    ({ key: FORGOT_PASSWORD_CREATE_LOG_KEY, result, email, meta, ...(userId ? { userId } : {}) }) as const;
  const since = new Date(Date.now() - RESET_RATE_LIMIT.windowMinutes * 60_000);
  const recent = (field: 'email' | 'ip', value: string, cap: number) =>
    tenant.countUpTo(
      logs,
      and(
        eq(logs.key, FORGOT_PASSWORD_CREATE_LOG_KEY),
        gt(logs.createdAt, since),
        sql`${logs.payload}->>${field} = ${value}`,
      ),
      cap,
    );
  if (
    (await recent('email', email, RESET_RATE_LIMIT.perAddress)) >= RESET_RATE_LIMIT.perAddress ||
    (meta.ip !== undefined && (await recent('ip', meta.ip, RESET_RATE_LIMIT.perIp)) >= RESET_RATE_LIMIT.perIp)
  ) {
    await record(tenant, entry('Error'), { error: 'rate_limited' });
    return;
  }
  const code = String(randomInt(0, 10 ** RESET_CODE.digits)).padStart(RESET_CODE.digits, '0');
  // Hashed whether or not the user exists, so the answer time is the same.
  const codeHash = await hashPassword(code);
  const user = await userByEmail(tenant, email);
  if (!user || user.isSuspended) {
    await record(tenant, entry('Error', user?.id), { error: user ? 'suspended' : 'user_not_found' });
    return;
  }
  await tenant.transaction(async (tx) => {
    await tx.delete(passwordResetCodes, eq(passwordResetCodes.userId, user.id));
    await tx.insert(passwordResetCodes, {
      id: generateId(),
      userId: user.id,
      codeHash,
      expiresAt: new Date(Date.now() + RESET_CODE.ttlMinutes * 60_000),
    });
    await record(tx, entry('Success', user.id));
  });
  const builtIn = renderPasswordResetCode(input.language, { code, minutes: RESET_CODE.ttlMinutes });
  void input.delivery
    .sendEmail(tenant, {
      to: user.primaryEmail ?? email,
      usage: 'ForgotPassword',
      language: input.language,
      values: { code, minutes: String(RESET_CODE.ttlMinutes), email },
      builtIn,
    })
    .then(
      (sent) => {
        if (!sent.sent) meta.log?.warn({ error: sent.error, userId: user.id }, 'password reset code not sent');
      },
      (error: unknown) => meta.log?.warn({ error: String(error), userId: user.id }, 'password reset code not sent'),
    );
}

export type ResetResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid_code' | 'too_many_attempts' }
  | { ok: false; reason: 'rejected'; rejections: PasswordRejectionCode[] };

/**
 * Replaces the password of the user with this email when the code is theirs, live and within its attempts.
 * Every try counts against the code before it is checked (so parallel guesses cannot exceed the limit); a
 * password the tenant's policy refuses leaves everything unchanged and the code usable. On success the code
 * is spent, all the user's sessions, grants and refresh tokens end, and PostResetPassword is queued with the
 * audit entry, in one transaction.
 */
export async function resetPassword(
  tenant: TenantDb,
  input: { email: string; code: string; password: string; pwned?: PwnedCheck | undefined },
  meta: ResetMeta,
): Promise<ResetResult> {
  const email = normalize(input.email);
  const fail = async (reason: 'invalid_code' | 'too_many_attempts', error: string, userId?: string) => {
    await record(
      tenant,
      { key: FORGOT_PASSWORD_SUBMIT_LOG_KEY, result: 'Error', email, meta, ...(userId ? { userId } : {}) },
      { error },
    );
    return { ok: false, reason } as const;
  };
  const user = await userByEmail(tenant, email);
  if (!user) return fail('invalid_code', 'user_not_found');
  if (user.isSuspended) return fail('invalid_code', 'suspended', user.id);
  const [latest] = await tenant.findMany(passwordResetCodes, {
    where: and(eq(passwordResetCodes.userId, user.id), isNull(passwordResetCodes.consumedAt)),
    orderBy: [desc(passwordResetCodes.createdAt)],
    limit: 1,
  });
  if (!latest) return fail('invalid_code', 'code_not_found', user.id);
  if (latest.expiresAt.getTime() <= Date.now()) return fail('invalid_code', 'code_expired', user.id);
  const [counted] = await tenant.update(
    passwordResetCodes,
    and(eq(passwordResetCodes.id, latest.id), lt(passwordResetCodes.attempts, RESET_CODE.maxAttempts)) ?? sql`false`,
    { attempts: sql`${passwordResetCodes.attempts} + 1` as unknown as number },
  );
  if (!counted) return fail('too_many_attempts', 'too_many_attempts', user.id);
  const code = input.code.replace(/\s/g, '');
  if (!/^\d+$/.test(code) || !(await verifyPassword(latest.codeHash, code).catch(() => false))) {
    return fail(
      counted.attempts >= RESET_CODE.maxAttempts ? 'too_many_attempts' : 'invalid_code',
      'invalid_code',
      user.id,
    );
  }
  const rejections = await passwordRejections(tenant, input.password, user, input.pwned);
  if (rejections.length > 0) {
    // The code was right: give the try back so choosing a password does not use up the code.
    await tenant.update(passwordResetCodes, eq(passwordResetCodes.id, latest.id), {
      attempts: sql`${passwordResetCodes.attempts} - 1` as unknown as number,
    });
    await record(
      tenant,
      { key: FORGOT_PASSWORD_SUBMIT_LOG_KEY, result: 'Error', email, meta, userId: user.id },
      { error: 'password_rejected', rejections },
    );
    return { ok: false, reason: 'rejected', rejections };
  }
  const columns = await encryptPassword(input.password);
  const done = await tenant.transaction(async (tx) => {
    const [spent] = await tx.update(
      passwordResetCodes,
      and(eq(passwordResetCodes.id, latest.id), isNull(passwordResetCodes.consumedAt)) ?? sql`false`,
      { consumedAt: new Date() },
    );
    if (!spent) return false;
    // The code went to the primary email and came back: the address is proven.
    const [updated = user] = await tx.update(users, eq(users.id, user.id), { ...columns, primaryEmailVerified: true });
    const ended = await endUserSessions(tx, user.id);
    await record(
      tx,
      { key: FORGOT_PASSWORD_SUBMIT_LOG_KEY, result: 'Success', email, meta, userId: user.id },
      { sessionsEnded: ended },
    );
    await queueInteractionEvent(tx, 'PostResetPassword', updated, meta);
    return true;
  });
  // A parallel submit of the same code won the race.
  if (!done) return fail('invalid_code', 'code_used', user.id);
  return { ok: true, userId: user.id };
}

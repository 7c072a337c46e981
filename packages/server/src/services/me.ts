import {
  checkPassword,
  DomainError,
  generateId,
  type Language,
  type Me,
  type MePatch,
  profileImageMaxBytes,
  profileImageMimeTypes,
  rowNotFound,
} from '@gatehouse/schemas';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import { logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { LOCKOUT } from './account-lockout.ts';
import { type CodeMeta, sendInteractionCode, verifyInteractionCode } from './interaction-codes.ts';
import type { MessageDelivery } from './message-delivery.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD, verifyPassword } from './passwords.ts';
import { type AssetStorage, isAllowedType, newAssetName, sniffImageType } from './user-assets.ts';
import { createPasswordVerification, isValidPasswordVerification } from './verification-records.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/** The 'me' API's operations (spec §7): the signed-in console user's own account, in the admin tenant. */

type User = typeof users.$inferSelect;

/** Audit-log key of a failed or successful check of the current password. */
export const PASSWORD_VERIFY_LOG_KEY = 'Account.Password.Verify';

export function toMe(user: User): Me {
  return {
    id: user.id,
    username: user.username,
    primaryEmail: user.primaryEmail,
    primaryEmailVerified: user.primaryEmail !== null && user.primaryEmailVerified,
    primaryPhone: user.primaryPhone,
    name: user.name,
    avatar: user.avatar,
    customData: user.customData,
    identities: user.identities,
    hasPassword: Boolean(user.passwordEncrypted),
    lastSignInAt: user.lastSignInAt?.getTime() ?? null,
    createdAt: user.createdAt.getTime(),
    updatedAt: user.updatedAt.getTime(),
  };
}

/** The token's user; a deleted or suspended account holds a token until it expires, but it opens nothing. */
export async function currentUser(tenant: TenantDb, userId: string): Promise<User> {
  const user = await tenant.findOne(users, eq(users.id, userId));
  if (!user || user.isSuspended) throw new DomainError('unauthorized', 'auth.unauthorized', { reason: 'subject' });
  return user;
}

/** One write of the signed-in user's row through the write path (toMe never holds the password hash). */
function updateAccount(
  ctx: WriteContext,
  key: 'Account.Profile.Updated' | 'Account.CustomData.Updated' | 'Account.Password.Updated' | 'Account.Email.Verified',
  values: Partial<User>,
): Promise<User> {
  const userId = ctx.actor.id;
  return performWrite(ctx, key, async (tx) => {
    const before = await tx.findOne(users, eq(users.id, userId));
    if (!before) throw rowNotFound();
    const [after] = await tx.update(users, eq(users.id, userId), { ...values, updatedAt: new Date() });
    if (!after) throw rowNotFound();
    return { result: after, entity: { type: 'User', id: userId }, before: toMe(before), after: toMe(after) };
  });
}

export async function updateMe(ctx: WriteContext, patch: MePatch): Promise<User> {
  await currentUser(ctx.tenant, ctx.actor.id);
  return updateAccount(ctx, 'Account.Profile.Updated', patch);
}

export async function setMyCustomData(ctx: WriteContext, customData: Record<string, unknown>): Promise<User> {
  await currentUser(ctx.tenant, ctx.actor.id);
  return updateAccount(ctx, 'Account.CustomData.Updated', { customData });
}

/**
 * Checks the current password and answers a verification record (valid for 10 minutes). Every check is logged;
 * after too many wrong ones within the lockout window, 429 without checking.
 */
export async function verifyMyPassword(
  tenant: TenantDb,
  keys: SigningKeyStore,
  userId: string,
  password: string,
  userAgent: string | undefined,
) {
  const user = await currentUser(tenant, userId);
  const since = new Date(Date.now() - LOCKOUT.windowMinutes * 60_000);
  const failures = await tenant.count(
    logs,
    and(
      eq(logs.key, PASSWORD_VERIFY_LOG_KEY),
      eq(logs.userId, user.id),
      gt(logs.createdAt, since),
      sql`${logs.payload}->>'result' = 'Error'`,
    ),
  );
  const record = (result: 'Success' | 'Error') =>
    tenant.insert(logs, {
      id: generateId(),
      key: PASSWORD_VERIFY_LOG_KEY,
      userId: user.id,
      payload: { result, userAgent },
    });
  if (failures >= LOCKOUT.maxFailures) {
    await record('Error');
    throw new DomainError('throttled', 'session.invalid_credentials', { locked: true });
  }
  const matches = user.passwordEncrypted
    ? await verifyPassword(user.passwordEncrypted, password).catch(() => false)
    : false;
  await record(matches ? 'Success' : 'Error');
  if (!matches) throw new DomainError('unprocessable', 'session.invalid_credentials');
  return createPasswordVerification(keys, user);
}

/**
 * The codes of an account proving its primary email live with the sign-in interactions' codes (the same 6 digits,
 * 10 minutes, 5 tries, rate limits per address and IP), under a key of the account instead of an interaction.
 */
const emailCodeKey = (userId: string) => `me:${userId}`;

/**
 * Emails a code to the account's primary email, for {@link verifyMyEmail} (issue 39, item 6: tenant invitations open
 * only for a proven address). An address already proven gets no code. 400 `user.email_not_set` without an address,
 * 429 `verification_code.too_many_requests` past the rate limit.
 */
export async function sendMyEmailCode(
  tenant: TenantDb,
  userId: string,
  deps: { delivery: MessageDelivery; language: Language },
  meta: CodeMeta,
): Promise<void> {
  const user = await currentUser(tenant, userId);
  if (!user.primaryEmail) throw new DomainError('invalid', 'user.email_not_set');
  if (user.primaryEmailVerified) return;
  const sent = await sendInteractionCode(
    tenant,
    {
      interactionId: emailCodeKey(user.id),
      purpose: 'VerifyEmail',
      email: user.primaryEmail,
      language: deps.language,
      delivery: deps.delivery,
      userId: user.id,
    },
    meta,
  );
  if (!sent) throw new DomainError('throttled', 'verification_code.too_many_requests');
}

/**
 * Checks the emailed code and marks the primary email proven (audited). The code must have gone to the address the
 * account has now: one sent before the address changed proves nothing. 422 `verification_code.code_mismatch` for a
 * wrong, spent or expired code, 429 `verification_code.exceed_max_try` after 5 wrong ones (ask for a new code).
 */
export async function verifyMyEmail(ctx: WriteContext, code: string, meta: CodeMeta): Promise<User> {
  const user = await currentUser(ctx.tenant, ctx.actor.id);
  const checked = await verifyInteractionCode(
    ctx.tenant,
    { interactionId: emailCodeKey(user.id), purpose: 'VerifyEmail', code },
    meta,
  );
  if (!checked.ok && checked.reason === 'too_many_attempts') {
    throw new DomainError('throttled', 'verification_code.exceed_max_try');
  }
  if (!checked.ok || !user.primaryEmail || checked.email !== user.primaryEmail.trim().toLowerCase()) {
    throw new DomainError('unprocessable', 'verification_code.code_mismatch');
  }
  return updateAccount(ctx, 'Account.Email.Verified', { primaryEmailVerified: true });
}

/** Sets a new password; a user who has one proves it first (a fresh verification record). */
export async function changeMyPassword(
  ctx: WriteContext,
  keys: SigningKeyStore,
  input: { password: string; verificationRecordId?: string | undefined },
): Promise<void> {
  const user = await currentUser(ctx.tenant, ctx.actor.id);
  const { password, verificationRecordId } = input;
  if (
    user.passwordEncrypted &&
    !(verificationRecordId && (await isValidPasswordVerification(keys, verificationRecordId, user)))
  ) {
    throw new DomainError('unprocessable', 'verification_record.invalid');
  }
  const rejections = checkPassword(password, undefined, user);
  if (rejections.length > 0) throw new DomainError('unprocessable', 'password.rejected', { rejections });
  const passwordEncrypted = await hashPassword(password);
  await updateAccount(ctx, 'Account.Password.Updated', {
    passwordEncrypted,
    passwordEncryptionMethod: PASSWORD_ENCRYPTION_METHOD,
  });
}

/** Stores an uploaded profile image after checking its size and its real (sniffed) type; answers its name. */
export async function storeProfileImage(storage: AssetStorage, tenantId: string, file: unknown): Promise<string> {
  if (!(file instanceof File)) throw new DomainError('invalid', 'user_assets.file_missing');
  if (file.size > profileImageMaxBytes) {
    throw new DomainError('too_large', 'user_assets.file_too_large', { maxUploadFileSize: profileImageMaxBytes });
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffImageType(bytes);
  if (!type || !isAllowedType(type, profileImageMimeTypes)) {
    throw new DomainError('unsupported_type', 'user_assets.unsupported_type', {
      allowUploadMimeTypes: profileImageMimeTypes,
    });
  }
  const name = newAssetName(type);
  await storage.put(tenantId, name, bytes);
  return name;
}

import { generateId, loosePhoneRegex, type SignInIdentifier } from '@gatehouse/schemas';
import { eq, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { allOf, anyOf } from '../db/conditions.ts';
import { logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { LOCKOUT, lockoutOf, lockoutState } from './account-lockout.ts';
import type { FailureThrottle, ThrottleKey } from './failure-throttle.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { SIGN_IN_LOG_KEY } from './sign-in-completion.ts';
import { encryptPassword, needsRehash, verifyStoredPassword } from './user-passwords.ts';

export { LOCKOUT, SIGN_IN_LOG_KEY };

/**
 * Wrong passwords allowed from one IP address per window, whatever the accounts, before that address is refused
 * (guessing one password across many accounts). Generous, because many people can share one address (a company or
 * school NAT), and per tenant.
 */
export const SIGN_IN_IP_LIMIT = { maxFailures: 100, windowMinutes: 15 } as const;

export type SignInAttempt = {
  identifier: string;
  password: string;
  applicationId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
  log?: Pick<Logger, 'warn'> | undefined;
  /** Counts wrong passwords per IP address ({@link SIGN_IN_IP_LIMIT}); the server's, shared by its requests. */
  ipThrottle?: FailureThrottle | undefined;
  /** What the typed identifier may be (the sign-in experience's password methods); username and email by default. */
  identifiers?: readonly SignInIdentifier[] | undefined;
};
export type SignInResult =
  | { ok: true; userId: string; detail?: Record<string, unknown> }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; retryAfterMinutes: number };

// Verifying against a real hash when the user does not exist keeps the answer time the same,
// so timing does not reveal which usernames exist.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(generateId());
  return dummyHash;
}

/** Phone numbers are stored as digits; a typed one may carry spaces, dashes, brackets or a leading plus. */
const phoneDigits = (typed: string) => (loosePhoneRegex.test(typed) ? typed.replace(/\D/g, '') : undefined);

/** The user a typed identifier names, among the kinds of identifier the tenant signs in with. */
export function findByIdentifier(tenant: TenantDb, identifier: string, kinds: readonly SignInIdentifier[]) {
  const phone = phoneDigits(identifier);
  const conditions = kinds.flatMap((kind) => {
    if (kind === 'username') return [sql`lower(${users.username}) = ${identifier}`];
    if (kind === 'email') return [sql`lower(${users.primaryEmail}) = ${identifier}`];
    return phone ? [eq(users.primaryPhone, phone)] : [];
  });
  return conditions.length > 0 ? tenant.findOne(users, anyOf(...conditions)) : Promise.resolve(undefined);
}

/**
 * Checks a username/email and password, with lockout; every failed attempt is written to the audit log. A correct
 * password is the first factor only: the sign-in is recorded (audit entry, PostSignIn, daily active user) by
 * `completeSignIn` when the whole interaction has succeeded, MFA included. Failures count from the user's last
 * completed sign-in, so a sign-in ends the count.
 *
 * The lockout holds under concurrency: under a per-account lock, one short transaction counts the failures in the
 * window and either refuses or writes this attempt's audit entry as a failure in advance (`error: 'checking'`),
 * before the password hash is checked outside any transaction. Parallel guesses therefore see each other: at most
 * the tenant's `maxFailures` passwords are ever checked per window, and a crash mid-check leaves a failure, never a free guess. The
 * entry gets its final result when the check ends.
 */
export async function attemptSignIn(tenant: TenantDb, attempt: SignInAttempt): Promise<SignInResult> {
  const ipKeys: ThrottleKey[] = attempt.ip
    ? [[`sign-in ${tenant.tenantId} ${attempt.ip}`, SIGN_IN_IP_LIMIT.maxFailures]]
    : [];
  const ipWait = (await attempt.ipThrottle?.retryAfter(ipKeys)) ?? 0;
  // Refused before any lookup or hash: an address over its limit costs the server nothing more.
  if (ipWait > 0) return { ok: false, reason: 'locked', retryAfterMinutes: Math.ceil(ipWait / 60) };
  const identifier = attempt.identifier.trim().toLowerCase();
  const attemptId = generateId();
  const entry = (result: 'Success' | 'Error', extra: Record<string, unknown>) => ({
    result,
    identifier,
    ip: attempt.ip,
    userAgent: attempt.userAgent,
    ...extra,
  });

  const user = await findByIdentifier(tenant, identifier, attempt.identifiers ?? ['username', 'email']);
  const ofAccount = user
    ? eq(logs.userId, user.id)
    : allOf(isNull(logs.userId), sql`${logs.payload}->>'identifier' = ${identifier}`);

  const lockout = await lockoutOf(tenant);
  const windowStart = new Date(
    Math.max(Date.now() - lockout.windowMinutes * 60_000, user?.lastSignInAt?.getTime() ?? 0),
  );
  const gate = await tenant.transaction(async (tx) => {
    const state = await lockoutState(tx, {
      account: user ? `user:${user.id}` : `identifier:${identifier}`,
      key: SIGN_IN_LOG_KEY,
      entries: ofAccount,
      since: windowStart,
      lockout,
    });
    await tx.insert(logs, {
      id: attemptId,
      key: SIGN_IN_LOG_KEY,
      userId: user?.id ?? null,
      applicationId: attempt.applicationId ?? null,
      payload: entry('Error', { error: state.locked ? 'locked' : 'checking' }),
    });
    return state;
  });
  if (gate.locked) return { ok: false, reason: 'locked', retryAfterMinutes: gate.retryAfterMinutes };

  /** The attempt's audit entry gets its final result. */
  const finish = (db: TenantDb, result: 'Success' | 'Error', extra: Record<string, unknown>) =>
    db.update(logs, eq(logs.id, attemptId), { payload: entry(result, extra) });

  const matches = user?.passwordEncrypted
    ? await verifyStoredPassword(user.passwordEncryptionMethod, user.passwordEncrypted, attempt.password)
    : await verifyPassword(await getDummyHash(), attempt.password).catch(() => false);
  if (!user?.passwordEncrypted || !matches || user.isSuspended) {
    await finish(tenant, 'Error', { error: user?.isSuspended ? 'suspended' : 'invalid_credentials' });
    await attempt.ipThrottle?.fail(ipKeys);
    return { ok: false, reason: 'invalid' };
  }
  // An imported hash (SHA-256, MD5, another Argon2 variant or cost…) becomes Argon2id now that we know the password.
  const upgrade = needsRehash(user.passwordEncryptionMethod, user.passwordEncrypted)
    ? await encryptPassword(attempt.password)
    : undefined;
  await tenant.transaction(async (tx) => {
    if (upgrade) await tx.update(users, eq(users.id, user.id), upgrade);
    // The entry written in advance was this attempt's failure in case it never ended; it did, and the sign-in's own
    // entry comes at its completion.
    await tx.delete(logs, eq(logs.id, attemptId));
  });
  // Said by the sign-in's entry (completeSignIn).
  const detail = { identifier, ...(upgrade ? { passwordUpgradedFrom: user.passwordEncryptionMethod } : {}) };
  return { ok: true, userId: user.id, detail };
}

/**
 * The first factor of a sign-in by code: the user whose email address (or phone number) a code just proved, which
 * counts as verified from now on. A suspended user or an address with no account is refused, audited like a wrong password.
 */
export async function signInWithProvenAddress(
  tenant: TenantDb,
  address: { kind: 'email' | 'phone'; value: string },
  meta: Omit<SignInAttempt, 'identifier' | 'password' | 'ipThrottle' | 'identifiers'>,
): Promise<SignInResult> {
  const identifier = address.value.trim().toLowerCase();
  const user = await findByIdentifier(tenant, identifier, [address.kind]);
  const payload = (result: 'Success' | 'Error', extra: Record<string, unknown> = {}) => ({
    result,
    identifier,
    method: 'VerificationCode',
    ip: meta.ip,
    userAgent: meta.userAgent,
    ...extra,
  });
  if (!user || user.isSuspended) {
    await tenant.insert(logs, {
      id: generateId(),
      key: SIGN_IN_LOG_KEY,
      userId: user?.id ?? null,
      applicationId: meta.applicationId ?? null,
      payload: payload('Error', { error: user ? 'suspended' : 'user_not_found' }),
    });
    return { ok: false, reason: 'invalid' };
  }
  await tenant.update(
    users,
    eq(users.id, user.id),
    address.kind === 'email' ? { primaryEmailVerified: true } : { primaryPhoneVerified: true },
  );
  return { ok: true, userId: user.id };
}

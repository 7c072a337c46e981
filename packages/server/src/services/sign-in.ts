import { generateId } from '@gatehouse/schemas';
import { and, asc, eq, gt, or, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { recordDailyActiveUser } from './daily-active-users.ts';
import { queueInteractionEvent } from './interaction-events.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { encryptPassword, needsRehash, verifyStoredPassword } from './user-passwords.ts';

/** After this many failures for one identifier within the window, sign-in is refused until the oldest one expires. */
export const LOCKOUT = { maxFailures: 5, windowMinutes: 15 } as const;
export const SIGN_IN_LOG_KEY = 'Interaction.SignIn.Submit';

export type SignInAttempt = {
  identifier: string;
  password: string;
  applicationId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
  log?: Pick<Logger, 'warn'> | undefined;
};
export type SignInResult =
  | { ok: true; userId: string }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; retryAfterMinutes: number };

// Verifying against a real hash when the user does not exist keeps the answer time the same,
// so timing does not reveal which usernames exist.
let dummyHash: Promise<string> | undefined;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(generateId());
  return dummyHash;
}

/**
 * Checks a username/email and password, with lockout; every attempt is written to the audit log. A
 * success also queues PostSignIn (in the same transaction as its audit entry) and marks the user
 * active today.
 */
export async function attemptSignIn(tenant: TenantDb, attempt: SignInAttempt): Promise<SignInResult> {
  const identifier = attempt.identifier.trim().toLowerCase();
  const record = (
    result: 'Success' | 'Error',
    extra: Record<string, unknown> = {},
    userId?: string,
    db: TenantDb = tenant,
  ) =>
    db.insert(logs, {
      id: generateId(),
      key: SIGN_IN_LOG_KEY,
      userId: userId ?? null,
      applicationId: attempt.applicationId ?? null,
      payload: { result, identifier, ip: attempt.ip, userAgent: attempt.userAgent, ...extra },
    });

  const windowStart = new Date(Date.now() - LOCKOUT.windowMinutes * 60_000);
  const failures = await tenant.findMany(logs, {
    where: and(
      eq(logs.key, SIGN_IN_LOG_KEY),
      gt(logs.createdAt, windowStart),
      sql`${logs.payload}->>'identifier' = ${identifier}`,
      sql`${logs.payload}->>'result' = 'Error'`,
    ),
    orderBy: [asc(logs.createdAt)],
    limit: LOCKOUT.maxFailures,
  });
  if (failures.length >= LOCKOUT.maxFailures) {
    const oldest = failures[0]?.createdAt.getTime() ?? Date.now();
    const retryAfterMinutes = Math.max(1, Math.ceil((oldest + LOCKOUT.windowMinutes * 60_000 - Date.now()) / 60_000));
    await record('Error', { error: 'locked' });
    return { ok: false, reason: 'locked', retryAfterMinutes };
  }

  const user = await tenant.findOne(
    users,
    or(sql`lower(${users.username}) = ${identifier}`, sql`lower(${users.primaryEmail}) = ${identifier}`) as SQL,
  );
  const matches = user?.passwordEncrypted
    ? await verifyStoredPassword(user.passwordEncryptionMethod, user.passwordEncrypted, attempt.password)
    : await verifyPassword(await getDummyHash(), attempt.password).catch(() => false);
  if (!user?.passwordEncrypted || !matches || user.isSuspended) {
    await record('Error', { error: user?.isSuspended ? 'suspended' : 'invalid_credentials' }, user?.id);
    return { ok: false, reason: 'invalid' };
  }
  // An imported hash (SHA-256, MD5, another Argon2 variant or cost…) becomes Argon2id now that we know the password.
  const upgrade = needsRehash(user.passwordEncryptionMethod, user.passwordEncrypted)
    ? await encryptPassword(attempt.password)
    : {};
  await tenant.transaction(async (tx) => {
    const [signedIn = user] = await tx.update(users, eq(users.id, user.id), { lastSignInAt: new Date(), ...upgrade });
    await record(
      'Success',
      'passwordEncrypted' in upgrade ? { passwordUpgradedFrom: user.passwordEncryptionMethod } : {},
      user.id,
      tx,
    );
    await queueInteractionEvent(tx, 'PostSignIn', signedIn, attempt);
  });
  await recordDailyActiveUser(tenant, user.id, attempt.log);
  return { ok: true, userId: user.id };
}

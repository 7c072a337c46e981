import { generateId } from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { logs, users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { recordDailyActiveUser } from './daily-active-users.ts';
import { applyIdentityLink, type IdentityLink } from './identity-linker.ts';
import { type InteractionMeta, queueInteractionEvent } from './interaction-events.ts';

/** The sign-in's audit key: one entry per sign-in, written when the whole interaction has succeeded. */
export const SIGN_IN_LOG_KEY = 'Interaction.SignIn.Submit';

/** How the user proved who they are first (the audit entry's `method`, as the reference names them). */
export type FirstFactorMethod =
  | 'Password'
  | 'VerificationCode'
  | 'Social'
  | 'SingleSignOn'
  | 'Registration'
  | 'Passkey';
/** The second step that followed, if any. */
export type SecondFactorMethod = 'Totp' | 'BackupCode' | 'TotpBound' | 'WebAuthn' | 'WebAuthnBound';

/**
 * What a first factor proved, kept in the interaction while a second step is open (so plain JSON): the user, whether
 * the interaction made the account (`sign_up`) or signed in to one, the method and what the audit entry should say of
 * it (the connector, how an identity was linked).
 */
export type FirstFactor = {
  userId: string;
  moment: 'sign_in' | 'sign_up';
  method: FirstFactorMethod;
  detail?: Record<string, unknown> | undefined;
  /** A sign-in through another provider: what it changes on the account (identity-linker.ts). */
  link?: IdentityLink | undefined;
};

export type CompletionMeta = InteractionMeta & { interactionId: string; log?: Pick<Logger, 'warn'> | undefined };

/**
 * The one place a sign-in is recorded, called only when the whole interaction has succeeded (every factor the
 * tenant asks for passed), just before the provider issues the login:
 * - a sign-in through another provider's link to the account (identity-linker.ts): identity, profile, organizations;
 * - the user's `lastSignInAt` (which also ends the lockout count of earlier failures: services/sign-in.ts);
 * - for a sign-in, the audit entry `Interaction.SignIn.Submit` with the user, the application, the IP address, the
 *   user agent and the factors used, and PostSignIn in the outbox, in the same transaction;
 * - the daily active user.
 * A sign-up's account was recorded when it was made (`Interaction.Register.Submit`, PostRegister): the sign-in that
 * follows it in the same interaction is not a second event.
 */
export async function completeSignIn(
  tenant: TenantDb,
  first: FirstFactor,
  second: SecondFactorMethod | undefined,
  meta: CompletionMeta,
): Promise<void> {
  await tenant.transaction(async (tx) => {
    const linked = first.link ? await applyIdentityLink(tx, first.userId, first.link) : undefined;
    const [user] = await tx.update(users, eq(users.id, first.userId), { lastSignInAt: new Date() });
    if (!user || first.moment === 'sign_up') return;
    await tx.insert(logs, {
      id: generateId(),
      key: SIGN_IN_LOG_KEY,
      userId: user.id,
      applicationId: meta.applicationId ?? null,
      payload: {
        result: 'Success',
        userId: user.id,
        applicationId: meta.applicationId,
        method: first.method,
        factors: second ? [first.method, second] : [first.method],
        interactionId: meta.interactionId,
        ip: meta.ip,
        userAgent: meta.userAgent,
        ...first.detail,
        ...(linked?.organizationIds.length ? { organizationIds: linked.organizationIds } : {}),
      },
    });
    await queueInteractionEvent(tx, 'PostSignIn', user, meta);
  });
  await recordDailyActiveUser(tenant, first.userId, meta.log);
}

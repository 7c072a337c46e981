import type { Language, MeEmailChange } from '@gatehouse/schemas';
import { DomainError, rowNotFound } from '@gatehouse/schemas';
import { eq, sql } from 'drizzle-orm';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import { users } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { emailBlockReason } from './email-blocklist.ts';
import { type CodeMeta, pendingCodeEmail, sendInteractionCode, verifyInteractionCode } from './interaction-codes.ts';
import { currentUser, toMe } from './me.ts';
import type { MessageDelivery } from './message-delivery.ts';
import { readSignInExperienceSettings } from './sign-in-experience.ts';
import { isValidPasswordVerification } from './verification-records.ts';
import { performWrite, type WriteContext } from './write-path.ts';

/**
 * The cloud profile's linked email (issue 42, docs/areas/me.md "Linked accounts"): a console account links an email
 * or replaces its own by proving the new address with an emailed code, and, when the account has a password, with a
 * fresh proof of it (a stolen session must not be able to move the account to the thief's address). The address is
 * then stored as proven (`primaryEmailVerified`), so tenant invitations to it open.
 *
 * The admin tenant's rules for an address a person chooses apply: its email blocklist policy (as at sign-up), and an
 * address held by another console account is refused (`user.email_already_in_use`).
 */

type User = Awaited<ReturnType<typeof currentUser>>;

/**
 * Codes for a new address live with the interaction codes (6 digits, 10 minutes, 5 tries, the per-address and per-IP
 * rate limits), under a key of their own: asking for one never replaces a code proving the current address.
 */
const linkCodeKey = (userId: string) => `me-link:${userId}`;

const normalized = (email: string) => email.trim().toLowerCase();

/** 422 when the admin tenant's blocklist refuses the address or another account holds it. */
async function assertAddressFree(tenant: TenantDb, user: User, email: string): Promise<void> {
  const blocked = emailBlockReason(email, (await readSignInExperienceSettings(tenant)).emailBlocklistPolicy);
  if (blocked) throw new DomainError('unprocessable', 'user.email_blocked', { reason: blocked });
  const holder = await tenant.findOne(
    users,
    sql`lower(${users.primaryEmail}) = ${normalized(email)} and ${users.id} <> ${user.id}`,
  );
  if (holder) throw new DomainError('conflict', 'user.email_already_in_use');
}

/**
 * Emails a code to `email`, the address the account wants as its own. Refused before anything is sent: a blocked
 * address (422 `user.email_blocked`), one another account holds (422 `user.email_already_in_use`), past the rate
 * limit (429 `verification_code.too_many_requests`).
 */
export async function sendLinkEmailCode(
  tenant: TenantDb,
  userId: string,
  email: string,
  deps: { delivery: MessageDelivery; language: Language },
  meta: CodeMeta,
): Promise<void> {
  const user = await currentUser(tenant, userId);
  await assertAddressFree(tenant, user, email);
  const sent = await sendInteractionCode(
    tenant,
    {
      interactionId: linkCodeKey(user.id),
      purpose: 'VerifyEmail',
      email,
      language: deps.language,
      delivery: deps.delivery,
      userId: user.id,
    },
    meta,
  );
  if (!sent) throw new DomainError('throttled', 'verification_code.too_many_requests');
}

/**
 * Sets the account's email to the address the code was sent to, as proven. Checked in this order, so a refusal
 * never spends the code: the proof of the password (422 `verification_record.invalid`), the address (blocklist, in
 * use), then the code (422 `verification_code.code_mismatch` for a wrong, spent or expired one, or one sent to another
 * address; 429 `verification_code.exceed_max_try` after 5 wrong ones). Audited as `Account.Email.Updated`.
 */
export async function changeMyEmail(
  ctx: WriteContext,
  keys: SigningKeyStore,
  input: MeEmailChange,
  meta: CodeMeta,
): Promise<User> {
  const user = await currentUser(ctx.tenant, ctx.actor.id);
  const { email, code, verificationRecordId } = input;
  if (
    user.passwordEncrypted &&
    !(verificationRecordId && (await isValidPasswordVerification(keys, verificationRecordId, user)))
  ) {
    throw new DomainError('unprocessable', 'verification_record.invalid');
  }
  await assertAddressFree(ctx.tenant, user, email);
  // A code proves the address it went to only; asked for another address, it is neither tried nor spent.
  const pending = await pendingCodeEmail(ctx.tenant, linkCodeKey(user.id), 'VerifyEmail');
  if (pending !== normalized(email)) throw new DomainError('unprocessable', 'verification_code.code_mismatch');
  const checked = await verifyInteractionCode(
    ctx.tenant,
    { interactionId: linkCodeKey(user.id), purpose: 'VerifyEmail', code },
    meta,
  );
  if (!checked.ok && checked.reason === 'too_many_attempts') {
    throw new DomainError('throttled', 'verification_code.exceed_max_try');
  }
  if (!checked.ok || checked.email !== normalized(email))
    throw new DomainError('unprocessable', 'verification_code.code_mismatch');
  return performWrite(ctx, 'Account.Email.Updated', async (tx) => {
    const before = await tx.findOne(users, eq(users.id, user.id));
    if (!before) throw rowNotFound();
    // Checked again inside the write: the unique index would refuse a race, but with a 500 instead of this answer.
    await assertAddressFree(tx, user, email);
    const [after] = await tx.update(users, eq(users.id, user.id), {
      primaryEmail: email,
      primaryEmailVerified: true,
      updatedAt: new Date(),
    });
    if (!after) throw rowNotFound();
    return { result: after, entity: { type: 'User', id: user.id }, before: toMe(before), after: toMe(after) };
  });
}

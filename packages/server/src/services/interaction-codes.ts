import { randomInt } from 'node:crypto';
import { generateId, type Language } from '@gatehouse/schemas';
import { desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { allOf } from '../db/conditions.ts';
import { interactionCodes, logs } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { renderVerificationCode } from './email-templates.ts';
import type { MessageDelivery } from './message-delivery.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

/**
 * Codes emailed during a sign-in interaction: sign-up with a verified address, and sign-in by email code. The same
 * rules as the forgot-password code (6 digits, 10 minutes, 5 tries, a new code replaces the last), plus a bound to
 * the interaction: a code is only good in the browser session that asked for it.
 */
export const INTERACTION_CODE = { digits: 6, ttlMinutes: 10, maxAttempts: 5 } as const;
/** Codes sent per address and per IP within the window, counted from the audit log. */
export const INTERACTION_CODE_RATE_LIMIT = { perAddress: 5, perIp: 30, windowMinutes: 60 } as const;
export const CODE_CREATE_LOG_KEY = 'Interaction.VerificationCode.Create';
export const CODE_SUBMIT_LOG_KEY = 'Interaction.VerificationCode.Submit';

/** `VerifyEmail`: a signed-in console account proving its primary email (the 'me' API; no interaction). */
export type CodePurpose = 'Register' | 'SignIn' | 'VerifyEmail';
export type CodeMeta = {
  applicationId?: string | undefined;
  ip?: string | undefined;
  userAgent?: string | undefined;
  log?: Pick<Logger, 'warn'> | undefined;
};

const audit = (
  tenant: TenantDb,
  key: typeof CODE_CREATE_LOG_KEY | typeof CODE_SUBMIT_LOG_KEY,
  payload: Record<string, unknown>,
  meta: CodeMeta,
  userId?: string,
) =>
  tenant.insert(logs, {
    id: generateId(),
    key,
    userId: userId ?? null,
    applicationId: meta.applicationId ?? null,
    payload: { ip: meta.ip, userAgent: meta.userAgent, ...payload },
  });

/**
 * Emails a new code for `purpose` to `email` within interaction `interactionId`, replacing that interaction's earlier
 * code for the purpose. `send: false` stores the code without sending it (sign-in by code for an address with no
 * account: the page says the same either way, and nobody receives a code). Answers false when the rate limit refused.
 */
export async function sendInteractionCode(
  tenant: TenantDb,
  input: {
    interactionId: string;
    purpose: CodePurpose;
    email: string;
    pending?: Record<string, unknown>;
    language: Language;
    delivery: MessageDelivery;
    /** Where the code goes: `email` (the default) is an address, `sms` a phone number. */
    channel?: 'email' | 'sms';
    send?: boolean;
    userId?: string | undefined;
  },
  meta: CodeMeta,
): Promise<boolean> {
  const sms = input.channel === 'sms';
  const email = sms ? input.email.replace(/\D/g, '') : input.email.trim().toLowerCase();
  const since = new Date(Date.now() - INTERACTION_CODE_RATE_LIMIT.windowMinutes * 60_000);
  const recent = (field: 'email' | 'ip', value: string, cap: number) =>
    tenant.countUpTo(
      logs,
      allOf(
        eq(logs.key, CODE_CREATE_LOG_KEY),
        gt(logs.createdAt, since),
        sql`${logs.payload}->>'result' = 'Success'`,
        sql`${logs.payload}->>${field} = ${value}`,
      ),
      cap,
    );
  const { perAddress, perIp } = INTERACTION_CODE_RATE_LIMIT;
  if (
    (await recent('email', email, perAddress)) >= perAddress ||
    (meta.ip !== undefined && (await recent('ip', meta.ip, perIp)) >= perIp)
  ) {
    await audit(tenant, CODE_CREATE_LOG_KEY, { result: 'Error', error: 'rate_limited', email }, meta);
    return false;
  }
  const code = String(randomInt(0, 10 ** INTERACTION_CODE.digits)).padStart(INTERACTION_CODE.digits, '0');
  const codeHash = await hashPassword(code);
  await tenant.transaction(async (tx) => {
    // This interaction's earlier code, and long-expired ones of any interaction, go.
    await tx.delete(
      interactionCodes,
      sql`(${interactionCodes.interactionId} = ${input.interactionId} and ${interactionCodes.purpose} = ${input.purpose})
        or ${interactionCodes.expiresAt} < now() - interval '1 day'`,
    );
    await tx.insert(interactionCodes, {
      id: generateId(),
      interactionId: input.interactionId,
      purpose: input.purpose,
      email,
      codeHash,
      pending: input.pending ?? {},
      expiresAt: new Date(Date.now() + INTERACTION_CODE.ttlMinutes * 60_000),
    });
    await audit(tx, CODE_CREATE_LOG_KEY, { result: 'Success', purpose: input.purpose, email }, meta, input.userId);
  });
  if (input.send === false) return true;
  const builtIn = renderVerificationCode(input.language, {
    code,
    minutes: INTERACTION_CODE.ttlMinutes,
    purpose: input.purpose,
  });
  // Sent in the background: the answer time does not depend on the mail server (or on whether an account exists).
  const message = {
    to: email,
    // A tenant's own templates exist per usage; proving an account's email is none of sign-up and sign-in.
    usage: input.purpose === 'VerifyEmail' ? ('Generic' as const) : input.purpose,
    language: input.language,
    values: { code, minutes: String(INTERACTION_CODE.ttlMinutes), email },
    builtIn,
  };
  void (sms ? input.delivery.sendSms(tenant, message) : input.delivery.sendEmail(tenant, message)).then(
    (sent) => {
      if (!sent.sent) meta.log?.warn({ error: sent.error }, 'verification code not sent');
    },
    (error: unknown) => meta.log?.warn({ error: String(error) }, 'verification code not sent'),
  );
  return true;
}

export type CodeCheck =
  | { ok: true; email: string; pending: Record<string, unknown> }
  | { ok: false; reason: 'invalid_code' | 'too_many_attempts' | 'no_code' };

/**
 * Checks a code typed in interaction `interactionId`. Every try counts before the check, so parallel guesses cannot
 * exceed the limit; a right code is spent at once. Answers the address it was sent to and the pending data.
 */
export async function verifyInteractionCode(
  tenant: TenantDb,
  input: { interactionId: string; purpose: CodePurpose; code: string },
  meta: CodeMeta,
): Promise<CodeCheck> {
  const [latest] = await tenant.findMany(interactionCodes, {
    where: allOf(
      eq(interactionCodes.interactionId, input.interactionId),
      eq(interactionCodes.purpose, input.purpose),
      isNull(interactionCodes.consumedAt),
      gt(interactionCodes.expiresAt, new Date()),
    ),
    orderBy: [desc(interactionCodes.createdAt)],
    limit: 1,
  });
  const fail = async (reason: 'invalid_code' | 'too_many_attempts' | 'no_code', email?: string) => {
    await audit(tenant, CODE_SUBMIT_LOG_KEY, { result: 'Error', error: reason, purpose: input.purpose, email }, meta);
    return { ok: false, reason } as const;
  };
  if (!latest) return fail('no_code');
  const [counted] = await tenant.update(
    interactionCodes,
    allOf(eq(interactionCodes.id, latest.id), lt(interactionCodes.attempts, INTERACTION_CODE.maxAttempts)),
    { attempts: sql`${interactionCodes.attempts} + 1` as unknown as number },
  );
  if (!counted) return fail('too_many_attempts', latest.email);
  const code = input.code.replace(/\s/g, '');
  if (!/^\d{1,6}$/.test(code) || !(await verifyPassword(latest.codeHash, code).catch(() => false))) {
    return fail(counted.attempts >= INTERACTION_CODE.maxAttempts ? 'too_many_attempts' : 'invalid_code', latest.email);
  }
  // Spent once: a second request with the same code finds it consumed.
  const [spent] = await tenant.update(
    interactionCodes,
    allOf(eq(interactionCodes.id, latest.id), isNull(interactionCodes.consumedAt)),
    { consumedAt: new Date() },
  );
  if (!spent) return fail('invalid_code', latest.email);
  await audit(tenant, CODE_SUBMIT_LOG_KEY, { result: 'Success', purpose: input.purpose, email: latest.email }, meta);
  return { ok: true, email: latest.email, pending: latest.pending };
}

/** The address the interaction's live code was sent to (to show on the code page), if any. */
export async function pendingCodeEmail(
  tenant: TenantDb,
  interactionId: string,
  purpose: CodePurpose,
): Promise<string | undefined> {
  const [latest] = await tenant.findMany(interactionCodes, {
    where: allOf(
      eq(interactionCodes.interactionId, interactionId),
      eq(interactionCodes.purpose, purpose),
      isNull(interactionCodes.consumedAt),
    ),
    orderBy: [desc(interactionCodes.createdAt)],
    limit: 1,
  });
  return latest?.email;
}

import {
  DomainError,
  webAuthnAuthenticationResponseSchema,
  webAuthnRegistrationResponseSchema,
} from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { fromDatabaseError } from '../../db/database-errors.ts';
import { seal, unseal } from '../../db/secret-box.ts';
import { users } from '../../db/tables.ts';
import {
  bindPasskey,
  bindTotp,
  isCurrentTotpCode,
  recordPasskeyVerification,
  rememberMfaSkipped,
  verifySecondFactor,
} from '../../services/mfa-sign-in.ts';
import {
  authenticationOptions,
  passkeyAmr,
  passkeyNameOf,
  passkeysOf,
  registrationOptions,
  verifyPasskey,
  verifyRegistration,
} from '../../services/passkeys.ts';
import {
  generateTotpSecret,
  primaryIdentifier,
  totpEnrollment,
  totpIssuer,
} from '../../services/user-mfa-verifications.ts';
import { sendHtml } from '../../shared/html.ts';
import type { Env } from '../interaction-context.ts';
import { renderBackupCodesPage, renderMfaEnrollPage, renderMfaVerifyPage } from '../mfa-pages.ts';
import type { StepKit } from './kit.ts';
import { clearPending, type Pending, pendingOf, savePending } from './mfa-pending.ts';
import { passkeyAnswer } from './passkey-answer.ts';
import type { SignInStep } from './step.ts';

/**
 * The sign-in's second step (docs/areas/mfa.md). Every first factor ends in `kit.signedIn`, which asks
 * services/mfa-sign-in.ts what follows: nothing (the sign-in completes), a factor the user holds, or setting one up. While
 * the second step is open, who passed the first is kept in the interaction itself (its `result`, stored server-side
 * and reached only with the interaction's cookie), never in the browser; the key being set up is sealed there.
 */

type VerifyFactor = 'totp' | 'backup_code' | 'webauthn';

/** The factors the user holds, the passkey first (it needs nothing typed), then the app, then a backup code. */
const heldFactors = (pending: Pending): VerifyFactor[] => [
  ...(pending.webauthn ? (['webauthn'] as const) : []),
  ...(pending.totp ? (['totp'] as const) : []),
  ...(pending.backupCode ? (['backup_code'] as const) : []),
];

const verifyPage = async (
  c: Context<Env>,
  kit: StepKit,
  pending: Pending,
  asked: unknown,
  error?: string,
  status = 200,
) => {
  const open = c.get('interaction');
  const held = heldFactors(pending);
  const factor = held.find((held) => held === asked) ?? held[0] ?? 'totp';
  const switches = held
    .filter((other) => other !== factor)
    .map((other) => ({ href: `${open.page}/mfa?factor=${other}`, factor: other }));
  let passkey: { action: string; options: string } | undefined;
  if (factor === 'webauthn' && kit.relyingParty) {
    const rp = kit.relyingParty;
    const { options, challenge } = await authenticationOptions(
      rp,
      await passkeysOf(open.tenant, pending.first.userId, rp),
      'preferred',
    );
    await savePending(open, { ...pending, challenge });
    passkey = { action: `${open.page}/mfa/passkey`, options: JSON.stringify(options) };
  }
  return sendHtml(
    c,
    renderMfaVerifyPage(open.look, {
      action: `${open.page}/mfa`,
      restartAction: `${open.page}/mfa/restart`,
      factor,
      switches,
      passkey,
      error,
    }),
    status as 200,
  );
};

/** What an enrolment sets up: before passkeys, an interaction's enrolment was the authenticator app. */
const setupOf = (pending: Pending) => pending.setup ?? { totp: true, passkey: false };

const enrollPage = async (c: Context<Env>, kit: StepKit, pending: Pending, error?: string, status = 200) => {
  const open = c.get('interaction');
  const setup = setupOf(pending);
  const user = await open.tenant.findOne(users, eq(users.id, pending.first.userId));
  if (!user) return c.redirect(open.page, 303);
  let next = pending;
  let totp: { qrCode: string; secret: string } | undefined;
  if (setup.totp) {
    if (!next.secret) next = { ...next, secret: seal(generateTotpSecret()) };
    const secret = unseal(next.secret ?? '');
    const { secretQrCode } = await totpEnrollment(secret, await totpIssuer(open.tenant), primaryIdentifier(user));
    totp = { qrCode: secretQrCode, secret };
  }
  let passkey: { action: string; options: string } | undefined;
  if (setup.passkey && kit.relyingParty) {
    const rp = { ...kit.relyingParty, name: await totpIssuer(open.tenant) };
    const { options, challenge } = await registrationOptions(rp, user, []);
    next = { ...next, challenge };
    passkey = { action: `${open.page}/mfa/enroll-passkey`, options: JSON.stringify(options) };
  }
  if (next !== pending) await savePending(open, next);
  return sendHtml(
    c,
    renderMfaEnrollPage(open.look, {
      action: `${open.page}/mfa/enroll`,
      restartAction: `${open.page}/mfa/restart`,
      totp,
      passkey,
      skipAction: pending.required ? undefined : `${open.page}/mfa/skip`,
      error,
    }),
    status as 200,
  );
};

const codesPage = (c: Context<Env>, pending: Pending) => {
  const open = c.get('interaction');
  const codes = JSON.parse(unseal(pending.codes ?? '')) as string[];
  return sendHtml(c, renderBackupCodesPage(open.look, { action: `${open.page}/mfa/done`, codes }));
};

const routes = (kit: StepKit) => [
  {
    method: 'get' as const,
    path: '/mfa',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (!pending) return c.redirect(open.page, 303);
      if (pending.stage === 'verify') return verifyPage(c, kit, pending, c.req.query('factor'));
      if (pending.stage === 'enroll') return enrollPage(c, kit, pending);
      if (pending.stage === 'offer') return c.redirect(`${open.page}/passkey/offer`, 303);
      // A reload of the backup codes: the same codes, until the user says they saved them.
      return codesPage(c, pending);
    },
  },
  {
    method: 'post' as const,
    path: '/mfa',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (pending?.stage !== 'verify') return c.redirect(open.page, 303);
      const body = await c.req.parseBody();
      const factor = body.factor === 'backup_code' && pending.backupCode ? 'backup_code' : 'totp';
      const code = typeof body.code === 'string' ? body.code.trim().slice(0, 64) : '';
      const result = await verifySecondFactor(open.tenant, pending.first.userId, factor, code, kit.requestMeta(c));
      if (result.ok) return kit.complete(c, pending.first, factor === 'totp' ? 'Totp' : 'BackupCode');
      const error =
        result.reason === 'locked'
          ? open.look.text('locked', { minutes: result.retryAfterMinutes })
          : open.look.text('mfa_invalid');
      return verifyPage(c, kit, pending, factor, error, result.reason === 'locked' ? 429 : 401);
    },
  },
  {
    method: 'post' as const,
    path: '/mfa/enroll',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (pending?.stage !== 'enroll' || !pending.secret || !setupOf(pending).totp) {
        return c.redirect(`${open.page}/mfa`, 303);
      }
      const body = await c.req.parseBody();
      const code = typeof body.code === 'string' ? body.code.trim() : '';
      const secret = unseal(pending.secret);
      // Only the user's own new key is at stake here: a wrong code just asks again.
      if (!isCurrentTotpCode(secret, code)) return enrollPage(c, kit, pending, open.look.text('mfa_invalid'), 400);
      const withCodes = open.settings.mfa.factors.includes('BackupCode');
      let backupCodes: string[] | undefined;
      try {
        ({ backupCodes } = await bindTotp(
          open.tenant,
          pending.first.userId,
          secret,
          code,
          withCodes,
          kit.requestMeta(c),
        ));
      } catch (error) {
        // Another sign-in of this user set up an authenticator meanwhile: that one is asked for instead.
        const refused = fromDatabaseError(error);
        if (refused instanceof DomainError && refused.code === 'entity.unique_integrity_violation') {
          return kit.signedIn(c, pending.first);
        }
        throw error;
      }
      if (!backupCodes) return kit.complete(c, pending.first, 'TotpBound');
      const codes: Pending = { first: pending.first, stage: 'codes', codes: seal(JSON.stringify(backupCodes)) };
      await savePending(open, codes);
      return codesPage(c, codes);
    },
  },
  {
    // The passkey the user holds, as the second factor: its answer to the challenge the verify page was rendered with.
    method: 'post' as const,
    path: '/mfa/passkey',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      const rp = kit.relyingParty;
      if (pending?.stage !== 'verify' || !pending.webauthn || !rp) return c.redirect(`${open.page}/mfa`, 303);
      const { challenge } = pending;
      // A challenge answers once: the next attempt gets a new one with its page.
      await savePending(open, { ...pending, challenge: undefined });
      const response = await passkeyAnswer(c, webAuthnAuthenticationResponseSchema);
      const meta = kit.requestMeta(c);
      const result =
        challenge && response
          ? await verifyPasskey(open.tenant, rp, challenge, response, {
              userId: pending.first.userId,
              requireUserVerification: false,
            })
          : ({ ok: false, reason: 'invalid' } as const);
      await recordPasskeyVerification(
        open.tenant,
        pending.first.userId,
        result.ok,
        meta,
        result.ok ? undefined : result.reason,
      );
      if (result.ok) {
        return kit.complete(c, pending.first, 'WebAuthn', [
          'mfa',
          ...passkeyAmr(result.passkey.data, result.userVerified),
        ]);
      }
      return verifyPage(c, kit, pending, 'webauthn', open.look.text('passkey_failed'), 401);
    },
  },
  {
    // A passkey made at the enrolment: verified, stored (with backup codes when the tenant offers them).
    method: 'post' as const,
    path: '/mfa/enroll-passkey',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      const rp = kit.relyingParty;
      if (pending?.stage !== 'enroll' || !setupOf(pending).passkey || !rp) return c.redirect(`${open.page}/mfa`, 303);
      const response = await passkeyAnswer(c, webAuthnRegistrationResponseSchema);
      const userAgent = c.req.header('User-Agent');
      const verified =
        pending.challenge && response
          ? await verifyRegistration(rp, pending.challenge, response, {
              name: passkeyNameOf(userAgent),
              agent: userAgent,
            })
          : undefined;
      if (!verified) return enrollPage(c, kit, pending, open.look.text('passkey_failed'), 400);
      const withCodes = open.settings.mfa.factors.includes('BackupCode');
      let backupCodes: string[] | undefined;
      try {
        ({ backupCodes } = await bindPasskey(
          open.tenant,
          pending.first.userId,
          verified,
          withCodes,
          kit.requestMeta(c),
        ));
      } catch (error) {
        if (error instanceof DomainError && error.code === 'user.passkey_already_registered') {
          return enrollPage(c, kit, pending, open.look.text('passkey_failed'), 400);
        }
        throw error;
      }
      const amr = ['mfa', ...passkeyAmr(verified.data, false)];
      if (!backupCodes) return kit.complete(c, pending.first, 'WebAuthnBound', amr);
      const codes: Pending = {
        first: pending.first,
        stage: 'codes',
        codes: seal(JSON.stringify(backupCodes)),
        boundWith: 'WebAuthnBound',
        amr,
      };
      await savePending(open, codes);
      return codesPage(c, codes);
    },
  },
  {
    method: 'post' as const,
    path: '/mfa/done',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (pending?.stage !== 'codes') return c.redirect(`${open.page}/mfa`, 303);
      return kit.complete(c, pending.first, pending.boundWith ?? 'TotpBound', pending.amr);
    },
  },
  {
    // "Use another account": the first factor is forgotten (nothing was recorded for it), back to the first screen.
    method: 'post' as const,
    path: '/mfa/restart',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      if (pendingOf(open)) await clearPending(open);
      return c.redirect(open.page, 303);
    },
  },
  {
    method: 'post' as const,
    path: '/mfa/skip',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (pending?.stage !== 'enroll' || pending.required) return c.redirect(`${open.page}/mfa`, 303);
      await rememberMfaSkipped(open.tenant, pending.first.userId);
      return kit.complete(c, { ...pending.first, detail: { ...pending.first.detail, mfaSkipped: true } });
    },
  },
];

/** The second factor: an authenticator's code or a backup code, or setting up an authenticator. */
export const mfaStep: SignInStep = { name: 'mfa', proves: 'second_factor', routes };

import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { seal, unseal } from '../../db/secret-box.ts';
import { users } from '../../db/tables.ts';
import { ApiError, fromDatabaseError } from '../../http/errors.ts';
import { sendHtml } from '../../http/html.ts';
import { bindTotp, isCurrentTotpCode, rememberMfaSkipped, verifySecondFactor } from '../../services/mfa-sign-in.ts';
import {
  generateTotpSecret,
  primaryIdentifier,
  totpEnrollment,
  totpIssuer,
} from '../../services/user-mfa-verifications.ts';
import type { Env } from '../interaction-context.ts';
import { renderBackupCodesPage, renderMfaEnrollPage, renderMfaVerifyPage } from '../mfa-pages.ts';
import type { StepKit } from './kit.ts';
import { clearPending, type Pending, pendingOf, savePending } from './mfa-pending.ts';
import type { SignInStep } from './step.ts';

/**
 * The sign-in's second step (docs/areas/mfa.md). Every first factor ends in `kit.signedIn`, which asks
 * services/mfa-sign-in.ts what follows: nothing (the sign-in completes), a factor the user holds, or setting one up. While
 * the second step is open, who passed the first is kept in the interaction itself (its `result`, stored server-side
 * and reached only with the interaction's cookie), never in the browser; the key being set up is sealed there.
 */

const verifyPage = (c: Context<Env>, pending: Pending, asked: unknown, error?: string, status = 200) => {
  const open = c.get('interaction');
  const factor = (asked === 'backup_code' && pending.backupCode) || !pending.totp ? 'backup_code' : 'totp';
  const other = factor === 'totp' ? pending.backupCode : pending.totp;
  return sendHtml(
    c,
    renderMfaVerifyPage(open.look, {
      action: `${open.page}/mfa`,
      restartAction: `${open.page}/mfa/restart`,
      factor,
      switchHref: other ? `${open.page}/mfa?factor=${factor === 'totp' ? 'backup_code' : 'totp'}` : undefined,
      error,
    }),
    status as 200,
  );
};

const enrollPage = async (c: Context<Env>, pending: Pending, error?: string, status = 200) => {
  const open = c.get('interaction');
  let sealed = pending.secret;
  if (!sealed) {
    sealed = seal(generateTotpSecret());
    await savePending(open, { ...pending, secret: sealed });
  }
  const secret = unseal(sealed);
  const user = await open.tenant.findOne(users, eq(users.id, pending.first.userId));
  if (!user) return c.redirect(open.page, 303);
  const { secretQrCode } = await totpEnrollment(secret, await totpIssuer(open.tenant), primaryIdentifier(user));
  return sendHtml(
    c,
    renderMfaEnrollPage(open.look, {
      action: `${open.page}/mfa/enroll`,
      restartAction: `${open.page}/mfa/restart`,
      qrCode: secretQrCode,
      secret,
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
      if (pending.stage === 'verify') return verifyPage(c, pending, c.req.query('factor'));
      if (pending.stage === 'enroll') return enrollPage(c, pending);
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
      return verifyPage(c, pending, factor, error, result.reason === 'locked' ? 429 : 401);
    },
  },
  {
    method: 'post' as const,
    path: '/mfa/enroll',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (pending?.stage !== 'enroll' || !pending.secret) return c.redirect(`${open.page}/mfa`, 303);
      const body = await c.req.parseBody();
      const code = typeof body.code === 'string' ? body.code.trim() : '';
      const secret = unseal(pending.secret);
      // Only the user's own new key is at stake here: a wrong code just asks again.
      if (!isCurrentTotpCode(secret, code)) return enrollPage(c, pending, open.look.text('mfa_invalid'), 400);
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
        if (refused instanceof ApiError && refused.code === 'entity.unique_violation') {
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
    method: 'post' as const,
    path: '/mfa/done',
    prompt: 'login' as const,
    handler: async (c: Context<Env>) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (pending?.stage !== 'codes') return c.redirect(`${open.page}/mfa`, 303);
      return kit.complete(c, pending.first, 'TotpBound');
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

import { eq } from 'drizzle-orm';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { InteractionResults } from 'oidc-provider';
import { seal, unseal } from '../db/secret-box.ts';
import { users } from '../db/tables.ts';
import { ApiError, fromDatabaseError } from '../http/errors.ts';
import { sendHtml } from '../http/html.ts';
import { bindTotp, isCurrentTotpCode, type MfaMeta, mfaStepFor, verifySecondFactor } from '../services/mfa-sign-in.ts';
import { completeSignIn, type FirstFactor, type SecondFactorMethod } from '../services/sign-in-completion.ts';
import {
  generateTotpSecret,
  primaryIdentifier,
  totpEnrollment,
  totpIssuer,
} from '../services/user-mfa-verifications.ts';
import type { Env, OpenInteraction } from './interaction-context.ts';
import { renderBackupCodesPage, renderMfaEnrollPage, renderMfaVerifyPage } from './mfa-pages.ts';

/**
 * The sign-in's second step (docs/areas/mfa.md). Every first factor ends in `signedIn`, which asks
 * services/mfa-sign-in.ts what follows: nothing (the login finishes), a factor the user holds, or setting one up. While
 * the second step is open, who passed the first is kept in the interaction itself (its `result`, stored server-side
 * and reached only with the interaction's cookie), never in the browser; the key being set up is sealed there.
 */

const PENDING = 'gatehouseMfa';

type Pending = {
  /** What the first factor proved; the sign-in is recorded with it when the second step ends (completeSignIn). */
  first: FirstFactor;
  stage: 'verify' | 'enroll' | 'codes';
  /** verify: the factors the user holds. */
  totp?: boolean;
  backupCode?: boolean;
  /** enroll: whether the user may skip it. */
  required?: boolean;
  /** enroll: the new authenticator key, sealed. */
  secret?: string;
  /** codes: the new backup codes, sealed, shown again on a reload until the user says they saved them. */
  codes?: string;
};

function pendingOf(open: OpenInteraction): Pending | undefined {
  const value = (open.details.result as Record<string, unknown> | undefined)?.[PENDING];
  if (!value || typeof value !== 'object') return undefined;
  const pending = value as Partial<Pending>;
  return typeof pending.first?.userId === 'string' && ['verify', 'enroll', 'codes'].includes(String(pending.stage))
    ? (pending as Pending)
    : undefined;
}

async function savePending(open: OpenInteraction, pending: Pending): Promise<void> {
  const stored = await open.provider.Interaction.find(open.details.uid);
  if (!stored) throw new Error('the interaction is gone');
  stored.result = { [PENDING]: pending } as InteractionResults;
  await stored.persist();
}

export type MfaStepDeps = {
  interaction: (prompt?: 'login' | 'consent') => MiddlewareHandler<Env>;
  finish: (c: Context<Env>, result: InteractionResults, mergeWithLastSubmission: boolean) => Promise<Response>;
  meta: (c: Context<Env>) => MfaMeta;
};

export function mfaSteps({ interaction, finish, meta }: MfaStepDeps) {
  /** The interaction has succeeded: recorded once (completeSignIn), then the provider issues the login. */
  const login = async (c: Context<Env>, first: FirstFactor, second?: SecondFactorMethod) => {
    const open = c.get('interaction');
    await completeSignIn(open.tenant, first, second, { ...meta(c), interactionId: open.details.uid });
    const amr = second === 'BackupCode' ? ['mfa'] : second ? ['mfa', 'otp'] : undefined;
    return finish(c, { login: { accountId: first.userId, ...(amr ? { amr } : {}) } }, false);
  };

  /** Where every first factor ends: the login finishes, or the second step opens. */
  const signedIn = async (c: Context<Env>, first: FirstFactor) => {
    const open = c.get('interaction');
    const step = await mfaStepFor(open.tenant, first.userId, open.settings, first.moment);
    if (step.kind === 'none') return login(c, first);
    await savePending(
      open,
      step.kind === 'verify'
        ? { first, stage: 'verify', totp: step.totp, backupCode: step.backupCode }
        : { first, stage: 'enroll', required: step.required },
    );
    return c.redirect(`${open.page}/mfa`, 303);
  };

  const verifyPage = (c: Context<Env>, pending: Pending, asked: unknown, error?: string, status = 200) => {
    const open = c.get('interaction');
    const factor = (asked === 'backup_code' && pending.backupCode) || !pending.totp ? 'backup_code' : 'totp';
    const other = factor === 'totp' ? pending.backupCode : pending.totp;
    return sendHtml(
      c,
      renderMfaVerifyPage(open.look, {
        action: `${open.page}/mfa`,
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

  const mount = (app: Hono<Env>) => {
    app.get('/interaction/:tenantId/:uid/mfa', interaction('login'), async (c) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (!pending) return c.redirect(open.page, 303);
      if (pending.stage === 'verify') return verifyPage(c, pending, c.req.query('factor'));
      if (pending.stage === 'enroll') return enrollPage(c, pending);
      // A reload of the backup codes: the same codes, until the user says they saved them.
      return codesPage(c, pending);
    });

    app.post('/interaction/:tenantId/:uid/mfa', interaction('login'), async (c) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (pending?.stage !== 'verify') return c.redirect(open.page, 303);
      const body = await c.req.parseBody();
      const factor = body.factor === 'backup_code' && pending.backupCode ? 'backup_code' : 'totp';
      const code = typeof body.code === 'string' ? body.code.trim().slice(0, 64) : '';
      const result = await verifySecondFactor(open.tenant, pending.first.userId, factor, code, meta(c));
      if (result.ok) return login(c, pending.first, factor === 'totp' ? 'Totp' : 'BackupCode');
      const error =
        result.reason === 'locked'
          ? open.look.text('locked', { minutes: result.retryAfterMinutes })
          : open.look.text('mfa_invalid');
      return verifyPage(c, pending, factor, error, result.reason === 'locked' ? 429 : 401);
    });

    app.post('/interaction/:tenantId/:uid/mfa/enroll', interaction('login'), async (c) => {
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
        ({ backupCodes } = await bindTotp(open.tenant, pending.first.userId, secret, code, withCodes, meta(c)));
      } catch (error) {
        // Another sign-in of this user set up an authenticator meanwhile: that one is asked for instead.
        const refused = fromDatabaseError(error);
        if (refused instanceof ApiError && refused.code === 'entity.unique_violation') {
          return signedIn(c, pending.first);
        }
        throw error;
      }
      if (!backupCodes) return login(c, pending.first, 'TotpBound');
      const codes: Pending = { first: pending.first, stage: 'codes', codes: seal(JSON.stringify(backupCodes)) };
      await savePending(open, codes);
      return codesPage(c, codes);
    });

    app.post('/interaction/:tenantId/:uid/mfa/done', interaction('login'), async (c) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (pending?.stage !== 'codes') return c.redirect(`${open.page}/mfa`, 303);
      return login(c, pending.first, 'TotpBound');
    });

    app.post('/interaction/:tenantId/:uid/mfa/skip', interaction('login'), async (c) => {
      const open = c.get('interaction');
      const pending = pendingOf(open);
      if (pending?.stage !== 'enroll' || pending.required) return c.redirect(`${open.page}/mfa`, 303);
      return login(c, pending.first);
    });
  };

  return { signedIn, mount };
}

import {
  DomainError,
  webAuthnAuthenticationResponseSchema,
  webAuthnRegistrationResponseSchema,
} from '@gatehouse/schemas';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { InteractionResults } from 'oidc-provider';
import { users } from '../../db/tables.ts';
import { bindPasskey } from '../../services/mfa-sign-in.ts';
import {
  authenticationOptions,
  passkeyAmr,
  passkeyNameOf,
  passkeysOf,
  recordPasskeyFailure,
  registrationOptions,
  verifyPasskey,
  verifyRegistration,
} from '../../services/passkeys.ts';
import { SIGN_IN_LOG_KEY } from '../../services/sign-in-completion.ts';
import { totpIssuer } from '../../services/user-mfa-verifications.ts';
import { sendHtml } from '../../shared/html.ts';
import type { Env, OpenInteraction } from '../interaction-context.ts';
import { renderPasskeyOfferPage } from '../mfa-pages.ts';
import { PASSKEY_OFFER_COOKIE, type StepKit } from './kit.ts';
import { type Pending, pendingOf, savePending } from './mfa-pending.ts';
import { passkeyAnswer } from './passkey-answer.ts';
import type { SignInStep } from './step.ts';

/**
 * Signing in with a passkey alone (docs/areas/passkeys.md): the first screen's button, or the browser's autofill of the
 * identifier field, asks the browser for any passkey of this site (discoverable credentials, user verification
 * required); its answer names the user. A passkey with user verification is two factors (the device, and the PIN or
 * biometric that unlocked it), so the sign-in completes without a second step, with `amr` saying so. And after a
 * password sign-in, the offer to create one.
 */

const CHALLENGE = 'gatehousePasskey';

/** The challenge of the first screen's passkey request, kept in the interaction (server-side) until it is answered. */
async function saveChallenge(open: OpenInteraction, challenge: string | undefined): Promise<void> {
  const stored = await open.provider.Interaction.find(open.details.uid);
  if (!stored) throw new Error('the interaction is gone');
  const result = { ...(stored.result ?? {}) } as Record<string, unknown>;
  if (challenge) result[CHALLENGE] = { challenge, at: Date.now() };
  else delete result[CHALLENGE];
  stored.result = (Object.keys(result).length ? result : undefined) as InteractionResults | undefined;
  await stored.persist();
}

const challengeOf = (open: OpenInteraction): string | undefined => {
  const value = (open.details.result as Record<string, unknown> | undefined)?.[CHALLENGE] as
    | { challenge?: unknown }
    | undefined;
  return typeof value?.challenge === 'string' ? value.challenge : undefined;
};

const offerPage = async (c: Context<Env>, kit: StepKit, pending: Pending, error?: string, status = 200) => {
  const open = c.get('interaction');
  const rp = kit.relyingParty;
  const user = await open.tenant.findOne(users, eq(users.id, pending.first.userId));
  if (!rp || !user) return kit.complete(c, pending.first);
  const existing = await passkeysOf(open.tenant, user.id, rp);
  const { options, challenge } = await registrationOptions(
    { ...rp, name: await totpIssuer(open.tenant) },
    user,
    existing,
  );
  await savePending(open, { ...pending, challenge });
  return sendHtml(
    c,
    renderPasskeyOfferPage(open.look, {
      action: `${open.page}/passkey/offer`,
      skipAction: `${open.page}/passkey/offer/skip`,
      options: JSON.stringify(options),
      error,
    }),
    status as 200,
  );
};

/** Remembers in this browser that its user declined the offer (half a year), for this tenant's sign-in pages. */
const rememberDeclined = (c: Context<Env>, kit: StepKit) => {
  const open = c.get('interaction');
  const secure = kit.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  c.env.outgoing.appendHeader(
    'Set-Cookie',
    `${PASSKEY_OFFER_COOKIE}=declined; Path=/interaction/${open.tenantId}; Max-Age=${180 * 24 * 3600}; HttpOnly; SameSite=Lax${secure}`,
  );
};

export const passkeyStep: SignInStep = {
  name: 'passkey',
  proves: 'identity',
  offered: (open) => open.settings.passkeySignIn.enabled,
  routes: (kit) => [
    {
      // The options of the first screen's request (the sign-in script asks when the page loads or the button is used).
      method: 'post',
      path: '/passkey/options',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const rp = kit.relyingParty;
        if (!rp || !kit.maySignIn(open)) return c.json({ code: 'user.passkeys_unavailable' }, 404);
        const { options, challenge } = await authenticationOptions(rp, undefined, 'required');
        await saveChallenge(open, challenge);
        c.header('Cache-Control', 'no-store');
        return c.json(options);
      },
    },
    {
      method: 'post',
      path: '/passkey',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const rp = kit.relyingParty;
        if (!rp || !kit.maySignIn(open)) return c.redirect(open.page, 303);
        const challenge = challengeOf(open);
        // A challenge answers once.
        if (challenge) await saveChallenge(open, undefined);
        const response = await passkeyAnswer(c, webAuthnAuthenticationResponseSchema);
        const result =
          challenge && response
            ? await verifyPasskey(open.tenant, rp, challenge, response, { requireUserVerification: true })
            : ({ ok: false, reason: 'invalid' } as const);
        const user = result.ok ? await open.tenant.findOne(users, eq(users.id, result.userId)) : undefined;
        const meta = kit.requestMeta(c);
        if (!result.ok || !user || user.isSuspended) {
          await recordPasskeyFailure(open.tenant, SIGN_IN_LOG_KEY, {
            userId: result.ok ? result.userId : undefined,
            applicationId: meta.applicationId,
            reason: result.ok ? 'suspended' : result.reason,
            ip: meta.ip,
            userAgent: meta.userAgent,
          });
          return kit.signInAgain(c, { identifier: '', fixed: false, error: open.look.text('passkey_failed') }, 401);
        }
        return kit.complete(
          c,
          { userId: user.id, moment: 'sign_in', method: 'Passkey', detail: { passkeyId: result.passkey.id } },
          undefined,
          ['mfa', ...passkeyAmr(result.passkey.data, result.userVerified)],
        );
      },
    },
    {
      method: 'get',
      path: '/passkey/offer',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const pending = pendingOf(open);
        if (pending?.stage !== 'offer') return c.redirect(open.page, 303);
        return offerPage(c, kit, pending);
      },
    },
    {
      method: 'post',
      path: '/passkey/offer',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const pending = pendingOf(open);
        const rp = kit.relyingParty;
        if (pending?.stage !== 'offer' || !rp) return c.redirect(open.page, 303);
        const response = await passkeyAnswer(c, webAuthnRegistrationResponseSchema);
        const userAgent = c.req.header('User-Agent');
        const verified =
          pending.challenge && response
            ? await verifyRegistration(rp, pending.challenge, response, {
                name: passkeyNameOf(userAgent),
                agent: userAgent,
              })
            : undefined;
        if (!verified) return offerPage(c, kit, pending, open.look.text('passkey_failed'), 400);
        try {
          await bindPasskey(open.tenant, pending.first.userId, verified, false, kit.requestMeta(c));
        } catch (error) {
          if (error instanceof DomainError && error.code === 'user.passkey_already_registered') {
            return offerPage(c, kit, pending, open.look.text('passkey_failed'), 400);
          }
          throw error;
        }
        return kit.complete(c, { ...pending.first, detail: { ...pending.first.detail, passkeyCreated: true } });
      },
    },
    {
      method: 'post',
      path: '/passkey/offer/skip',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const pending = pendingOf(open);
        if (pending?.stage !== 'offer') return c.redirect(open.page, 303);
        rememberDeclined(c, kit);
        return kit.complete(c, pending.first);
      },
    },
  ],
};

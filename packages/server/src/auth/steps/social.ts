import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import {
  readSocialState,
  SOCIAL_COOKIE,
  signInWithSocialProfile,
  socialCallbackUrl,
  socialConnectorOf,
  socialProfile,
  startSocialSignIn,
  targetOf,
} from '../../services/social-sign-in.ts';
import type { Env } from '../interaction-context.ts';
import type { StepKit } from './kit.ts';
import type { SignInStep } from './step.ts';

const setSocialCookie = (kit: StepKit, c: Context, value: string, maxAge: number) =>
  setCookie(c, SOCIAL_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    maxAge,
    secure: kit.config.publicUrl.startsWith('https:'),
  });

const socialFailed = (kit: StepKit, c: Context<Env>, name: string, status: 400 | 403 | 502 = 400) =>
  kit.signInAgain(
    c,
    { identifier: '', fixed: false, error: c.get('interaction').look.text('social_failed', { name }) },
    status,
  );

/**
 * Social sign-in: the state, nonce and PKCE verifier go in a signed cookie bound to this interaction; the provider
 * returns to one fixed callback per connector, which hands the browser back to its interaction; there the code is
 * redeemed and the account found (by the provider's account, else a verified email) or made.
 */
export const socialStep: SignInStep = {
  name: 'social',
  proves: 'identity',
  routes: (kit) => [
    {
      method: 'get',
      path: '/social/:connectorId',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const connector = await socialConnectorOf(open.tenant, c.req.param('connectorId') ?? '');
        const link = open.social.find((entry) => entry.connectorId === c.req.param('connectorId'));
        if (!connector || !link) return kit.expired(c);
        try {
          const { url, cookie } = await startSocialSignIn(open.tenant, connector, {
            uid: open.details.uid,
            publicUrl: kit.config.publicUrl,
            outbound: kit.config.outbound,
          });
          setSocialCookie(kit, c, cookie, 600);
          return c.redirect(url.href, 303);
        } catch (error) {
          c.get('log').warn({ err: String(error), connectorId: connector.id }, 'social sign-in could not start');
          return socialFailed(kit, c, link.name, 502);
        }
      },
    },
    {
      method: 'get',
      path: '/social/:connectorId/complete',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const cookie = getCookie(c, SOCIAL_COOKIE);
        const state = await readSocialState(open.tenant, cookie);
        const connector = await socialConnectorOf(open.tenant, c.req.param('connectorId') ?? '');
        if (!state || !connector || state.uid !== open.details.uid || state.connectorId !== connector.id) {
          return kit.expired(c);
        }
        setSocialCookie(kit, c, '', 0);
        const name = open.social.find((entry) => entry.connectorId === connector.id)?.name ?? targetOf(connector);
        const callbackUrl = new URL(socialCallbackUrl(kit.config.publicUrl, open.tenantId, connector.id));
        callbackUrl.search = new URL(c.req.url).search;
        let profile: Awaited<ReturnType<typeof socialProfile>>;
        try {
          profile = await socialProfile(connector, state, callbackUrl, kit.config.outbound);
        } catch (error) {
          c.get('log').warn(
            { err: error instanceof Error ? error.message : String(error), connectorId: connector.id },
            'social sign-in failed',
          );
          return socialFailed(kit, c, name);
        }
        const result = await signInWithSocialProfile(
          open.tenant,
          connector,
          profile,
          { registration: kit.mayRegister(open) },
          kit.requestMeta(c),
        );
        if (!result.ok && result.reason === 'registration_closed') return kit.registrationClosed(c);
        if (!result.ok && result.reason === 'email_blocked') {
          return kit.signInAgain(c, { identifier: '', fixed: false, error: open.look.text('email_blocked') }, 403);
        }
        if (!result.ok) return socialFailed(kit, c, name, 403);
        // A first social sign-in that made the account is a sign-up (the MFA prompt policies tell them apart).
        return kit.signedInThrough(c, 'Social', result);
      },
    },
  ],
  outside: (kit) => [
    // The provider's fixed return address: the signed cookie says which interaction the browser goes back to.
    {
      method: 'get',
      path: '/callback/social/:tenantId/:connectorId',
      handler: async (c) => {
        const tenant = kit.tenants.of(c.req.param('tenantId') ?? '');
        const cookie = getCookie(c, SOCIAL_COOKIE);
        const state = await readSocialState(tenant, cookie).catch(() => undefined);
        if (!state || state.connectorId !== c.req.param('connectorId')) return kit.expired(c);
        const path = `social/${encodeURIComponent(state.connectorId)}/complete`;
        return kit.backToInteraction(c, state, path, new URL(c.req.url).search);
      },
    },
  ],
};

import type Provider from 'oidc-provider';
import { formActionSource, withFormActionSource } from '../../shared/form-action.ts';

/**
 * The provider's self-submitting pages whose form leads, directly or through redirects, to the client's redirect URI
 * on another origin. The issuer's CSP says `form-action 'self'`, and Chromium applies it to the form's target and to
 * every redirect that follows, so such a page, and only it, may also reach the one redirect URI the provider has
 * validated against the client; every other issuer page keeps `form-action 'self'`:
 * - `response_mode=form_post` (and `form_post.jwt`): the page posts the response to the redirect URI. Without this the
 *   user was left on a blank page (issue 37 item 1).
 * - the account switch at the end of a sign-in (the interaction signed in another account than the browser's session
 *   holds, as a social or SSO sign-in through an identity provider of the same issuer does): the page posts to the
 *   end-session confirmation, whose redirects end at the redirect URI (issue 37 item 2).
 * The auto-submit script is allowed by its hash (oidc-provider adds it to `script-src`).
 */
export function allowFormPostTargets(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    const oidc = ctx.oidc;
    if (!oidc || !ctx.response.is('html')) return;
    let redirectUri: unknown;
    const mode = oidc.params?.response_mode;
    if (oidc.redirectUriCheckPerformed && typeof mode === 'string' && mode.startsWith('form_post')) {
      redirectUri = oidc.params?.redirect_uri;
    } else if (oidc.route === 'resume' && oidc.session?.state?.postLogoutRedirectUri) {
      // The interaction's parameters were validated when the authorization request began.
      const uid = (ctx.params as { uid?: string } | undefined)?.uid;
      const interaction = uid ? await provider.Interaction.find(uid) : undefined;
      redirectUri = interaction?.params.redirect_uri;
    }
    const policy = ctx.response.get('Content-Security-Policy');
    const source = formActionSource(redirectUri);
    if (policy && source) ctx.set('Content-Security-Policy', withFormActionSource(policy, source));
  });
}

import type Provider from 'oidc-provider';
import { formActionSource, withFormActionSource } from '../../http/form-action.ts';

/**
 * `response_mode=form_post` (and `form_post.jwt`, JARM): the provider answers the authorization request with a page
 * whose form posts the response to the client's redirect URI, another origin, and the issuer's CSP says
 * `form-action 'self'`, so Chromium refused the post and the user was left on a blank page (issue 37, item 1). That
 * page, and only it, may post to the one redirect URI the provider has just validated against the client; every other
 * page of the issuer keeps `form-action 'self'`. The page's auto-submit script is allowed by its hash (oidc-provider
 * adds it to `script-src`).
 */
export function allowFormPostTarget(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    const oidc = ctx.oidc;
    if (!oidc?.redirectUriCheckPerformed || !ctx.response.is('html')) return;
    const mode = oidc.params?.response_mode;
    if (typeof mode !== 'string' || !mode.startsWith('form_post')) return;
    const policy = ctx.response.get('Content-Security-Policy');
    const source = formActionSource(oidc.params?.redirect_uri);
    if (policy && source) ctx.set('Content-Security-Policy', withFormActionSource(policy, source));
  });
}

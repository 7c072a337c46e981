import type { Context } from 'hono';
import { sendHtml } from '../../shared/html.ts';
import type { Env } from '../interaction-context.ts';
import { grantConsent } from '../oidc/consent.ts';
import { renderConsentPage } from '../sign-in-page.ts';
import type { StepKit } from './kit.ts';
import type { SignInStep } from './step.ts';

/**
 * The consent prompt. First-party applications are the tenant's own: their users are not asked. A third-party one is
 * shown to the user with everything it asks for, and gets nothing unless the user allows it.
 */
export async function consentPrompt(c: Context<Env>, kit: StepKit): Promise<Response> {
  const { provider, details, application, look, page } = c.get('interaction');
  if (!application?.isThirdParty) {
    return kit.finish(c, { consent: { grantId: await grantConsent(provider, details) } }, true);
  }
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  return sendHtml(
    c,
    renderConsentPage(look, {
      appName: look.name,
      oidcScopes: missing.missingOIDCScope ?? [],
      resourceScopes: missing.missingResourceScopes ?? {},
      allowAction: `${page}/consent`,
      denyAction: `${page}/abort`,
    }),
  );
}

export const consentStep: SignInStep = {
  name: 'consent',
  proves: 'consent',
  routes: (kit) => [
    {
      method: 'post',
      path: '/consent',
      prompt: 'consent',
      handler: async (c) => {
        const { provider, details } = c.get('interaction');
        return kit.finish(c, { consent: { grantId: await grantConsent(provider, details) } }, true);
      },
    },
    // The user refused (or cancelled): the application gets access_denied at its redirect URI, nothing else.
    {
      method: 'post',
      path: '/abort',
      handler: (c) =>
        kit.finish(c, { error: 'access_denied', error_description: 'The user did not allow the request.' }, false),
    },
  ],
};

import { identifierFormSchema, parseSignInForm, signInFormSchemaFor } from '@gatehouse/schemas';
import { attemptSignIn } from '../../services/sign-in.ts';
import { sendHtml } from '../../shared/html.ts';
import { renderCodeSignInPage, renderIdentifierPage, termsManualOn } from '../sign-in-page.ts';
import {
  codeSignIn,
  codeSignInChannels,
  identifierLabel,
  passwordIdentifiers,
  ssoOffered,
} from '../sign-in-screens.ts';
import type { SignInStep } from './step.ts';

/**
 * Sign-in with an identifier and a password: in one form, or identifier first (an identifier the tenant signs in
 * with by password leads to the password; an address that only signs in by code, to the code). An email of an
 * enterprise SSO domain goes to its identity provider instead, whichever form it was typed in.
 */
export const passwordStep: SignInStep = {
  name: 'password',
  proves: 'identity',
  routes: (kit) => [
    {
      method: 'post',
      path: '/identifier',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const { look, page, settings } = open;
        if (!kit.maySignIn(open)) return kit.signInClosed(c);
        const { form, error } = await kit.readForm(c, identifierFormSchema);
        if (error) {
          return sendHtml(
            c,
            renderIdentifierPage(look, {
              action: `${page}/identifier`,
              identifierLabel: identifierLabel(look),
              identifier: form.identifier,
              error: kit.formErrorText(look, error),
              registerHref: kit.mayRegister(open) ? `${page}?screen=register` : undefined,
              ssoHref: ssoOffered(settings) ? `${page}?screen=single_sign_on` : undefined,
            }),
            400,
          );
        }
        const sso = await kit.ssoConnectorsOf(open, form.identifier);
        if (sso.length) return kit.sendToSso(c, sso, form.identifier);
        if (passwordIdentifiers(settings).length === 0 && codeSignIn(settings, open.senders)) {
          return sendHtml(
            c,
            renderCodeSignInPage(look, {
              action: `${page}/code-sign-in`,
              backHref: page,
              email: form.identifier,
              channels: codeSignInChannels(settings, open.senders),
            }),
          );
        }
        return kit.signInAgain(c, { identifier: form.identifier, fixed: true }, 200);
      },
    },
    {
      method: 'post',
      path: '/login',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const { look, tenant, settings } = open;
        if (!kit.maySignIn(open)) return kit.signInClosed(c);
        const body = await c.req.parseBody();
        const schema = signInFormSchemaFor({ terms: termsManualOn(look, 'sign_in') });
        const { form, error } = parseSignInForm(schema, body);
        const { identifier, password } = form;
        const fixed = body.step === 'password';
        // Enterprise SSO domains sign in at their identity provider only: no password is checked, and none is needed
        // to get there (issue 37 item 7) — the form is valid but for its password, which may be left empty.
        const validButPassword = !parseSignInForm(schema, { ...body, password: '-' }).error;
        const sso = validButPassword ? await kit.ssoConnectorsOf(open, identifier) : [];
        if (sso.length) return kit.sendToSso(c, sso, identifier);
        if (error) return kit.signInAgain(c, { identifier, fixed, error: kit.formErrorText(look, error) }, 400);
        if (!(await kit.captchaPassed(c))) {
          return kit.signInAgain(c, { identifier, fixed, error: look.text('captcha_failed') }, 400);
        }
        const result = await attemptSignIn(tenant, {
          identifier,
          password,
          ...kit.requestMeta(c),
          ipThrottle: kit.signInThrottle,
          identifiers: passwordIdentifiers(settings),
        });
        if (!result.ok) {
          const message =
            result.reason === 'locked'
              ? look.text('locked', { minutes: result.retryAfterMinutes })
              : look.text('invalid_credentials');
          return kit.signInAgain(c, { identifier, fixed, error: message }, result.reason === 'locked' ? 429 : 401);
        }
        return kit.signedIn(c, { userId: result.userId, moment: 'sign_in', method: 'Password', detail: result.detail });
      },
    },
  ],
};

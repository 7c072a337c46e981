import { codeFormSchema, codeSignInFormSchemaFor } from '@gatehouse/schemas';
import { INTERACTION_CODE, sendInteractionCode, verifyInteractionCode } from '../../services/interaction-codes.ts';
import { findByIdentifier, signInWithProvenAddress } from '../../services/sign-in.ts';
import { sendHtml } from '../../shared/html.ts';
import type { OpenInteraction } from '../interaction-context.ts';
import { renderCodePage, renderCodeSignInPage, termsManualOn } from '../sign-in-page.ts';
import { codeSignIn, codeSignInChannels } from '../sign-in-screens.ts';
import type { SignInStep } from './step.ts';

const codeSignInCodePage = (open: OpenInteraction, address: string | undefined, error?: string) =>
  renderCodePage(open.look, {
    title: open.look.text('code_sign_in_title'),
    action: `${open.page}/code-sign-in/verify`,
    resendHref: `${open.page}?screen=code_sign_in`,
    backHref: open.page,
    backText: open.look.text('back_to_sign_in'),
    notice: address
      ? open.look.text('code_sent_if_account', { email: address, minutes: INTERACTION_CODE.ttlMinutes })
      : undefined,
    error,
  });

/**
 * Sign-in by a code sent to an email address or phone number. Always the same answer whether or not the address has an
 * account; a code is sent only when it has one.
 */
export const codeSignInStep: SignInStep = {
  name: 'code_sign_in',
  proves: 'identity',
  // Only when the settings have it and the tenant can send the codes.
  offered: (open) => codeSignIn(open.settings, open.senders),
  routes: (kit) => [
    {
      method: 'post',
      path: '/code-sign-in',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const { look, page, tenant } = open;
        if (!kit.maySignIn(open)) return kit.signInClosed(c);
        const channels = codeSignInChannels(open.settings, open.senders);
        const { form, error } = await kit.readForm(
          c,
          codeSignInFormSchemaFor({ terms: termsManualOn(look, 'sign_in'), ...channels }),
        );
        const again = (message: string, status: 400 | 429) =>
          sendHtml(
            c,
            renderCodeSignInPage(look, {
              action: `${page}/code-sign-in`,
              backHref: page,
              email: form.email,
              error: message,
              channels,
              captcha: kit.captchaOf(open),
            }),
            status,
          );
        if (error) return again(kit.formErrorText(look, error), 400);
        // An address with @ is an email (when email codes are on), anything else a phone number.
        const kind = channels.email && form.email.includes('@') ? 'email' : 'phone';
        const sso = kind === 'email' ? await kit.ssoConnectorsOf(open, form.email) : [];
        if (sso.length) return kit.sendToSso(c, sso, form.email);
        if (!(await kit.captchaPassed(c))) return again(look.text('captcha_failed'), 400);
        const user = await findByIdentifier(tenant, form.email.toLowerCase(), [kind]);
        const sent = await sendInteractionCode(
          tenant,
          {
            interactionId: open.details.uid,
            purpose: 'SignIn',
            email: form.email,
            channel: kind === 'email' ? 'email' : 'sms',
            language: look.language,
            delivery: kit.delivery,
            send: Boolean(user && !user.isSuspended),
            userId: user?.id,
          },
          kit.requestMeta(c),
        );
        if (!sent) return again(look.text('code_rate_limited'), 429);
        return sendHtml(c, codeSignInCodePage(open, form.email));
      },
    },
    {
      method: 'post',
      path: '/code-sign-in/verify',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        if (!kit.maySignIn(open)) return kit.signInClosed(c);
        const { form, error } = await kit.readForm(c, codeFormSchema);
        if (error) return sendHtml(c, codeSignInCodePage(open, undefined, open.look.text('reset_code_invalid')), 400);
        const checked = await verifyInteractionCode(
          open.tenant,
          { interactionId: open.details.uid, purpose: 'SignIn', code: form.code },
          kit.requestMeta(c),
        );
        const refused = (reason: 'too_many_attempts' | 'invalid_code' | 'no_code') =>
          sendHtml(
            c,
            codeSignInCodePage(
              open,
              undefined,
              open.look.text(reason === 'too_many_attempts' ? 'reset_code_exhausted' : 'reset_code_invalid'),
            ),
            reason === 'too_many_attempts' ? 429 : 400,
          );
        if (!checked.ok) return refused(checked.reason);
        // The code was sent to what the user typed: digits only for a phone number.
        const kind = checked.email.includes('@') ? 'email' : 'phone';
        const result = await signInWithProvenAddress(open.tenant, { kind, value: checked.email }, kit.requestMeta(c));
        if (!result.ok) return refused('invalid_code');
        return kit.signedIn(c, {
          userId: result.userId,
          moment: 'sign_in',
          method: 'VerificationCode',
          detail: { identifier: checked.email },
        });
      },
    },
  ],
};

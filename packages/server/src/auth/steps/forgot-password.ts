import { forgotPasswordFormSchema, resetPasswordFormSchema } from '@gatehouse/schemas';
import { RESET_CODE, requestPasswordReset, resetPassword } from '../../services/password-reset.ts';
import { sendHtml } from '../../shared/html.ts';
import { passwordRejectedText } from '../sign-in-look.ts';
import { renderForgotPasswordPage, renderResetPasswordPage } from '../sign-in-page.ts';
import { forgotPasswordByEmail } from '../sign-in-screens.ts';
import type { SignInStep } from './step.ts';

/**
 * Forgot password: an emailed code, then a new password. Always the same answer (the code page) whether or not the
 * address belongs to an account. It ends back at the sign-in form rather than signed in: the new password is proven
 * once, and any further step (MFA) still applies.
 */
export const forgotPasswordStep: SignInStep = {
  name: 'forgot_password',
  proves: 'nothing',
  // Only when codes can be emailed and the settings offer it.
  offered: (open) => forgotPasswordByEmail(open.settings, open.senders.email),
  routes: (kit) => [
    {
      method: 'get',
      path: '/forgot-password',
      prompt: 'login',
      handler: (c) => sendHtml(c, kit.screenPage(c, 'forgot_password')),
    },
    {
      method: 'post',
      path: '/forgot-password',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const { look, tenant, page } = open;
        const { form, error } = await kit.readForm(c, forgotPasswordFormSchema);
        const again = (message: string) =>
          sendHtml(
            c,
            renderForgotPasswordPage(look, {
              action: `${page}/forgot-password`,
              backHref: page,
              email: form.email,
              error: message,
              captcha: kit.captchaOf(open),
            }),
            400,
          );
        if (error) return again(kit.formErrorText(look, error));
        if (!(await kit.captchaPassed(c))) return again(look.text('captcha_failed'));
        await requestPasswordReset(
          tenant,
          { email: form.email, language: look.language, delivery: kit.delivery },
          kit.requestMeta(c),
        );
        return sendHtml(
          c,
          renderResetPasswordPage(look, {
            action: `${page}/reset-password`,
            resendHref: `${page}/forgot-password`,
            signInHref: page,
            email: form.email,
            notice: look.text('reset_sent', { email: form.email, minutes: RESET_CODE.ttlMinutes }),
          }),
        );
      },
    },
    {
      method: 'post',
      path: '/reset-password',
      prompt: 'login',
      handler: async (c) => {
        const { look, tenant, page } = c.get('interaction');
        const { form, error } = await kit.readForm(c, resetPasswordFormSchema);
        const again = (message: string, status: 400 | 429) =>
          sendHtml(
            c,
            renderResetPasswordPage(look, {
              action: `${page}/reset-password`,
              resendHref: `${page}/forgot-password`,
              signInHref: page,
              email: form.email,
              error: message,
            }),
            status,
          );
        if (error) return again(kit.formErrorText(look, error), 400);
        const result = await resetPassword(
          tenant,
          { email: form.email, code: form.code, password: form.password, pwned: kit.pwned(c) },
          kit.requestMeta(c),
        );
        if (!result.ok && result.reason === 'rejected')
          return again(passwordRejectedText(look, result.rejections), 400);
        if (!result.ok) {
          return result.reason === 'too_many_attempts'
            ? again(look.text('reset_code_exhausted'), 429)
            : again(look.text('reset_code_invalid'), 400);
        }
        return kit.signInAgain(c, { identifier: form.email, fixed: false, notice: look.text('reset_done') }, 200);
      },
    },
  ],
};

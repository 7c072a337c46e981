import { ADMIN_TENANT_ID, type SignInFormError, welcomeFormSchema } from '@gatehouse/schemas';
import { consoleAdminExists, welcomeFirstConsoleAdmin } from '../../services/console-admin.ts';
import { sendHtml } from '../../shared/html.ts';
import { renderSignInPage, renderWelcomePage, type WelcomeField } from '../sign-in-page.ts';
import { identifierLabel } from '../sign-in-screens.ts';
import type { SignInStep } from './step.ts';

/** The field each refusal of the welcome form is about: its error shows under it (issue 40, item 16). */
const welcomeErrorField: Partial<Record<SignInFormError, WelcomeField>> = {
  username_invalid: 'username',
  password_too_short: 'password',
  password_mismatch: 'password_confirm',
};

/** OSS first run: the welcome form creates the first console admin and signs in with it, in one step. */
export const welcomeStep: SignInStep = {
  name: 'welcome',
  proves: 'identity',
  routes: (kit) => [
    {
      method: 'post',
      path: '/welcome',
      prompt: 'login',
      // The welcome step exists on the OSS console's sign-in only.
      before: [
        async (c, next) => {
          if (kit.edition !== 'oss' || c.req.param('tenantId') !== ADMIN_TENANT_ID) return kit.expired(c);
          await next();
        },
      ],
      handler: async (c) => {
        const { page, look } = c.get('interaction');
        const signInPage = () =>
          renderSignInPage(look, { action: `${page}/login`, identifierLabel: identifierLabel(look) });
        if (await consoleAdminExists(kit.tenants)) return sendHtml(c, signInPage(), 409);
        const { form, error } = await kit.readForm(c, welcomeFormSchema);
        if (error) {
          // The page shows what was typed again, passwords included: it must not be kept anywhere.
          c.header('Cache-Control', 'no-store');
          return sendHtml(
            c,
            renderWelcomePage(look, {
              action: `${page}/welcome`,
              username: form.username,
              password: form.password,
              passwordConfirm: form.password_confirm,
              error: kit.formErrorText(look, error),
              errorField: welcomeErrorField[error],
            }),
            400,
          );
        }
        const credentials = { username: form.username, password: form.password };
        const result = await welcomeFirstConsoleAdmin(kit.tenants, credentials, kit.requestMeta(c));
        if (!result.ok) return sendHtml(c, signInPage(), result.reason === 'exists' ? 409 : 500);
        return kit.signedIn(c, { userId: result.userId, moment: 'sign_up', method: 'Registration' });
      },
    },
  ],
};

import {
  ADMIN_TENANT_ID,
  forgotPasswordFormSchema,
  parseSignInForm,
  registerFormSchema,
  resetPasswordFormSchema,
  signInFormSchema,
  welcomeFormSchema,
} from '@gatehouse/schemas';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import type Provider from 'oidc-provider';
import type { Interaction, InteractionResults } from 'oidc-provider';
import type { z } from 'zod';
import { consentingApplication, grantConsent } from '../auth/oidc/consent.ts';
import type { TenantProviders } from '../auth/oidc/provider.ts';
import {
  renderConsentPage,
  renderForgotPasswordPage,
  renderMessagePage,
  renderRegisterPage,
  renderResetPasswordPage,
  renderSignInPage,
  renderWelcomePage,
  SIGN_IN_STYLESHEET_PATH,
  signInStylesheet,
} from '../auth/sign-in-page.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { TenantDb } from '../db/tenant-db.ts';
import type { AppEnv } from '../http/context.ts';
import { formActionSource } from '../http/form-action.ts';
import { sendHtml } from '../http/html.ts';
import { uiLocalesLanguage } from '../i18n/messages.ts';
import { passwordRejectedText, signInFormErrorText, signInText } from '../i18n/sign-in.ts';
import { consoleAdminExists, welcomeFirstConsoleAdmin } from '../services/console-admin.ts';
import type { EmailService } from '../services/email.ts';
import { FailureThrottle } from '../services/failure-throttle.ts';
import { RESET_CODE, requestPasswordReset, resetPassword } from '../services/password-reset.ts';
import { registerUser, registrationOpen, wantsSignUp } from '../services/registration.ts';
import { attemptSignIn, SIGN_IN_IP_LIMIT } from '../services/sign-in.ts';

/** The interaction a step belongs to, found and checked once by the `interaction` guard. */
type OpenInteraction = {
  provider: Provider;
  details: Interaction;
  tenantId: string;
  /** The sign-in page of the interaction, `/interaction/{tenantId}/{uid}`; its steps are below it. */
  page: string;
};
type Env = { Bindings: HttpBindings; Variables: AppEnv['Variables'] & { interaction: OpenInteraction } };

/** The sign-in pages oidc-provider sends users to: `/interaction/{tenantId}/{uid}`. */
export function interactionRoutes(
  providers: TenantProviders,
  db: Database,
  edition: Config['edition'],
  email: EmailService,
) {
  const app = new Hono<Env>();
  const signInThrottle = new FailureThrottle(SIGN_IN_IP_LIMIT.windowMinutes * 60_000);
  /** "Forgot password?" needs a way to send the code: without SMTP the link and its pages do not exist. */
  const forgotHref = (page: string) => (email.configured ? `${page}/forgot-password` : undefined);
  const registerHref = (tenantId: string, page: string) =>
    registrationOpen(tenantId, edition) ? `${page}?screen=register` : undefined;

  app.get(SIGN_IN_STYLESHEET_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(signInStylesheet, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  const interactionDetails = async (c: Context<Env>, provider: Provider) => {
    try {
      const details = await provider.interactionDetails(c.env.incoming, c.env.outgoing);
      // The provider validated redirect_uri against the client: the page's forms may end there (form-action.ts).
      const source = formActionSource(details.params.redirect_uri);
      if (source) c.set('formActionSource', source);
      return details;
    } catch {
      return undefined;
    }
  };

  const expired = (c: Context<Env>) =>
    sendHtml(c, renderMessagePage(c.get('language'), signInText(c.get('language'), 'session_expired')), 400);

  /**
   * The guard of every step: the tenant's provider has this interaction (by its cookie), the URL names the same one,
   * and the form steps find it still at the login prompt. Anything else is an expired session.
   */
  const interaction =
    (prompt?: 'login' | 'consent'): MiddlewareHandler<Env> =>
    async (c, next) => {
      const tenantId = c.req.param('tenantId') ?? '';
      const provider = await providers.get(tenantId);
      const details = provider && (await interactionDetails(c, provider));
      if (!provider || !details || details.uid !== c.req.param('uid') || (prompt && details.prompt.name !== prompt)) {
        return expired(c);
      }
      c.set('interaction', { provider, details, tenantId, page: `/interaction/${tenantId}/${details.uid}` });
      // The application's ui_locales (OIDC Core 3.1.2.1) wins over the browser's Accept-Language.
      const asked = uiLocalesLanguage(details.params.ui_locales);
      if (asked) c.set('language', asked);
      await next();
    };
  /** The welcome step exists on the OSS console's sign-in only. */
  const firstRun: MiddlewareHandler<Env> = async (c, next) => {
    if (edition !== 'oss' || c.req.param('tenantId') !== ADMIN_TENANT_ID) return expired(c);
    await next();
  };
  /** The forgot-password steps exist only when codes can be emailed. */
  const mailConfigured: MiddlewareHandler<Env> = async (c, next) => {
    if (!email.configured) return expired(c);
    await next();
  };

  const readForm = async <Shape extends z.ZodRawShape>(c: Context<Env>, schema: z.ZodObject<Shape>) =>
    parseSignInForm(schema, await c.req.parseBody());
  /** Who is asking, for the audit log and the webhooks. */
  const requestMeta = (c: Context<Env>) => ({
    applicationId: String(c.get('interaction').details.params.client_id),
    ip: c.env.incoming.socket.remoteAddress,
    userAgent: c.req.header('User-Agent'),
    log: c.get('log'),
  });
  /** Ends the interaction: oidc-provider answers with the redirect back to the authorization endpoint. */
  const finish = async (c: Context<Env>, result: InteractionResults, mergeWithLastSubmission: boolean) => {
    await c.get('interaction').provider.interactionFinished(c.env.incoming, c.env.outgoing, result, {
      mergeWithLastSubmission,
    });
    return RESPONSE_ALREADY_SENT;
  };
  const signedIn = (c: Context<Env>, accountId: string) => finish(c, { login: { accountId } }, false);
  const registrationClosed = (c: Context<Env>) => {
    const language = c.get('language');
    const action = `${c.get('interaction').page}/login`;
    return sendHtml(c, renderSignInPage({ language, action, error: signInText(language, 'registration_closed') }), 403);
  };

  app.get('/interaction/:tenantId/:uid', interaction(), async (c) => {
    const language = c.get('language');
    const { provider, details, tenantId, page } = c.get('interaction');
    if (details.prompt.name === 'consent') {
      // First-party applications are the tenant's own: their users are not asked. A third-party one is shown to the
      // user with everything it asks for, and gets nothing unless the user allows it.
      const app = await consentingApplication(new TenantDb(db, tenantId), String(details.params.client_id));
      if (!app?.isThirdParty) return finish(c, { consent: { grantId: await grantConsent(provider, details) } }, true);
      const missing = details.prompt.details as {
        missingOIDCScope?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      return sendHtml(
        c,
        renderConsentPage({
          language,
          appName: app.name,
          oidcScopes: missing.missingOIDCScope ?? [],
          resourceScopes: missing.missingResourceScopes ?? {},
          allowAction: `${page}/consent`,
          denyAction: `${page}/abort`,
        }),
      );
    }
    // OSS first run: the welcome form creates the first admin (the cloud edition has sign-up instead).
    if (edition === 'oss' && tenantId === ADMIN_TENANT_ID && !(await consoleAdminExists(db))) {
      return sendHtml(c, renderWelcomePage({ language, action: `${page}/welcome` }));
    }
    if (wantsSignUp(details, c.req.query('screen'))) {
      if (!registrationOpen(tenantId, edition)) return registrationClosed(c);
      return sendHtml(
        c,
        renderRegisterPage({ language, action: `${page}/register`, signInHref: `${page}?screen=sign_in` }),
      );
    }
    // Spec §2.4: the application may pre-fill the identifier (`identifier`, or OIDC's `login_hint`).
    const hint = [details.params.identifier, details.params.login_hint].find(
      (value): value is string => typeof value === 'string' && value.length > 0 && value.length <= 256,
    );
    return sendHtml(
      c,
      renderSignInPage({
        language,
        action: `${page}/login`,
        identifier: hint,
        registerHref: registerHref(tenantId, page),
        forgotHref: forgotHref(page),
      }),
    );
  });

  app.post('/interaction/:tenantId/:uid/consent', interaction('consent'), async (c) => {
    const { provider, details } = c.get('interaction');
    return finish(c, { consent: { grantId: await grantConsent(provider, details) } }, true);
  });

  // The user refused (or cancelled): the application gets access_denied at its redirect URI, nothing else.
  app.post('/interaction/:tenantId/:uid/abort', interaction(), async (c) =>
    finish(c, { error: 'access_denied', error_description: 'The user did not allow the request.' }, false),
  );

  app.post('/interaction/:tenantId/:uid/register', interaction('login'), async (c) => {
    const language = c.get('language');
    const { tenantId, page } = c.get('interaction');
    if (!registrationOpen(tenantId, edition)) return registrationClosed(c);
    const { form, error } = await readForm(c, registerFormSchema);
    const { username, email: address, password } = form;
    const again = (message: string, status: 400 | 422) =>
      sendHtml(
        c,
        renderRegisterPage({
          language,
          action: `${page}/register`,
          signInHref: `${page}?screen=sign_in`,
          username,
          email: address,
          error: message,
        }),
        status,
      );
    if (error) return again(signInFormErrorText(language, error), 400);
    const result = await registerUser(
      new TenantDb(db, tenantId),
      { username, password, ...(address ? { email: address } : {}) },
      requestMeta(c),
    );
    if (!result.ok && result.reason === 'taken') return again(signInText(language, 'identifier_taken'), 422);
    if (!result.ok) return again(passwordRejectedText(language, result.rejections), 400);
    return signedIn(c, result.userId);
  });

  // First run: create the first console admin and finish the login with it, in one step.
  app.post('/interaction/:tenantId/:uid/welcome', firstRun, interaction('login'), async (c) => {
    const language = c.get('language');
    const { page } = c.get('interaction');
    const signInPage = () => renderSignInPage({ language, action: `${page}/login` });
    if (await consoleAdminExists(db)) return sendHtml(c, signInPage(), 409);
    const { form, error } = await readForm(c, welcomeFormSchema);
    if (error) {
      const message = signInFormErrorText(language, error);
      return sendHtml(
        c,
        renderWelcomePage({ language, action: `${page}/welcome`, username: form.username, error: message }),
        400,
      );
    }
    const credentials = { username: form.username, password: form.password };
    const result = await welcomeFirstConsoleAdmin(db, credentials, requestMeta(c));
    if (!result.ok) return sendHtml(c, signInPage(), result.reason === 'exists' ? 409 : 500);
    return signedIn(c, result.userId);
  });

  app.post('/interaction/:tenantId/:uid/login', interaction('login'), async (c) => {
    const language = c.get('language');
    const { tenantId, page } = c.get('interaction');
    const action = `${page}/login`;
    const { form, error } = await readForm(c, signInFormSchema);
    const { identifier, password } = form;
    if (error) {
      return sendHtml(
        c,
        renderSignInPage({
          language,
          action,
          identifier,
          error: signInFormErrorText(language, error),
          registerHref: registerHref(tenantId, page),
          forgotHref: forgotHref(page),
        }),
        400,
      );
    }
    const result = await attemptSignIn(new TenantDb(db, tenantId), {
      identifier,
      password,
      ...requestMeta(c),
      ipThrottle: signInThrottle,
    });
    if (!result.ok) {
      const message =
        result.reason === 'locked'
          ? signInText(language, 'locked', { minutes: result.retryAfterMinutes })
          : signInText(language, 'invalid_credentials');
      return sendHtml(
        c,
        renderSignInPage({
          language,
          action,
          identifier,
          error: message,
          registerHref: registerHref(tenantId, page),
          forgotHref: forgotHref(page),
        }),
        result.reason === 'locked' ? 429 : 401,
      );
    }
    return signedIn(c, result.userId);
  });

  app.get('/interaction/:tenantId/:uid/forgot-password', interaction('login'), mailConfigured, (c) => {
    const { page } = c.get('interaction');
    return sendHtml(
      c,
      renderForgotPasswordPage({ language: c.get('language'), action: `${page}/forgot-password`, signInHref: page }),
    );
  });

  // Always the same answer (the code page) whether or not the address belongs to an account.
  app.post('/interaction/:tenantId/:uid/forgot-password', interaction('login'), mailConfigured, async (c) => {
    const language = c.get('language');
    const { tenantId, page } = c.get('interaction');
    const { form, error } = await readForm(c, forgotPasswordFormSchema);
    if (error) {
      return sendHtml(
        c,
        renderForgotPasswordPage({
          language,
          action: `${page}/forgot-password`,
          signInHref: page,
          email: form.email,
          error: signInFormErrorText(language, error),
        }),
        400,
      );
    }
    await requestPasswordReset(
      new TenantDb(db, tenantId),
      { email: form.email, language, emailService: email },
      requestMeta(c),
    );
    return sendHtml(
      c,
      renderResetPasswordPage({
        language,
        action: `${page}/reset-password`,
        resendHref: `${page}/forgot-password`,
        signInHref: page,
        email: form.email,
        notice: signInText(language, 'reset_sent', { email: form.email, minutes: RESET_CODE.ttlMinutes }),
      }),
    );
  });

  app.post('/interaction/:tenantId/:uid/reset-password', interaction('login'), mailConfigured, async (c) => {
    const language = c.get('language');
    const { tenantId, page } = c.get('interaction');
    const { form, error } = await readForm(c, resetPasswordFormSchema);
    const again = (message: string, status: 400 | 429) =>
      sendHtml(
        c,
        renderResetPasswordPage({
          language,
          action: `${page}/reset-password`,
          resendHref: `${page}/forgot-password`,
          signInHref: page,
          email: form.email,
          error: message,
        }),
        status,
      );
    if (error) return again(signInFormErrorText(language, error), 400);
    const result = await resetPassword(
      new TenantDb(db, tenantId),
      { email: form.email, code: form.code, password: form.password },
      requestMeta(c),
    );
    if (!result.ok && result.reason === 'rejected')
      return again(passwordRejectedText(language, result.rejections), 400);
    if (!result.ok) {
      return result.reason === 'too_many_attempts'
        ? again(signInText(language, 'reset_code_exhausted'), 429)
        : again(signInText(language, 'reset_code_invalid'), 400);
    }
    // Back to the sign-in form rather than signed in at once: the new password is proven once, and any
    // further sign-in step (MFA) still applies.
    return sendHtml(
      c,
      renderSignInPage({
        language,
        action: `${page}/login`,
        identifier: form.email,
        notice: signInText(language, 'reset_done'),
        forgotHref: forgotHref(page),
        registerHref: registerHref(tenantId, page),
      }),
    );
  });

  return app;
}

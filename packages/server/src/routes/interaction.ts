import {
  ADMIN_TENANT_ID,
  defaultPasswordPolicy,
  emailRegex,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  usernameSchema,
} from '@gatehouse/schemas';
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { type Context, Hono } from 'hono';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { TenantProviders } from '../auth/oidc/provider.ts';
import {
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
import { type SignInKey, signInText } from '../i18n/sign-in.ts';
import { consoleAdminExists, createFirstConsoleAdmin } from '../services/console-admin.ts';
import type { EmailService } from '../services/email.ts';
import { RESET_CODE, requestPasswordReset, resetPassword } from '../services/password-reset.ts';
import { registerUser } from '../services/registration.ts';
import { attemptSignIn } from '../services/sign-in.ts';

type Env = AppEnv & { Bindings: HttpBindings };

/** Grants what the consent prompt is missing: every application is first-party until third-party apps land. */
async function grantConsent(provider: Provider, details: Interaction): Promise<string> {
  const accountId = details.session?.accountId;
  const clientId = String(details.params.client_id);
  const grant =
    (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
    new provider.Grant({ accountId, clientId });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(' '));
  }
  return grant.save();
}

/**
 * Who may create an account on a tenant's sign-in page. The admin tenant holds console accounts:
 * in the cloud edition anyone may sign up (onboarding follows); the OSS console has one
 * installation's admins, created by the welcome page or the CLI, so its registration is closed.
 */
export function registrationOpen(tenantId: string, edition: Config['edition']): boolean {
  return tenantId !== ADMIN_TENANT_ID || edition === 'cloud';
}

/** Spec §2.4: the sign-up screen comes first for interaction_mode=signUp or a register first screen. */
function wantsSignUp(interaction: Interaction, query: string | undefined): boolean {
  if (query === 'register') return true;
  if (query === 'sign_in') return false;
  const { interaction_mode: mode, first_screen: firstScreen } = interaction.params;
  return mode === 'signUp' || firstScreen === 'register' || firstScreen === 'identifier:register';
}

/** The sign-in pages oidc-provider sends users to: `/interaction/{tenantId}/{uid}`. */
export function interactionRoutes(
  providers: TenantProviders,
  db: Database,
  edition: Config['edition'],
  email: EmailService,
) {
  const app = new Hono<Env>();
  /** "Forgot password?" needs a way to send the code: without SMTP the link and its pages do not exist. */
  const forgotHref = (page: string) => (email.configured ? `${page}/forgot-password` : undefined);

  app.get(SIGN_IN_STYLESHEET_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(signInStylesheet, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  const details = async (c: Context<Env>, provider: Provider) => {
    try {
      const interaction = await provider.interactionDetails(c.env.incoming, c.env.outgoing);
      // The provider validated redirect_uri against the client: the page's forms may end there (form-action.ts).
      const source = formActionSource(interaction.params.redirect_uri);
      if (source) c.set('formActionSource', source);
      return interaction;
    } catch {
      return undefined;
    }
  };

  app.get('/interaction/:tenantId/:uid', async (c) => {
    const language = c.get('language');
    const provider = await providers.get(c.req.param('tenantId'));
    const interaction = provider && (await details(c, provider));
    if (!provider || !interaction || interaction.uid !== c.req.param('uid')) {
      return sendHtml(c, renderMessagePage(language, signInText(language, 'session_expired')), 400);
    }
    if (interaction.prompt.name === 'consent') {
      const grantId = await grantConsent(provider, interaction);
      await provider.interactionFinished(
        c.env.incoming,
        c.env.outgoing,
        { consent: { grantId } },
        {
          mergeWithLastSubmission: true,
        },
      );
      return RESPONSE_ALREADY_SENT;
    }
    // OSS first run: the welcome form creates the first admin (the cloud edition has sign-up instead).
    if (edition === 'oss' && c.req.param('tenantId') === ADMIN_TENANT_ID && !(await consoleAdminExists(db))) {
      return sendHtml(c, renderWelcomePage({ language, action: `${c.req.path}/welcome` }));
    }
    const tenantId = c.req.param('tenantId');
    const open = registrationOpen(tenantId, edition);
    if (wantsSignUp(interaction, c.req.query('screen'))) {
      if (!open) {
        return sendHtml(
          c,
          renderSignInPage({
            language,
            action: `${c.req.path}/login`,
            error: signInText(language, 'registration_closed'),
          }),
          403,
        );
      }
      return sendHtml(
        c,
        renderRegisterPage({ language, action: `${c.req.path}/register`, signInHref: `${c.req.path}?screen=sign_in` }),
      );
    }
    return sendHtml(
      c,
      renderSignInPage({
        language,
        action: `${c.req.path}/login`,
        registerHref: open ? `${c.req.path}?screen=register` : undefined,
        forgotHref: forgotHref(c.req.path),
      }),
    );
  });

  app.post('/interaction/:tenantId/:uid/register', async (c) => {
    const language = c.get('language');
    const tenantId = c.req.param('tenantId');
    const provider = await providers.get(tenantId);
    const interaction = provider && (await details(c, provider));
    if (!provider || !interaction || interaction.uid !== c.req.param('uid') || interaction.prompt.name !== 'login') {
      return sendHtml(c, renderMessagePage(language, signInText(language, 'session_expired')), 400);
    }
    const page = c.req.path.replace(/\/register$/, '');
    if (!registrationOpen(tenantId, edition)) {
      return sendHtml(
        c,
        renderSignInPage({ language, action: `${page}/login`, error: signInText(language, 'registration_closed') }),
        403,
      );
    }
    const form = await c.req.parseBody();
    const username = typeof form.username === 'string' ? form.username.trim() : '';
    const email = typeof form.email === 'string' ? form.email.trim() : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const confirm = typeof form.password_confirm === 'string' ? form.password_confirm : '';
    const again = (error: string, status: 400 | 422) =>
      sendHtml(
        c,
        renderRegisterPage({
          language,
          action: c.req.path,
          signInHref: `${page}?screen=sign_in`,
          username,
          email,
          error,
        }),
        status,
      );
    if (!usernameSchema.safeParse(username).success) return again(signInText(language, 'username_invalid'), 400);
    if (email && !emailRegex.test(email)) return again(signInText(language, 'email_invalid'), 400);
    if (password !== confirm) return again(signInText(language, 'password_mismatch'), 400);
    const result = await registerUser(
      new TenantDb(db, tenantId),
      { username, password, ...(email ? { email } : {}) },
      {
        applicationId: String(interaction.params.client_id),
        ip: c.env.incoming.socket.remoteAddress,
        userAgent: c.req.header('User-Agent'),
        log: c.get('log'),
      },
    );
    if (!result.ok && result.reason === 'taken') return again(signInText(language, 'identifier_taken'), 422);
    if (!result.ok) {
      const [first = 'password_rejected.too_short'] = result.rejections;
      const reason = signInText(language, first.replace('password_rejected.', 'rejected.') as SignInKey, {
        min: defaultPasswordPolicy.length.min,
        max: defaultPasswordPolicy.length.max,
      });
      return again(signInText(language, 'password_rejected', { reason }), 400);
    }
    await provider.interactionFinished(
      c.env.incoming,
      c.env.outgoing,
      { login: { accountId: result.userId } },
      { mergeWithLastSubmission: false },
    );
    return RESPONSE_ALREADY_SENT;
  });

  // First run: create the first console admin and finish the login with it, in one step.
  app.post('/interaction/:tenantId/:uid/welcome', async (c) => {
    const language = c.get('language');
    const provider = await providers.get(ADMIN_TENANT_ID);
    const interaction = provider && (await details(c, provider));
    if (
      edition !== 'oss' ||
      c.req.param('tenantId') !== ADMIN_TENANT_ID ||
      !provider ||
      !interaction ||
      interaction.uid !== c.req.param('uid') ||
      interaction.prompt.name !== 'login'
    ) {
      return sendHtml(c, renderMessagePage(language, signInText(language, 'session_expired')), 400);
    }
    const loginPage = c.req.path.replace(/\/welcome$/, '/login');
    if (await consoleAdminExists(db)) return sendHtml(c, renderSignInPage({ language, action: loginPage }), 409);
    const form = await c.req.parseBody();
    const username = typeof form.username === 'string' ? form.username.trim() : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const confirm = typeof form.password_confirm === 'string' ? form.password_confirm : '';
    const error = !usernameSchema.safeParse(username).success
      ? signInText(language, 'username_invalid')
      : password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH
        ? signInText(language, 'password_too_short')
        : password !== confirm
          ? signInText(language, 'password_mismatch')
          : undefined;
    if (error) return sendHtml(c, renderWelcomePage({ language, action: c.req.path, username, error }), 400);
    if (!(await createFirstConsoleAdmin(db, { username, password }))) {
      return sendHtml(c, renderSignInPage({ language, action: loginPage }), 409);
    }
    const result = await attemptSignIn(new TenantDb(db, ADMIN_TENANT_ID), {
      identifier: username,
      password,
      applicationId: String(interaction.params.client_id),
      ip: c.env.incoming.socket.remoteAddress,
      userAgent: c.req.header('User-Agent'),
      log: c.get('log'),
    });
    if (!result.ok) return sendHtml(c, renderSignInPage({ language, action: loginPage }), 500);
    await provider.interactionFinished(
      c.env.incoming,
      c.env.outgoing,
      { login: { accountId: result.userId } },
      {
        mergeWithLastSubmission: false,
      },
    );
    return RESPONSE_ALREADY_SENT;
  });

  app.post('/interaction/:tenantId/:uid/login', async (c) => {
    const language = c.get('language');
    const tenantId = c.req.param('tenantId');
    const provider = await providers.get(tenantId);
    const interaction = provider && (await details(c, provider));
    if (!provider || !interaction || interaction.uid !== c.req.param('uid') || interaction.prompt.name !== 'login') {
      return sendHtml(c, renderMessagePage(language, signInText(language, 'session_expired')), 400);
    }
    const form = await c.req.parseBody();
    const identifier = typeof form.identifier === 'string' ? form.identifier : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const action = c.req.path;
    if (!identifier.trim() || !password) {
      return sendHtml(
        c,
        renderSignInPage({ language, action, identifier, error: signInText(language, 'required') }),
        400,
      );
    }
    const result = await attemptSignIn(new TenantDb(db, tenantId), {
      identifier,
      password,
      applicationId: String(interaction.params.client_id),
      ip: c.env.incoming.socket.remoteAddress,
      userAgent: c.req.header('User-Agent'),
      log: c.get('log'),
    });
    if (!result.ok) {
      const error =
        result.reason === 'locked'
          ? signInText(language, 'locked', { minutes: result.retryAfterMinutes })
          : signInText(language, 'invalid_credentials');
      const page = action.replace(/\/login$/, '');
      return sendHtml(
        c,
        renderSignInPage({ language, action, identifier, error, forgotHref: forgotHref(page) }),
        result.reason === 'locked' ? 429 : 401,
      );
    }
    await provider.interactionFinished(
      c.env.incoming,
      c.env.outgoing,
      { login: { accountId: result.userId } },
      {
        mergeWithLastSubmission: false,
      },
    );
    return RESPONSE_ALREADY_SENT;
  });

  /** The interaction of a forgot-password step, still at its login prompt; its sign-in page path. */
  const loginInteraction = async (c: Context<Env>) => {
    const provider = await providers.get(c.req.param('tenantId') ?? '');
    const interaction = provider && (await details(c, provider));
    if (!provider || !interaction || interaction.uid !== c.req.param('uid') || interaction.prompt.name !== 'login') {
      return undefined;
    }
    return { interaction, page: `/interaction/${c.req.param('tenantId')}/${c.req.param('uid')}` };
  };
  const expired = (c: Context<Env>) =>
    sendHtml(c, renderMessagePage(c.get('language'), signInText(c.get('language'), 'session_expired')), 400);
  const meta = (c: Context<Env>, interaction: Interaction) => ({
    applicationId: String(interaction.params.client_id),
    ip: c.env.incoming.socket.remoteAddress,
    userAgent: c.req.header('User-Agent'),
    log: c.get('log'),
  });

  app.get('/interaction/:tenantId/:uid/forgot-password', async (c) => {
    const found = await loginInteraction(c);
    if (!found || !email.configured) return expired(c);
    return sendHtml(
      c,
      renderForgotPasswordPage({ language: c.get('language'), action: c.req.path, signInHref: found.page }),
    );
  });

  // Always the same answer (the code page) whether or not the address belongs to an account.
  app.post('/interaction/:tenantId/:uid/forgot-password', async (c) => {
    const language = c.get('language');
    const found = await loginInteraction(c);
    if (!found || !email.configured) return expired(c);
    const form = await c.req.parseBody();
    const address = typeof form.email === 'string' ? form.email.trim() : '';
    if (!emailRegex.test(address)) {
      return sendHtml(
        c,
        renderForgotPasswordPage({
          language,
          action: c.req.path,
          signInHref: found.page,
          email: address,
          error: signInText(language, 'email_invalid'),
        }),
        400,
      );
    }
    await requestPasswordReset(
      new TenantDb(db, c.req.param('tenantId')),
      { email: address, language, emailService: email },
      meta(c, found.interaction),
    );
    return sendHtml(
      c,
      renderResetPasswordPage({
        language,
        action: `${found.page}/reset-password`,
        resendHref: c.req.path,
        signInHref: found.page,
        email: address,
        notice: signInText(language, 'reset_sent', { email: address, minutes: RESET_CODE.ttlMinutes }),
      }),
    );
  });

  app.post('/interaction/:tenantId/:uid/reset-password', async (c) => {
    const language = c.get('language');
    const found = await loginInteraction(c);
    if (!found || !email.configured) return expired(c);
    const form = await c.req.parseBody();
    const address = typeof form.email === 'string' ? form.email.trim() : '';
    const code = typeof form.code === 'string' ? form.code : '';
    const password = typeof form.password === 'string' ? form.password : '';
    const confirm = typeof form.password_confirm === 'string' ? form.password_confirm : '';
    const again = (error: string, status: 400 | 429) =>
      sendHtml(
        c,
        renderResetPasswordPage({
          language,
          action: c.req.path,
          resendHref: `${found.page}/forgot-password`,
          signInHref: found.page,
          email: address,
          error,
        }),
        status,
      );
    if (!address || !code.trim() || !password) return again(signInText(language, 'reset_code_invalid'), 400);
    if (password !== confirm) return again(signInText(language, 'password_mismatch'), 400);
    const result = await resetPassword(
      new TenantDb(db, c.req.param('tenantId')),
      { email: address, code, password },
      meta(c, found.interaction),
    );
    if (!result.ok && result.reason === 'rejected') {
      const [first = 'password_rejected.too_short'] = result.rejections;
      const reason = signInText(language, first.replace('password_rejected.', 'rejected.') as SignInKey, {
        min: defaultPasswordPolicy.length.min,
        max: defaultPasswordPolicy.length.max,
      });
      return again(signInText(language, 'password_rejected', { reason }), 400);
    }
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
        action: `${found.page}/login`,
        identifier: address,
        notice: signInText(language, 'reset_done'),
        forgotHref: forgotHref(found.page),
        registerHref: registrationOpen(c.req.param('tenantId'), edition) ? `${found.page}?screen=register` : undefined,
      }),
    );
  });

  return app;
}

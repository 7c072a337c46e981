import {
  ADMIN_TENANT_ID,
  codeFormSchema,
  codeSignInFormSchemaFor,
  forgotPasswordFormSchema,
  identifierFormSchema,
  parseSignInForm,
  registerFormSchemaFor,
  resetPasswordFormSchema,
  type SignInExperienceSettings,
  type SignInFormError,
  type SsoProviderName,
  signInFormSchemaFor,
  ssoProviderTypeOf,
  welcomeFormSchema,
} from '@gatehouse/schemas';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie } from 'hono/cookie';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import type { z } from 'zod';
import type { Env, OpenInteraction } from '../auth/interaction-context.ts';
import { mfaSteps } from '../auth/mfa-step.ts';
import { consentingApplication, grantConsent } from '../auth/oidc/consent.ts';
import type { TenantProviders } from '../auth/oidc/provider.ts';
import { passwordRejectedText, type SignInLook } from '../auth/sign-in-look.ts';
import {
  renderCodePage,
  renderCodeSignInPage,
  renderConsentPage,
  renderContinuePage,
  renderForgotPasswordPage,
  renderIdentifierPage,
  renderMessagePage,
  renderRegisterPage,
  renderResetPasswordPage,
  renderSignInPage,
  renderSsoChoicePage,
  renderSsoEmailPage,
  renderSsoFailedPage,
  renderSsoPostPage,
  renderWelcomePage,
  SIGN_IN_STYLESHEET_PATH,
  type SsoLink,
  signInStylesheet,
  termsManualOn,
} from '../auth/sign-in-page.ts';
import {
  codeSignIn,
  codeSignInChannels,
  codeSignInLinkKey,
  forgotPasswordByEmail,
  identifierLabel,
  passwordIdentifiers,
  registerFields,
  renderScreen,
  requestedScreen,
  type Screen,
  type ScreenLinks,
  ssoOffered,
  verifiesAtSignUp,
} from '../auth/sign-in-screens.ts';
import { stylesheetVersion } from '../auth/sign-in-theme.ts';
import { brandingOverlay, type OverlaySource, tenantLook, tenantThemeStylesheet } from '../auth/tenant-look.ts';
import type { Config } from '../config.ts';
import type { TenantDbs } from '../db/tenant-db.ts';
import { formActionSource } from '../http/form-action.ts';
import { sendHtml } from '../http/html.ts';
import { negotiateLanguage, uiLocalesLanguage } from '../i18n/messages.ts';
import { signInText } from '../i18n/sign-in.ts';
import { consoleAdminExists, welcomeFirstConsoleAdmin } from '../services/console-admin.ts';
import { FailureThrottle } from '../services/failure-throttle.ts';
import { INTERACTION_CODE, sendInteractionCode, verifyInteractionCode } from '../services/interaction-codes.ts';
import type { MessageDelivery } from '../services/message-delivery.ts';
import { RESET_CODE, requestPasswordReset, resetPassword } from '../services/password-reset.ts';
import { pwnedPasswordCheck } from '../services/pwned-passwords.ts';
import { prepareRegistration, type Registration, registerUser, registrationOpen } from '../services/registration.ts';
import { attemptSignIn, findByIdentifier, SIGN_IN_IP_LIMIT, signInWithProvenAddress } from '../services/sign-in.ts';
import { readSignInExperienceSettings } from '../services/sign-in-experience.ts';
import {
  readSocialState,
  SOCIAL_COOKIE,
  shownSocialConnectors,
  signInWithSocialProfile,
  socialCallbackUrl,
  socialConnectorOf,
  socialProfile,
  startSocialSignIn,
  targetOf,
} from '../services/social-sign-in.ts';
import { ssoCallbackUrl } from '../services/sso/idp.ts';
import { findSsoConnectorRow, type SsoConnectorRow } from '../services/sso-connectors.ts';
import {
  auditSsoFailure,
  oidcProfile,
  readSamlRelay,
  readSamlResult,
  readSsoCookie,
  SSO_COOKIE,
  SsoAnswerError,
  type SsoProfile,
  samlProfile,
  samlServiceProviderMetadata,
  signInWithSsoProfile,
  signSamlResult,
  ssoConnectorMetadata,
  ssoConnectorsForEmail,
  startSsoSignIn,
} from '../services/sso-sign-in.ts';

/** The product's name on the console's own sign-in pages (the admin tenant). */
const PRODUCT_NAME = 'Gatehouse';

/**
 * The language of a sign-in page: the application's `ui_locales` (OIDC Core 3.1.2.1), then the browser's
 * Accept-Language when the tenant detects it, then the tenant's fallback language.
 */
function pageLanguage(c: Context<Env>, settings: SignInExperienceSettings, uiLocales: unknown) {
  const { autoDetect, fallbackLanguage } = settings.languageInfo;
  return (
    uiLocalesLanguage(uiLocales) ??
    (autoDetect ? negotiateLanguage(c.req.header('Accept-Language'), fallbackLanguage) : fallbackLanguage)
  );
}

/** The sign-in pages oidc-provider sends users to: `/interaction/{tenantId}/{uid}`. */
export function interactionRoutes(
  providers: TenantProviders,
  tenants: TenantDbs,
  config: Pick<Config, 'edition' | 'pwnedPasswordsUrl' | 'publicUrl' | 'outbound'>,
  delivery: MessageDelivery,
) {
  const { edition } = config;
  const app = new Hono<Env>();
  const signInThrottle = new FailureThrottle(SIGN_IN_IP_LIMIT.windowMinutes * 60_000);

  app.get(SIGN_IN_STYLESHEET_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(signInStylesheet, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  // The tenant's colours and custom CSS, with the overlay the page names (`?organization=`, `?application=`);
  // versioned by the pages' links.
  app.get('/interaction/:tenantId/theme.css', async (c) => {
    const tenant = tenants.of(c.req.param('tenantId'));
    const settings = await readSignInExperienceSettings(tenant);
    const overlay = await brandingOverlay(tenant, {
      organizationId: c.req.query('organization'),
      applicationId: c.req.query('application')?.slice(0, 21),
    });
    c.header('Cache-Control', c.req.query('v') ? 'public, max-age=31536000, immutable' : 'no-cache');
    return c.body(tenantThemeStylesheet(settings, overlay), 200, { 'Content-Type': 'text/css; charset=utf-8' });
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

  /** An expired or unknown interaction: the tenant's look when the tenant is known, in the browser's language. */
  /** The tenant's look for a page outside any interaction (the tenant named by the path). */
  const pathTenantLook = async (c: Context<Env>) => {
    const tenant = tenants.of(c.req.param('tenantId') ?? ADMIN_TENANT_ID);
    const settings = await readSignInExperienceSettings(tenant);
    return tenantLook(tenant, settings, {
      language: c.get('language'),
      name: PRODUCT_NAME,
      themeHref: themeHref(tenant.tenantId),
    });
  };

  const expired = async (c: Context<Env>) =>
    sendHtml(c, renderMessagePage(await pathTenantLook(c), signInText(c.get('language'), 'session_expired')), 400);

  /**
   * The end of an identity provider's redirects (our social and SSO callbacks): a page that goes on by itself to
   * `href` (`Refresh`) instead of one more redirect. Chromium applies the CSP `form-action` of the page whose form
   * started a chain of redirects to every hop of it: the IdP's sign-in form allows its own origin and ours, not the
   * application's redirect URI that our interaction ends at, so the chain stopped on the IdP's filled-in form (issue 37
   * item 2). A navigation of our own page starts a new chain; the CSP of our pages is unchanged.
   */
  const continueTo = async (c: Context<Env>, href: string) => {
    const look = await pathTenantLook(c);
    c.header('Refresh', `0;url=${href}`);
    c.header('Cache-Control', 'no-store');
    return sendHtml(c, renderContinuePage(look, href));
  };

  /** The theme stylesheet's address: the overlay it includes, and the version of its content. */
  const themeHref =
    (tenantId: string, source: OverlaySource = {}) =>
    (css: string) => {
      const query = new URLSearchParams();
      if (typeof source.organizationId === 'string') query.set('organization', source.organizationId);
      if (source.applicationId) query.set('application', source.applicationId);
      query.set('v', stylesheetVersion(css));
      return `/interaction/${tenantId}/theme.css?${query}`;
    };

  /**
   * The guard of every step: the tenant's provider has this interaction (by its cookie), the URL names the same one,
   * and the form steps find it still at the login prompt. Anything else is an expired session. It then loads the
   * tenant's sign-in experience and builds the page's look.
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
      const tenant = tenants.of(tenantId);
      const settings = await readSignInExperienceSettings(tenant);
      const language = pageLanguage(c, settings, details.params.ui_locales);
      c.set('language', language);
      const application = await consentingApplication(tenant, String(details.params.client_id));
      const name = tenantId === ADMIN_TENANT_ID ? PRODUCT_NAME : (application?.name ?? PRODUCT_NAME);
      // A third-party application's own branding shows on its consent page; an organization's on every page.
      const source: OverlaySource = {
        organizationId: details.params.organization_id,
        applicationId:
          details.prompt.name === 'consent' && application?.isThirdParty ? String(details.params.client_id) : undefined,
      };
      const look = await tenantLook(tenant, settings, {
        language,
        name,
        overlay: await brandingOverlay(tenant, source),
        themeHref: themeHref(tenantId, source),
      });
      c.set('interaction', {
        provider,
        details,
        tenantId,
        tenant,
        page: `/interaction/${tenantId}/${details.uid}`,
        settings,
        look,
        application,
        senders: await delivery.senders(tenant),
        social: (await shownSocialConnectors(tenant, settings, language)).map((connector) => ({
          ...connector,
          href: `/interaction/${tenantId}/${details.uid}/social/${encodeURIComponent(connector.connectorId)}`,
        })),
      });
      await next();
    };
  /** The welcome step exists on the OSS console's sign-in only. */
  const firstRun: MiddlewareHandler<Env> = async (c, next) => {
    if (edition !== 'oss' || c.req.param('tenantId') !== ADMIN_TENANT_ID) return expired(c);
    await next();
  };
  /** The forgot-password steps exist only when codes can be emailed and the settings offer them. */
  const forgotPasswordOffered: MiddlewareHandler<Env> = async (c, next) => {
    if (!forgotPasswordByEmail(c.get('interaction').settings, c.get('interaction').senders.email)) return expired(c);
    await next();
  };
  /** Sign-in by email code exists only when the settings have it and mail can be sent. */
  const codeSignInOffered: MiddlewareHandler<Env> = async (c, next) => {
    if (!codeSignIn(c.get('interaction').settings, c.get('interaction').senders)) return expired(c);
    await next();
  };

  /** Who may register here: the settings' sign-in mode, and the OSS console's closed registration. */
  const mayRegister = ({ tenantId, settings }: OpenInteraction) =>
    registrationOpen(tenantId, edition) && settings.signInMode !== 'SignIn';
  const maySignIn = ({ settings }: OpenInteraction) => settings.signInMode !== 'Register';

  /** The addresses of this interaction's screens and steps. */
  const linksOf = ({ page }: OpenInteraction): ScreenLinks => ({
    screen: (screen: Screen) => (screen === 'forgot_password' ? `${page}/forgot-password` : `${page}?screen=${screen}`),
    action: (step) => `${page}/${step}`,
  });

  const readForm = async <Shape extends z.ZodRawShape>(c: Context<Env>, schema: z.ZodObject<Shape>) =>
    parseSignInForm(schema, await c.req.parseBody());
  const formErrorText = (look: SignInLook, error: SignInFormError) => look.text(error);
  const pwned = (c: Context<Env>) => pwnedPasswordCheck(config.pwnedPasswordsUrl, c.get('log'));
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
  // Every first factor ends here: the login finishes, or the second step (MFA) opens.
  const mfa = mfaSteps({ interaction, finish, meta: requestMeta });
  const { signedIn } = mfa;
  mfa.mount(app);

  /** The first screen of a kind, with the links this interaction allows. */
  const screenPage = (c: Context<Env>, screen: Screen, extra: { identifier?: string; notice?: string } = {}) => {
    const open = c.get('interaction');
    return renderScreen(screen, {
      look: open.look,
      links: linksOf(open),
      registration: mayRegister(open),
      senders: open.senders,
      social: open.social,
      ...extra,
    });
  };
  const registrationClosed = (c: Context<Env>) => {
    const open = c.get('interaction');
    return sendHtml(
      c,
      renderSignInPage(open.look, {
        action: `${open.page}/login`,
        identifierLabel: identifierLabel(open.look),
        error: open.look.text('registration_closed'),
      }),
      403,
    );
  };
  const signInClosed = (c: Context<Env>) => {
    const open = c.get('interaction');
    return sendHtml(
      c,
      renderRegisterPage(open.look, {
        action: `${open.page}/register`,
        fields: registerFields(open.settings),
        error: open.look.text('sign_in_closed'),
      }),
      403,
    );
  };

  app.get('/interaction/:tenantId/:uid', interaction(), async (c) => {
    const open = c.get('interaction');
    const { provider, details, tenantId, page, look } = open;
    if (details.prompt.name === 'consent') {
      // First-party applications are the tenant's own: their users are not asked. A third-party one is shown to the
      // user with everything it asks for, and gets nothing unless the user allows it.
      if (!open.application?.isThirdParty) {
        return finish(c, { consent: { grantId: await grantConsent(provider, details) } }, true);
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
    // OSS first run: the welcome form creates the first admin (the cloud edition has sign-up instead).
    if (edition === 'oss' && tenantId === ADMIN_TENANT_ID && !(await consoleAdminExists(tenants))) {
      return sendHtml(c, renderWelcomePage(look, { action: `${page}/welcome` }));
    }
    // Spec §2.4 `direct_sign_in=sso:{connectorId}`: straight to that IdP when SSO is on and the connector exists.
    const direct = typeof details.params.direct_sign_in === 'string' ? details.params.direct_sign_in : '';
    if (direct.startsWith('sso:') && !c.req.query('screen') && ssoOffered(open.settings)) {
      const connector = await findSsoConnectorRow(open.tenant, direct.slice(4, 200));
      if (connector) return c.redirect(`${page}/sso/${encodeURIComponent(connector.id)}`, 303);
    }
    let screen = requestedScreen(details.params, c.req.query('screen'));
    if (screen === 'forgot_password' && !forgotPasswordByEmail(open.settings, open.senders.email)) screen = 'sign_in';
    if (screen === 'code_sign_in' && !codeSignIn(open.settings, open.senders)) screen = 'sign_in';
    if (screen === 'single_sign_on' && !ssoOffered(open.settings)) screen = 'sign_in';
    // A register-only tenant shows sign-up whatever was asked; a sign-in-only one refuses sign-up.
    if (!maySignIn(open) && screen !== 'register') screen = 'register';
    if (screen === 'register' && !mayRegister(open)) return registrationClosed(c);
    // Spec §2.4: the application may pre-fill the identifier (`identifier`, or OIDC's `login_hint`).
    const hint = [details.params.identifier, details.params.login_hint].find(
      (value): value is string => typeof value === 'string' && value.length > 0 && value.length <= 256,
    );
    return sendHtml(c, screenPage(c, screen, hint ? { identifier: hint } : {}));
  });

  app.post('/interaction/:tenantId/:uid/consent', interaction('consent'), async (c) => {
    const { provider, details } = c.get('interaction');
    return finish(c, { consent: { grantId: await grantConsent(provider, details) } }, true);
  });

  // The user refused (or cancelled): the application gets access_denied at its redirect URI, nothing else.
  app.post('/interaction/:tenantId/:uid/abort', interaction(), async (c) =>
    finish(c, { error: 'access_denied', error_description: 'The user did not allow the request.' }, false),
  );

  // ——— Sign-up ———

  app.post('/interaction/:tenantId/:uid/register', interaction('login'), async (c) => {
    const open = c.get('interaction');
    const { look, page, settings, tenant } = open;
    if (!mayRegister(open)) return registrationClosed(c);
    const fields = registerFields(settings);
    const schema = registerFormSchemaFor({ ...fields, terms: termsManualOn(look, 'register') });
    const { form, error } = await readForm(c, schema);
    const again = (message: string, status: 400 | 422) =>
      sendHtml(
        c,
        renderRegisterPage(look, {
          action: `${page}/register`,
          fields,
          signInHref: maySignIn(open) ? `${page}?screen=sign_in` : undefined,
          username: form.username,
          email: form.email,
          phone: form.phone,
          error: message,
        }),
        status,
      );
    if (error) return again(formErrorText(look, error), 400);
    // An address of an enterprise SSO domain registers through its identity provider.
    const sso = fields.email && form.email ? await ssoConnectorsOf(open, form.email) : [];
    if (sso.length) return sendToSso(c, sso, form.email);
    const prepared = await prepareRegistration(
      tenant,
      {
        username: fields.username ? form.username : undefined,
        email: fields.email && form.email ? form.email : undefined,
        phone: fields.phone && form.phone ? form.phone : undefined,
        password: fields.password ? form.password : undefined,
      },
      requestMeta(c),
      pwned(c),
    );
    if (!prepared.ok && prepared.reason === 'rejected')
      return again(passwordRejectedText(look, prepared.rejections), 400);
    if (!prepared.ok) {
      const taken = {
        taken_email: 'email_taken',
        taken_phone: 'phone_taken',
        taken_username: 'identifier_taken',
      } as const;
      return again(look.text(taken[prepared.reason]), 422);
    }
    const { registration } = prepared;
    // The account is made once the address (or number) is proven: what it will be made of waits with the code. An
    // email is proven when there is one (and a sender), else the phone.
    const channel =
      registration.email && open.senders.email ? 'email' : registration.phone && open.senders.sms ? 'sms' : undefined;
    if (verifiesAtSignUp(settings) && channel) {
      const address = channel === 'email' ? (registration.email ?? '') : (registration.phone ?? '');
      const sent = await sendInteractionCode(
        tenant,
        {
          interactionId: open.details.uid,
          purpose: 'Register',
          email: address,
          channel,
          pending: { ...registration, channel },
          language: look.language,
          delivery,
        },
        requestMeta(c),
      );
      if (!sent) return again(look.text('code_rate_limited'), 422);
      return sendHtml(c, registerCodePage(open, channel === 'email' ? address : `+${address}`, channel));
    }
    return finishRegistration(c, registration);
  });

  const registerCodePage = (
    open: OpenInteraction,
    address: string | undefined,
    channel: 'email' | 'sms' = 'email',
    error?: string,
  ) =>
    renderCodePage(open.look, {
      title: open.look.text(channel === 'sms' ? 'verify_phone_title' : 'verify_email_title'),
      action: `${open.page}/register/verify`,
      resendHref: `${open.page}?screen=register`,
      backHref: `${open.page}?screen=register`,
      backText: open.look.text('back_to_sign_in'),
      notice: address
        ? open.look.text('code_sent', { email: address, minutes: INTERACTION_CODE.ttlMinutes })
        : undefined,
      error,
    });

  const finishRegistration = async (c: Context<Env>, registration: Registration) => {
    const open = c.get('interaction');
    const result = await registerUser(open.tenant, registration, requestMeta(c));
    if (!result.ok) {
      return sendHtml(
        c,
        renderRegisterPage(open.look, {
          action: `${open.page}/register`,
          fields: registerFields(open.settings),
          signInHref: `${open.page}?screen=sign_in`,
          username: registration.username,
          email: registration.email,
          error: open.look.text('identifier_taken'),
        }),
        422,
      );
    }
    return signedIn(c, { userId: result.userId, moment: 'sign_up', method: 'Registration' });
  };

  app.post('/interaction/:tenantId/:uid/register/verify', interaction('login'), async (c) => {
    const open = c.get('interaction');
    if (!mayRegister(open)) return registrationClosed(c);
    // Which channel the refused code came by, for the page's title: email when sign-up takes one, else the phone.
    const channel =
      open.senders.email && open.settings.signUp.identifiers.includes('email') ? ('email' as const) : ('sms' as const);
    const refused = (key: 'reset_code_invalid' | 'reset_code_exhausted', status: 400 | 429) =>
      sendHtml(c, registerCodePage(open, undefined, channel, open.look.text(key)), status);
    const { form, error } = await readForm(c, codeFormSchema);
    if (error) return refused('reset_code_invalid', 400);
    const checked = await verifyInteractionCode(
      open.tenant,
      { interactionId: open.details.uid, purpose: 'Register', code: form.code },
      requestMeta(c),
    );
    if (!checked.ok) {
      return checked.reason === 'too_many_attempts'
        ? refused('reset_code_exhausted', 429)
        : refused('reset_code_invalid', 400);
    }
    const { channel: provenBy, ...pending } = checked.pending as Registration & { channel?: 'email' | 'sms' };
    return finishRegistration(
      c,
      provenBy === 'sms'
        ? { ...pending, phone: checked.email, phoneVerified: true }
        : { ...pending, email: checked.email, emailVerified: true },
    );
  });

  // First run: create the first console admin and finish the login with it, in one step.
  app.post('/interaction/:tenantId/:uid/welcome', firstRun, interaction('login'), async (c) => {
    const { page, look } = c.get('interaction');
    const signInPage = () =>
      renderSignInPage(look, { action: `${page}/login`, identifierLabel: identifierLabel(look) });
    if (await consoleAdminExists(tenants)) return sendHtml(c, signInPage(), 409);
    const { form, error } = await readForm(c, welcomeFormSchema);
    if (error) {
      return sendHtml(
        c,
        renderWelcomePage(look, {
          action: `${page}/welcome`,
          username: form.username,
          error: formErrorText(look, error),
        }),
        400,
      );
    }
    const credentials = { username: form.username, password: form.password };
    const result = await welcomeFirstConsoleAdmin(tenants, credentials, requestMeta(c));
    if (!result.ok) return sendHtml(c, signInPage(), result.reason === 'exists' ? 409 : 500);
    return signedIn(c, { userId: result.userId, moment: 'sign_up', method: 'Registration' });
  });

  // ——— Sign-in with a password ———

  /** The sign-in form again, with what was typed and why it was refused (identifier-first keeps its fixed step). */
  const signInAgain = (
    c: Context<Env>,
    options: { identifier: string; fixed: boolean; error?: string; notice?: string },
    status: 200 | 400 | 401 | 403 | 429 | 502,
  ) => {
    const open = c.get('interaction');
    const { look, page, settings } = open;
    return sendHtml(
      c,
      renderSignInPage(look, {
        action: `${page}/login`,
        identifierLabel: identifierLabel(look),
        identifier: options.identifier,
        identifierFixed: options.fixed ? { changeHref: `${page}?screen=identifier` } : undefined,
        error: options.error,
        notice: options.notice,
        registerHref: mayRegister(open) ? `${page}?screen=register` : undefined,
        forgotHref: forgotPasswordByEmail(settings, open.senders.email) ? `${page}/forgot-password` : undefined,
        codeSignInHref: codeSignIn(settings, open.senders) ? `${page}?screen=code_sign_in` : undefined,
        codeSignInText: look.text(codeSignInLinkKey(settings, open.senders)),
        social: open.social,
        ssoHref: ssoOffered(settings) ? `${page}?screen=single_sign_on` : undefined,
      }),
      status,
    );
  };

  // Identifier-first, step 1: an identifier the tenant signs in with by password leads to the password step; an email
  // address that only signs in by code leads to the code.
  app.post('/interaction/:tenantId/:uid/identifier', interaction('login'), async (c) => {
    const open = c.get('interaction');
    const { look, page, settings } = open;
    if (!maySignIn(open)) return signInClosed(c);
    const { form, error } = await readForm(c, identifierFormSchema);
    if (error) {
      return sendHtml(
        c,
        renderIdentifierPage(look, {
          action: `${page}/identifier`,
          identifierLabel: identifierLabel(look),
          identifier: form.identifier,
          error: formErrorText(look, error),
          registerHref: mayRegister(open) ? `${page}?screen=register` : undefined,
          ssoHref: ssoOffered(settings) ? `${page}?screen=single_sign_on` : undefined,
        }),
        400,
      );
    }
    const sso = await ssoConnectorsOf(open, form.identifier);
    if (sso.length) return sendToSso(c, sso, form.identifier);
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
    return signInAgain(c, { identifier: form.identifier, fixed: true }, 200);
  });

  app.post('/interaction/:tenantId/:uid/login', interaction('login'), async (c) => {
    const open = c.get('interaction');
    const { look, tenant, settings } = open;
    if (!maySignIn(open)) return signInClosed(c);
    const body = await c.req.parseBody();
    const { form, error } = parseSignInForm(signInFormSchemaFor({ terms: termsManualOn(look, 'sign_in') }), body);
    const { identifier, password } = form;
    const fixed = body.step === 'password';
    if (error) return signInAgain(c, { identifier, fixed, error: formErrorText(look, error) }, 400);
    // Enterprise SSO domains sign in at their identity provider only: no password is checked.
    const sso = await ssoConnectorsOf(open, identifier);
    if (sso.length) return sendToSso(c, sso, identifier);
    const result = await attemptSignIn(tenant, {
      identifier,
      password,
      ...requestMeta(c),
      ipThrottle: signInThrottle,
      identifiers: passwordIdentifiers(settings),
    });
    if (!result.ok) {
      const message =
        result.reason === 'locked'
          ? look.text('locked', { minutes: result.retryAfterMinutes })
          : look.text('invalid_credentials');
      return signInAgain(c, { identifier, fixed, error: message }, result.reason === 'locked' ? 429 : 401);
    }
    return signedIn(c, { userId: result.userId, moment: 'sign_in', method: 'Password', detail: result.detail });
  });

  // ——— Sign-in by email code ———

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

  // Always the same answer whether or not the address has an account; a code is emailed only when it has one.
  app.post('/interaction/:tenantId/:uid/code-sign-in', interaction('login'), codeSignInOffered, async (c) => {
    const open = c.get('interaction');
    const { look, page, tenant } = open;
    if (!maySignIn(open)) return signInClosed(c);
    const channels = codeSignInChannels(open.settings, open.senders);
    const { form, error } = await readForm(
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
        }),
        status,
      );
    if (error) return again(formErrorText(look, error), 400);
    // An address with @ is an email (when email codes are on), anything else a phone number.
    const kind = channels.email && form.email.includes('@') ? 'email' : 'phone';
    const sso = kind === 'email' ? await ssoConnectorsOf(open, form.email) : [];
    if (sso.length) return sendToSso(c, sso, form.email);
    const user = await findByIdentifier(tenant, form.email.toLowerCase(), [kind]);
    const sent = await sendInteractionCode(
      tenant,
      {
        interactionId: open.details.uid,
        purpose: 'SignIn',
        email: form.email,
        channel: kind === 'email' ? 'email' : 'sms',
        language: look.language,
        delivery,
        send: Boolean(user && !user.isSuspended),
        userId: user?.id,
      },
      requestMeta(c),
    );
    if (!sent) return again(look.text('code_rate_limited'), 429);
    return sendHtml(c, codeSignInCodePage(open, form.email));
  });

  app.post('/interaction/:tenantId/:uid/code-sign-in/verify', interaction('login'), codeSignInOffered, async (c) => {
    const open = c.get('interaction');
    if (!maySignIn(open)) return signInClosed(c);
    const { form, error } = await readForm(c, codeFormSchema);
    if (error) return sendHtml(c, codeSignInCodePage(open, undefined, open.look.text('reset_code_invalid')), 400);
    const checked = await verifyInteractionCode(
      open.tenant,
      { interactionId: open.details.uid, purpose: 'SignIn', code: form.code },
      requestMeta(c),
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
    const result = await signInWithProvenAddress(open.tenant, { kind, value: checked.email }, requestMeta(c));
    if (!result.ok) return refused('invalid_code');
    return signedIn(c, {
      userId: result.userId,
      moment: 'sign_in',
      method: 'VerificationCode',
      detail: { identifier: checked.email },
    });
  });

  // ——— Social sign-in ———

  const setSocialCookie = (c: Context, value: string, maxAge: number) =>
    setCookie(c, SOCIAL_COOKIE, value, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      maxAge,
      secure: config.publicUrl.startsWith('https:'),
    });
  const socialFailed = (c: Context<Env>, name: string, status: 400 | 403 | 502 = 400) =>
    signInAgain(
      c,
      { identifier: '', fixed: false, error: c.get('interaction').look.text('social_failed', { name }) },
      status,
    );

  // Starts a social sign-in: the state, nonce and PKCE verifier go in a signed cookie bound to this interaction.
  app.get('/interaction/:tenantId/:uid/social/:connectorId', interaction('login'), async (c) => {
    const open = c.get('interaction');
    const connector = await socialConnectorOf(open.tenant, c.req.param('connectorId'));
    const link = open.social.find((entry) => entry.connectorId === c.req.param('connectorId'));
    if (!connector || !link) return expired(c);
    try {
      const { url, cookie } = await startSocialSignIn(open.tenant, connector, {
        uid: open.details.uid,
        publicUrl: config.publicUrl,
        outbound: config.outbound,
      });
      setSocialCookie(c, cookie, 600);
      return c.redirect(url.href, 303);
    } catch (error) {
      c.get('log').warn({ err: String(error), connectorId: connector.id }, 'social sign-in could not start');
      return socialFailed(c, link.name, 502);
    }
  });

  // The provider's fixed return address: the signed cookie says which interaction the browser goes back to.
  app.get('/callback/social/:tenantId/:connectorId', async (c) => {
    const tenant = tenants.of(c.req.param('tenantId'));
    const cookie = getCookie(c, SOCIAL_COOKIE);
    const state = await readSocialState(tenant, cookie).catch(() => undefined);
    if (!state || state.connectorId !== c.req.param('connectorId')) return expired(c as unknown as Context<Env>);
    const query = new URL(c.req.url).search;
    return continueTo(
      c as unknown as Context<Env>,
      `/interaction/${encodeURIComponent(state.tenantId)}/${encodeURIComponent(state.uid)}/social/${encodeURIComponent(state.connectorId)}/complete${query}`,
    );
  });

  app.get('/interaction/:tenantId/:uid/social/:connectorId/complete', interaction('login'), async (c) => {
    const open = c.get('interaction');
    const cookie = getCookie(c, SOCIAL_COOKIE);
    const state = await readSocialState(open.tenant, cookie);
    const connector = await socialConnectorOf(open.tenant, c.req.param('connectorId'));
    if (!state || !connector || state.uid !== open.details.uid || state.connectorId !== connector.id) return expired(c);
    setSocialCookie(c, '', 0);
    const name = open.social.find((entry) => entry.connectorId === connector.id)?.name ?? targetOf(connector);
    const callbackUrl = new URL(socialCallbackUrl(config.publicUrl, open.tenantId, connector.id));
    callbackUrl.search = new URL(c.req.url).search;
    let profile: Awaited<ReturnType<typeof socialProfile>>;
    try {
      profile = await socialProfile(connector, state, callbackUrl, config.outbound);
    } catch (error) {
      c.get('log').warn(
        { err: error instanceof Error ? error.message : String(error), connectorId: connector.id },
        'social sign-in failed',
      );
      return socialFailed(c, name);
    }
    const result = await signInWithSocialProfile(
      open.tenant,
      connector,
      profile,
      { registration: mayRegister(open) },
      requestMeta(c),
    );
    if (!result.ok && result.reason === 'registration_closed') return registrationClosed(c);
    if (!result.ok) return socialFailed(c, name, 403);
    // A first social sign-in that made the account is a sign-up (the MFA prompt policies tell them apart).
    const moment = result.created ? 'sign_up' : 'sign_in';
    return signedIn(c, { userId: result.userId, moment, method: 'Social', detail: result.detail, link: result.link });
  });

  // ——— Enterprise single sign-on ———

  /** The SSO connectors of a typed email's domain, when the sign-in experience has SSO on (none otherwise). */
  const ssoConnectorsOf = async (open: OpenInteraction, identifier: string) =>
    ssoOffered(open.settings) && identifier.includes('@') ? ssoConnectorsForEmail(open.tenant, identifier.trim()) : [];
  const ssoLinkOf = (open: OpenInteraction, connector: SsoConnectorRow): SsoLink => {
    const metadata = ssoConnectorMetadata(connector);
    return {
      connectorId: connector.id,
      href: `${open.page}/sso/${encodeURIComponent(connector.id)}`,
      name: metadata.connectorName,
      logo: metadata.logo || undefined,
    };
  };
  /**
   * Sends the browser on to the identity provider of an email's domain: with one connector, a page that goes on by
   * itself (`Refresh`, a navigation of its own rather than the redirect of a form post, which the page's CSP
   * `form-action` would stop at the IdP's origin) to the start step; with several, the list to choose from.
   */
  const sendToSso = (
    c: Context<Env>,
    connectors: readonly SsoConnectorRow[],
    email: string,
    enforced: 'enforced' | 'asked' = 'enforced',
  ) => {
    const open = c.get('interaction');
    const links = connectors.map((connector) => ssoLinkOf(open, connector));
    const [only] = links;
    if (links.length === 1 && only) c.header('Refresh', `0;url=${only.href}`);
    return sendHtml(
      c,
      renderSsoChoicePage(open.look, {
        links,
        email,
        notice: enforced === 'enforced' ? open.look.text('sso_required') : undefined,
        backHref: open.page,
      }),
    );
  };
  const ssoFailed = (c: Context<Env>, message: string, status: 400 | 403 | 502) =>
    sendHtml(
      c,
      renderSsoFailedPage(c.get('interaction').look, { message, backHref: c.get('interaction').page }),
      status,
    );
  const ssoOn: MiddlewareHandler<Env> = async (c, next) => {
    if (!ssoOffered(c.get('interaction').settings)) return expired(c);
    await next();
  };
  /** A SAML response is a few kilobytes, with certificates and many attributes some tens: anything far larger is refused. */
  const samlBodyLimit = bodyLimit({ maxSize: 512 * 1024, onError: (c) => c.text('Payload too large', 413) });
  const setSsoCookie = (c: Context, value: string, maxAge: number) =>
    setCookie(c, SSO_COOKIE, value, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      maxAge,
      secure: config.publicUrl.startsWith('https:'),
    });

  // The SSO screen's form: the work email's domain picks the connector.
  app.post('/interaction/:tenantId/:uid/sso', interaction('login'), ssoOn, async (c) => {
    const open = c.get('interaction');
    const { form, error } = await readForm(c, forgotPasswordFormSchema);
    const again = (message: string, status: 400 | 404) =>
      sendHtml(
        c,
        renderSsoEmailPage(open.look, {
          action: `${open.page}/sso`,
          backHref: open.page,
          email: form.email,
          error: message,
        }),
        status,
      );
    if (error) return again(formErrorText(open.look, error), 400);
    const connectors = await ssoConnectorsOf(open, form.email);
    if (!connectors.length) return again(open.look.text('sso_no_match'), 404);
    return sendToSso(c, connectors, form.email, 'asked');
  });

  // Starts the IdP's sign-in: OIDC with its checks in a signed cookie, SAML with them in the signed RelayState.
  app.get('/interaction/:tenantId/:uid/sso/:connectorId', interaction('login'), ssoOn, async (c) => {
    const open = c.get('interaction');
    const connector = await findSsoConnectorRow(open.tenant, c.req.param('connectorId'));
    if (!connector) return expired(c);
    const name = ssoConnectorMetadata(connector).connectorName;
    try {
      const start = await startSsoSignIn(open.tenant, connector, {
        uid: open.details.uid,
        publicUrl: config.publicUrl,
        outbound: config.outbound,
      });
      if (start.binding === 'redirect') {
        if (start.cookie) setSsoCookie(c, start.cookie, 600);
        return c.redirect(start.url, 303);
      }
      // The form posts to the IdP: that origin is where this page's form may go.
      c.set('formActionSource', new URL(start.url).origin);
      return sendHtml(c, renderSsoPostPage(open.look, { url: start.url, fields: start.fields, name }));
    } catch (error) {
      c.get('log').warn({ err: String(error), ssoConnectorId: connector.id }, 'enterprise SSO could not start');
      return ssoFailed(c, open.look.text('sso_failed', { name }), 502);
    }
  });

  // The IdP's fixed return address, OIDC: the signed cookie says which interaction the browser goes back to.
  app.get('/callback/sso/:tenantId/:connectorId', async (c) => {
    const tenant = tenants.of(c.req.param('tenantId'));
    const state = await readSsoCookie(tenant, getCookie(c, SSO_COOKIE)).catch(() => undefined);
    if (!state || state.connectorId !== c.req.param('connectorId')) return expired(c as unknown as Context<Env>);
    const query = new URL(c.req.url).search;
    return continueTo(
      c as unknown as Context<Env>,
      `/interaction/${encodeURIComponent(state.tenantId)}/${encodeURIComponent(state.uid)}/sso/${encodeURIComponent(state.connectorId)}/complete${query}`,
    );
  });

  // The IdP's fixed return address, SAML (HTTP-POST): a cross-site POST carries no Lax cookie, so the signed
  // RelayState says which interaction and request this answers. The answer is checked here, then travels signed and
  // short-lived to the interaction, whose own cookie binds it to this browser.
  app.post('/callback/sso/:tenantId/:connectorId', samlBodyLimit, async (c) => {
    const tenant = tenants.of(c.req.param('tenantId'));
    const connectorId = c.req.param('connectorId');
    const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const samlResponse = typeof body.SAMLResponse === 'string' ? body.SAMLResponse : '';
    const relayState = typeof body.RelayState === 'string' ? body.RelayState : undefined;
    const relay = await readSamlRelay(tenant, connectorId, relayState).catch(() => undefined);
    const connector = relay && (await findSsoConnectorRow(tenant, connectorId).catch(() => undefined));
    if (!relay || !connector || !samlResponse) return expired(c as unknown as Context<Env>);
    let result: { ok: true; profile: SsoProfile } | { ok: false; error: string };
    try {
      const profile = await samlProfile(tenant, connector, relay, samlResponse, {
        publicUrl: config.publicUrl,
        outbound: config.outbound,
      });
      result = { ok: true, profile };
    } catch (error) {
      const reason = error instanceof SsoAnswerError ? error.message : 'idp_unavailable';
      if (!(error instanceof SsoAnswerError)) c.get('log').warn({ err: String(error), ssoConnectorId: connectorId });
      await auditSsoFailure(tenant, connector, reason, {
        ip: c.env.incoming.socket.remoteAddress,
        userAgent: c.req.header('User-Agent'),
      });
      result = { ok: false, error: reason };
    }
    const token = await signSamlResult(tenant, { uid: relay.uid, connectorId, ...result });
    // The IdP's page posted here: its form-action would govern a redirect too.
    return continueTo(
      c as unknown as Context<Env>,
      `/interaction/${encodeURIComponent(tenant.tenantId)}/${encodeURIComponent(relay.uid)}/sso/${encodeURIComponent(connectorId)}/complete?saml=${encodeURIComponent(token)}`,
    );
  });

  // Back in the interaction: the OIDC code is redeemed (or the checked SAML answer read), then the account.
  app.get('/interaction/:tenantId/:uid/sso/:connectorId/complete', interaction('login'), ssoOn, async (c) => {
    const open = c.get('interaction');
    const connector = await findSsoConnectorRow(open.tenant, c.req.param('connectorId'));
    if (!connector) return expired(c);
    const name = ssoConnectorMetadata(connector).connectorName;
    const failed = open.look.text('sso_failed', { name });
    let profile: SsoProfile;
    const samlToken = c.req.query('saml');
    if (samlToken !== undefined) {
      const result = await readSamlResult(open.tenant, samlToken);
      if (!result || result.uid !== open.details.uid || result.connectorId !== connector.id) return expired(c);
      if (!result.ok) return ssoFailed(c, failed, 400);
      profile = result.profile;
    } else {
      const state = await readSsoCookie(open.tenant, getCookie(c, SSO_COOKIE));
      if (!state || state.uid !== open.details.uid || state.connectorId !== connector.id) return expired(c);
      setSsoCookie(c, '', 0);
      const callbackUrl = new URL(ssoCallbackUrl(config.publicUrl, open.tenantId, connector.id));
      callbackUrl.search = new URL(c.req.url).search;
      try {
        profile = await oidcProfile(connector, state, callbackUrl, config.outbound);
      } catch (error) {
        const reason = error instanceof SsoAnswerError ? error.message : 'idp_unavailable';
        c.get('log').warn({ err: String(error), ssoConnectorId: connector.id }, 'enterprise SSO failed');
        await auditSsoFailure(open.tenant, connector, reason, requestMeta(c));
        return ssoFailed(c, failed, 400);
      }
    }
    const result = await signInWithSsoProfile(
      open.tenant,
      connector,
      profile,
      { registration: mayRegister(open) },
      requestMeta(c),
    );
    if (!result.ok && result.reason === 'registration_closed') return registrationClosed(c);
    if (!result.ok && result.reason === 'email_domain') {
      return ssoFailed(c, open.look.text('sso_email_domain', { name }), 403);
    }
    if (!result.ok) return ssoFailed(c, failed, 403);
    // The tenant's MFA applies after the IdP as after any first factor (the reference skipping it was CVE-2026-15616).
    const moment = result.created ? 'sign_up' : 'sign_in';
    return signedIn(c, {
      userId: result.userId,
      moment,
      method: 'SingleSignOn',
      detail: result.detail,
      link: result.link,
    });
  });

  // Our SAML service provider's metadata, for the admin to give the IdP.
  app.get('/enterprise-sso/:tenantId/:connectorId/saml-metadata', async (c) => {
    const tenant = tenants.of(c.req.param('tenantId'));
    const connector = await findSsoConnectorRow(tenant, c.req.param('connectorId')).catch(() => undefined);
    if (!connector || ssoProviderTypeOf[connector.providerName as SsoProviderName] !== 'SAML') {
      return c.text('Not found', 404);
    }
    c.header('Cache-Control', 'no-cache');
    return c.body(samlServiceProviderMetadata(config.publicUrl, tenant.tenantId, connector.id), 200, {
      'Content-Type': 'application/samlmetadata+xml; charset=utf-8',
    });
  });

  // ——— Forgot password ———

  app.get('/interaction/:tenantId/:uid/forgot-password', interaction('login'), forgotPasswordOffered, (c) =>
    sendHtml(c, screenPage(c, 'forgot_password')),
  );

  // Always the same answer (the code page) whether or not the address belongs to an account.
  app.post('/interaction/:tenantId/:uid/forgot-password', interaction('login'), forgotPasswordOffered, async (c) => {
    const { look, tenant, page } = c.get('interaction');
    const { form, error } = await readForm(c, forgotPasswordFormSchema);
    if (error) {
      return sendHtml(
        c,
        renderForgotPasswordPage(look, {
          action: `${page}/forgot-password`,
          backHref: page,
          email: form.email,
          error: formErrorText(look, error),
        }),
        400,
      );
    }
    await requestPasswordReset(tenant, { email: form.email, language: look.language, delivery }, requestMeta(c));
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
  });

  app.post('/interaction/:tenantId/:uid/reset-password', interaction('login'), forgotPasswordOffered, async (c) => {
    const { look, tenant, page } = c.get('interaction');
    const { form, error } = await readForm(c, resetPasswordFormSchema);
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
    if (error) return again(formErrorText(look, error), 400);
    const result = await resetPassword(
      tenant,
      { email: form.email, code: form.code, password: form.password, pwned: pwned(c) },
      requestMeta(c),
    );
    if (!result.ok && result.reason === 'rejected') return again(passwordRejectedText(look, result.rejections), 400);
    if (!result.ok) {
      return result.reason === 'too_many_attempts'
        ? again(look.text('reset_code_exhausted'), 429)
        : again(look.text('reset_code_invalid'), 400);
    }
    // Back to the sign-in form rather than signed in at once: the new password is proven once, and any
    // further sign-in step (MFA) still applies.
    return signInAgain(c, { identifier: form.email, fixed: false, notice: look.text('reset_done') }, 200);
  });

  return app;
}

import {
  ADMIN_TENANT_ID,
  parseSignInForm,
  type SignInExperienceSettings,
  type SignInFormError,
} from '@gatehouse/schemas';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context, MiddlewareHandler } from 'hono';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import type { z } from 'zod';
import type { Config } from '../../config.ts';
import type { TenantDbs } from '../../db/tenant-db.ts';
import { acceptLanguageTags } from '../../i18n/messages.ts';
import { signInText } from '../../i18n/sign-in.ts';
import { captchaWidget, readCaptchaProvider, verifyCaptcha } from '../../services/captcha.ts';
import type { FailureThrottle } from '../../services/failure-throttle.ts';
import type { MessageDelivery } from '../../services/message-delivery.ts';
import { mfaStepFor } from '../../services/mfa-sign-in.ts';
import { hasPasskey, type RelyingParty, relyingPartyOf } from '../../services/passkeys.ts';
import { pwnedPasswordCheck } from '../../services/pwned-passwords.ts';
import { registrationOpen } from '../../services/registration.ts';
import { completeSignIn, type FirstFactor, type SecondFactorMethod } from '../../services/sign-in-completion.ts';
import { phrasesForPage, readSignInExperienceSettings } from '../../services/sign-in-experience.ts';
import { shownSocialConnectors } from '../../services/social-sign-in.ts';
import type { SsoConnectorRow } from '../../services/sso-connectors.ts';
import { ssoConnectorMetadata, ssoConnectorsForEmail } from '../../services/sso-sign-in.ts';
import { passkeyOfferSkipped } from '../../services/user-logto-configs.ts';
import { formActionSource } from '../../shared/form-action.ts';
import { sendHtml } from '../../shared/html.ts';
import type { Env, OpenInteraction } from '../interaction-context.ts';
import { consentingApplication } from '../oidc/consent.ts';
import type { TenantProviders } from '../oidc/provider.ts';
import type { SignInLook } from '../sign-in-look.ts';
import {
  renderContinuePage,
  renderMessagePage,
  renderRegisterPage,
  renderSignInPage,
  renderSsoChoicePage,
  type SsoLink,
} from '../sign-in-page.ts';
import {
  codeSignIn,
  codeSignInLinkKey,
  forgotPasswordByEmail,
  identifierLabel,
  registerFields,
  renderScreen,
  type Screen,
  type ScreenLinks,
  ssoOffered,
} from '../sign-in-screens.ts';
import { stylesheetVersion } from '../sign-in-theme.ts';
import { brandingOverlay, type OverlaySource, tenantLook } from '../tenant-look.ts';
import { savePending } from './mfa-pending.ts';

/** The product's name on the console's own sign-in pages (the admin tenant). */
/** What the pages of the console's own sign-in (and a sign-in for no known application) are named for. */
export const PRODUCT_NAME = 'Gatehouse';
/** Remembers in a browser that its user declined to create a passkey after a password sign-in. */
export const PASSKEY_OFFER_COOKIE = 'gatehouse_passkey_offer';

export type StepDeps = {
  providers: TenantProviders;
  tenants: TenantDbs;
  config: Pick<Config, 'edition' | 'pwnedPasswordsUrl' | 'publicUrl' | 'outbound'>;
  delivery: MessageDelivery;
  /** Wrong passwords per IP address (services/sign-in.ts SIGN_IN_IP_LIMIT), counted for every process. */
  signInThrottle: FailureThrottle;
};

/**
 * The language tags a sign-in page considers, most preferred first: the application's `ui_locales` (OIDC Core
 * 3.1.2.1), then the browser's Accept-Language when the tenant detects it. `phrasesForPage` picks the page's language
 * and custom phrases from them, else the tenant's fallback language.
 */
function askedLanguageTags(c: Context<Env>, settings: SignInExperienceSettings, uiLocales: unknown): string[] {
  const fromApplication = typeof uiLocales === 'string' ? uiLocales.split(' ').filter(Boolean) : [];
  const fromBrowser = settings.languageInfo.autoDetect ? acceptLanguageTags(c.req.header('Accept-Language')) : [];
  return [...fromApplication, ...fromBrowser];
}

/** The theme stylesheet's address: the overlay it includes, and the version of its content. */
export const themeHref =
  (tenantId: string, source: OverlaySource = {}) =>
  (css: string) => {
    const query = new URLSearchParams();
    if (typeof source.organizationId === 'string') query.set('organization', source.organizationId);
    if (source.applicationId) query.set('application', source.applicationId);
    query.set('v', stylesheetVersion(css));
    return `/interaction/${tenantId}/theme.css?${query}`;
  };

/** The cookie that remembers, in this browser, that its user declined the offer of a passkey (steps/passkey.ts). */
const passkeyOfferDeclined = (c: Context<Env>) =>
  (c.req.header('Cookie') ?? '').split(/;\s*/).includes(`${PASSKEY_OFFER_COOKIE}=declined`);

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

/**
 * The pages shown outside an open interaction: expired or unknown ones, and the ends of an identity provider's
 * redirects.
 */
function outsidePages(tenants: TenantDbs) {
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

  /** An expired or unknown interaction: the tenant's look when the tenant is known, in the browser's language. */
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

  /**
   * A sign-in page whose interaction this browser does not have (bookmarked, expired, opened elsewhere): the tenant's
   * `unknownSessionRedirectUrl` when it has one (its app's home, which starts a new sign-in), else the expired page. A
   * form's answer goes there by a page of its own (`continueTo`): a redirect after a form post would meet the page's
   * CSP `form-action`.
   */
  const unknownSession = async (c: Context<Env>, tenantId: string) => {
    const { unknownSessionRedirectUrl: url } = await readSignInExperienceSettings(tenants.of(tenantId));
    if (!url) return expired(c);
    return c.req.method === 'GET' ? c.redirect(url, 303) : continueTo(c, url);
  };

  /**
   * From an identity provider's fixed callback back into the interaction that started it (`path` below the
   * interaction's page, with the provider's query), by a page of our own (`continueTo`).
   */
  const backToInteraction = (c: Context<Env>, to: { tenantId: string; uid: string }, path: string, search = '') =>
    continueTo(c, `/interaction/${encodeURIComponent(to.tenantId)}/${encodeURIComponent(to.uid)}/${path}${search}`);

  return { pathTenantLook, expired, continueTo, unknownSession, backToInteraction };
}

/**
 * The guard of every step: the tenant's provider has this interaction (by its cookie), the URL names the same one,
 * and the form steps find it still at the login prompt. Anything else is an expired session. It then loads the
 * tenant's sign-in experience and builds the page's look.
 */
function interactionGuard(deps: StepDeps, pages: Pick<ReturnType<typeof outsidePages>, 'expired' | 'unknownSession'>) {
  const { providers, tenants, delivery } = deps;
  const { expired, unknownSession } = pages;
  return (prompt?: 'login' | 'consent'): MiddlewareHandler<Env> =>
    async (c, next) => {
      const tenantId = c.req.param('tenantId') ?? '';
      const provider = await providers.get(tenantId);
      const details = provider && (await interactionDetails(c, provider));
      if (provider && (!details || details.uid !== c.req.param('uid'))) return unknownSession(c, tenantId);
      if (!provider || !details || (prompt && details.prompt.name !== prompt)) return expired(c);
      const tenant = tenants.of(tenantId);
      const settings = await readSignInExperienceSettings(tenant);
      const { language, phrases } = await phrasesForPage(
        tenant,
        askedLanguageTags(c, settings, details.params.ui_locales),
        settings.languageInfo.fallbackLanguage,
      );
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
        phrases,
        name,
        overlay: await brandingOverlay(tenant, source),
        themeHref: themeHref(tenantId, source),
      });
      const captcha = settings.captchaPolicy.enabled ? await readCaptchaProvider(tenant) : undefined;
      if (captcha) c.set('captchaSources', captchaWidget(captcha).csp);
      c.set('interaction', {
        captcha,
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
}

const maySignIn = ({ settings }: OpenInteraction) => settings.signInMode !== 'Register';

/** The addresses of this interaction's screens and steps. */
const linksOf = ({ page }: OpenInteraction): ScreenLinks => ({
  screen: (screen: Screen) => (screen === 'forgot_password' ? `${page}/forgot-password` : `${page}?screen=${screen}`),
  action: (step) => `${page}/${step}`,
});

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

/** The interaction has succeeded: recorded once (completeSignIn), then the provider issues the login. */
/**
 * `amr` (RFC 8176) says how the user signed in when more than a password or code did: `['mfa', 'otp']` after an
 * authenticator's code, `['mfa']` after a backup code; a passkey's (`hwk`/`swk`, `user`) are given by its step.
 */
const complete = async (c: Context<Env>, first: FirstFactor, second?: SecondFactorMethod, passkeyAmr?: string[]) => {
  const interaction = c.get('interaction');
  await completeSignIn(interaction.tenant, first, second, {
    ...requestMeta(c),
    interactionId: interaction.details.uid,
  });
  const amr = passkeyAmr ?? (second === 'BackupCode' ? ['mfa'] : second ? ['mfa', 'otp'] : undefined);
  return finish(c, { login: { accountId: first.userId, ...(amr ? { amr } : {}) } }, false);
};

/** The ends of a first factor: the second step opens (an offer of a passkey, or MFA), or the sign-in completes. */
function firstFactorEnds(relyingParty: RelyingParty | undefined) {
  /** Where every first factor ends: the sign-in completes, or the second step (steps/mfa.ts) opens. */
  const signedIn = async (c: Context<Env>, first: FirstFactor) => {
    const interaction = c.get('interaction');
    const step = await mfaStepFor(interaction.tenant, first.userId, interaction.settings, first.moment, relyingParty);
    if (step.kind === 'none') {
      // With passkey sign-in on, a user who signed in with a password is offered one (once per browser if declined; never
      // again when the user's `passkeySignIn.skipped` is set, services/user-logto-configs.ts).
      const offer =
        relyingParty &&
        first.method === 'Password' &&
        interaction.settings.passkeySignIn.enabled &&
        !passkeyOfferDeclined(c) &&
        !(await passkeyOfferSkipped(interaction.tenant, first.userId)) &&
        !(await hasPasskey(interaction.tenant, first.userId, relyingParty));
      if (!offer) return complete(c, first);
      await savePending(interaction, { first, stage: 'offer' });
      return c.redirect(`${interaction.page}/passkey/offer`, 303);
    }
    await savePending(
      interaction,
      step.kind === 'verify'
        ? { first, stage: 'verify', totp: step.totp, backupCode: step.backupCode, webauthn: step.webauthn }
        : { first, stage: 'enroll', required: step.required, setup: { totp: step.totp, passkey: step.passkey } },
    );
    return c.redirect(`${interaction.page}/mfa`, 303);
  };

  /** A provider's account proved who the user is (social, SSO): a sign-up when the sign-in made the account. */
  const signedInThrough = (
    c: Context<Env>,
    method: 'Social' | 'SingleSignOn',
    result: { userId: string; created: boolean; detail: Record<string, unknown>; link?: FirstFactor['link'] },
  ) =>
    signedIn(c, {
      userId: result.userId,
      moment: result.created ? 'sign_up' : 'sign_in',
      method,
      detail: result.detail,
      link: result.link,
    });

  return { signedIn, signedInThrough };
}

/** The widget the interaction's forms show, when the tenant asks for a captcha. */
const captchaOf = (interaction: OpenInteraction) =>
  interaction.captcha ? captchaWidget(interaction.captcha) : undefined;

/** The pages more than one step shows: a first screen, the sign-in form again, and the closed sign-in or sign-up. */
function sharedPages(relyingParty: RelyingParty | undefined, mayRegister: (interaction: OpenInteraction) => boolean) {
  /** The first screen of a kind, with the links this interaction allows. */
  const screenPage = (c: Context<Env>, screen: Screen, extra: { identifier?: string; notice?: string } = {}) => {
    const interaction = c.get('interaction');
    return renderScreen(screen, {
      look: interaction.look,
      links: linksOf(interaction),
      registration: mayRegister(interaction),
      senders: interaction.senders,
      social: interaction.social,
      captcha: captchaOf(interaction),
      passkeys: relyingParty !== undefined,
      ...extra,
    });
  };
  const registrationClosed = (c: Context<Env>) => {
    const { look, page } = c.get('interaction');
    return sendHtml(
      c,
      renderSignInPage(look, {
        action: `${page}/login`,
        identifierLabel: identifierLabel(look),
        error: look.text('registration_closed'),
      }),
      403,
    );
  };
  const signInClosed = (c: Context<Env>) => {
    const { look, page, settings } = c.get('interaction');
    return sendHtml(
      c,
      renderRegisterPage(look, {
        action: `${page}/register`,
        fields: registerFields(settings),
        error: look.text('sign_in_closed'),
      }),
      403,
    );
  };

  /** The sign-in form again, with what was typed and why it was refused (identifier-first keeps its fixed step). */
  const signInAgain = (
    c: Context<Env>,
    options: { identifier: string; fixed: boolean; error?: string; notice?: string },
    status: 200 | 400 | 401 | 403 | 429 | 502,
  ) => {
    const interaction = c.get('interaction');
    const { look, page, settings } = interaction;
    return sendHtml(
      c,
      renderSignInPage(look, {
        action: `${page}/login`,
        identifierLabel: identifierLabel(look),
        identifier: options.identifier,
        identifierFixed: options.fixed ? { changeHref: `${page}?screen=identifier` } : undefined,
        error: options.error,
        notice: options.notice,
        registerHref: mayRegister(interaction) ? `${page}?screen=register` : undefined,
        forgotHref: forgotPasswordByEmail(settings, interaction.senders.email) ? `${page}/forgot-password` : undefined,
        codeSignInHref: codeSignIn(settings, interaction.senders) ? `${page}?screen=code_sign_in` : undefined,
        codeSignInText: look.text(codeSignInLinkKey(settings, interaction.senders)),
        social: interaction.social,
        ssoHref: ssoOffered(settings) ? `${page}?screen=single_sign_on` : undefined,
        captcha: captchaOf(interaction),
        passkey: relyingParty ? { action: `${page}/passkey`, optionsUrl: `${page}/passkey/options` } : undefined,
      }),
      status,
    );
  };

  return { screenPage, registrationClosed, signInClosed, signInAgain };
}

/** The SSO connectors of a typed email's domain, when the sign-in experience has SSO on (none otherwise). */
const ssoConnectorsOf = async (interaction: OpenInteraction, identifier: string) =>
  ssoOffered(interaction.settings) && identifier.includes('@')
    ? ssoConnectorsForEmail(interaction.tenant, identifier.trim())
    : [];
const ssoLinkOf = (interaction: OpenInteraction, connector: SsoConnectorRow): SsoLink => {
  const metadata = ssoConnectorMetadata(connector);
  return {
    connectorId: connector.id,
    href: `${interaction.page}/sso/${encodeURIComponent(connector.id)}`,
    name: metadata.connectorName,
    logo: metadata.logo || undefined,
  };
};
/**
 * Sends the browser on to the identity provider of an email's domain: with one connector, a page that goes on by
 * itself (`Refresh`, a navigation of its own rather than the redirect of a form post, which the page's CSP
 * `form-action` would stop at the IdP's origin) to the start step; with several, the list to choose from. `go:
 * 'on_click'` (sign-up: the user asked to make an account here, not to leave) shows the page with its notice and
 * waits for the user to continue.
 */
const sendToSso = (
  c: Context<Env>,
  connectors: readonly SsoConnectorRow[],
  email: string,
  enforced: 'enforced' | 'asked' = 'enforced',
  go: 'at_once' | 'on_click' = 'at_once',
) => {
  const interaction = c.get('interaction');
  const links = connectors.map((connector) => ssoLinkOf(interaction, connector));
  const [only] = links;
  if (links.length === 1 && only && go === 'at_once') c.header('Refresh', `0;url=${only.href}`);
  return sendHtml(
    c,
    renderSsoChoicePage(interaction.look, {
      links,
      email,
      notice: enforced === 'enforced' ? interaction.look.text('sso_required') : undefined,
      backHref: interaction.page,
    }),
  );
};

/**
 * Whether the form posted passes the captcha (always, when the tenant asks for none): the widget's answer is checked
 * with the provider before the step does anything that costs (a password check, an account, a message sent).
 */
const captchaCheck = (outbound: StepDeps['config']['outbound']) => async (c: Context<Env>) => {
  const interaction = c.get('interaction');
  if (!interaction.captcha) return true;
  const body = await c.req.parseBody();
  const token = body[captchaWidget(interaction.captcha).field];
  return verifyCaptcha(interaction.captcha, typeof token === 'string' ? token : '', {
    ip: c.env.incoming.socket.remoteAddress,
    outbound,
    log: c.get('log'),
  });
};

/**
 * What every step shares: the server's parts, the guard that opens the interaction, the pages more than one step
 * shows, and the two ends of a first factor — `signedIn` (the second step opens, or the sign-in completes) and
 * `complete` (recorded once, then the provider's login).
 */
export function createStepKit(deps: StepDeps) {
  const { tenants, config, signInThrottle } = deps;
  const { edition } = config;
  /**
   * Who passkeys are made for (services/passkeys.ts): PUBLIC_URL's host. Undefined when that is an IP address, which
   * cannot be a relying party: then no page offers passkeys.
   */
  const relyingParty = relyingPartyOf(config.publicUrl, PRODUCT_NAME);
  const { pathTenantLook, expired, continueTo, unknownSession, backToInteraction } = outsidePages(tenants);
  /** Who may register here: the settings' sign-in mode, and the OSS console's closed registration. */
  const mayRegister = ({ tenantId, settings }: OpenInteraction) =>
    registrationOpen(tenantId, edition) && settings.signInMode !== 'SignIn';
  const pwned = (c: Context<Env>) => pwnedPasswordCheck(config.pwnedPasswordsUrl, c.get('log'));
  const { signedIn, signedInThrough } = firstFactorEnds(relyingParty);
  const { screenPage, registrationClosed, signInClosed, signInAgain } = sharedPages(relyingParty, mayRegister);

  return {
    ...deps,
    captchaOf,
    captchaPassed: captchaCheck(config.outbound),
    edition,
    signInThrottle,
    open: interactionGuard(deps, { expired, unknownSession }),
    expired,
    continueTo,
    pathTenantLook,
    mayRegister,
    maySignIn,
    linksOf,
    readForm,
    formErrorText: (look: SignInLook, error: SignInFormError) => look.text(error),
    pwned,
    requestMeta,
    finish,
    complete,
    signedIn,
    signedInThrough,
    backToInteraction,
    screenPage,
    registrationClosed,
    signInClosed,
    signInAgain,
    ssoConnectorsOf,
    sendToSso,
    relyingParty,
  };
}

export type StepKit = ReturnType<typeof createStepKit>;

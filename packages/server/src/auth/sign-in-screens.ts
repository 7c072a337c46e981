import type { SignInExperienceSettings, SignInIdentifier } from '@gatehouse/schemas';
import type { SignInKey } from '../i18n/sign-in.ts';
import type { SafeHtml } from '../shared/html.ts';
import type { SignInLook } from './sign-in-look.ts';
import {
  type CaptchaWidgetView,
  type RegisterFields,
  renderCodePage,
  renderCodeSignInPage,
  renderForgotPasswordPage,
  renderIdentifierPage,
  renderRegisterPage,
  renderSignInPage,
  renderSsoEmailPage,
  type SocialLink,
} from './sign-in-page.ts';

/**
 * What a tenant's sign-in experience settings mean for its pages: which screen comes first, what the identifier field
 * is called, which fields sign-up has, which links each screen shows. Pure functions of the settings, shared by the
 * real pages (`routes/interaction.ts`) and the console's live preview (`routes/sign-in-preview.ts`).
 */

export type Screen = 'sign_in' | 'identifier' | 'register' | 'forgot_password' | 'code_sign_in' | 'single_sign_on';
const screens: readonly string[] = [
  'sign_in',
  'identifier',
  'register',
  'forgot_password',
  'code_sign_in',
  'single_sign_on',
];

/**
 * Spec §2.4: the page's own links say `?screen=`; otherwise `first_screen` (including the deprecated `signIn`) and
 * `interaction_mode` decide. `single_sign_on` is the enterprise SSO screen (the work email); the caller shows sign-in
 * instead when the sign-in experience has SSO off ({@link ssoOffered}).
 */
export function requestedScreen(params: Record<string, unknown>, screen: string | undefined): Screen {
  if (screen && screens.includes(screen)) return screen as Screen;
  switch (params.first_screen) {
    case 'register':
    case 'identifier:register':
      return 'register';
    case 'identifier:sign_in':
      return 'identifier';
    case 'reset_password':
      return 'forgot_password';
    case 'single_sign_on':
      return 'single_sign_on';
    case 'sign_in':
    case 'signIn':
      return 'sign_in';
  }
  return params.interaction_mode === 'signUp' ? 'register' : 'sign_in';
}

/** The identifiers that sign in with a password, in the order of the settings. */
export const passwordIdentifiers = (settings: SignInExperienceSettings): SignInIdentifier[] =>
  settings.signIn.methods.filter((method) => method.password).map((method) => method.identifier);

/** Whether enterprise single sign-on is offered on the pages (the sign-in experience's `singleSignOnEnabled`). */
export const ssoOffered = (settings: SignInExperienceSettings) => settings.singleSignOnEnabled;

/** Who can send this tenant's codes: email (its connector or SMTP), SMS (its connector). */
export type Senders = { email: boolean; sms: boolean };

/** Where sign-in codes may go: the email and phone methods with `verificationCode`, when a sender can reach them. */
export function codeSignInChannels(settings: SignInExperienceSettings, senders: Senders) {
  const byCode = (identifier: 'email' | 'phone') =>
    settings.signIn.methods.some((method) => method.identifier === identifier && method.verificationCode);
  return { email: senders.email && byCode('email'), phone: senders.sms && byCode('phone') };
}

/** Whether the tenant signs in by a code at all. */
export const codeSignIn = (settings: SignInExperienceSettings, senders: Senders) => {
  const channels = codeSignInChannels(settings, senders);
  return channels.email || channels.phone;
};

/** The "sign in with a code" link's words for the channels. */
export function codeSignInLinkKey(settings: SignInExperienceSettings, senders: Senders): SignInKey {
  const { email, phone } = codeSignInChannels(settings, senders);
  return email && phone ? 'code_sign_in_link_any' : phone ? 'code_sign_in_link_phone' : 'code_sign_in_link';
}

/** Whether "Forgot password?" exists: codes can be emailed and the settings do not leave email out. */
export const forgotPasswordByEmail = (settings: SignInExperienceSettings, mail: boolean) =>
  mail && (settings.forgotPasswordMethods?.includes('EmailVerificationCode') ?? true);

const labelKeys: Record<string, SignInKey> = {
  username: 'identifier_username',
  email: 'identifier_email',
  phone: 'identifier_phone',
  'email username': 'identifier_username_email',
  'phone username': 'identifier_username_phone',
  'email phone': 'identifier_email_phone',
  'email phone username': 'identifier_all',
};

/** "Username or email", "Email", …: the identifiers that take a password, named. */
export function identifierLabel(look: SignInLook): string {
  const kinds = [...new Set(passwordIdentifiers(look.settings))].sort().join(' ');
  return look.text(labelKeys[kinds] ?? 'identifier_username_email');
}

/**
 * The sign-up form's fields. Email is required when it is a sign-up identifier; with a username sign-up it is
 * offered as optional (unverified, for password resets), a Gatehouse choice documented in docs/areas/sign-in.md.
 */
export function registerFields(settings: SignInExperienceSettings): RegisterFields {
  const { identifiers, password } = settings.signUp;
  const username = identifiers.includes('username');
  const email = identifiers.includes('email');
  const phone = identifiers.includes('phone');
  // Email or phone (spec §3 emailOrSms): both offered, one needed.
  const either = email && phone;
  return {
    username,
    email: either ? 'optional' : email ? 'required' : username ? 'optional' : false,
    phone: either ? 'optional' : phone ? 'required' : false,
    contactRequired: either,
    password,
  };
}

/** Sign-up proves the address (or number) by code before the account exists. */
export const verifiesAtSignUp = (settings: SignInExperienceSettings) =>
  settings.signUp.verify &&
  (settings.signUp.identifiers.includes('email') || settings.signUp.identifiers.includes('phone'));

/** The addresses of one interaction's screens (or of the preview, whose forms lead back to itself). */
export type ScreenLinks = {
  /** The screen of the interaction: `${base}?screen=register`. */
  screen: (screen: Screen) => string;
  /** Where a screen's form posts. */
  action: (
    step:
      | 'login'
      | 'identifier'
      | 'register'
      | 'forgot-password'
      | 'code-sign-in'
      | 'sso'
      | 'passkey'
      | 'passkey/options',
  ) => string;
};

export type ScreenOptions = {
  look: SignInLook;
  links: ScreenLinks;
  /** Registration is open here (tenant settings and edition). */
  registration: boolean;
  /** Who can send codes. */
  senders: Senders;
  identifier?: string | undefined;
  notice?: string | undefined;
  /** The social connectors the sign-in experience shows (`socialSignInConnectorTargets`). */
  social?: readonly SocialLink[] | undefined;
  /** The tenant's captcha, when it asks for one. */
  captcha?: CaptchaWidgetView | undefined;
  /** Whether passkeys can work here (PUBLIC_URL has a domain name: services/passkeys.ts relyingPartyOf). */
  passkeys?: boolean | undefined;
};

/** A first screen (what GET shows), rendered with the tenant's look. */
export function renderScreen(screen: Screen, options: ScreenOptions): SafeHtml {
  const { look, links, registration, senders, captcha } = options;
  const { settings } = look;
  const registerHref = registration ? links.screen('register') : undefined;
  const codeSignInHref = codeSignIn(settings, senders) ? links.screen('code_sign_in') : undefined;
  const codeSignInText = look.text(codeSignInLinkKey(settings, senders));
  const forgotHref = forgotPasswordByEmail(settings, senders.email) ? links.screen('forgot_password') : undefined;
  const channels = codeSignInChannels(settings, senders);
  const signInHref = settings.signInMode === 'Register' ? undefined : links.screen('sign_in');
  const ssoHref = ssoOffered(settings) ? links.screen('single_sign_on') : undefined;
  const passkey = options.passkeys
    ? { action: links.action('passkey'), optionsUrl: links.action('passkey/options') }
    : undefined;
  // With SSO as the only way in (no password or code method), its screen is the sign-in page.
  const onlySso = ssoHref && passwordIdentifiers(settings).length === 0 && !codeSignInHref;
  const shown =
    screen === 'single_sign_on' && !ssoHref ? 'sign_in' : screen === 'sign_in' && onlySso ? 'single_sign_on' : screen;
  switch (shown) {
    case 'single_sign_on':
      return renderSsoEmailPage(look, {
        action: links.action('sso'),
        backHref: onlySso ? undefined : links.screen('sign_in'),
        email: options.identifier,
      });
    case 'register':
      return renderRegisterPage(look, {
        action: links.action('register'),
        fields: registerFields(settings),
        signInHref,
        captcha,
      });
    case 'forgot_password':
      return renderForgotPasswordPage(look, {
        action: links.action('forgot-password'),
        backHref: links.screen('sign_in'),
        captcha,
      });
    case 'code_sign_in':
      return renderCodeSignInPage(look, {
        action: links.action('code-sign-in'),
        backHref: links.screen('sign_in'),
        registerHref,
        captcha,
      });
    case 'identifier':
      return renderIdentifierPage(look, {
        action: links.action('identifier'),
        identifierLabel: identifierLabel(look),
        identifier: options.identifier,
        registerHref,
        codeSignInHref,
        codeSignInText,
        social: options.social,
        ssoHref,
        passkey,
      });
    default:
      // Only code sign-in: the email form is the sign-in page.
      if (passwordIdentifiers(settings).length === 0 && codeSignInHref) {
        return renderCodeSignInPage(look, {
          action: links.action('code-sign-in'),
          backHref: '',
          registerHref,
          channels,
          captcha,
        });
      }
      return renderSignInPage(look, {
        action: links.action('login'),
        identifierLabel: identifierLabel(look),
        identifier: options.identifier,
        notice: options.notice,
        registerHref,
        forgotHref,
        codeSignInHref,
        codeSignInText,
        social: options.social,
        ssoHref,
        captcha,
        passkey,
      });
  }
}

/** The preview's "verification code" screen: the code page as a sign-up shows it. */
export function renderPreviewCodeScreen(look: SignInLook, links: ScreenLinks): SafeHtml {
  return renderCodePage(look, {
    title: look.text('verify_email_title'),
    action: links.action('register'),
    resendHref: links.screen('register'),
    backHref: links.screen('sign_in'),
    backText: look.text('back_to_sign_in'),
    notice: look.text('code_sent', { email: 'name@example.com', minutes: 10 }),
  });
}

import type { SignInExperienceSettings, SignInIdentifier } from '@gatehouse/schemas';
import type { SafeHtml } from '../http/html.ts';
import type { SignInKey } from '../i18n/sign-in.ts';
import type { SignInLook } from './sign-in-look.ts';
import {
  type RegisterFields,
  renderCodePage,
  renderCodeSignInPage,
  renderForgotPasswordPage,
  renderIdentifierPage,
  renderRegisterPage,
  renderSignInPage,
  type SocialLink,
} from './sign-in-page.ts';

/**
 * What a tenant's sign-in experience settings mean for its pages: which screen comes first, what the identifier field
 * is called, which fields sign-up has, which links each screen shows. Pure functions of the settings, shared by the
 * real pages (`routes/interaction.ts`) and the console's live preview (`routes/sign-in-preview.ts`).
 */

export type Screen = 'sign_in' | 'identifier' | 'register' | 'forgot_password' | 'code_sign_in';
const screens: readonly string[] = ['sign_in', 'identifier', 'register', 'forgot_password', 'code_sign_in'];

/**
 * Spec §2.4: the page's own links say `?screen=`; otherwise `first_screen` (including the deprecated `signIn`) and
 * `interaction_mode` decide. `single_sign_on` has no screen of its own until enterprise SSO exists: sign in.
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
    case 'sign_in':
    case 'signIn':
    case 'single_sign_on':
      return 'sign_in';
  }
  return params.interaction_mode === 'signUp' ? 'register' : 'sign_in';
}

/** The identifiers that sign in with a password, in the order of the settings. */
export const passwordIdentifiers = (settings: SignInExperienceSettings): SignInIdentifier[] =>
  settings.signIn.methods.filter((method) => method.password).map((method) => method.identifier);

/** Whether the tenant signs in by a code emailed to the address (and the mail service can send it). */
export const emailCodeSignIn = (settings: SignInExperienceSettings, mail: boolean) =>
  mail && settings.signIn.methods.some((method) => method.identifier === 'email' && method.verificationCode);

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
  return {
    username,
    email: identifiers.includes('email') ? 'required' : username ? 'optional' : false,
    password,
  };
}

/** Sign-up proves the address by code before the account exists. */
export const verifiesEmailAtSignUp = (settings: SignInExperienceSettings) =>
  settings.signUp.verify && settings.signUp.identifiers.includes('email');

/** The addresses of one interaction's screens (or of the preview, whose forms lead back to itself). */
export type ScreenLinks = {
  /** The screen of the interaction: `${base}?screen=register`. */
  screen: (screen: Screen) => string;
  /** Where a screen's form posts. */
  action: (step: 'login' | 'identifier' | 'register' | 'forgot-password' | 'code-sign-in') => string;
};

export type ScreenOptions = {
  look: SignInLook;
  links: ScreenLinks;
  /** Registration is open here (tenant settings and edition). */
  registration: boolean;
  /** The system mail service can send codes. */
  mail: boolean;
  identifier?: string | undefined;
  notice?: string | undefined;
  /** The social connectors the sign-in experience shows (`socialSignInConnectorTargets`). */
  social?: readonly SocialLink[] | undefined;
};

/** A first screen (what GET shows), rendered with the tenant's look. */
export function renderScreen(screen: Screen, options: ScreenOptions): SafeHtml {
  const { look, links, registration, mail } = options;
  const { settings } = look;
  const registerHref = registration ? links.screen('register') : undefined;
  const codeSignInHref = emailCodeSignIn(settings, mail) ? links.screen('code_sign_in') : undefined;
  const forgotHref = forgotPasswordByEmail(settings, mail) ? links.screen('forgot_password') : undefined;
  const signInHref = settings.signInMode === 'Register' ? undefined : links.screen('sign_in');
  switch (screen) {
    case 'register':
      return renderRegisterPage(look, {
        action: links.action('register'),
        fields: registerFields(settings),
        signInHref,
      });
    case 'forgot_password':
      return renderForgotPasswordPage(look, {
        action: links.action('forgot-password'),
        backHref: links.screen('sign_in'),
      });
    case 'code_sign_in':
      return renderCodeSignInPage(look, {
        action: links.action('code-sign-in'),
        backHref: links.screen('sign_in'),
        registerHref,
      });
    case 'identifier':
      return renderIdentifierPage(look, {
        action: links.action('identifier'),
        identifierLabel: identifierLabel(look),
        identifier: options.identifier,
        registerHref,
        codeSignInHref,
        social: options.social,
      });
    default:
      // Only code sign-in: the email form is the sign-in page.
      if (passwordIdentifiers(settings).length === 0 && codeSignInHref) {
        return renderCodeSignInPage(look, { action: links.action('code-sign-in'), backHref: '', registerHref });
      }
      return renderSignInPage(look, {
        action: links.action('login'),
        identifierLabel: identifierLabel(look),
        identifier: options.identifier,
        notice: options.notice,
        registerHref,
        forgotHref,
        codeSignInHref,
        social: options.social,
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

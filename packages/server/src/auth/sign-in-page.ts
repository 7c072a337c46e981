import { createHash } from 'node:crypto';
import type { Language } from '@gatehouse/schemas';
import { dangerouslyTrustHtml, html, page as htmlPage, type SafeHtml } from '../http/html.ts';
import { type SignInKey, signInText } from '../i18n/sign-in.ts';

export const SIGN_IN_STYLESHEET_PATH = '/interaction/assets/sign-in.css';

/** Light and dark from the OS setting; served as a file because the CSP forbids inline styles. */
export const signInStylesheet = `:root{color-scheme:light dark;--bg:#f6f6fa;--card:#fff;--text:#1b1b26;--muted:#5c5c70;--primary:#6139f6;--danger:#c4221f;--border:#d9d9e3;--on-primary:#fff}
@media (prefers-color-scheme:dark){:root{--bg:#121218;--card:#1e1e28;--text:#ececf3;--muted:#a3a3b8;--primary:#8f73ff;--danger:#ff7a75;--border:#3a3a4a;--on-primary:#121218}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,sans-serif}
main{width:min(400px,92vw);background:var(--card);border:1px solid var(--border);border-radius:12px;padding:32px}
h1{font-size:1.4rem;margin:0 0 24px}label{display:block;font-weight:600;margin:16px 0 6px}
input{width:100%;padding:10px 12px;border:1px solid var(--border);border-radius:8px;background:transparent;color:inherit;font:inherit}
input:focus-visible,button:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
button{margin-top:24px;width:100%;padding:11px;border:0;border-radius:8px;background:var(--primary);color:var(--on-primary);font:inherit;font-weight:600;cursor:pointer}
.error{color:var(--danger);margin:0 0 8px}.notice{margin:0 0 8px}
.switch{margin:20px 0 0;text-align:center}a{color:var(--primary)}
ul{padding-inline-start:20px;margin:0 0 8px}li{margin:4px 0}
button.secondary{margin-top:12px;background:transparent;color:var(--primary);border:1px solid var(--border)}`;

/** A sign-in page: the shared frame with the sign-in stylesheet. */
const page = (language: Language, title: string, body: SafeHtml) =>
  htmlPage({ language, title, stylesheet: SIGN_IN_STYLESHEET_PATH, body });

/** The error line of a form and the attributes that tie the inputs to it. */
function formError(error: string | undefined) {
  return {
    html: error ? html`<p class="error" role="alert" id="form-error">${error}</p>` : '',
    described: error ? html` aria-describedby="form-error" aria-invalid="true"` : '',
  };
}

export type SignInPageOptions = {
  language: Language;
  action: string;
  identifier?: string;
  error?: string;
  /** The sign-up screen of the same interaction, when registration is open. */
  registerHref?: string | undefined;
  /** The forgot-password screen of the same interaction, when codes can be emailed. */
  forgotHref?: string | undefined;
  /** A confirmation shown above the form (e.g. after a password reset). */
  notice?: string | undefined;
};

/** A status line above a form (not an error). */
const noticeHtml = (notice: string | undefined) => notice && html`<p class="notice" role="status">${notice}</p>\n`;

/** A link to the other screen (sign in ⇄ sign up) of the same interaction. */
const switchLink = (href: string | undefined, text: string) =>
  href && html`\n<p class="switch"><a href="${href}">${text}</a></p>`;

/** The strings of one language. */
const textsOf = (language: Language) => (key: SignInKey) => signInText(language, key);

/** The sign-in form: a plain HTML form (works without JavaScript), localised, right-to-left for Arabic. */
export function renderSignInPage(options: SignInPageOptions): SafeHtml {
  const t = textsOf(options.language);
  const error = formError(options.error);
  return page(
    options.language,
    t('title'),
    html`${noticeHtml(options.notice)}<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="identifier">${t('identifier')}</label>
<input id="identifier" name="identifier" autocomplete="username" required value="${options.identifier ?? ''}"${error.described}>
<label for="password">${t('password')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${error.described}>
<button type="submit">${t('submit')}</button>
</form>${switchLink(options.forgotHref, t('forgot_link'))}${switchLink(options.registerHref, t('create_account'))}`,
  );
}

export type ConsentPageOptions = {
  language: Language;
  /** The application asking (its name as its admin wrote it). */
  appName: string;
  /** What the request asks for that the user has not granted yet. */
  oidcScopes: readonly string[];
  resourceScopes: Readonly<Record<string, readonly string[]>>;
  allowAction: string;
  denyAction: string;
};

const describedScopes: Partial<Record<string, SignInKey>> = {
  openid: 'consent_scope_openid',
  profile: 'consent_scope_profile',
  email: 'consent_scope_email',
  phone: 'consent_scope_phone',
  offline_access: 'consent_scope_offline_access',
  'urn:gatehouse:scope:organizations': 'consent_scope_organizations',
};

/**
 * The consent page of a third-party application: who asks, each thing it asks for in words, Allow and Cancel (two
 * forms, so it works without JavaScript). Organization roles are described with organizations.
 */
export function renderConsentPage(options: ConsentPageOptions): SafeHtml {
  const t = (key: SignInKey, values: Record<string, string> = {}) => signInText(options.language, key, values);
  const described = new Set<SignInKey>();
  const items: string[] = [];
  for (const scope of options.oidcScopes) {
    const key =
      describedScopes[scope === 'urn:gatehouse:scope:organization_roles' ? 'urn:gatehouse:scope:organizations' : scope];
    if (key && !described.has(key)) {
      described.add(key);
      items.push(t(key));
    } else if (!key) items.push(scope);
  }
  for (const [resource, scopes] of Object.entries(options.resourceScopes)) {
    for (const scope of scopes) items.push(t('consent_scope_resource', { scope, resource }));
  }
  return page(
    options.language,
    t('consent_title', { app: options.appName }),
    html`<p>${t('consent_intro', { app: options.appName })}</p>
<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>
<form method="post" action="${options.allowAction}"><button type="submit">${t('consent_allow')}</button></form>
<form method="post" action="${options.denyAction}"><button type="submit" class="secondary">${t('consent_deny')}</button></form>`,
  );
}

export type ForgotPasswordPageOptions = {
  language: Language;
  action: string;
  signInHref: string;
  email?: string;
  error?: string;
};

/** Forgot password, step 1: the email address to send a code to. */
export function renderForgotPasswordPage(options: ForgotPasswordPageOptions): SafeHtml {
  const t = textsOf(options.language);
  const error = formError(options.error);
  return page(
    options.language,
    t('forgot_title'),
    html`<p>${t('forgot_description')}</p>
<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="email">${t('forgot_email')}</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${options.email ?? ''}"${error.described}>
<button type="submit">${t('forgot_submit')}</button>
</form>${switchLink(options.signInHref, t('back_to_sign_in'))}`,
  );
}

export type ResetPasswordPageOptions = {
  language: Language;
  action: string;
  /** The forgot-password screen, to ask for a new code. */
  resendHref: string;
  signInHref: string;
  email: string;
  /** The neutral "if an account exists, we sent a code" line, shown right after a request. */
  notice?: string | undefined;
  error?: string | undefined;
};

/** Forgot password, step 2: the emailed code and the new password, twice. */
export function renderResetPasswordPage(options: ResetPasswordPageOptions): SafeHtml {
  const t = textsOf(options.language);
  const error = formError(options.error);
  return page(
    options.language,
    t('forgot_title'),
    html`${noticeHtml(options.notice)}<form method="post" action="${options.action}" novalidate>
${error.html}
<input type="hidden" name="email" value="${options.email}">
<label for="code">${t('reset_code')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="6" required${error.described}>
<label for="password">${t('reset_new_password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required${error.described}>
<label for="password_confirm">${t('password_confirm')}</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" required${error.described}>
<button type="submit">${t('reset_submit')}</button>
</form>${switchLink(options.resendHref, t('resend_code'))}${switchLink(options.signInHref, t('back_to_sign_in'))}`,
  );
}

export type RegisterPageOptions = {
  language: Language;
  action: string;
  signInHref: string;
  username?: string;
  email?: string;
  error?: string;
};

/** The sign-up form: username, optional email, password twice. */
export function renderRegisterPage(options: RegisterPageOptions): SafeHtml {
  const t = textsOf(options.language);
  const error = formError(options.error);
  return page(
    options.language,
    t('register_title'),
    html`<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="username">${t('username')}</label>
<input id="username" name="username" autocomplete="username" required value="${options.username ?? ''}"${error.described}>
<label for="email">${t('email')}</label>
<input id="email" name="email" type="email" autocomplete="email" value="${options.email ?? ''}"${error.described}>
<label for="password">${t('password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required${error.described}>
<label for="password_confirm">${t('password_confirm')}</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" required${error.described}>
<button type="submit">${t('register_submit')}</button>
</form>${switchLink(options.signInHref, t('have_account'))}`,
  );
}

/** The one inline script the OIDC pages may run (allowed by its hash): submit the sign-out form at once. */
export const LOGOUT_SCRIPT = 'document.forms[0].submit()';
export const LOGOUT_SCRIPT_CSP_SOURCE = `'sha256-${createHash('sha256').update(LOGOUT_SCRIPT).digest('base64')}'`;

/**
 * RP-initiated logout: oidc-provider's confirmation form (with its anti-forgery secret), ending the
 * session at the provider too, submitted by the hashed script; without script the button does it.
 */
export function renderLogoutPage(language: Language, providerForm: string): SafeHtml {
  const t = textsOf(language);
  // Our button goes at the end of the provider's form, which is trusted markup of the library.
  const end = providerForm.indexOf('</form>');
  const form =
    end === -1
      ? dangerouslyTrustHtml(providerForm)
      : html`${dangerouslyTrustHtml(providerForm.slice(0, end))}<input type="hidden" name="logout" value="yes"><button type="submit" autofocus>${t('sign_out_submit')}</button>${dangerouslyTrustHtml(providerForm.slice(end))}`;
  return page(language, t('sign_out_title'), html`${form}\n<script>${dangerouslyTrustHtml(LOGOUT_SCRIPT)}</script>`);
}

/**
 * An authorization request the provider refused before any sign-in page (an unregistered redirect_uri, an unknown
 * client, a malformed request): the branded frame, translated, with the OAuth error code for the application's
 * support. The provider's own description stays out: it is English and written for developers.
 */
export function renderRequestErrorPage(language: Language, error: string): SafeHtml {
  const t = (key: Parameters<typeof signInText>[1], values?: Record<string, string>) =>
    signInText(language, key, values);
  const message =
    error === 'invalid_redirect_uri'
      ? t('request_error_redirect_uri')
      : error === 'invalid_client'
        ? t('request_error_client')
        : t('request_error_generic');
  return page(
    language,
    t('request_error_title'),
    html`<p role="alert">${message}</p>
<p><small>${t('request_error_code', { code: error })}</small></p>`,
  );
}

export function renderMessagePage(language: Language, message: string): SafeHtml {
  return page(language, signInText(language, 'title'), html`<p role="alert">${message}</p>`);
}

export type WelcomePageOptions = { language: Language; action: string; username?: string; error?: string };

/** First run: the form that creates the first console admin and signs them in (same interaction). */
export function renderWelcomePage(options: WelcomePageOptions): SafeHtml {
  const t = textsOf(options.language);
  const error = formError(options.error);
  return page(
    options.language,
    t('welcome_title'),
    html`<p>${t('welcome_description')}</p>
<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="username">${t('username')}</label>
<input id="username" name="username" autocomplete="username" required value="${options.username ?? ''}"${error.described}>
<label for="password">${t('password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required${error.described}>
<label for="password_confirm">${t('password_confirm')}</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" required${error.described}>
<button type="submit">${t('welcome_submit')}</button>
</form>`,
  );
}

import { createHash } from 'node:crypto';
import type { Language } from '@gatehouse/schemas';
import type { SignInKey } from '../i18n/sign-in.ts';
import { dangerouslyTrustHtml, html, page as htmlPage, type SafeHtml } from '../shared/html.ts';
import { productLook, type SignInLook } from './sign-in-look.ts';
import { SIGN_IN_SCRIPT_PATH, signInScript } from './sign-in-script.ts';
import { CARD, themeStylesheet } from './sign-in-theme.ts';

export { SIGN_IN_STYLESHEET_PATH } from './sign-in-look.ts';

// Over 600 lines on purpose: the base stylesheet of every sign-in page (the CSP forbids inline styles) and the page
// frame that uses its class names live together so a class is never renamed on one side only; the screens themselves
// are in sign-in-screens.ts and auth/steps/.

const lightColors = `--bg:#f6f6fa;--card:${CARD.light};--text:#1b1b26;--muted:#5c5c70;--danger:#c4221f;--border:#8e8ea3`;
const darkColors = `--bg:#121218;--card:${CARD.dark};--text:#ececf3;--muted:#a3a3b8;--danger:#ff8a85;--border:#6b6b80`;

/**
 * The base stylesheet of every sign-in page, served as a file because the CSP forbids inline styles. Light, dark
 * (`data-theme="dark"`), or the system's choice (`auto`, or no attribute); the tenant's colours come after it from
 * its theme stylesheet (`sign-in-theme.ts`), the product's colours here are the defaults.
 */
export const signInStylesheet = `:root{color-scheme:light;${lightColors}}
:root[data-theme=dark]{color-scheme:dark;${darkColors}}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]){color-scheme:dark;${darkColors}}}
${themeStylesheet({ primaryColor: '#6139F6', darkPrimaryColor: '#8768F8' }, null)}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:16px;padding:24px 0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,sans-serif}
main{width:min(400px,92vw);background:var(--card);border:1px solid var(--border);border-radius:12px;padding:32px}
h1{font-size:1.4rem;margin:0 0 24px}label{display:block;font-weight:600;margin:16px 0 6px}
.logo{display:block;max-width:100%;max-height:48px;margin:0 0 20px}.logo-dark{display:none}
:root[data-theme=dark] .logo-dark{display:block}:root[data-theme=dark] .logo-light.has-dark{display:none}
@media (prefers-color-scheme:dark){:root:not([data-theme=light]) .logo-dark{display:block}:root:not([data-theme=light]) .logo-light.has-dark{display:none}}
input{width:100%;padding:10px 12px;border:1px solid var(--border);border-radius:8px;background:transparent;color:inherit;font:inherit}
input[type=checkbox]{width:auto;margin:0 8px 0 0;accent-color:var(--primary)}
label.terms{display:flex;align-items:flex-start;font-weight:400;margin:16px 0 0}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid var(--link);outline-offset:2px}
button{margin-top:24px;width:100%;padding:11px;border:0;border-radius:8px;background:var(--primary);color:var(--on-primary);font:inherit;font-weight:600;cursor:pointer}
.error{color:var(--danger);margin:0 0 8px}.field-error{margin:6px 0 0}.notice{margin:0 0 8px}.custom-content p{white-space:pre-line;margin:0 0 8px}.hint{color:var(--muted);font-size:.9rem;margin:16px 0 0}
.switch{margin:20px 0 0;text-align:center}a{color:var(--link)}a[aria-disabled=true]{color:var(--muted);text-decoration:none}
.label-row{display:flex;justify-content:space-between;align-items:baseline;gap:8px}.label-row a{font-size:.9rem}
button.reveal{margin:6px 0 0;width:auto;padding:4px 10px;background:transparent;color:var(--link);border:1px solid var(--border);font-size:.85rem;font-weight:600}
.actions{display:flex;gap:8px;flex-wrap:wrap;margin:12px 0 0}.actions button,.actions a{margin:0;width:auto;padding:6px 12px;font-size:.9rem;background:transparent;color:var(--link);border:1px solid var(--border);border-radius:8px;text-decoration:none;font-weight:600}
button.link{margin:0;width:auto;padding:0;background:none;border:0;color:var(--link);text-decoration:underline;font-weight:400}
.identity{display:flex;justify-content:space-between;gap:8px;margin:0 0 8px;font-weight:600;overflow-wrap:anywhere}
.qr{display:block;width:184px;height:184px;margin:16px auto;background:#fff;border-radius:8px}.secret{font-family:ui-monospace,monospace;overflow-wrap:anywhere;margin:0}
ul.codes{list-style:none;padding:0;display:grid;grid-template-columns:repeat(2,1fr);gap:4px 16px;font-family:ui-monospace,monospace;direction:ltr}
ul{padding-inline-start:20px;margin:0 0 8px}li{margin:4px 0}
button.secondary{margin-top:12px;background:transparent;color:var(--link);border:1px solid var(--border)}
h2.subtitle{font-size:1rem;margin:28px 0 0;padding-top:20px;border-top:1px solid var(--border)}form.passkey .error{margin:12px 0 0}
a.social{display:flex;align-items:center;justify-content:center;gap:10px;margin:12px 0 0;padding:10px;border:1px solid var(--border);border-radius:8px;color:var(--text);text-decoration:none;font-weight:600}
a.social img{width:20px;height:20px}.divider{text-align:center;color:var(--muted);margin:20px 0 0}
footer{display:flex;gap:16px;flex-wrap:wrap;justify-content:center;color:var(--muted);font-size:.85rem}footer a{color:inherit}`;

/** A sign-in page: the shared frame with the tenant's stylesheets, icon, logo and footer. */
/**
 * The pages a tenant may add its own words to (`customContent`), by the reference's page paths. The words are text:
 * escaped, a blank line starts a paragraph, line breaks are kept (`.custom-content`), never markup.
 */
export type CustomContentPage = '/sign-in' | '/register' | '/forgot-password' | '/single-sign-on' | '/consent';

function customContentHtml(look: SignInLook, key: CustomContentPage | undefined) {
  const words = key ? look.settings.customContent[key]?.trim() : undefined;
  if (!words) return '';
  return html`<div class="custom-content">${words.split(/\n\s*\n/).map((paragraph) => html`<p>${paragraph.trim()}</p>`)}</div>
`;
}

/** A captcha provider's widget on a form: its element and its script (the page's CSP allows its origins). */
export type CaptchaWidgetView = { type: 'Turnstile' | 'RecaptchaEnterprise'; siteKey: string; scriptUrl: string };

function captchaHtml(look: SignInLook, widget: CaptchaWidgetView | undefined) {
  if (!widget) return '';
  const kind = widget.type === 'Turnstile' ? 'cf-turnstile' : 'g-recaptcha';
  return html`<div class="captcha ${kind}" data-sitekey="${widget.siteKey}" data-language="${look.language}" data-theme="auto"></div>
<script src="${widget.scriptUrl}" async defer></script>
`;
}

/** The sign-in script's address, versioned by its content (cached for good). */
const signInScriptHref = `${SIGN_IN_SCRIPT_PATH}?v=${createHash('sha256').update(signInScript).digest('hex').slice(0, 12)}`;

export type PageExtras = {
  /** The page's key in the tenant's `customContent`. */
  content?: CustomContentPage | undefined;
  /** The page uses the sign-in script (auth/sign-in-script.ts): not on pages under the OIDC issuer's CSP. */
  script?: boolean | undefined;
};

export function page(look: SignInLook, title: string, body: SafeHtml, extras: PageExtras = {}): SafeHtml {
  const { content } = extras;
  const { logo, settings, text } = look;
  const alt = look.name;
  const header = logo.light
    ? html`<img class="${logo.dark ? 'logo logo-light has-dark' : 'logo logo-light'}" src="${logo.light}" alt="${alt}">${
        logo.dark ? html`<img class="logo logo-dark" src="${logo.dark}" alt="${alt}">` : ''
      }\n`
    : logo.dark
      ? html`<img class="logo logo-dark" src="${logo.dark}" alt="${alt}">\n`
      : undefined;
  const links = [
    settings.supportEmail && html`<a href="${`mailto:${settings.supportEmail}`}">${text('support_email')}</a>`,
    settings.supportWebsiteUrl && html`<a href="${settings.supportWebsiteUrl}">${text('support_website')}</a>`,
    !settings.hideLogtoBranding && html`<span>${text('powered_by')}</span>`,
  ].filter(Boolean);
  return htmlPage({
    language: look.language,
    title,
    stylesheet: look.stylesheets,
    theme: look.theme,
    icon: look.favicon,
    header,
    footer: links.length > 0 ? html`\n<footer>${links}</footer>` : undefined,
    body: content ? html`${customContentHtml(look, content)}${body}` : body,
    scripts: extras.script ? [signInScriptHref] : [],
  });
}

/** The error line of a form and the attributes that tie the inputs to it. */
export function formError(error: string | undefined) {
  return {
    html: error ? html`<p class="error" role="alert" id="form-error">${error}</p>` : '',
    described: error ? html` aria-describedby="form-error" aria-invalid="true"` : '',
  };
}

/** A status line above a form (not an error). */
export const noticeHtml = (notice: string | undefined) =>
  notice && html`<p class="notice" role="status">${notice}</p>\n`;

/** A link to another screen of the same interaction. */
export const switchLink = (href: string | undefined, text: string) =>
  href && html`\n<p class="switch"><a href="${href}">${text}</a></p>`;

/** How a page offers passkeys (auth/steps/passkey.ts): where the answer goes, and the options or where to get them. */
export type PasskeyFormOptions = {
  action: string;
  mode: 'get' | 'create';
  /** The options for the browser, JSON, when the page was rendered with its challenge. */
  options?: string | undefined;
  /** Where the sign-in script asks for the options (POST, JSON) when the page has none. */
  optionsUrl?: string | undefined;
  /** The button's words; without them the form has no button (autofill only). */
  label?: string | undefined;
  /** The identifier field offers the user's passkeys in its autofill (conditional mediation). */
  autofill?: boolean | undefined;
  secondary?: boolean | undefined;
};

/**
 * A form the sign-in script (auth/sign-in-script.ts) fills with the browser's answer to a passkey request and sends.
 * It stays hidden without the script or without WebAuthn in the browser: the page's other ways still work.
 */
export function passkeyForm(look: SignInLook, options: PasskeyFormOptions): SafeHtml {
  const t = look.text;
  return html`
<form method="post" action="${options.action}" class="passkey" data-passkey="${options.mode}"${
    options.options ? html` data-options="${options.options}"` : ''
  }${options.optionsUrl ? html` data-options-url="${options.optionsUrl}"` : ''}${
    options.autofill ? html` data-autofill` : ''
  } data-cancelled="${t('passkey_cancelled')}" data-failed="${t('passkey_failed')}" hidden>
<input type="hidden" name="credential">
<p class="error" role="alert" data-passkey-error hidden></p>${
    options.label
      ? html`
<button type="submit"${options.secondary ? html` class="secondary"` : ''}>${options.label}</button>`
      : ''
  }
</form>`;
}

/** The first screen's passkey form, when the tenant signs users in with passkeys. */
const passkeySignInForm = (look: SignInLook, passkey: { action: string; optionsUrl: string } | undefined) => {
  const settings = look.settings.passkeySignIn;
  if (!passkey || !settings.enabled || (!settings.showPasskeyButton && !settings.allowAutofill)) return '';
  return passkeyForm(look, {
    action: passkey.action,
    mode: 'get',
    optionsUrl: passkey.optionsUrl,
    label: settings.showPasskeyButton ? look.text('passkey_sign_in') : undefined,
    autofill: settings.allowAutofill,
    secondary: true,
  });
};

/** The identifier field's autocomplete: with passkey autofill, the browser lists the user's passkeys there too. */
const identifierAutocomplete = (look: SignInLook, passkey: unknown) =>
  passkey && look.settings.passkeySignIn.enabled && look.settings.passkeySignIn.allowAutofill
    ? 'username webauthn'
    : 'username';

/** A password field's show/hide labels, for the sign-in script (auth/sign-in-script.ts). */
const reveal = (look: SignInLook) =>
  html` data-reveal data-show="${look.text('show_password')}" data-hide="${look.text('hide_password')}"`;

/** The resend link of a code page: usable after a minute (the sign-in script counts down; without it, at once). */
const RESEND_WAIT_SECONDS = 60;
const resendLink = (look: SignInLook, href: string) =>
  html`\n<p class="switch"><a href="${href}" data-wait="${look.text('resend_in')}" data-seconds="${RESEND_WAIT_SECONDS}">${look.text('resend_code')}</a></p>`;

/** A social connector on a page: where its button leads, its name and logo. */
export type SocialLink = { connectorId: string; href: string; name: string; logo: string };

/** "Continue with …" buttons (plain links: the server starts the provider's sign-in), after an "or". */
function socialButtons(look: SignInLook, links: readonly SocialLink[] | undefined): SafeHtml | '' {
  if (!links?.length) return '';
  return html`\n<p class="divider">${look.text('social_divider')}</p>${links.map(
    (link) =>
      html`\n<a class="social" href="${link.href}"><img src="${link.logo}" alt=""><span>${look.text('social_continue', { name: link.name })}</span></a>`,
  )}`;
}

/** Translated text with `{name}` placeholders filled by markup (links), everything else escaped. */
function textWithMarkup(template: string, values: Record<string, SafeHtml>): SafeHtml {
  const parts = template
    .split(/\{(\w+)\}/g)
    .map((part, index) => (index % 2 === 0 ? part : (values[part] ?? `{${part}}`)));
  return html`${parts}`;
}

/**
 * Spec §4 agree-to-terms: with a terms or privacy URL, the page names them; `manual` shows a checkbox the form must
 * carry ticked (`agree`), otherwise a line says that continuing is agreeing.
 */
export function termsHtml(look: SignInLook, manual: boolean, described: SafeHtml | string = ''): SafeHtml | '' {
  const { termsOfUseUrl, privacyPolicyUrl } = look.settings;
  const t = look.text;
  const terms =
    termsOfUseUrl && html`<a href="${termsOfUseUrl}" target="_blank" rel="noopener">${t('terms_of_use')}</a>`;
  const privacy =
    privacyPolicyUrl && html`<a href="${privacyPolicyUrl}" target="_blank" rel="noopener">${t('privacy_policy')}</a>`;
  if (!terms && !privacy) return '';
  const documents =
    terms && privacy ? textWithMarkup(t('terms_documents_both'), { terms, privacy }) : ((terms || privacy) as SafeHtml);
  if (!manual) return html`\n<p class="hint">${textWithMarkup(t('terms_automatic'), { documents })}</p>`;
  return html`\n<label class="terms"><input type="checkbox" name="agree" value="yes" required${described}><span>${textWithMarkup(t('terms_agree'), { documents })}</span></label>`;
}

/** Which screen shows the terms as a checkbox (spec §4 agreeToTermsPolicy). */
export const termsManualOn = (look: SignInLook, screen: 'sign_in' | 'register') => {
  const { agreeToTermsPolicy, termsOfUseUrl, privacyPolicyUrl } = look.settings;
  if (!termsOfUseUrl && !privacyPolicyUrl) return false;
  return agreeToTermsPolicy === 'Manual' || (agreeToTermsPolicy === 'ManualRegistrationOnly' && screen === 'register');
};

export type SignInPageOptions = {
  /** The tenant's captcha, when it asks for one. */
  captcha?: CaptchaWidgetView | undefined;
  action: string;
  /** The identifier field's label (it names the identifiers that take a password). */
  identifierLabel: string;
  identifier?: string | undefined;
  /** Identifier-first, second step: the identifier is fixed (shown, sent hidden), with a link to change it. */
  identifierFixed?: { changeHref: string } | undefined;
  error?: string | undefined;
  /** The sign-up screen of the same interaction, when registration is open. */
  registerHref?: string | undefined;
  /** The forgot-password screen of the same interaction, when codes can be emailed. */
  forgotHref?: string | undefined;
  /** Sign-in by email code, when the tenant allows it. */
  codeSignInHref?: string | undefined;
  /** The code link's words (by email, phone, or either). */
  codeSignInText?: string | undefined;
  /** A confirmation shown above the form (e.g. after a password reset). */
  notice?: string | undefined;
  social?: readonly SocialLink[] | undefined;
  /** The single sign-on screen, when the sign-in experience has enterprise SSO on. */
  ssoHref?: string | undefined;
  /** Passkey sign-in (when the settings turn it on): where its answer goes and where its options come from. */
  passkey?: { action: string; optionsUrl: string } | undefined;
};

/** The sign-in form: a plain HTML form (works without JavaScript), localised, right-to-left for Arabic. */
export function renderSignInPage(look: SignInLook, options: SignInPageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  const identifierField = options.identifierFixed
    ? html`<p class="identity"><span>${options.identifier ?? ''}</span><a href="${options.identifierFixed.changeHref}">${t('change_identifier')}</a></p>
<input type="hidden" name="identifier" value="${options.identifier ?? ''}"><input type="hidden" name="step" value="password">`
    : html`<label for="identifier">${options.identifierLabel}</label>
<input id="identifier" name="identifier" autocomplete="${identifierAutocomplete(look, options.passkey)}" required value="${options.identifier ?? ''}"${error.described}>`;
  return page(
    look,
    t('title', { name: look.name }),
    html`${noticeHtml(options.notice)}<form method="post" action="${options.action}" novalidate>
${error.html}
${identifierField}
${
  options.forgotHref
    ? html`<div class="label-row"><label for="password">${t('password')}</label><a href="${options.forgotHref}">${t('forgot_link')}</a></div>`
    : html`<label for="password">${t('password')}</label>`
}
<input id="password" name="password" type="password" autocomplete="current-password" required${options.identifierFixed ? html` autofocus` : ''}${reveal(look)}${error.described}>${termsHtml(look, termsManualOn(look, 'sign_in'), error.described)}
${captchaHtml(look, options.captcha)}<button type="submit">${t('submit')}</button>
</form>${passkeySignInForm(look, options.passkey)}${socialButtons(look, options.social)}${switchLink(options.ssoHref, t('sso_link'))}${switchLink(options.codeSignInHref, options.codeSignInText ?? t('code_sign_in_link'))}${switchLink(options.registerHref, t('create_account'))}`,
    { content: '/sign-in', script: true },
  );
}

export type IdentifierPageOptions = {
  action: string;
  identifierLabel: string;
  identifier?: string | undefined;
  error?: string | undefined;
  registerHref?: string | undefined;
  codeSignInHref?: string | undefined;
  codeSignInText?: string | undefined;
  social?: readonly SocialLink[] | undefined;
  ssoHref?: string | undefined;
  passkey?: { action: string; optionsUrl: string } | undefined;
};

/** Identifier-first (`first_screen=identifier:sign_in`): who you are first, then the password on the next step. */
export function renderIdentifierPage(look: SignInLook, options: IdentifierPageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  return page(
    look,
    t('title', { name: look.name }),
    html`<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="identifier">${options.identifierLabel}</label>
<input id="identifier" name="identifier" autocomplete="${identifierAutocomplete(look, options.passkey)}" required value="${options.identifier ?? ''}"${error.described}>
<button type="submit">${t('continue')}</button>
</form>${passkeySignInForm(look, options.passkey)}${socialButtons(look, options.social)}${switchLink(options.ssoHref, t('sso_link'))}${switchLink(options.codeSignInHref, options.codeSignInText ?? t('code_sign_in_link'))}${switchLink(options.registerHref, t('create_account'))}`,
    { content: '/sign-in', script: true },
  );
}

export type ConsentPageOptions = {
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
export function renderConsentPage(look: SignInLook, options: ConsentPageOptions): SafeHtml {
  const t = look.text;
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
    look,
    t('consent_title', { app: options.appName }),
    html`<p>${t('consent_intro', { app: options.appName })}</p>
<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>${termsHtml(look, false)}
<form method="post" action="${options.allowAction}"><button type="submit">${t('consent_allow')}</button></form>
<form method="post" action="${options.denyAction}"><button type="submit" class="secondary">${t('consent_deny')}</button></form>`,
    { content: '/consent', script: true },
  );
}

export type EmailPageOptions = {
  /** The tenant's captcha, when it asks for one. */
  captcha?: CaptchaWidgetView | undefined;
  action: string;
  backHref: string;
  email?: string | undefined;
  error?: string | undefined;
};

/** Forgot password, step 1: the email address to send a code to. */
export function renderForgotPasswordPage(look: SignInLook, options: EmailPageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  return page(
    look,
    t('forgot_title'),
    html`<p>${t('forgot_description')}</p>
<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="email">${t('forgot_email')}</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${options.email ?? ''}"${error.described}>
${captchaHtml(look, options.captcha)}<button type="submit">${t('forgot_submit')}</button>
</form>${switchLink(options.backHref, t('back_to_sign_in'))}`,
    { content: '/forgot-password', script: true },
  );
}

/** Sign-in by code, step 1: the email address or phone number to send the code to (as the tenant allows). */
export function renderCodeSignInPage(
  look: SignInLook,
  options: EmailPageOptions & {
    registerHref?: string | undefined;
    channels?: { email: boolean; phone: boolean } | undefined;
  },
) {
  const t = look.text;
  const error = formError(options.error);
  const { email = true, phone = false } = options.channels ?? {};
  const label = email && phone ? t('identifier_email_phone') : phone ? t('identifier_phone') : t('forgot_email');
  const input =
    email && !phone
      ? html` type="email" autocomplete="email"`
      : phone && !email
        ? html` type="tel" autocomplete="tel"`
        : html` autocomplete="username"`;
  return page(
    look,
    t('code_sign_in_title'),
    html`<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="email">${label}</label>
<input id="email" name="email"${input} required value="${options.email ?? ''}"${error.described}>${termsHtml(look, termsManualOn(look, 'sign_in'), error.described)}
${captchaHtml(look, options.captcha)}<button type="submit">${t('code_send')}</button>
</form>${switchLink(options.backHref, t('back_to_sign_in'))}${switchLink(options.registerHref, t('create_account'))}`,
  );
}

export type CodePageOptions = {
  title: string;
  action: string;
  /** Where to ask for a new code. */
  resendHref: string;
  backHref: string;
  backText: string;
  notice?: string | undefined;
  error?: string | undefined;
};

/** The emailed code of a sign-up or a sign-in by code. */
export function renderCodePage(look: SignInLook, options: CodePageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  return page(
    look,
    options.title,
    html`${noticeHtml(options.notice)}<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="code">${t('code_label')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="6" required autofocus${error.described}>
<button type="submit">${t('code_submit')}</button>
</form>${resendLink(look, options.resendHref)}${switchLink(options.backHref, options.backText)}`,
    { script: true },
  );
}

export type ResetPasswordPageOptions = {
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
export function renderResetPasswordPage(look: SignInLook, options: ResetPasswordPageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  return page(
    look,
    t('forgot_title'),
    html`${noticeHtml(options.notice)}<form method="post" action="${options.action}" novalidate>
${error.html}
<input type="hidden" name="email" value="${options.email}">
<label for="code">${t('reset_code')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="6" required${error.described}>
<label for="password">${t('reset_new_password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required${reveal(look)}${error.described}>
<label for="password_confirm">${t('password_confirm')}</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" required${reveal(look)}${error.described}>
<button type="submit">${t('reset_submit')}</button>
</form>${resendLink(look, options.resendHref)}${switchLink(options.signInHref, t('back_to_sign_in'))}`,
    { script: true },
  );
}

/** Which fields the sign-up form has, from the tenant's sign-up settings (`registration-fields.ts`). */
export type RegisterFields = {
  username: boolean;
  email: 'required' | 'optional' | false;
  phone?: 'required' | 'optional' | false;
  /** Email or phone: both optional, one needed. */
  contactRequired?: boolean;
  password: boolean;
};

export type RegisterPageOptions = {
  /** The tenant's captcha, when it asks for one. */
  captcha?: CaptchaWidgetView | undefined;
  action: string;
  fields: RegisterFields;
  signInHref?: string | undefined;
  username?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  error?: string | undefined;
  social?: readonly SocialLink[] | undefined;
};

/** The sign-up form: the tenant's identifiers, a password twice when it asks for one, the terms. */
export function renderRegisterPage(look: SignInLook, options: RegisterPageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  const { fields } = options;
  return page(
    look,
    t('register_title', { name: look.name }),
    html`<form method="post" action="${options.action}" novalidate>
${error.html}
${
  fields.username
    ? html`<label for="username">${t('username')}</label>
<input id="username" name="username" autocomplete="username" required value="${options.username ?? ''}"${error.described}>
`
    : ''
}${
  fields.email
    ? html`<label for="email">${fields.email === 'required' ? t('forgot_email') : fields.contactRequired ? t('email_optional_contact') : t('email')}</label>
<input id="email" name="email" type="email" autocomplete="${fields.username ? 'email' : 'username'}"${fields.email === 'required' ? html` required` : ''} value="${options.email ?? ''}"${error.described}>
`
    : ''
}${
  fields.phone
    ? html`<label for="phone">${fields.phone === 'required' ? t('identifier_phone') : t('phone_optional')}</label>
<input id="phone" name="phone" type="tel" autocomplete="tel"${fields.phone === 'required' ? html` required` : ''} value="${options.phone ?? ''}"${error.described}>
`
    : ''
}${
  fields.password
    ? html`<label for="password">${t('password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required${reveal(look)}${error.described}>
<label for="password_confirm">${t('password_confirm')}</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" required${reveal(look)}${error.described}>`
    : ''
}${termsHtml(look, termsManualOn(look, 'register'), error.described)}
${captchaHtml(look, options.captcha)}<button type="submit">${!fields.password && !fields.username ? t('code_send') : t('register_submit')}</button>
</form>${socialButtons(look, options.social)}${switchLink(options.signInHref, t('have_account'))}`,
    { content: '/register', script: true },
  );
}

// ——— Enterprise single sign-on ———

/** An SSO connector on a page: where its link leads (our start step), its name and logos. */
export type SsoLink = { connectorId: string; href: string; name: string; logo?: string | undefined };

export type SsoEmailPageOptions = {
  action: string;
  backHref?: string | undefined;
  email?: string | undefined;
  error?: string | undefined;
};

/** Single sign-on, step 1: the work email, whose domain picks the organization's identity provider. */
export function renderSsoEmailPage(look: SignInLook, options: SsoEmailPageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  return page(
    look,
    t('sso_title'),
    html`<p>${t('sso_description')}</p>
<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="email">${t('sso_email')}</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${options.email ?? ''}"${error.described}>
<button type="submit">${t('continue')}</button>
</form>${switchLink(options.backHref, t('back_to_sign_in'))}`,
    { content: '/single-sign-on', script: true },
  );
}

const ssoButton = (look: SignInLook, link: SsoLink) =>
  html`\n<a class="social" href="${link.href}">${link.logo ? html`<img src="${link.logo}" alt="">` : ''}<span>${look.text('social_continue', { name: link.name })}</span></a>`;

/**
 * Where an email leads: one identity provider (the page goes on by itself, through the `Refresh` header the route
 * sets, and the link works without it), or the list to choose from when several connectors share the domain.
 */
export function renderSsoChoicePage(
  look: SignInLook,
  options: { links: readonly SsoLink[]; email: string; notice?: string | undefined; backHref?: string | undefined },
): SafeHtml {
  const t = look.text;
  return page(
    look,
    t('sso_title'),
    html`${noticeHtml(options.notice)}<p>${t('sso_choose', { email: options.email })}</p>${options.links.map((link) => ssoButton(look, link))}${switchLink(options.backHref, t('back_to_sign_in'))}`,
  );
}

/** SAML HTTP-POST binding: the AuthnRequest as a form to the IdP (no script on our pages: the user continues). */
export function renderSsoPostPage(
  look: SignInLook,
  options: { url: string; fields: Readonly<Record<string, string>>; name: string },
): SafeHtml {
  const t = look.text;
  return page(
    look,
    t('sso_title'),
    html`<form method="post" action="${options.url}">${Object.entries(options.fields).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
    )}
<button type="submit" autofocus>${t('social_continue', { name: options.name })}</button>
</form>`,
  );
}

/** A refused IdP answer: what happened, and the way back to the sign-in page. */
export function renderSsoFailedPage(look: SignInLook, options: { message: string; backHref: string }): SafeHtml {
  return page(
    look,
    look.text('sso_title'),
    html`<p class="error" role="alert">${options.message}</p>${switchLink(options.backHref, look.text('back_to_sign_in'))}`,
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
  const look = productLook(language);
  const t = look.text;
  // Our button goes at the end of the provider's form, which is trusted markup of the library.
  const end = providerForm.indexOf('</form>');
  const form =
    end === -1
      ? dangerouslyTrustHtml(providerForm)
      : html`${dangerouslyTrustHtml(providerForm.slice(0, end))}<input type="hidden" name="logout" value="yes"><button type="submit" autofocus>${t('sign_out_submit')}</button>${dangerouslyTrustHtml(providerForm.slice(end))}`;
  return page(look, t('sign_out_title'), html`${form}\n<script>${dangerouslyTrustHtml(LOGOUT_SCRIPT)}</script>`);
}

/**
 * An authorization request the provider refused before any sign-in page (an unregistered redirect_uri, an unknown
 * client, a malformed request): the branded frame, translated, with the OAuth error code for the application's
 * support. The provider's own description stays out: it is English and written for developers.
 */
export function renderRequestErrorPage(look: SignInLook, error: string): SafeHtml {
  const t = look.text;
  const message =
    error === 'invalid_redirect_uri'
      ? t('request_error_redirect_uri')
      : error === 'invalid_client'
        ? t('request_error_client')
        : t('request_error_generic');
  return page(
    look,
    t('request_error_title'),
    html`<p role="alert">${message}</p>
<p><small>${t('request_error_code', { code: error })}</small></p>`,
  );
}

/** A page with one message (an expired interaction, signed out), in the tenant's look when it is known. */
export function renderMessagePage(look: SignInLook, message: string): SafeHtml {
  return page(look, look.text('message_title'), html`<p role="alert">${message}</p>`);
}

/**
 * A step that goes on by itself: the answer carries `Refresh: 0;url=…` (routes/interaction.ts), and this page offers
 * the same address as a link for a browser that does not follow it.
 */
export function renderContinuePage(look: SignInLook, href: string): SafeHtml {
  return page(look, look.text('message_title'), html`<p><a href="${href}">${look.text('continue')}</a></p>`);
}

export type WelcomeField = 'username' | 'password' | 'password_confirm';

export type WelcomePageOptions = {
  action: string;
  /** What was typed, shown again with an error (the answer is not stored: `Cache-Control: no-store`). */
  username?: string;
  password?: string;
  passwordConfirm?: string;
  /** A refusal of one field, shown under it (issue 40, item 16); without a field, above the form. */
  error?: string;
  errorField?: WelcomeField | undefined;
};

/** An error line under one field, and the attributes that tie the field to it and put the cursor there. */
function fieldError(field: WelcomeField, options: WelcomePageOptions) {
  const own = options.error !== undefined && options.errorField === field;
  const id = `${field}-error`;
  return {
    html: own ? html`\n<p class="error field-error" role="alert" id="${id}">${options.error}</p>` : '',
    attributes: own ? html` aria-describedby="${id}" aria-invalid="true" autofocus` : '',
  };
}

/**
 * First run: the form that creates the first console admin and signs them in (same interaction). A refused field
 * gets its error under it, and every field keeps what was typed, the passwords too: the person fixes the field the
 * error names instead of typing the form again.
 */
export function renderWelcomePage(look: SignInLook, options: WelcomePageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.errorField ? undefined : options.error);
  const username = fieldError('username', options);
  const password = fieldError('password', options);
  const confirm = fieldError('password_confirm', options);
  return page(
    look,
    t('welcome_title'),
    html`<p>${t('welcome_description')}</p>
<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="username">${t('username')}</label>
<input id="username" name="username" autocomplete="username" required value="${options.username ?? ''}"${error.described}${username.attributes}>${username.html}
<label for="password">${t('password')}</label>
<input id="password" name="password" type="password" autocomplete="new-password" required value="${options.password ?? ''}"${reveal(look)}${error.described}${password.attributes}>${password.html}
<label for="password_confirm">${t('password_confirm')}</label>
<input id="password_confirm" name="password_confirm" type="password" autocomplete="new-password" required value="${options.passwordConfirm ?? ''}"${reveal(look)}${error.described}${confirm.attributes}>${confirm.html}
<button type="submit">${t('welcome_submit')}</button>
</form>`,
    { script: true },
  );
}

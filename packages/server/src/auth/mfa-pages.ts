import { html, type SafeHtml } from '../shared/html.ts';
import type { SignInLook } from './sign-in-look.ts';
import { formError, noticeHtml, page, passkeyForm, switchLink } from './sign-in-page.ts';

/**
 * The sign-in's second step (services/mfa-sign-in.ts): a code of the user's authenticator app or one of their backup
 * codes; setting up an authenticator app (QR code and key, then its code); and the new backup codes, shown once.
 * Plain forms like every sign-in page.
 */

export type MfaVerifyPageOptions = {
  action: string;
  /** Where "Use another account" posts: the first factor is forgotten and the sign-in starts again. */
  restartAction: string;
  factor: 'totp' | 'backup_code' | 'webauthn';
  /** The other factors the user holds: links to their forms. */
  switches?: readonly { href: string; factor: 'totp' | 'backup_code' | 'webauthn' }[] | undefined;
  /** webauthn: where the passkey's answer goes, and the request's options (JSON, with its challenge). */
  passkey?: { action: string; options: string } | undefined;
  error?: string | undefined;
};

const switchText = { totp: 'mfa_use_totp', backup_code: 'mfa_use_backup', webauthn: 'mfa_use_passkey' } as const;

export function renderMfaVerifyPage(look: SignInLook, options: MfaVerifyPageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  const switches = (options.switches ?? []).map((link) => switchLink(link.href, t(switchText[link.factor])));
  if (options.factor === 'webauthn' && options.passkey) {
    return page(
      look,
      t('mfa_title'),
      html`${noticeHtml(t('mfa_passkey_prompt'))}${error.html}${passkeyForm(look, {
        action: options.passkey.action,
        mode: 'get',
        options: options.passkey.options,
        label: t('mfa_use_passkey'),
      })}${switches}${restartForm(look, options.restartAction)}`,
      { script: true },
    );
  }
  const totp = options.factor === 'totp';
  const input = totp
    ? html`<label for="code">${t('code_label')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="6" required autofocus${error.described}>`
    : html`<label for="code">${t('mfa_backup_label')}</label>
<input id="code" name="code" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="32" required autofocus dir="ltr"${error.described}>`;
  return page(
    look,
    t('mfa_title'),
    html`${noticeHtml(t(totp ? 'mfa_totp_prompt' : 'mfa_backup_prompt'))}<form method="post" action="${options.action}" novalidate>
${error.html}
<input type="hidden" name="factor" value="${options.factor}">
${input}
<button type="submit">${t('code_submit')}</button>
</form>${switches}${restartForm(look, options.restartAction)}`,
    { script: true },
  );
}

/** "Use another account": a form (it changes the interaction), shown as a link. */
const restartForm = (look: SignInLook, action: string) =>
  html`\n<form method="post" action="${action}" class="switch"><button type="submit" class="link">${look.text('use_another_account')}</button></form>`;

export type MfaEnrollPageOptions = {
  action: string;
  restartAction: string;
  /** The authenticator app's setup, when the tenant offers it. */
  totp?: { qrCode: string; secret: string } | undefined;
  /** A passkey's creation, when the tenant offers it: where the answer goes and the request's options (JSON). */
  passkey?: { action: string; options: string } | undefined;
  /** Where "skip for now" posts; absent when a second factor is required. */
  skipAction?: string | undefined;
  error?: string | undefined;
};

export function renderMfaEnrollPage(look: SignInLook, options: MfaEnrollPageOptions): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  const required = options.skipAction === undefined;
  const { totp, passkey } = options;
  const passkeyPart = passkey
    ? html`<p class="hint">${t('mfa_passkey_enroll_prompt')}</p>${totp ? '' : error.html}${passkeyForm(look, {
        action: passkey.action,
        mode: 'create',
        options: passkey.options,
        label: t('mfa_passkey_create'),
      })}`
    : '';
  const totpPart = totp
    ? html`${
        passkey
          ? html`
<h2 class="subtitle">${t('mfa_or_totp')}</h2>`
          : ''
      }<p class="hint">${t('mfa_enroll_prompt')}</p>
<img class="qr" src="${totp.qrCode}" alt="${t('mfa_qr_alt')}" width="184" height="184">
<p class="hint">${t('mfa_secret_label')}</p>
<p class="secret" dir="ltr">${totp.secret}</p>
<p class="actions"><button type="button" data-copy="${totp.secret}" data-done="${t('copied')}" hidden>${t('copy_key')}</button></p>
<form method="post" action="${options.action}" novalidate>
${error.html}
<label for="code">${t('code_label')}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="6" required${passkey ? '' : html` autofocus`}${error.described}>
<button type="submit">${t('code_submit')}</button>
</form>`
    : '';
  return page(
    look,
    t(totp && !passkey ? 'mfa_enroll_title' : 'mfa_passkey_title'),
    html`${required ? noticeHtml(t('mfa_enroll_required')) : ''}${passkeyPart}${totpPart}${
      options.skipAction
        ? html`\n<form method="post" action="${options.skipAction}"><button type="submit" class="secondary">${t('mfa_skip')}</button></form>`
        : ''
    }${restartForm(look, options.restartAction)}`,
    { script: true },
  );
}

export function renderBackupCodesPage(
  look: SignInLook,
  options: { action: string; codes: readonly string[] },
): SafeHtml {
  const t = look.text;
  return page(
    look,
    t('mfa_backup_codes_title'),
    html`<p class="hint">${t('mfa_backup_codes_prompt')}</p>
<ul class="codes">${options.codes.map((code) => html`<li>${code}</li>`)}</ul>
<p class="actions"><button type="button" data-copy="${options.codes.join('\n')}" data-done="${t('copied')}" hidden>${t('copy_codes')}</button><a href="${`data:text/plain;charset=utf-8,${encodeURIComponent(`${options.codes.join('\n')}\n`)}`}" download="backup-codes.txt">${t('download_codes')}</a></p>
<form method="post" action="${options.action}"><button type="submit">${t('mfa_backup_codes_done')}</button></form>`,
    { script: true },
  );
}

/** After a password sign-in, with passkey sign-in on: create a passkey now, or not now. */
export function renderPasskeyOfferPage(
  look: SignInLook,
  options: { action: string; skipAction: string; options: string; error?: string | undefined },
): SafeHtml {
  const t = look.text;
  const error = formError(options.error);
  return page(
    look,
    t('passkey_offer_title'),
    html`<p class="hint">${t('passkey_offer_prompt')}</p>${error.html}${passkeyForm(look, {
      action: options.action,
      mode: 'create',
      options: options.options,
      label: t('passkey_offer_create'),
    })}
<form method="post" action="${options.skipAction}"><button type="submit" class="secondary">${t('passkey_offer_skip')}</button></form>`,
    { script: true },
  );
}

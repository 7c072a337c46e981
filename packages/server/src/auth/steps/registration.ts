import { ADMIN_TENANT_ID, codeFormSchema, registerFormSchemaFor } from '@gatehouse/schemas';
import type { Context } from 'hono';
import { INTERACTION_CODE, sendInteractionCode, verifyInteractionCode } from '../../services/interaction-codes.ts';
import { prepareRegistration, type Registration, registerUser } from '../../services/registration.ts';
import { sendHtml } from '../../shared/html.ts';
import type { Env, OpenInteraction } from '../interaction-context.ts';
import { passwordRejectedText } from '../sign-in-look.ts';
import { renderCodePage, renderRegisterPage, termsManualOn } from '../sign-in-page.ts';
import { registerFields, verifiesAtSignUp } from '../sign-in-screens.ts';
import type { StepKit } from './kit.ts';
import type { SignInStep } from './step.ts';

/** The page asking for the code sent to a new account's address (or number). */
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
    notice: address ? open.look.text('code_sent', { email: address, minutes: INTERACTION_CODE.ttlMinutes }) : undefined,
    error,
  });

/** Makes the account and signs it in: the first factor of a sign-up. */
async function finishRegistration(c: Context<Env>, kit: StepKit, registration: Registration) {
  const open = c.get('interaction');
  const result = await registerUser(open.tenant, registration, kit.requestMeta(c));
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
  return kit.signedIn(c, { userId: result.userId, moment: 'sign_up', method: 'Registration' });
}

/**
 * Sign-up: the form of the settings' sign-up identifiers, then (when the settings verify at sign-up and a sender can)
 * a code to the address or number; the account is made once it is proven.
 */
export const registrationStep: SignInStep = {
  name: 'registration',
  proves: 'identity',
  routes: (kit) => [
    {
      method: 'post',
      path: '/register',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const { look, page, settings, tenant } = open;
        if (!kit.mayRegister(open)) return kit.registrationClosed(c);
        const fields = registerFields(settings);
        const schema = registerFormSchemaFor({ ...fields, terms: termsManualOn(look, 'register') });
        const { form, error } = await kit.readForm(c, schema);
        const again = (message: string, status: 400 | 422) =>
          sendHtml(
            c,
            renderRegisterPage(look, {
              action: `${page}/register`,
              fields,
              signInHref: kit.maySignIn(open) ? `${page}?screen=sign_in` : undefined,
              username: form.username,
              email: form.email,
              phone: form.phone,
              error: message,
              captcha: kit.captchaOf(open),
            }),
            status,
          );
        if (error) return again(kit.formErrorText(look, error), 400);
        // An address of an enterprise SSO domain registers through its identity provider: said first, then the user
        // continues (issue 37 item 7).
        const sso = fields.email && form.email ? await kit.ssoConnectorsOf(open, form.email) : [];
        if (sso.length) return kit.sendToSso(c, sso, form.email, 'enforced', 'on_click');
        if (!(await kit.captchaPassed(c))) return again(look.text('captcha_failed'), 400);
        const prepared = await prepareRegistration(
          tenant,
          {
            username: fields.username ? form.username : undefined,
            email: fields.email && form.email ? form.email : undefined,
            phone: fields.phone && form.phone ? form.phone : undefined,
            password: fields.password ? form.password : undefined,
          },
          kit.requestMeta(c),
          kit.pwned(c),
        );
        if (!prepared.ok && prepared.reason === 'rejected')
          return again(passwordRejectedText(look, prepared.rejections), 400);
        if (!prepared.ok && prepared.reason === 'email_blocked') return again(look.text('email_blocked'), 400);
        if (!prepared.ok && prepared.reason === 'username_policy') {
          const { minLength, maxLength } = settings.usernamePolicy;
          // 422, the reference's status for `user.username_<violation>`.
          return again(look.text(`username_rejected.${prepared.violation}`, { min: minLength, max: maxLength }), 422);
        }
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
          registration.email && open.senders.email
            ? 'email'
            : registration.phone && open.senders.sms
              ? 'sms'
              : undefined;
        // Console accounts (the admin tenant) prove an email typed at sign-up even where the settings do not ask it:
        // the address decides which tenant invitations the account may accept (issue 39, item 6).
        const consoleEmail = tenant.tenantId === ADMIN_TENANT_ID && channel === 'email';
        if ((verifiesAtSignUp(settings) || consoleEmail) && channel) {
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
              delivery: kit.delivery,
            },
            kit.requestMeta(c),
          );
          if (!sent) return again(look.text('code_rate_limited'), 422);
          return sendHtml(c, registerCodePage(open, channel === 'email' ? address : `+${address}`, channel));
        }
        return finishRegistration(c, kit, registration);
      },
    },
    {
      method: 'post',
      path: '/register/verify',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        if (!kit.mayRegister(open)) return kit.registrationClosed(c);
        // Which channel the refused code came by, for the page's title: email when sign-up takes one, else the phone.
        const channel =
          open.senders.email &&
          (open.settings.signUp.identifiers.includes('email') || open.tenant.tenantId === ADMIN_TENANT_ID)
            ? ('email' as const)
            : ('sms' as const);
        const refused = (key: 'reset_code_invalid' | 'reset_code_exhausted', status: 400 | 429) =>
          sendHtml(c, registerCodePage(open, undefined, channel, open.look.text(key)), status);
        const { form, error } = await kit.readForm(c, codeFormSchema);
        if (error) return refused('reset_code_invalid', 400);
        const checked = await verifyInteractionCode(
          open.tenant,
          { interactionId: open.details.uid, purpose: 'Register', code: form.code },
          kit.requestMeta(c),
        );
        if (!checked.ok) {
          return checked.reason === 'too_many_attempts'
            ? refused('reset_code_exhausted', 429)
            : refused('reset_code_invalid', 400);
        }
        const { channel: provenBy, ...pending } = checked.pending as Registration & { channel?: 'email' | 'sms' };
        return finishRegistration(
          c,
          kit,
          provenBy === 'sms'
            ? { ...pending, phone: checked.email, phoneVerified: true }
            : { ...pending, email: checked.email, emailVerified: true },
        );
      },
    },
  ],
};

import { ADMIN_TENANT_ID } from '@gatehouse/schemas';
import { getCookie } from 'hono/cookie';
import { consoleAdminExists } from '../../services/console-admin.ts';
import { findSsoConnectorRow } from '../../services/sso-connectors.ts';
import { SSO_IDP_INITIATED_COOKIE, takeIdpInitiatedTicket } from '../../services/sso-idp-initiated.ts';
import { sendHtml } from '../../shared/html.ts';
import { renderWelcomePage } from '../sign-in-page.ts';
import { codeSignIn, forgotPasswordByEmail, requestedScreen, ssoOffered } from '../sign-in-screens.ts';
import { consentPrompt } from './consent.ts';
import { clearIdpInitiatedCookie, signInWithSsoAnswer } from './sso.ts';
import type { SignInStep } from './step.ts';

/**
 * The interaction's page, where oidc-provider sends the browser: the consent prompt, the OSS console's first run, an
 * IdP-initiated SSO answer waiting for this application, a `direct_sign_in` to an IdP, or the first screen the
 * application and the settings ask for.
 */
export const startStep: SignInStep = {
  name: 'start',
  proves: 'nothing',
  routes: (kit) => [
    {
      method: 'get',
      path: '',
      handler: async (c) => {
        const open = c.get('interaction');
        const { details, tenantId, page, look } = open;
        if (details.prompt.name === 'consent') return consentPrompt(c, kit);
        // OSS first run: the welcome form creates the first admin (the cloud edition has sign-up instead).
        if (kit.edition === 'oss' && tenantId === ADMIN_TENANT_ID && !(await consoleAdminExists(kit.tenants))) {
          return sendHtml(c, renderWelcomePage(look, { action: `${page}/welcome` }));
        }
        const direct = typeof details.params.direct_sign_in === 'string' ? details.params.direct_sign_in : '';
        // IdP-initiated SSO (services/sso-idp-initiated.ts): the IdP's checked answer waits in a ticket for this
        // application's sign-in; taken once, it signs the user in as an SP-initiated answer would. A ticket for
        // another application stays for that one's sign-in.
        const ticketCookie = getCookie(c, SSO_IDP_INITIATED_COOKIE);
        if (ticketCookie && details.prompt.name === 'login' && ssoOffered(open.settings)) {
          const ticket = await takeIdpInitiatedTicket(open.tenant, ticketCookie, {
            clientId: String(details.params.client_id),
            redirectUri: typeof details.params.redirect_uri === 'string' ? details.params.redirect_uri : undefined,
            directSignIn: direct,
          });
          if (ticket.kind !== 'other') clearIdpInitiatedCookie(kit, c, tenantId);
          if (ticket.kind === 'taken') {
            return signInWithSsoAnswer(kit, c, ticket.connector, ticket.profile, { idpInitiated: true });
          }
        }
        // Spec §2.4 `direct_sign_in=sso:{connectorId}`: straight to that IdP when SSO is on and the connector exists.
        if (direct.startsWith('sso:') && !c.req.query('screen') && ssoOffered(open.settings)) {
          const connector = await findSsoConnectorRow(open.tenant, direct.slice(4, 200));
          if (connector) return c.redirect(`${page}/sso/${encodeURIComponent(connector.id)}`, 303);
        }
        let screen = requestedScreen(details.params, c.req.query('screen'));
        if (screen === 'forgot_password' && !forgotPasswordByEmail(open.settings, open.senders.email))
          screen = 'sign_in';
        if (screen === 'code_sign_in' && !codeSignIn(open.settings, open.senders)) screen = 'sign_in';
        if (screen === 'single_sign_on' && !ssoOffered(open.settings)) screen = 'sign_in';
        // A register-only tenant shows sign-up whatever was asked; a sign-in-only one refuses sign-up.
        if (!kit.maySignIn(open) && screen !== 'register') screen = 'register';
        if (screen === 'register' && !kit.mayRegister(open)) return kit.registrationClosed(c);
        // Spec §2.4: the application may pre-fill the identifier (`identifier`, or OIDC's `login_hint`).
        const hint = [details.params.identifier, details.params.login_hint].find(
          (value): value is string => typeof value === 'string' && value.length > 0 && value.length <= 256,
        );
        return sendHtml(c, kit.screenPage(c, screen, hint ? { identifier: hint } : {}));
      },
    },
  ],
};

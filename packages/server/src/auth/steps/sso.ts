import { forgotPasswordFormSchema, type SsoProviderName, ssoProviderTypeOf } from '@gatehouse/schemas';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { generateCookie, getCookie, setCookie } from 'hono/cookie';
import { ssoCallbackUrl } from '../../services/sso/idp.ts';
import { auditSsoFailure, signInWithSsoProfile } from '../../services/sso-account.ts';
import { findSsoConnectorRow, type SsoConnectorRow } from '../../services/sso-connectors.ts';
import {
  acceptIdpInitiatedAnswer,
  IDP_INITIATED_TICKET_TTL_SECONDS,
  idpInitiatedCookiePath,
  SSO_IDP_INITIATED_COOKIE,
} from '../../services/sso-idp-initiated.ts';
import {
  oidcProfile,
  readSamlRelay,
  readSamlResult,
  readSsoCookie,
  SSO_COOKIE,
  SsoAnswerError,
  type SsoProfile,
  samlProfile,
  samlServiceProviderMetadata,
  signSamlResult,
  ssoConnectorMetadata,
  startSsoSignIn,
} from '../../services/sso-sign-in.ts';
import { sendHtml } from '../../shared/html.ts';
import type { Env } from '../interaction-context.ts';
import { renderMessagePage, renderSsoEmailPage, renderSsoFailedPage, renderSsoPostPage } from '../sign-in-page.ts';
import { ssoOffered } from '../sign-in-screens.ts';
import type { StepKit } from './kit.ts';
import type { SignInStep } from './step.ts';

const ssoFailed = (c: Context<Env>, message: string, status: 400 | 403 | 502) =>
  sendHtml(c, renderSsoFailedPage(c.get('interaction').look, { message, backHref: c.get('interaction').page }), status);

const setSsoCookie = (kit: StepKit, c: Context, value: string, maxAge: number) =>
  setCookie(c, SSO_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    maxAge,
    secure: kit.config.publicUrl.startsWith('https:'),
  });

const idpInitiatedCookieOptions = (kit: StepKit, tenantId: string, maxAge: number) => ({
  path: idpInitiatedCookiePath(tenantId),
  httpOnly: true,
  sameSite: 'Lax' as const,
  maxAge,
  secure: kit.config.publicUrl.startsWith('https:'),
});

/** The IdP-initiated ticket's cookie (services/sso-idp-initiated.ts): the tenant's interactions only, Lax, HttpOnly. */
export const setIdpInitiatedCookie = (kit: StepKit, c: Context, tenantId: string, value: string) =>
  setCookie(
    c,
    SSO_IDP_INITIATED_COOKIE,
    value,
    idpInitiatedCookieOptions(kit, tenantId, IDP_INITIATED_TICKET_TTL_SECONDS),
  );

/**
 * Removes the ticket's cookie, whoever answers: our page (Hono's headers) or oidc-provider, which writes the end of
 * the interaction on the Node response itself (kit.finish), where Hono's headers never go.
 */
export function clearIdpInitiatedCookie(kit: StepKit, c: Context<Env>, tenantId: string) {
  const options = idpInitiatedCookieOptions(kit, tenantId, 0);
  setCookie(c, SSO_IDP_INITIATED_COOKIE, '', options);
  if (!c.env.outgoing.headersSent) {
    c.env.outgoing.appendHeader('Set-Cookie', generateCookie(SSO_IDP_INITIATED_COOKIE, '', options));
  }
}

/**
 * The end of an SSO answer in the interaction, SP- or IdP-initiated alike: the account found or made from the IdP's
 * profile (services/sso-account.ts signInWithSsoProfile: domains, registration, suspension, audit), then the tenant's
 * MFA and the completion (`signedInThrough`), or the page that says why not.
 */
export async function signInWithSsoAnswer(
  kit: StepKit,
  c: Context<Env>,
  connector: SsoConnectorRow,
  profile: SsoProfile,
  detail: Record<string, unknown> = {},
) {
  const open = c.get('interaction');
  const name = ssoConnectorMetadata(connector).connectorName;
  const result = await signInWithSsoProfile(
    open.tenant,
    connector,
    profile,
    { registration: kit.mayRegister(open) },
    kit.requestMeta(c),
  );
  if (!result.ok && result.reason === 'registration_closed') return kit.registrationClosed(c);
  if (!result.ok && result.reason === 'email_domain') {
    return ssoFailed(c, open.look.text('sso_email_domain', { name }), 403);
  }
  if (!result.ok) return ssoFailed(c, open.look.text('sso_failed', { name }), 403);
  return kit.signedInThrough(c, 'SingleSignOn', { ...result, detail: { ...result.detail, ...detail } });
}

/** A SAML response is a few kilobytes, with certificates and many attributes some tens: anything far larger is refused. */
const samlBodyLimit = bodyLimit({ maxSize: 512 * 1024, onError: (c) => c.text('Payload too large', 413) });

/**
 * Enterprise single sign-on (docs/areas/enterprise-sso.md): a work email's domain picks the connector; the IdP is
 * reached by OIDC (checks in a signed cookie) or SAML (checks in the signed RelayState) and returns to one fixed
 * callback per connector, which hands the browser back to its interaction; there the answer becomes the account. The
 * tenant's MFA applies after the IdP as after any first factor (the reference skipping it was CVE-2026-15616).
 */
export const ssoStep: SignInStep = {
  name: 'single_sign_on',
  proves: 'identity',
  offered: (open) => ssoOffered(open.settings),
  routes: (kit) => [
    // The SSO screen's form: the work email's domain picks the connector.
    {
      method: 'post',
      path: '/sso',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const { form, error } = await kit.readForm(c, forgotPasswordFormSchema);
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
        if (error) return again(kit.formErrorText(open.look, error), 400);
        const connectors = await kit.ssoConnectorsOf(open, form.email);
        if (!connectors.length) return again(open.look.text('sso_no_match'), 404);
        return kit.sendToSso(c, connectors, form.email, 'asked');
      },
    },
    // Starts the IdP's sign-in: OIDC with its checks in a signed cookie, SAML with them in the signed RelayState.
    {
      method: 'get',
      path: '/sso/:connectorId',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const connector = await findSsoConnectorRow(open.tenant, c.req.param('connectorId') ?? '');
        if (!connector) return kit.expired(c);
        const name = ssoConnectorMetadata(connector).connectorName;
        try {
          const start = await startSsoSignIn(open.tenant, connector, {
            uid: open.details.uid,
            publicUrl: kit.config.publicUrl,
            outbound: kit.config.outbound,
          });
          if (start.binding === 'redirect') {
            if (start.cookie) setSsoCookie(kit, c, start.cookie, 600);
            return c.redirect(start.url, 303);
          }
          // The form posts to the IdP: that origin is where this page's form may go.
          c.set('formActionSource', new URL(start.url).origin);
          return sendHtml(c, renderSsoPostPage(open.look, { url: start.url, fields: start.fields, name }));
        } catch (error) {
          c.get('log').warn({ err: String(error), ssoConnectorId: connector.id }, 'enterprise SSO could not start');
          return ssoFailed(c, open.look.text('sso_failed', { name }), 502);
        }
      },
    },
    // Back in the interaction: the OIDC code is redeemed (or the checked SAML answer read), then the account.
    {
      method: 'get',
      path: '/sso/:connectorId/complete',
      prompt: 'login',
      handler: async (c) => {
        const open = c.get('interaction');
        const connector = await findSsoConnectorRow(open.tenant, c.req.param('connectorId') ?? '');
        if (!connector) return kit.expired(c);
        const name = ssoConnectorMetadata(connector).connectorName;
        const failed = open.look.text('sso_failed', { name });
        let profile: SsoProfile;
        const samlToken = c.req.query('saml');
        if (samlToken !== undefined) {
          const result = await readSamlResult(open.tenant, samlToken);
          if (!result || result.uid !== open.details.uid || result.connectorId !== connector.id) return kit.expired(c);
          if (!result.ok) return ssoFailed(c, failed, 400);
          profile = result.profile;
        } else {
          const state = await readSsoCookie(open.tenant, getCookie(c, SSO_COOKIE));
          if (!state || state.uid !== open.details.uid || state.connectorId !== connector.id) return kit.expired(c);
          setSsoCookie(kit, c, '', 0);
          const callbackUrl = new URL(ssoCallbackUrl(kit.config.publicUrl, open.tenantId, connector.id));
          callbackUrl.search = new URL(c.req.url).search;
          try {
            profile = await oidcProfile(connector, state, callbackUrl, kit.config.outbound);
          } catch (error) {
            const reason = error instanceof SsoAnswerError ? error.message : 'idp_unavailable';
            c.get('log').warn({ err: String(error), ssoConnectorId: connector.id }, 'enterprise SSO failed');
            await auditSsoFailure(open.tenant, connector, reason, kit.requestMeta(c));
            return ssoFailed(c, failed, 400);
          }
        }
        return signInWithSsoAnswer(kit, c, connector, profile);
      },
    },
  ],
  outside: (kit) => [
    // The IdP's fixed return address, OIDC: the signed cookie says which interaction the browser goes back to.
    {
      method: 'get',
      path: '/callback/sso/:tenantId/:connectorId',
      handler: async (c) => {
        const tenant = kit.tenants.of(c.req.param('tenantId') ?? '');
        const state = await readSsoCookie(tenant, getCookie(c, SSO_COOKIE)).catch(() => undefined);
        if (!state || state.connectorId !== c.req.param('connectorId')) return kit.expired(c);
        const path = `sso/${encodeURIComponent(state.connectorId)}/complete`;
        return kit.backToInteraction(c, state, path, new URL(c.req.url).search);
      },
    },
    // The IdP's fixed return address, SAML (HTTP-POST): a cross-site POST carries no Lax cookie, so the signed
    // RelayState says which interaction and request this answers. The answer is checked here, then travels signed and
    // short-lived to the interaction, whose own cookie binds it to this browser. Without one of our RelayStates the
    // answer is unsolicited (IdP-initiated), for the connector's IdP-initiated sign-in when it has it on.
    {
      method: 'post',
      path: '/callback/sso/:tenantId/:connectorId',
      before: [samlBodyLimit],
      handler: async (c) => {
        const tenant = kit.tenants.of(c.req.param('tenantId') ?? '');
        const connectorId = c.req.param('connectorId') ?? '';
        const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
        const samlResponse = typeof body.SAMLResponse === 'string' ? body.SAMLResponse : '';
        const relayState = typeof body.RelayState === 'string' ? body.RelayState : undefined;
        const relay = await readSamlRelay(tenant, connectorId, relayState).catch(() => undefined);
        if (!relay) return idpInitiatedAnswer(kit, c, connectorId, samlResponse);
        const connector = await findSsoConnectorRow(tenant, connectorId).catch(() => undefined);
        if (!connector || !samlResponse) return kit.expired(c);
        let result: { ok: true; profile: SsoProfile } | { ok: false; error: string };
        try {
          const profile = await samlProfile(tenant, connector, relay, samlResponse, {
            publicUrl: kit.config.publicUrl,
            outbound: kit.config.outbound,
          });
          result = { ok: true, profile };
        } catch (error) {
          const reason = error instanceof SsoAnswerError ? error.message : 'idp_unavailable';
          if (!(error instanceof SsoAnswerError))
            c.get('log').warn({ err: String(error), ssoConnectorId: connectorId });
          await auditSsoFailure(tenant, connector, reason, {
            ip: c.env.incoming.socket.remoteAddress,
            userAgent: c.req.header('User-Agent'),
          });
          result = { ok: false, error: reason };
        }
        const token = await signSamlResult(tenant, { uid: relay.uid, connectorId, ...result });
        // The IdP's page posted here: its form-action would govern a redirect too.
        const path = `sso/${encodeURIComponent(connectorId)}/complete`;
        return kit.backToInteraction(
          c,
          { tenantId: tenant.tenantId, uid: relay.uid },
          path,
          `?saml=${encodeURIComponent(token)}`,
        );
      },
    },
    // Our SAML service provider's metadata, for the admin to give the IdP.
    {
      method: 'get',
      path: '/enterprise-sso/:tenantId/:connectorId/saml-metadata',
      handler: async (c) => {
        const tenant = kit.tenants.of(c.req.param('tenantId') ?? '');
        const connector = await findSsoConnectorRow(tenant, c.req.param('connectorId') ?? '').catch(() => undefined);
        if (!connector || ssoProviderTypeOf[connector.providerName as SsoProviderName] !== 'SAML') {
          return c.text('Not found', 404);
        }
        c.header('Cache-Control', 'no-cache');
        return c.body(samlServiceProviderMetadata(kit.config.publicUrl, tenant.tenantId, connector.id), 200, {
          'Content-Type': 'application/samlmetadata+xml; charset=utf-8',
        });
      },
    },
  ],
};

/**
 * An unsolicited SAML Response (IdP-initiated sign-in, services/sso-idp-initiated.ts): checked and audited like an
 * answer to our request; accepted, the browser gets the ticket's cookie and goes on — by a page of our own, as from
 * the SP-initiated callback (the IdP page's CSP `form-action` would govern a redirect chain) — to the application's
 * IdP-initiated callback, where the application starts its own sign-in. Refused, a page saying the sign-in did not work.
 */
async function idpInitiatedAnswer(kit: StepKit, c: Context<Env>, connectorId: string, samlResponse: string) {
  const tenantId = c.req.param('tenantId') ?? '';
  const tenant = kit.tenants.of(tenantId);
  const connector = await findSsoConnectorRow(tenant, connectorId).catch(() => undefined);
  if (!connector || !samlResponse) return kit.expired(c);
  const answer = await acceptIdpInitiatedAnswer(tenant, connector, samlResponse, {
    publicUrl: kit.config.publicUrl,
    outbound: kit.config.outbound,
    edition: kit.edition,
  }).catch((error: unknown) => {
    c.get('log').warn({ err: String(error), ssoConnectorId: connectorId }, 'IdP-initiated SSO failed');
    return { ok: false as const, reason: 'idp_unavailable', applicationId: undefined };
  });
  if (!answer.ok) {
    await auditSsoFailure(tenant, connector, `idp_initiated: ${answer.reason}`, {
      applicationId: answer.applicationId,
      ip: c.env.incoming.socket.remoteAddress,
      userAgent: c.req.header('User-Agent'),
    });
    const look = await kit.pathTenantLook(c);
    const name = ssoConnectorMetadata(connector).connectorName;
    return sendHtml(c, renderMessagePage(look, look.text('sso_failed', { name })), 400);
  }
  setIdpInitiatedCookie(kit, c, tenant.tenantId, answer.cookie);
  return kit.continueTo(c, answer.continueTo);
}

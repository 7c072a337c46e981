import {
  connectorIdSchema,
  type Edition,
  meEmailChangeSchema,
  meEmailLinkCodeSchema,
  meSchema,
  meSocialAuthorizationRequestSchema,
  meSocialAuthorizationSchema,
  meSocialConnectorSchema,
  meSocialLinkSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import { ApiError } from '../http/errors.ts';
import { createRouter, errorResponse, errorResponses, jsonBody, jsonResponse } from '../http/route-kit.ts';
import { requestMeta, writeContext } from '../http/write-context.ts';
import * as me from '../services/me.ts';
import * as meEmail from '../services/me-email.ts';
import * as meSocial from '../services/me-social.ts';

/** The 'me' API's linked accounts (cloud edition), mounted with the rest of 'me' by app.ts. */

const tags = ['Me'];

const linkEmailCode = createRoute({
  method: 'post',
  path: '/email/link/verification-code',
  tags,
  summary: 'Email a code to the address you want as your email (cloud edition)',
  description:
    "The first step of linking or changing your email: the code goes to the new address. The admin tenant's email " +
    'blocklist applies, and an address another account holds is refused. The code is good for 10 minutes and 5 ' +
    'tries; a new one replaces it.',
  request: { body: jsonBody(meEmailLinkCodeSchema) },
  responses: {
    204: { description: 'Sent.' },
    ...errorResponses,
    422: errorResponse('A blocked address (`user.email_blocked`) or one in use (`user.email_already_in_use`).'),
    429: errorResponse(
      'Too many codes sent to the address or from your address (`verification_code.too_many_requests`).',
    ),
  },
});

const changeEmail = createRoute({
  method: 'post',
  path: '/email',
  tags,
  summary: 'Link or change your email with the code sent to it (cloud edition)',
  description:
    'Sets your email to the address the code was sent to, as proven (tenant invitations to it open). Needs a fresh ' +
    'proof of the password (POST /password/verify) when the account has one.',
  request: { body: jsonBody(meEmailChangeSchema) },
  responses: {
    200: jsonResponse(meSchema, 'Your account, with its new email proven.'),
    ...errorResponses,
    422: errorResponse(
      'Stale proof of the password (`verification_record.invalid`), a wrong, spent or expired code ' +
        '(`verification_code.code_mismatch`), a blocked address (`user.email_blocked`) or one in use ' +
        '(`user.email_already_in_use`).',
    ),
    429: errorResponse('Too many wrong codes: ask for a new one (`verification_code.exceed_max_try`).'),
  },
});

const listSocialConnectors = createRoute({
  method: 'get',
  path: '/social/connectors',
  tags,
  summary: 'The social connectors you can link, with your identity through each (cloud edition)',
  responses: {
    200: jsonResponse(z.array(meSocialConnectorSchema), 'Every social connector of the console, oldest first.'),
    ...errorResponses,
  },
});

const socialAuthorizationUri = createRoute({
  method: 'post',
  path: '/social/authorization-uri',
  tags,
  summary: "Start linking a social account: the provider's authorization URL (cloud edition)",
  description:
    "`redirectUri` must be the console's own `/console/handle-social` (registered at the provider for the " +
    "connector's client). The answer sets a 10-minute cookie that POST /social/link-identity needs.",
  request: { body: jsonBody(meSocialAuthorizationRequestSchema) },
  responses: {
    200: jsonResponse(meSocialAuthorizationSchema, 'Where the linking popup goes.'),
    ...errorResponses,
    400: errorResponse(
      "Invalid input, a redirect URI other than the console's (`user.social_redirect_uri_not_allowed`), or a " +
        'provider that cannot be reached (`connector.*`).',
    ),
    404: errorResponse('No such social connector (`connector.not_found`).'),
  },
});

const linkSocialIdentity = createRoute({
  method: 'post',
  path: '/social/link-identity',
  tags,
  summary: "Link the provider's account the linking popup came back with (cloud edition)",
  description:
    '`connectorData` holds every query parameter of the page the provider returned to, and `redirectUri`. Needs the ' +
    'cookie of POST /social/authorization-uri.',
  request: { body: jsonBody(meSocialLinkSchema) },
  responses: {
    200: jsonResponse(meSocialConnectorSchema, 'The connector, with your identity through it.'),
    ...errorResponses,
    400: errorResponse(
      'Invalid input, no linking in progress for this connector (`session.connector_session_not_found`), or the ' +
        "provider's refusal (`connector.*`).",
    ),
    404: errorResponse('No such social connector (`connector.not_found`).'),
    422: errorResponse(
      'Another account holds this social account (`user.identity_already_in_use`), or yours has another one of ' +
        'this provider (`user.identity_already_linked`).',
    ),
  },
});

const unlinkSocialIdentity = createRoute({
  method: 'delete',
  path: '/social/identity/{connectorId}',
  tags,
  summary: 'Unlink your social account of a connector (cloud edition)',
  request: { params: z.object({ connectorId: connectorIdSchema }) },
  responses: {
    204: { description: 'Unlinked.' },
    ...errorResponses,
    404: errorResponse(
      'No such connector (`connector.not_found`), or none of your accounts through it (`user.identity_not_exist`).',
    ),
    422: errorResponse('It is your last way to sign in (`user.last_sign_in_method`): set a password first.'),
  },
});

export type MeLinkedAccountsDeps = { keys: SigningKeyStore; edition: Edition };

/**
 * The profile's linked accounts (issue 42): the email proven by a code sent to it, and social identities linked
 * through the console's popup. Cloud edition only (spec §6): OSS answers every path 404 `route.not_found` and leaves
 * them out of its OpenAPI document, as it does account deletion.
 */
export function meLinkedAccountsRoutes({ keys, edition }: MeLinkedAccountsDeps) {
  if (edition !== 'cloud') {
    const absent = () => {
      throw new ApiError(404, 'route.not_found');
    };
    return createRouter({ undeclaredKeys: 'refuse' })
      .post('/email/link/verification-code', absent)
      .post('/email', absent)
      .all('/social/*', absent);
  }
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(linkEmailCode, async (c) => {
      const deps = { delivery: c.get('delivery'), language: c.get('language') };
      const { email } = c.req.valid('json');
      await meEmail.sendLinkEmailCode(c.get('tenant'), c.get('auth').actor.id, email, deps, requestMeta(c));
      return c.body(null, 204);
    })
    .openapi(changeEmail, async (c) => {
      const user = await meEmail.changeMyEmail(writeContext(c), keys, c.req.valid('json'), requestMeta(c));
      return c.json(me.toMe(user), 200);
    })
    .openapi(listSocialConnectors, async (c) =>
      c.json(await meSocial.listMySocialConnectors(c.get('tenant'), c.get('auth').actor.id), 200),
    )
    .openapi(socialAuthorizationUri, async (c) => {
      const { publicUrl, outbound } = c.get('config');
      const { redirectTo, cookie } = await meSocial.startMySocialLinking(
        c.get('tenant'),
        c.get('auth').actor.id,
        c.req.valid('json'),
        { publicUrl, outbound },
      );
      setCookie(c, meSocial.ME_SOCIAL_COOKIE, cookie, {
        path: meSocial.ME_SOCIAL_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'Strict',
        maxAge: meSocial.ME_SOCIAL_TTL_SECONDS,
        secure: publicUrl.startsWith('https:'),
      });
      return c.json({ redirectTo }, 200);
    })
    .openapi(linkSocialIdentity, async (c) => {
      const { publicUrl, outbound } = c.get('config');
      const linked = await meSocial.linkMySocialIdentity(
        writeContext(c),
        c.req.valid('json'),
        getCookie(c, meSocial.ME_SOCIAL_COOKIE),
        { outbound },
      );
      // Spent: the provider's code cannot be redeemed twice anyway.
      setCookie(c, meSocial.ME_SOCIAL_COOKIE, '', {
        path: meSocial.ME_SOCIAL_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'Strict',
        maxAge: 0,
        secure: publicUrl.startsWith('https:'),
      });
      return c.json(linked, 200);
    })
    .openapi(unlinkSocialIdentity, async (c) => {
      await meSocial.unlinkMySocialIdentity(writeContext(c), c.req.valid('param').connectorId);
      return c.body(null, 204);
    });
}

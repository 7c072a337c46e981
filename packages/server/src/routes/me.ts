import {
  accountDeletionPreviewSchema,
  connectorIdSchema,
  customDataSchema,
  type Edition,
  meDeleteSchema,
  meEmailChangeSchema,
  meEmailLinkCodeSchema,
  meEmailVerifySchema,
  meMfaVerificationCreatedSchema,
  meMfaVerificationCreateSchema,
  mePatchSchema,
  meSchema,
  meSocialAuthorizationRequestSchema,
  meSocialAuthorizationSchema,
  meSocialConnectorSchema,
  meSocialLinkSchema,
  meTotpSecretSchema,
  meWebAuthnRegistrationSchema,
  passwordChangeSchema,
  passwordVerificationRequestSchema,
  passwordVerificationSchema,
  profileImageMaxBytes,
  profileImageMimeTypes,
  userAssetSchema,
  userAssetsStatusSchema,
  userMfaVerificationSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { z } from 'zod';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import { ApiError } from '../http/errors.ts';
import {
  conflictResponse,
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as me from '../services/me.ts';
import type { AccountDeletion } from '../services/me-delete.ts';
import * as meEmail from '../services/me-email.ts';
import * as meMfa from '../services/me-mfa.ts';
import * as meSocial from '../services/me-social.ts';
import { relyingPartyOf } from '../services/passkeys.ts';
import type { AssetStorage } from '../services/user-assets.ts';
import type { AppEnv } from '../shared/app-env.ts';

const tags = ['Me'];

export { PASSWORD_VERIFY_LOG_KEY } from '../services/me.ts';

const getMe = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'The signed-in user',
  responses: { 200: jsonResponse(meSchema, 'Your account.'), ...errorResponses },
});

const patchMe = createRoute({
  method: 'patch',
  path: '/',
  tags,
  summary: 'Change your name, username or avatar',
  request: { body: jsonBody(mePatchSchema) },
  responses: { 200: jsonResponse(meSchema, 'Your account.'), ...errorResponses, ...conflictResponse },
});

const getCustomData = createRoute({
  method: 'get',
  path: '/custom-data',
  tags,
  summary: 'Your custom data (console preferences among it)',
  responses: { 200: jsonResponse(customDataSchema, 'The whole custom data object.'), ...errorResponses },
});

const putCustomData = createRoute({
  method: 'patch',
  path: '/custom-data',
  tags,
  summary: 'Replace your custom data',
  request: { body: jsonBody(customDataSchema) },
  responses: { 200: jsonResponse(customDataSchema, 'The new custom data.'), ...errorResponses },
});

const verifyPasswordRoute = createRoute({
  method: 'post',
  path: '/password/verify',
  tags,
  summary: 'Prove the current password before changing it',
  request: { body: jsonBody(passwordVerificationRequestSchema) },
  responses: {
    201: jsonResponse(passwordVerificationSchema, 'A verification record, valid for 10 minutes.'),
    ...errorResponses,
    422: jsonResponse(z.object({ code: z.string(), message: z.string() }), 'Wrong password.'),
    429: jsonResponse(z.object({ code: z.string(), message: z.string() }), 'Too many wrong passwords.'),
  },
});

const changePassword = createRoute({
  method: 'post',
  path: '/password',
  tags,
  summary: 'Set a new password',
  request: { body: jsonBody(passwordChangeSchema) },
  responses: {
    204: { description: 'Changed.' },
    ...errorResponses,
    422: errorResponse(
      'The password breaks the policy (`password.rejected`, data.rejections) or the verification is missing or stale.',
    ),
  },
});

const sendEmailCode = createRoute({
  method: 'post',
  path: '/email/verification-code',
  tags,
  summary: 'Email a code that proves your primary email',
  description:
    'Tenant invitations open only for a proven address. Nothing is sent when the address is already proven. The code ' +
    'is good for 10 minutes and 5 tries; a new one replaces it.',
  responses: {
    204: { description: 'Sent (or nothing to prove).' },
    ...errorResponses,
    429: errorResponse(
      'Too many codes sent to the address or from your address (`verification_code.too_many_requests`).',
    ),
  },
});

const verifyEmail = createRoute({
  method: 'post',
  path: '/email/verify',
  tags,
  summary: 'Prove your primary email with the emailed code',
  request: { body: jsonBody(meEmailVerifySchema) },
  responses: {
    200: jsonResponse(meSchema, 'Your account, its email proven.'),
    ...errorResponses,
    422: errorResponse('The code is wrong, spent or expired (`verification_code.code_mismatch`).'),
    429: errorResponse('Too many wrong codes: ask for a new one (`verification_code.exceed_max_try`).'),
  },
});

const assetsStatus = createRoute({
  method: 'get',
  path: '/user-assets/service-status',
  tags,
  summary: 'Whether uploads work, and their limits',
  responses: { 200: jsonResponse(userAssetsStatusSchema, 'Upload status.'), ...errorResponses },
});

const uploadAsset = createRoute({
  method: 'post',
  path: '/user-assets',
  tags,
  summary: 'Upload a profile image',
  request: {
    body: {
      required: true,
      // Unchecked here: the handler answers a missing file, its size and its type with its own codes.
      content: {
        'multipart/form-data': {
          schema: z.object({ file: z.unknown().optional().meta({ type: 'string', format: 'binary' }) }),
        },
      },
    },
  },
  responses: {
    201: jsonResponse(userAssetSchema, 'Where the image is served.'),
    ...errorResponses,
    413: jsonResponse(z.object({ code: z.string(), message: z.string() }), 'The file is too large.'),
    415: jsonResponse(z.object({ code: z.string(), message: z.string() }), 'Not an allowed image type.'),
  },
});

const proofBody = z.object({
  verificationRecordId: z
    .string()
    .max(4096)
    .optional()
    .describe('From POST /password/verify; needed when the account has a password.'),
});

const listMfa = createRoute({
  method: 'get',
  path: '/mfa-verifications',
  tags,
  summary: 'Your second factors: passkeys, authenticator app, backup codes',
  responses: {
    200: jsonResponse(z.array(userMfaVerificationSchema), 'Your factors, newest first.'),
    ...errorResponses,
  },
});

const startPasskey = createRoute({
  method: 'post',
  path: '/mfa-verifications/webauthn-registration',
  tags,
  summary: 'Start adding a passkey',
  description:
    'The options for `navigator.credentials.create()` and a ticket (5 minutes) to send back with its answer to ' +
    'POST /mfa-verifications. Needs a fresh proof of the password when the account has one.',
  request: { body: jsonBody(proofBody) },
  responses: {
    201: jsonResponse(meWebAuthnRegistrationSchema, 'The options and the ticket.'),
    ...errorResponses,
    422: errorResponse('The proof of the password is missing or stale (`verification_record.invalid`).'),
  },
});

const startTotp = createRoute({
  method: 'post',
  path: '/mfa-verifications/totp-secret',
  tags,
  summary: 'Start setting up an authenticator app',
  description:
    'A new key, its QR code and a ticket (10 minutes) to send back with the first code the app shows. Needs a fresh ' +
    'proof of the password when the account has one.',
  request: { body: jsonBody(proofBody) },
  responses: {
    201: jsonResponse(meTotpSecretSchema, 'The key, its QR code and the ticket.'),
    ...errorResponses,
    422: errorResponse(
      'Stale proof (`verification_record.invalid`) or an app already set up (`user.totp_already_in_use`).',
    ),
  },
});

const addMfa = createRoute({
  method: 'post',
  path: '/mfa-verifications',
  tags,
  summary: 'Add a passkey or an authenticator app',
  request: { body: jsonBody(meMfaVerificationCreateSchema) },
  responses: {
    201: jsonResponse(meMfaVerificationCreatedSchema, 'The factor, and backup codes (shown once) when they were made.'),
    ...errorResponses,
    422: errorResponse(
      'The ticket expired (`verification_record.invalid`), the passkey did not verify (`user.webauthn_verification_failed`) ' +
        'or is registered already (`user.passkey_already_registered`), the code is wrong (`mfa.invalid_code`).',
    ),
  },
});

const removeMfa = createRoute({
  method: 'delete',
  path: '/mfa-verifications/{verificationId}',
  tags,
  summary: 'Remove one of your factors',
  request: {
    params: z.object({ verificationId: z.string().max(64) }),
    headers: z.object({
      'x-verification-record-id': z.string().max(4096).optional().describe('From POST /password/verify.'),
    }),
  },
  responses: {
    204: { description: 'Removed.' },
    ...errorResponses,
    422: errorResponse('The proof of the password is missing or stale (`verification_record.invalid`).'),
  },
});

export type MeDeps = { keys: SigningKeyStore; storage: AssetStorage };

/** Who asks for or submits a code, for the rate limits and the audit log. */
const codeMeta = (c: Context<AppEnv>) => ({
  ip: writeContext(c).ip,
  userAgent: c.req.header('User-Agent'),
  log: c.get('log'),
});

/** The 'me' API (spec §7): the signed-in console user's own account, in the admin tenant. */
export function meRoutes({ keys, storage }: MeDeps) {
  const currentUser = (c: Context<AppEnv>) => me.currentUser(c.get('tenant'), c.get('auth').actor.id);
  /** Console accounts' passkeys are made for the console's own host (PUBLIC_URL). */
  const relyingParty = (c: Context<AppEnv>) => relyingPartyOf(c.get('config').publicUrl, 'Gatehouse');
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(listMfa, async (c) =>
      c.json(await meMfa.listMyMfaVerifications(c.get('tenant'), c.get('auth').actor.id), 200),
    )
    .openapi(startPasskey, async (c) => {
      const { verificationRecordId } = c.req.valid('json');
      const userId = c.get('auth').actor.id;
      return c.json(
        await meMfa.startMyPasskey(c.get('tenant'), keys, relyingParty(c), userId, verificationRecordId),
        201,
      );
    })
    .openapi(startTotp, async (c) => {
      const { verificationRecordId } = c.req.valid('json');
      return c.json(await meMfa.startMyTotp(c.get('tenant'), keys, c.get('auth').actor.id, verificationRecordId), 201);
    })
    .openapi(addMfa, async (c) => {
      const input = c.req.valid('json');
      const created = await meMfa.addMyMfaVerification(
        writeContext(c),
        keys,
        relyingParty(c),
        input,
        c.req.header('User-Agent'),
      );
      return c.json(created, 201);
    })
    .openapi(removeMfa, async (c) => {
      const { verificationId } = c.req.valid('param');
      const record = c.req.valid('header')['x-verification-record-id'];
      await meMfa.removeMyMfaVerification(writeContext(c), keys, verificationId, record);
      return c.body(null, 204);
    })
    .openapi(getMe, async (c) => c.json(me.toMe(await currentUser(c)), 200))
    .openapi(patchMe, async (c) => c.json(me.toMe(await me.updateMe(writeContext(c), c.req.valid('json'))), 200))
    .openapi(getCustomData, async (c) => c.json((await currentUser(c)).customData, 200))
    .openapi(putCustomData, async (c) => {
      const user = await me.setMyCustomData(writeContext(c), c.req.valid('json'));
      return c.json(user.customData, 200);
    })
    .openapi(verifyPasswordRoute, async (c) => {
      const { password } = c.req.valid('json');
      const userAgent = c.req.header('User-Agent');
      const userId = c.get('auth').actor.id;
      return c.json(await me.verifyMyPassword(c.get('tenant'), keys, userId, password, userAgent), 201);
    })
    .openapi(changePassword, async (c) => {
      await me.changeMyPassword(writeContext(c), keys, c.req.valid('json'));
      return c.body(null, 204);
    })
    .openapi(sendEmailCode, async (c) => {
      const deps = { delivery: c.get('delivery'), language: c.get('language') };
      await me.sendMyEmailCode(c.get('tenant'), c.get('auth').actor.id, deps, codeMeta(c));
      return c.body(null, 204);
    })
    .openapi(verifyEmail, async (c) => {
      const user = await me.verifyMyEmail(writeContext(c), c.req.valid('json').code, codeMeta(c));
      return c.json(me.toMe(user), 200);
    })
    .openapi(assetsStatus, (c) =>
      c.json(
        {
          status: 'ready' as const,
          allowUploadMimeTypes: [...profileImageMimeTypes],
          maxUploadFileSize: profileImageMaxBytes,
        },
        200,
      ),
    )
    .openapi(uploadAsset, async (c) => {
      await currentUser(c);
      const form = await c.req.parseBody({ all: true }).catch(() => {
        throw new ApiError(400, 'user_assets.file_missing');
      });
      const tenantId = c.get('tenant').tenantId;
      const name = await me.storeProfileImage(storage, tenantId, form.file);
      return c.json({ url: `${c.get('config').publicUrl}/user-assets/${tenantId}/${name}` }, 201);
    });
}

const deletionPreview = createRoute({
  method: 'get',
  path: '/deletion-preview',
  tags,
  summary: 'What deleting your account would do (cloud edition)',
  description:
    'The tenants deleted with all their data (you are their only admin), the tenants you would leave, and what ' +
    'blocks the deletion: a tenant to delete with a plan other than Free or Development, a subscription that is not ' +
    'active, open invoices, or a built-in tenant. DELETE / applies the same rules.',
  responses: {
    200: jsonResponse(accountDeletionPreviewSchema, 'Oldest tenant first; no blockers means the account can go.'),
    ...errorResponses,
  },
});

const deleteMe = createRoute({
  method: 'delete',
  path: '/',
  tags,
  summary: 'Delete your account (cloud edition)',
  description:
    'Deletes the tenants you alone administer with all their data, leaves the others, then deletes the account with ' +
    'its sessions, grants, tokens, factors and identities, in one transaction. Needs a fresh proof of the password ' +
    'when the account has one. The client signs out afterwards.',
  request: { body: { ...jsonBody(meDeleteSchema), required: false } },
  responses: {
    204: { description: 'Deleted.' },
    ...errorResponses,
    422: errorResponse(
      'The proof of the password is missing or stale (`verification_record.invalid`), or a tenant to delete blocks ' +
        'the deletion (`user.delete_blocked`, `data.blockers` as in GET /deletion-preview).',
    ),
  },
});

export type MeDeletionDeps = {
  keys: SigningKeyStore;
  /** The cloud edition's account deletion; OSS has none. */
  accountDeletion: AccountDeletion | undefined;
};

/**
 * Deleting the account (issue 42), cloud edition only. OSS answers both paths 404 `route.not_found`, as it answers
 * the cloud API, and leaves them out of its OpenAPI document: without these answers the request would fall through
 * to the management API, whose token check would refuse a 'me' token with a 401 that means "sign in again".
 */
export function meDeletionRoutes({ keys, accountDeletion }: MeDeletionDeps) {
  if (!accountDeletion) {
    const absent = () => {
      throw new ApiError(404, 'route.not_found');
    };
    return createRouter({ undeclaredKeys: 'refuse' }).get('/deletion-preview', absent).delete('/', absent);
  }
  return createRouter({ undeclaredKeys: 'refuse' })
    .openapi(deletionPreview, async (c) => c.json(await accountDeletion.preview(c.get('auth').actor.id), 200))
    .openapi(deleteMe, async (c) => {
      const { tenant: _admin, ...ctx } = writeContext(c);
      await accountDeletion.delete(ctx, keys, c.req.valid('json'));
      return c.body(null, 204);
    });
}

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
      await meEmail.sendLinkEmailCode(c.get('tenant'), c.get('auth').actor.id, email, deps, codeMeta(c));
      return c.body(null, 204);
    })
    .openapi(changeEmail, async (c) => {
      const user = await meEmail.changeMyEmail(writeContext(c), keys, c.req.valid('json'), codeMeta(c));
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

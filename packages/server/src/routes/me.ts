import {
  customDataSchema,
  meEmailVerifySchema,
  meMfaVerificationCreatedSchema,
  meMfaVerificationCreateSchema,
  mePatchSchema,
  meSchema,
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
import { requestMeta, writeContext } from '../http/write-context.ts';
import * as me from '../services/me.ts';
import * as meMfa from '../services/me-mfa.ts';
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
      await me.sendMyEmailCode(c.get('tenant'), c.get('auth').actor.id, deps, requestMeta(c));
      return c.body(null, 204);
    })
    .openapi(verifyEmail, async (c) => {
      const user = await me.verifyMyEmail(writeContext(c), c.req.valid('json').code, requestMeta(c));
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

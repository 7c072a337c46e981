import {
  checkPassword,
  customDataSchema,
  generateId,
  type Me,
  mePatchSchema,
  meSchema,
  passwordChangeSchema,
  passwordVerificationRequestSchema,
  passwordVerificationSchema,
  profileImageMaxBytes,
  profileImageMimeTypes,
  userAssetSchema,
  userAssetsStatusSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import type { SigningKeyStore } from '../auth/signing-keys.ts';
import { logs, users } from '../db/tables.ts';
import type { AppEnv } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { conflictResponse, createRouter, errorResponses, jsonBody, jsonResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { hashPassword, PASSWORD_ENCRYPTION_METHOD, verifyPassword } from '../services/passwords.ts';
import { LOCKOUT } from '../services/sign-in.ts';
import { type AssetStorage, isAllowedType, newAssetName, sniffImageType } from '../services/user-assets.ts';
import { createPasswordVerification, isValidPasswordVerification } from '../services/verification-records.ts';
import { performWrite, type WriteSpec } from '../services/write-path.ts';

const tags = ['Me'];
type User = typeof users.$inferSelect;

/** Audit-log key of a failed or successful check of the current password. */
export const PASSWORD_VERIFY_LOG_KEY = 'Account.Password.Verify';

function toMe(user: User): Me {
  return {
    id: user.id,
    username: user.username,
    primaryEmail: user.primaryEmail,
    primaryPhone: user.primaryPhone,
    name: user.name,
    avatar: user.avatar,
    customData: user.customData,
    identities: user.identities,
    hasPassword: Boolean(user.passwordEncrypted),
    lastSignInAt: user.lastSignInAt?.getTime() ?? null,
    createdAt: user.createdAt.getTime(),
    updatedAt: user.updatedAt.getTime(),
  };
}

async function currentUser(c: Context<AppEnv>): Promise<User> {
  const user = await c.get('tenant').findOne(users, eq(users.id, c.get('auth').actor.id));
  // A deleted or suspended account holds a token until it expires; it no longer opens anything.
  if (!user || user.isSuspended) throw new ApiError(401, 'auth.unauthorized', { reason: 'subject' });
  return user;
}

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
    422: jsonResponse(
      z.object({ code: z.string(), message: z.string(), data: z.unknown().optional() }),
      'The password breaks the policy (`password.rejected`, data.rejections) or the verification is missing or stale.',
    ),
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

export type MeDeps = { keys: SigningKeyStore; storage: AssetStorage };

/** The 'me' API (spec §7): the signed-in console user's own account, in the admin tenant. */
export function meRoutes({ keys, storage }: MeDeps) {
  /** One write of the signed-in user's row through the write path (toMe never holds the password hash). */
  const updateProfile = async <S extends z.ZodType>(
    c: Context<AppEnv>,
    spec: WriteSpec<S>,
    change: (input: z.output<S>) => Partial<User>,
  ) => {
    const userId = c.get('auth').actor.id;
    return performWrite(writeContext(c), spec, async (tx, input) => {
      const before = await tx.findOne(users, eq(users.id, userId));
      if (!before) throw notFound();
      const [after] = await tx.update(users, eq(users.id, userId), { ...change(input), updatedAt: new Date() });
      if (!after) throw notFound();
      return { result: after, entity: { type: 'User', id: userId }, before: toMe(before), after: toMe(after) };
    });
  };

  return createRouter()
    .openapi(getMe, async (c) => c.json(toMe(await currentUser(c)), 200))
    .openapi(patchMe, async (c) => {
      await currentUser(c);
      const user = await updateProfile(
        c,
        { key: 'Account.Profile.Updated', schema: mePatchSchema, input: c.req.valid('json') },
        (patch) => patch,
      );
      return c.json(toMe(user), 200);
    })
    .openapi(getCustomData, async (c) => c.json((await currentUser(c)).customData, 200))
    .openapi(putCustomData, async (c) => {
      await currentUser(c);
      const user = await updateProfile(
        c,
        { key: 'Account.CustomData.Updated', schema: customDataSchema, input: c.req.valid('json') },
        (customData) => ({ customData }),
      );
      return c.json(user.customData, 200);
    })
    .openapi(verifyPasswordRoute, async (c) => {
      const user = await currentUser(c);
      const tenant = c.get('tenant');
      const since = new Date(Date.now() - LOCKOUT.windowMinutes * 60_000);
      const failures = await tenant.count(
        logs,
        and(
          eq(logs.key, PASSWORD_VERIFY_LOG_KEY),
          eq(logs.userId, user.id),
          gt(logs.createdAt, since),
          sql`${logs.payload}->>'result' = 'Error'`,
        ),
      );
      const record = (result: 'Success' | 'Error') =>
        tenant.insert(logs, {
          id: generateId(),
          key: PASSWORD_VERIFY_LOG_KEY,
          userId: user.id,
          payload: { result, userAgent: c.req.header('User-Agent') },
        });
      if (failures >= LOCKOUT.maxFailures) {
        await record('Error');
        throw new ApiError(429, 'session.invalid_credentials', { locked: true });
      }
      const { password } = c.req.valid('json');
      const matches = user.passwordEncrypted
        ? await verifyPassword(user.passwordEncrypted, password).catch(() => false)
        : false;
      await record(matches ? 'Success' : 'Error');
      if (!matches) throw new ApiError(422, 'session.invalid_credentials');
      return c.json(await createPasswordVerification(keys, user), 201);
    })
    .openapi(changePassword, async (c) => {
      const user = await currentUser(c);
      const { password, verificationRecordId } = c.req.valid('json');
      if (
        user.passwordEncrypted &&
        !(verificationRecordId && (await isValidPasswordVerification(keys, verificationRecordId, user)))
      ) {
        throw new ApiError(422, 'verification_record.invalid');
      }
      const rejections = checkPassword(password, undefined, user);
      if (rejections.length > 0) throw new ApiError(422, 'password.rejected', { rejections });
      const passwordEncrypted = await hashPassword(password);
      // The input here is the new hash, never the password itself.
      await updateProfile(
        c,
        {
          key: 'Account.Password.Updated',
          schema: z.object({ passwordEncrypted: z.string() }),
          input: { passwordEncrypted },
        },
        (input) => ({
          passwordEncrypted: input.passwordEncrypted,
          passwordEncryptionMethod: PASSWORD_ENCRYPTION_METHOD,
        }),
      );
      return c.body(null, 204);
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
      const file = form.file;
      if (!(file instanceof File)) throw new ApiError(400, 'user_assets.file_missing');
      if (file.size > profileImageMaxBytes) {
        throw new ApiError(413, 'user_assets.file_too_large', { maxUploadFileSize: profileImageMaxBytes });
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      const type = sniffImageType(bytes);
      if (!type || !isAllowedType(type, profileImageMimeTypes)) {
        throw new ApiError(415, 'user_assets.unsupported_type', { allowUploadMimeTypes: profileImageMimeTypes });
      }
      const tenantId = c.get('tenant').tenantId;
      const name = newAssetName(type);
      await storage.put(tenantId, name, bytes);
      return c.json({ url: `${c.get('config').publicUrl}/user-assets/${tenantId}/${name}` }, 201);
    });
}

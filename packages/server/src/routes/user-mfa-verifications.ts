import {
  generateId,
  type UserMfaVerificationCreated,
  userMfaVerificationCreatedSchema,
  userMfaVerificationCreateSchema,
  userMfaVerificationSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { allOf } from '../db/conditions.ts';
import { userMfaVerifications } from '../db/tables.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { userIdParams } from '../http/params.ts';
import { createRouter, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { assertFeature } from '../services/quota.ts';
import {
  backupCodeData,
  findUserMfaVerifications,
  generateBackupCodes,
  generateTotpSecret,
  primaryIdentifier,
  totpEnrollment,
  totpIssuer,
  toUserMfaVerification,
} from '../services/user-mfa-verifications.ts';
import { findUser } from '../services/users.ts';
import { performWrite } from '../services/write-path.ts';

/** A user's MFA factors (spec §3 `mfaVerifications`): list, add a TOTP factor or backup codes, remove one. */

const tags = ['Users'];
const verificationParams = userIdParams.extend({ verificationId: z.string().min(1).max(21) });

const listVerifications = createRoute({
  method: 'get',
  path: '/users/{userId}/mfa-verifications',
  tags,
  summary: "A user's MFA verifications, newest first",
  description: 'Never shows a TOTP secret or backup codes; backup codes show how many are left (`remainCodes`).',
  request: { params: userIdParams },
  responses: {
    200: jsonResponse(z.array(userMfaVerificationSchema), 'The verifications.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const createVerification = createRoute({
  method: 'post',
  path: '/users/{userId}/mfa-verifications',
  tags,
  summary: 'Add a TOTP factor or backup codes to a user',
  description:
    'The secret (with its `otpauth://` URI and QR code) or the codes are in this answer only; they cannot be read again. Without `secret` or `codes` they are generated. A user has at most one TOTP factor and one set of backup codes, and backup codes need another factor first. WebAuthn factors are registered by the user.',
  request: { params: userIdParams, body: jsonBody(userMfaVerificationCreateSchema) },
  responses: {
    201: jsonResponse(userMfaVerificationCreatedSchema, 'The new factor, with its secret or codes (shown once).'),
    ...errorResponses,
    ...notFoundResponse,
    422: jsonResponse(
      z.object({ code: z.string(), message: z.string() }),
      'The user already has that factor (`user.totp_already_in_use`, `user.backup_code_already_in_use`), or has no TOTP or WebAuthn factor for backup codes to back up (`user.mfa_requires_other_factor`).',
    ),
  },
});

const deleteVerification = createRoute({
  method: 'delete',
  path: '/users/{userId}/mfa-verifications/{verificationId}',
  tags,
  summary: 'Remove an MFA verification from a user',
  request: { params: verificationParams },
  responses: { 204: { description: 'Removed.' }, ...errorResponses, ...notFoundResponse },
});

const audited = (userId: string) => ({ type: 'User', id: userId });
const alreadyInUse = { Totp: 'user.totp_already_in_use', BackupCode: 'user.backup_code_already_in_use' } as const;

export const userMfaVerificationsRoutes = createRouter()
  .openapi(listVerifications, async (c) => {
    const { userId } = c.req.valid('param');
    const tenant = c.get('tenant');
    await findUser(tenant, userId);
    const rows = await tenant.findMany(userMfaVerifications, {
      where: eq(userMfaVerifications.userId, userId),
      orderBy: [desc(userMfaVerifications.createdAt), desc(userMfaVerifications.id)],
    });
    return c.json(rows.map(toUserMfaVerification), 200);
  })
  .openapi(createVerification, async (c) => {
    const { userId } = c.req.valid('param');
    const body = c.req.valid('json');
    const created = await performWrite(
      writeContext(c),
      { key: 'Admin.UserMfaVerification.Created', schema: userMfaVerificationCreateSchema, input: body },
      async (tx, input) => {
        const user = await findUser(tx, userId);
        // Spec §9: MFA is a plan feature (off on Free) in the cloud edition.
        await assertFeature(tx, 'mfaEnabled', c.get('config'));
        const existing = await findUserMfaVerifications(tx, userId);
        const has = (type: string) => existing.some((verification) => verification.type === type);
        let result: UserMfaVerificationCreated;
        let row: typeof userMfaVerifications.$inferSelect;
        if (input.type === 'Totp') {
          if (has('Totp')) throw new ApiError(422, alreadyInUse.Totp);
          const secret = input.secret ?? generateTotpSecret();
          row = await tx.insert(userMfaVerifications, { id: generateId(), userId, type: 'Totp', data: { secret } });
          const enrollment = await totpEnrollment(secret, await totpIssuer(tx), primaryIdentifier(user));
          result = { type: 'Totp', secret, ...enrollment };
        } else {
          if (has('BackupCode')) throw new ApiError(422, alreadyInUse.BackupCode);
          // Backup codes stand in for a lost authenticator: without one they would be a password in ten pieces.
          if (!has('Totp') && !has('WebAuthn')) throw new ApiError(422, 'user.mfa_requires_other_factor');
          const codes = input.codes ?? generateBackupCodes();
          row = await tx.insert(userMfaVerifications, {
            id: generateId(),
            userId,
            type: 'BackupCode',
            data: backupCodeData(codes),
          });
          result = { type: 'BackupCode', codes };
        }
        return { result, entity: audited(userId), before: null, after: { id: row.id, type: row.type } };
      },
    ).catch((error: unknown) => {
      // A concurrent creation of the same type passed the check above and lost at the partial unique index.
      throw error instanceof ApiError && error.code === 'entity.unique_violation'
        ? new ApiError(422, alreadyInUse[body.type])
        : error;
    });
    return c.json(created, 201);
  })
  .openapi(deleteVerification, async (c) => {
    const { userId, verificationId } = c.req.valid('param');
    await performWrite(
      writeContext(c),
      { key: 'Admin.UserMfaVerification.Deleted', schema: z.object({}), input: {} },
      async (tx) => {
        const [row] = await tx.delete(
          userMfaVerifications,
          allOf(eq(userMfaVerifications.userId, userId), eq(userMfaVerifications.id, verificationId)),
        );
        if (!row) throw notFound();
        return { result: undefined, entity: audited(userId), before: { id: row.id, type: row.type }, after: null };
      },
    );
    return c.body(null, 204);
  });

import {
  userMfaVerificationCreatedSchema,
  userMfaVerificationCreateSchema,
  userMfaVerificationSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { pathIdSchema, userIdParams } from '../http/params.ts';
import { createRouter, errorResponses, jsonBody, jsonResponse, notFoundResponse } from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import * as mfa from '../services/user-mfa-verifications.ts';

/** A user's MFA factors (spec §3 `mfaVerifications`): list, add a TOTP factor or backup codes, remove one. */

const tags = ['Users'];
const verificationParams = userIdParams.extend({ verificationId: pathIdSchema });

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

export const userMfaVerificationsRoutes = createRouter()
  .openapi(listVerifications, async (c) => {
    return c.json(await mfa.listUserMfaVerifications(c.get('tenant'), c.req.valid('param').userId), 200);
  })
  .openapi(createVerification, async (c) => {
    const { userId } = c.req.valid('param');
    const created = await mfa.createUserMfaVerification(writeContext(c), c.get('config'), userId, c.req.valid('json'));
    return c.json(created, 201);
  })
  .openapi(deleteVerification, async (c) => {
    const { userId, verificationId } = c.req.valid('param');
    await mfa.deleteUserMfaVerification(writeContext(c), userId, verificationId);
    return c.body(null, 204);
  });

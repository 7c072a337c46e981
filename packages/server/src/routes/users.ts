import {
  customDataSchema,
  generateId,
  MISSING_IDENTIFIER_MESSAGE,
  TOTAL_NUMBER_IS_CAPPED_HEADER,
  type UserProfile,
  userCreateSchema,
  userHasPasswordSchema,
  userListQuerySchema,
  userPasswordSchema,
  userPatchSchema,
  userProfileSchema,
  userSchema,
  userSuspensionSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { users } from '../db/tables.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { userIdParams } from '../http/params.ts';
import {
  createRouter,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
  paginatedHeaders,
  setPaginationHeaders,
  toPage,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { assertPasswordAllowed, encryptPassword, verifyStoredPassword } from '../services/user-passwords.ts';
import { countTenantUsers, userListCondition, userListOrder, userListTotal } from '../services/user-search.ts';
import { endUserSessions } from '../services/user-sessions.ts';
import { auditImage, findUser, toUser, updateUser } from '../services/users.ts';
import { performWrite } from '../services/write-path.ts';

const tags = ['Users'];
const passwordRejected = {
  422: jsonResponse(
    z.object({ code: z.string(), message: z.string(), data: z.unknown().optional() }),
    'A username, email or phone already in use (`user.*_already_in_use`), or a password the policy rejects (`password.rejected`, data.rejections).',
  ),
} as const;

const listUsers = createRoute({
  method: 'get',
  path: '/users',
  tags,
  summary: 'List users, newest first, with search and filters',
  description:
    '`search` matches a substring of id, email, phone, username or name (any case); `search.<field>` searches one field; `mode[.<field>]=exact` matches whole values; `joint=and` requires every search condition. `Total-Number` is exact, except that searches and combined filters stop counting at 10,000 (`Total-Number-Is-Capped: true`).',
  request: { query: userListQuerySchema },
  responses: {
    200: {
      ...jsonResponse(z.array(userSchema), 'A page of users, newest first.'),
      headers: paginatedHeaders.extend({
        [TOTAL_NUMBER_IS_CAPPED_HEADER]: z
          .string()
          .optional()
          .meta({ description: '`true` when a search or combined filter matched more than 10,000 users.' }),
      }),
    },
    ...errorResponses,
  },
});

const createUser = createRoute({
  method: 'post',
  path: '/users',
  tags,
  summary: 'Create a user',
  request: { body: jsonBody(userCreateSchema) },
  responses: { 200: jsonResponse(userSchema, 'The new user.'), ...errorResponses, ...passwordRejected },
});

const getUser = createRoute({
  method: 'get',
  path: '/users/{userId}',
  tags,
  summary: 'Get a user',
  request: { params: userIdParams },
  responses: { 200: jsonResponse(userSchema, 'The user.'), ...errorResponses, ...notFoundResponse },
});

const userResponse = (description: string) => jsonResponse(userSchema, description);
const conflictOrInvalid = {
  422: jsonResponse(
    z.object({ code: z.string(), message: z.string(), data: z.unknown().optional() }),
    'A username, email or phone already in use (`user.username_already_in_use`, `user.email_already_in_use`, `user.phone_already_in_use`).',
  ),
} as const;

const patchUser = createRoute({
  method: 'patch',
  path: '/users/{userId}',
  tags,
  summary: 'Update a user',
  description:
    'The given fields replace the stored ones; `null` or `""` clears one. `customData` and `profile` are replaced as whole objects. A user keeps at least one of username, email and phone.',
  request: { params: userIdParams, body: jsonBody(userPatchSchema) },
  responses: {
    200: userResponse('The updated user.'),
    ...errorResponses,
    ...notFoundResponse,
    ...conflictOrInvalid,
  },
});

const deleteUser = createRoute({
  method: 'delete',
  path: '/users/{userId}',
  tags,
  summary: 'Delete a user (their role assignments, sessions and tokens go with them)',
  request: { params: userIdParams },
  responses: { 204: { description: 'Deleted.' }, ...errorResponses, ...notFoundResponse },
});

const getCustomData = createRoute({
  method: 'get',
  path: '/users/{userId}/custom-data',
  tags,
  summary: "A user's custom data",
  request: { params: userIdParams },
  responses: {
    200: jsonResponse(customDataSchema, 'The whole custom data object.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const patchCustomData = createRoute({
  method: 'patch',
  path: '/users/{userId}/custom-data',
  tags,
  summary: "Replace a user's custom data (one JSON object, at most 64 KiB)",
  request: { params: userIdParams, body: jsonBody(customDataSchema) },
  responses: {
    200: jsonResponse(customDataSchema, 'The new custom data.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const getProfile = createRoute({
  method: 'get',
  path: '/users/{userId}/profile',
  tags,
  summary: "A user's profile (OpenID Connect standard claims)",
  request: { params: userIdParams },
  responses: { 200: jsonResponse(userProfileSchema, 'The profile.'), ...errorResponses, ...notFoundResponse },
});

const patchProfile = createRoute({
  method: 'patch',
  path: '/users/{userId}/profile',
  tags,
  summary: 'Update profile fields (the given ones replace the stored ones; others are kept)',
  request: { params: userIdParams, body: jsonBody(userProfileSchema) },
  responses: { 200: jsonResponse(userProfileSchema, 'The whole profile.'), ...errorResponses, ...notFoundResponse },
});

const setPassword = createRoute({
  method: 'patch',
  path: '/users/{userId}/password',
  tags,
  summary: "Set a user's password (checked against the password policy, stored as Argon2id)",
  request: { params: userIdParams, body: jsonBody(userPasswordSchema) },
  responses: {
    200: userResponse('The user.'),
    ...errorResponses,
    ...notFoundResponse,
    422: jsonResponse(
      z.object({ code: z.string(), message: z.string(), data: z.unknown().optional() }),
      'The password breaks the policy (`password.rejected`, data.rejections).',
    ),
  },
});

const verifyUserPassword = createRoute({
  method: 'post',
  path: '/users/{userId}/password/verify',
  tags,
  summary: "Check a password against the user's",
  request: { params: userIdParams, body: jsonBody(userPasswordSchema) },
  responses: {
    204: { description: 'The password is right.' },
    ...errorResponses,
    ...notFoundResponse,
    422: jsonResponse(
      z.object({ code: z.string(), message: z.string() }),
      'Wrong password, or none set (`session.invalid_credentials`).',
    ),
  },
});

const hasPassword = createRoute({
  method: 'get',
  path: '/users/{userId}/has-password',
  tags,
  summary: 'Whether the user has a password',
  request: { params: userIdParams },
  responses: {
    200: jsonResponse(userHasPasswordSchema, 'Whether a password is set.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const setSuspension = createRoute({
  method: 'patch',
  path: '/users/{userId}/is-suspended',
  tags,
  summary: 'Suspend or reactivate a user',
  description:
    'A suspended user cannot sign in; suspending also ends their sessions and revokes their grants and refresh tokens.',
  request: { params: userIdParams, body: jsonBody(userSuspensionSchema) },
  responses: { 200: userResponse('The user.'), ...errorResponses, ...notFoundResponse },
});

export const usersRoutes = createRouter()
  .openapi(listUsers, async (c) => {
    const query = c.req.valid('query');
    const tenant = c.get('tenant');
    const page = toPage(query);
    const where = userListCondition(tenant, query);
    const tenantUsers = await countTenantUsers(tenant);
    const total = await userListTotal(tenant, query, where, tenantUsers);
    const rows =
      page.offset < total.total || total.capped
        ? await tenant.findMany(users, {
            where,
            orderBy: userListOrder(total, tenantUsers, page),
            limit: page.limit,
            offset: page.offset,
          })
        : [];
    setPaginationHeaders(c, page, total.total);
    if (total.capped) c.header(TOTAL_NUMBER_IS_CAPPED_HEADER, 'true');
    return c.json(rows.map(toUser), 200);
  })
  .openapi(createUser, async (c) => {
    const body = c.req.valid('json');
    const tenant = c.get('tenant');
    // The policy check and the (deliberately slow) hash run before the transaction opens.
    if (body.password !== undefined) assertPasswordAllowed(tenant, body.password, body);
    const password =
      body.password !== undefined
        ? await encryptPassword(body.password)
        : body.passwordDigest !== undefined && body.passwordAlgorithm !== undefined
          ? { passwordEncrypted: body.passwordDigest, passwordEncryptionMethod: body.passwordAlgorithm }
          : { passwordEncrypted: null, passwordEncryptionMethod: null };
    const user = await performWrite(
      writeContext(c),
      { key: 'Admin.User.Created', schema: userCreateSchema, input: body },
      async (tx, input) => {
        const row = await tx.insert(users, {
          id: generateId(12),
          username: input.username ?? null,
          primaryEmail: input.primaryEmail ?? null,
          primaryPhone: input.primaryPhone ?? null,
          name: input.name ?? null,
          avatar: input.avatar ?? null,
          customData: input.customData ?? {},
          profile: input.profile ?? {},
          ...password,
        });
        const created = toUser(row);
        return {
          result: created,
          entity: { type: 'User', id: row.id },
          before: null,
          after: auditImage(row),
          events: [{ event: 'User.Created', data: created }],
        };
      },
    );
    return c.json(user, 200);
  })
  .openapi(getUser, async (c) => {
    const user = await findUser(c.get('tenant'), c.req.valid('param').userId);
    return c.json(toUser(user), 200);
  })
  .openapi(patchUser, async (c) => {
    const user = await updateUser(writeContext(c), c.req.valid('param').userId, {
      schema: userPatchSchema,
      input: c.req.valid('json'),
      change: (existing, patch) => {
        const identifiers = { ...pickIdentifiers(existing), ...pickIdentifiers(patch) };
        if (!identifiers.username && !identifiers.primaryEmail && !identifiers.primaryPhone) {
          throw new ApiError(400, 'guard.invalid_input', [
            { path: '', message: MISSING_IDENTIFIER_MESSAGE, code: 'custom' },
          ]);
        }
        return patch;
      },
    });
    return c.json(toUser(user), 200);
  })
  .openapi(deleteUser, async (c) => {
    const { userId } = c.req.valid('param');
    await performWrite(writeContext(c), { key: 'Admin.User.Deleted', schema: z.object({}), input: {} }, async (tx) => {
      const [row] = await tx.delete(users, eq(users.id, userId));
      if (!row) throw notFound();
      await endUserSessions(tx, userId);
      return {
        result: undefined,
        entity: { type: 'User', id: userId },
        before: auditImage(row),
        after: null,
        events: [{ event: 'User.Deleted', data: toUser(row) }],
      };
    });
    return c.body(null, 204);
  })
  .openapi(getCustomData, async (c) => {
    const user = await findUser(c.get('tenant'), c.req.valid('param').userId);
    return c.json(user.customData, 200);
  })
  .openapi(patchCustomData, async (c) => {
    const user = await updateUser(writeContext(c), c.req.valid('param').userId, {
      schema: customDataSchema,
      input: c.req.valid('json'),
      change: (_existing, customData) => ({ customData }),
    });
    return c.json(user.customData, 200);
  })
  .openapi(getProfile, async (c) => {
    const user = await findUser(c.get('tenant'), c.req.valid('param').userId);
    return c.json(user.profile as UserProfile, 200);
  })
  .openapi(patchProfile, async (c) => {
    const user = await updateUser(writeContext(c), c.req.valid('param').userId, {
      schema: userProfileSchema,
      input: c.req.valid('json'),
      change: (existing, profile) => ({ profile: { ...existing.profile, ...profile } }),
    });
    return c.json(user.profile as UserProfile, 200);
  })
  .openapi(setPassword, async (c) => {
    const { userId } = c.req.valid('param');
    const { password } = c.req.valid('json');
    const tenant = c.get('tenant');
    const existing = await findUser(tenant, userId);
    assertPasswordAllowed(tenant, password, existing);
    const encrypted = await encryptPassword(password);
    const user = await updateUser(writeContext(c), userId, {
      // The write path sees the new hash's method, never the password or the hash.
      schema: z.object({ passwordEncryptionMethod: z.string() }),
      input: { passwordEncryptionMethod: encrypted.passwordEncryptionMethod },
      change: () => encrypted,
      audit: (before) => ({
        before: { password: before.passwordEncrypted ? 'set' : 'none' },
        after: { password: 'changed' },
      }),
    });
    return c.json(toUser(user), 200);
  })
  .openapi(verifyUserPassword, async (c) => {
    const user = await findUser(c.get('tenant'), c.req.valid('param').userId);
    const { password } = c.req.valid('json');
    const matches = user.passwordEncrypted
      ? await verifyStoredPassword(user.passwordEncryptionMethod, user.passwordEncrypted, password)
      : false;
    if (!matches) throw new ApiError(422, 'session.invalid_credentials');
    return c.body(null, 204);
  })
  .openapi(hasPassword, async (c) => {
    const user = await findUser(c.get('tenant'), c.req.valid('param').userId);
    return c.json({ hasPassword: Boolean(user.passwordEncrypted) }, 200);
  })
  .openapi(setSuspension, async (c) => {
    const user = await updateUser(writeContext(c), c.req.valid('param').userId, {
      schema: userSuspensionSchema,
      input: c.req.valid('json'),
      change: async (existing, { isSuspended }, tx) => {
        // Suspension ends what the provider holds for the user in the same transaction.
        if (isSuspended) await endUserSessions(tx, existing.id);
        return { isSuspended };
      },
    });
    return c.json(toUser(user), 200);
  });

/** The identifier fields a value sets (undefined ones are not part of a patch). */
function pickIdentifiers(value: {
  username?: string | null;
  primaryEmail?: string | null;
  primaryPhone?: string | null;
}) {
  return Object.fromEntries(
    (['username', 'primaryEmail', 'primaryPhone'] as const).flatMap((field) =>
      value[field] === undefined ? [] : [[field, value[field]]],
    ),
  ) as Partial<Record<'username' | 'primaryEmail' | 'primaryPhone', string | null>>;
}

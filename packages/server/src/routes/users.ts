import {
  customDataSchema,
  TOTAL_NUMBER_IS_CAPPED_HEADER,
  type UserProfile,
  userCreateSchema,
  userCustomDataPatchSchema,
  userGetQuerySchema,
  userHasPasswordSchema,
  userListQuerySchema,
  userPasswordSchema,
  userPatchSchema,
  userProfilePatchSchema,
  userProfileSchema,
  userSchema,
  userSsoIdentitySchema,
  userSuspensionSchema,
} from '@gatehouse/schemas';
import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import { userIdParams } from '../http/params.ts';
import {
  createRouter,
  errorResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  notFoundResponse,
  paginatedHeaders,
  searchSyntaxHook,
  setPaginationHeaders,
  toPage,
} from '../http/route-kit.ts';
import { writeContext } from '../http/write-context.ts';
import { userSsoIdentitiesOf } from '../services/sso-connectors.ts';
import * as userService from '../services/users.ts';

const tags = ['Users'];
const passwordRejected = {
  422: errorResponse(
    'A username, email or phone already in use (`user.*_already_in_use`), or a password the policy rejects (`password.rejected`, data.rejections).',
  ),
} as const;

const listUsers = createRoute({
  method: 'get',
  path: '/users',
  tags,
  summary: 'List users, newest first, with search and filters',
  description:
    '`search` is a LIKE pattern over id, email, phone, username or name, any case (`%kw%` anywhere, without `%` the whole value); `search.<field>` searches one field; `mode[.<field>]=exact` matches whole values; `joint=and` requires every search condition. `Total-Number` is exact, except that searches and combined filters stop counting at 10,000 (`Total-Number-Is-Capped: true`).',
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
  description:
    '`includeSsoIdentities=true` adds `ssoIdentities`, the user’s enterprise SSO identities. `includePasswordHash=true` is refused: password hashes never leave the server.',
  request: { params: userIdParams, query: userGetQuerySchema },
  responses: {
    200: jsonResponse(userSchema.extend({ ssoIdentities: z.array(userSsoIdentitySchema).optional() }), 'The user.'),
    ...errorResponses,
    ...notFoundResponse,
  },
});

const userResponse = (description: string) => jsonResponse(userSchema, description);
const conflictOrInvalid = {
  422: errorResponse(
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
  summary: "Update a user's custom data: the given top-level keys replace the stored ones, the others stay",
  description: 'The body is `{customData: {...}}` (reference). The merged object may be at most 64 KiB.',
  request: { params: userIdParams, body: jsonBody(userCustomDataPatchSchema) },
  responses: {
    200: jsonResponse(customDataSchema, 'The whole custom data after the update.'),
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
  description: 'The body is `{profile: {...}}` (reference); a given `address` replaces the stored address whole.',
  request: { params: userIdParams, body: jsonBody(userProfilePatchSchema) },
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
    422: errorResponse('The password breaks the policy (`password.rejected`, data.rejections).'),
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
    // Documented without `data` (as before); errorResponse would add it to the OpenAPI output.
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
  .openapi(
    listUsers,
    async (c) => {
      const query = c.req.valid('query');
      const page = toPage(query);
      const { rows, total } = await userService.findUserPage(c.get('tenant'), query, page);
      setPaginationHeaders(c, page, total.total);
      if (total.capped) c.header(TOTAL_NUMBER_IS_CAPPED_HEADER, 'true');
      return c.json(rows.map(userService.toUser), 200);
    },
    searchSyntaxHook,
  )
  .openapi(createUser, async (c) => {
    return c.json(await userService.createUser(writeContext(c), c.req.valid('json')), 200);
  })
  .openapi(getUser, async (c) => {
    const tenant = c.get('tenant');
    const user = await userService.findUser(tenant, c.req.valid('param').userId);
    const { includeSsoIdentities } = c.req.valid('query');
    const withSso = includeSsoIdentities === 'true' || includeSsoIdentities === '1';
    const ssoIdentities = withSso ? await userSsoIdentitiesOf(tenant, user.id) : undefined;
    return c.json({ ...userService.toUser(user), ...(ssoIdentities ? { ssoIdentities } : {}) }, 200);
  })
  .openapi(patchUser, async (c) => {
    const user = await userService.patchUser(writeContext(c), c.req.valid('param').userId, c.req.valid('json'));
    return c.json(userService.toUser(user), 200);
  })
  .openapi(deleteUser, async (c) => {
    await userService.deleteUser(writeContext(c), c.req.valid('param').userId);
    return c.body(null, 204);
  })
  .openapi(getCustomData, async (c) => {
    const user = await userService.findUser(c.get('tenant'), c.req.valid('param').userId);
    return c.json(user.customData, 200);
  })
  .openapi(patchCustomData, async (c) => {
    const { customData } = c.req.valid('json');
    const user = await userService.mergeCustomData(writeContext(c), c.req.valid('param').userId, customData);
    return c.json(user.customData, 200);
  })
  .openapi(getProfile, async (c) => {
    const user = await userService.findUser(c.get('tenant'), c.req.valid('param').userId);
    return c.json(user.profile as UserProfile, 200);
  })
  .openapi(patchProfile, async (c) => {
    const { profile } = c.req.valid('json');
    const user = await userService.patchProfile(writeContext(c), c.req.valid('param').userId, profile);
    return c.json(user.profile as UserProfile, 200);
  })
  .openapi(setPassword, async (c) => {
    const { password } = c.req.valid('json');
    const user = await userService.setPassword(writeContext(c), c.req.valid('param').userId, password);
    return c.json(userService.toUser(user), 200);
  })
  .openapi(verifyUserPassword, async (c) => {
    await userService.verifyPassword(c.get('tenant'), c.req.valid('param').userId, c.req.valid('json').password);
    return c.body(null, 204);
  })
  .openapi(hasPassword, async (c) => {
    const user = await userService.findUser(c.get('tenant'), c.req.valid('param').userId);
    return c.json({ hasPassword: Boolean(user.passwordEncrypted) }, 200);
  })
  .openapi(setSuspension, async (c) => {
    const { isSuspended } = c.req.valid('json');
    const user = await userService.setSuspension(writeContext(c), c.req.valid('param').userId, isSuspended);
    return c.json(userService.toUser(user), 200);
  });

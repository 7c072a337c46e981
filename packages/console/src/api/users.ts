import {
  organizationWithRolesSchema,
  roleSchema,
  type User,
  type UserCreate,
  type UserMfaVerificationCreate,
  type UserPatch,
  userGrantSchema,
  userMfaVerificationCreatedSchema,
  userMfaVerificationSchema,
  userSchema,
} from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { z } from 'zod';
import { request, requestJson, requestPage } from './client.ts';
import { listQuery, managementPath, searchPattern, useManagementApi } from './management.ts';

const seg = encodeURIComponent;
const usersKey = 'users';

/** Errors of POST/PATCH /users that the forms show on the field concerned (spec §5), not as a toast. */
export const userFieldErrorCodes = {
  'user.username_already_in_use': 'username',
  'user.email_already_in_use': 'primaryEmail',
  'user.phone_already_in_use': 'primaryPhone',
} as const;
const silencedOnForms = [...Object.keys(userFieldErrorCodes), 'password.rejected'];

/** The list's query: page, search text and the filters kept in the URL. */
export type UserListQuery = { page: number; pageSize: number; search: string; isSuspended?: boolean | undefined };

export function useUsers({ page, pageSize, search, isSuspended }: UserListQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(usersKey, 'list', { page, pageSize, search, isSuspended }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/users${listQuery({ page, page_size: pageSize, search: searchPattern(search), isSuspended })}`),
        userSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** Users matching a text, for the command palette (no hooks: the palette calls it outside React). */
export function searchUsers(tenantId: string | undefined, text: string, signal: AbortSignal) {
  return requestPage(
    managementPath(tenantId, `/users${listQuery({ search: searchPattern(text), page: 1, page_size: 5 })}`),
    userSchema,
    { signal },
  );
}

export function useUser(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(usersKey, 'detail', id),
    queryFn: ({ signal }) => requestJson(api.path(`/users/${seg(id)}`), userSchema, { signal }),
  });
}

/** After a write: the user's cached detail becomes the server's answer, and every users list is refetched. */
function useStoreUser() {
  const client = useQueryClient();
  const api = useManagementApi();
  return useCallback(
    async (user: User) => {
      client.setQueryData(api.key(usersKey, 'detail', user.id), user);
      await client.invalidateQueries({ queryKey: api.key(usersKey, 'list') });
    },
    [client, api],
  );
}

export function useCreateUser() {
  const api = useManagementApi();
  const store = useStoreUser();
  return useMutation({
    mutationFn: (user: UserCreate) => requestJson(api.path('/users'), userSchema, { method: 'POST', json: user }),
    onSuccess: store,
    // Shown on the field concerned.
    meta: { silenceErrorCodes: silencedOnForms },
  });
}

export function useUpdateUser(id: string) {
  const api = useManagementApi();
  const store = useStoreUser();
  return useMutation({
    mutationFn: (patch: UserPatch) =>
      requestJson(api.path(`/users/${seg(id)}`), userSchema, { method: 'PATCH', json: patch }),
    onSuccess: store,
    meta: { silenceErrorCodes: silencedOnForms },
  });
}

export function useSetUserPassword(id: string) {
  const api = useManagementApi();
  const store = useStoreUser();
  return useMutation({
    mutationFn: (password: string) =>
      requestJson(api.path(`/users/${seg(id)}/password`), userSchema, { method: 'PATCH', json: { password } }),
    onSuccess: store,
    meta: { silenceErrorCodes: ['password.rejected'] },
  });
}

export function useSetUserSuspension(id: string) {
  const api = useManagementApi();
  const store = useStoreUser();
  return useMutation({
    mutationFn: (isSuspended: boolean) =>
      requestJson(api.path(`/users/${seg(id)}/is-suspended`), userSchema, {
        method: 'PATCH',
        json: { isSuspended },
      }),
    onSuccess: store,
  });
}

export function useDeleteUser(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/users/${seg(id)}`), { method: 'DELETE' }),
    onSuccess: async () => {
      // Not refetched: the page is leaving, and the user would only answer 404 now.
      client.removeQueries({ queryKey: api.key(usersKey, 'detail', id) });
      client.removeQueries({ queryKey: api.key(usersKey, id) });
      await client.invalidateQueries({ queryKey: api.key(usersKey, 'list') });
    },
  });
}

/** Unlinks a social or enterprise identity (keyed by its connector target); the user keeps their other sign-ins. */
export function useDeleteUserIdentity(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (target: string) =>
      request(api.path(`/users/${seg(id)}/identities/${seg(target)}`), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key(usersKey, 'detail', id) }),
  });
}

// ---- MFA factors of a user ------------------------------------------------------------------

/** The user's MFA verifications, newest first (never a secret or a code). */
export function useUserMfaVerifications(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(usersKey, id, 'mfa-verifications'),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/users/${seg(id)}/mfa-verifications`), z.array(userMfaVerificationSchema), { signal }),
  });
}

/** Adds a TOTP factor or backup codes; the answer holds the secret or the codes, shown this one time. */
export function useCreateUserMfaVerification(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserMfaVerificationCreate) =>
      requestJson(api.path(`/users/${seg(id)}/mfa-verifications`), userMfaVerificationCreatedSchema, {
        method: 'POST',
        json: body,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: api.key(usersKey, id, 'mfa-verifications') }),
  });
}

export function useDeleteUserMfaVerification(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (verificationId: string) =>
      request(api.path(`/users/${seg(id)}/mfa-verifications/${seg(verificationId)}`), { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: api.key(usersKey, id, 'mfa-verifications') }),
  });
}

// ---- Roles of a user --------------------------------------------------------------------------

type PageQuery = { page: number; pageSize: number; search: string };

export function useUserRoles(id: string, { page, pageSize, search }: PageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(usersKey, id, 'roles', { page, pageSize, search }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/users/${seg(id)}/roles${listQuery({ page, page_size: pageSize, search: searchPattern(search) })}`),
        roleSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * Candidates of the assign dialog: user roles this user does not hold yet, searched and paged on the server
 * (GET /roles with `type=User` and `excludeUserId`).
 */
export function useUserRoleCandidates(id: string) {
  const api = useManagementApi();
  return {
    queryKey: api.key(usersKey, id, 'roles', 'candidates'),
    load: ({ search, page, pageSize }: PageQuery, signal: AbortSignal) =>
      requestPage(
        api.path(
          `/roles${listQuery({ page, page_size: pageSize, search: searchPattern(search), type: 'User', excludeUserId: id })}`,
        ),
        roleSchema,
        { signal },
      ),
  };
}

function useInvalidateUserRoles(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        client.invalidateQueries({ queryKey: api.key(usersKey, id, 'roles') }),
        // A role's users tab lists this user too.
        client.invalidateQueries({ queryKey: api.key('roles') }),
      ]),
    [api, client, id],
  );
}

export function useAssignUserRoles(id: string) {
  const api = useManagementApi();
  const invalidate = useInvalidateUserRoles(id);
  return useMutation({
    mutationFn: async (roleIds: readonly string[]) => {
      await request(api.path(`/users/${seg(id)}/roles`), { method: 'POST', json: { roleIds } });
    },
    onSettled: invalidate,
  });
}

export function useRemoveUserRole(id: string) {
  const api = useManagementApi();
  const invalidate = useInvalidateUserRoles(id);
  return useMutation({
    mutationFn: (roleId: string) => request(api.path(`/users/${seg(id)}/roles/${seg(roleId)}`), { method: 'DELETE' }),
    onSettled: invalidate,
  });
}

export type UserRole = z.infer<typeof roleSchema>;

// ---- Organizations of a user ------------------------------------------------------------------

/** The organizations the user is a member of, with the organization roles held in each, newest first. */
export function useUserOrganizations(id: string, { page, pageSize }: { page: number; pageSize: number }) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(usersKey, id, 'organizations', { page, pageSize }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/users/${seg(id)}/organizations${listQuery({ page, page_size: pageSize })}`),
        organizationWithRolesSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** Ends the user's membership of an organization (the organization roles held there go with it). */
export function useRemoveUserFromOrganization(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (organizationId: string) =>
      request(api.path(`/organizations/${seg(organizationId)}/users/${seg(id)}`), { method: 'DELETE' }),
    onSettled: () => client.invalidateQueries({ queryKey: api.key(usersKey, id, 'organizations') }),
  });
}

const grantList = z.array(userGrantSchema);

/**
 * What the user allowed third-party applications (their remembered consents), newest first. First-party
 * applications never ask for consent, so their grants are not listed here.
 */
export function useUserGrants(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(usersKey, 'grants', id),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/users/${seg(id)}/grants${listQuery({ appType: 'thirdParty' })}`), grantList, { signal }),
  });
}

/** Revokes a grant (and what was issued under it); the application asks for consent again. */
export function useRevokeUserGrant(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (grantId: string) =>
      request(api.path(`/users/${seg(id)}/grants/${seg(grantId)}`), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key(usersKey, 'grants', id) }),
  });
}

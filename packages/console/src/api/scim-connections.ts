import {
  organizationSchema,
  type ScimConnection,
  type ScimConnectionCreate,
  type ScimConnectionPatch,
  type ScimConnectionWithToken,
  scimConnectionSchema,
  scimConnectionWithTokenSchema,
  scimGroupSchema,
  scimProvisionedUserSchema,
  scimRequestSchema,
  userScimProvisioningSchema,
} from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request, requestJson, requestPage } from './client.ts';
import { listQuery, searchPattern, useManagementApi } from './management.ts';

/**
 * SCIM provisioning connections (issue 45; server routes/scim-connections.ts): an enterprise SSO connector's
 * connection, its bearer token (answered by the creation and a rotation only), its last requests, the users and groups
 * it provisioned, and which connection provisioned a user.
 */

const seg = encodeURIComponent;
const area = 'scim-connections';

/** Codes the setup and settings forms show on their own fields (the toast stays silent for them). */
export const scimSaveCodes = ['guard.invalid_input', 'entity.relation_foreign_key_not_found'] as const;

export type ScimMembersQuery = { page: number; pageSize: number; search: string };

type Api = ReturnType<typeof useManagementApi>;
const ofConnectorKey = (api: Api, ssoConnectorId: string) => api.key(area, 'of-connector', ssoConnectorId);

/** The connection as kept in the cache: never the token, which only its answer to the caller holds. */
const withoutToken = ({ token: _token, ...connection }: ScimConnectionWithToken): ScimConnection => connection;

/** GET /scim-connections?ssoConnectorId=…: the connector's connection, or null while it has none. */
export function useScimConnectionOf(ssoConnectorId: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: ofConnectorKey(api, ssoConnectorId),
    queryFn: async ({ signal }) => {
      const list = await requestJson(
        api.path(`/scim-connections${listQuery({ ssoConnectorId })}`),
        z.array(scimConnectionSchema),
        { signal },
      );
      return list[0] ?? null;
    },
  });
}

/** POST /scim-connections: answers the connection with its token, which is shown this once. */
export function useCreateScimConnection(ssoConnectorId: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ScimConnectionCreate) =>
      requestJson(api.path('/scim-connections'), scimConnectionWithTokenSchema, { method: 'POST', json: input }),
    onSuccess: (created) => client.setQueryData(ofConnectorKey(api, ssoConnectorId), withoutToken(created)),
    // A connection made meanwhile elsewhere (422 sso_connector_in_use): the page shows it after this reload.
    onError: () => client.invalidateQueries({ queryKey: ofConnectorKey(api, ssoConnectorId) }),
    meta: { silenceErrorCodes: scimSaveCodes },
  });
}

export function useUpdateScimConnection(connection: ScimConnection) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: ScimConnectionPatch) =>
      requestJson(api.path(`/scim-connections/${seg(connection.id)}`), scimConnectionSchema, {
        method: 'PATCH',
        json: patch,
      }),
    onSuccess: async (updated) => {
      client.setQueryData(ofConnectorKey(api, connection.ssoConnectorId), updated);
      // Users' markers name the connection.
      await client.invalidateQueries({ queryKey: api.key(area, 'user') });
    },
    meta: { silenceErrorCodes: scimSaveCodes },
  });
}

/** DELETE /scim-connections/{id}: its token stops; the users it provisioned stay (no longer provisioned). */
export function useDeleteScimConnection(connection: ScimConnection) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/scim-connections/${seg(connection.id)}`), { method: 'DELETE' }),
    onSuccess: async () => {
      client.setQueryData(ofConnectorKey(api, connection.ssoConnectorId), null);
      client.removeQueries({ queryKey: api.key(area, connection.id) });
      await client.invalidateQueries({ queryKey: api.key(area, 'user') });
    },
  });
}

/** POST /scim-connections/{id}/token: a new token (the one before stops at once), answered this once. */
export function useRotateScimToken(connection: ScimConnection) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      requestJson(api.path(`/scim-connections/${seg(connection.id)}/token`), scimConnectionWithTokenSchema, {
        method: 'POST',
      }),
    onSuccess: (rotated) => client.setQueryData(ofConnectorKey(api, connection.ssoConnectorId), withoutToken(rotated)),
  });
}

/** DELETE /scim-connections/{id}/token: the directory is refused until a new token is made. */
export function useRevokeScimToken(connection: ScimConnection) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/scim-connections/${seg(connection.id)}/token`), { method: 'DELETE' }),
    onSuccess: () =>
      client.setQueryData<ScimConnection | null>(ofConnectorKey(api, connection.ssoConnectorId), (current) =>
        current ? { ...current, hasToken: false, tokenCreatedAt: null } : current,
      ),
  });
}

/** GET /scim-connections/{id}/requests: the last requests, newest first (the server keeps 200). */
export function useScimRequests(connectionId: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(area, connectionId, 'requests'),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/scim-connections/${seg(connectionId)}/requests`), z.array(scimRequestSchema), {
        signal,
      }),
  });
}

/** GET /scim-connections/{id}/users: a page of the users it provisioned (search: directory username, email, name). */
export function useScimUsers(connectionId: string, { page, pageSize, search }: ScimMembersQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(area, connectionId, 'users', { page, pageSize, search }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(
          `/scim-connections/${seg(connectionId)}/users${listQuery({ page, page_size: pageSize, search: searchPattern(search) })}`,
        ),
        scimProvisionedUserSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /scim-connections/{id}/groups: a page of the groups it provisioned, with their member counts. */
export function useScimGroups(connectionId: string, { page, pageSize, search }: ScimMembersQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(area, connectionId, 'groups', { page, pageSize, search }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(
          `/scim-connections/${seg(connectionId)}/groups${listQuery({ page, page_size: pageSize, search: searchPattern(search) })}`,
        ),
        scimGroupSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * Everything a connection's page reads from its SCIM traffic (requests, users, groups, the last request's time),
 * fetched again: the refresh button's action.
 */
export function useRefreshScimActivity(connection: ScimConnection) {
  const api = useManagementApi();
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: api.key(area, connection.id) }),
      client.invalidateQueries({ queryKey: ofConnectorKey(api, connection.ssoConnectorId) }),
    ]);
}

/** GET /users/{userId}/scim: the connection that provisioned the user, or `provisioning: null`. */
export function useUserScimProvisioning(userId: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(area, 'user', userId),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/users/${seg(userId)}/scim`), userScimProvisioningSchema, { signal }),
    select: (answer) => answer.provisioning,
  });
}

/**
 * The organization a group mapping names, for its picker's label ('' while none is chosen: nothing is asked). Shares
 * the organization's cache entry; an organization deleted since is shown by its id, without a toast.
 */
export function useMappedOrganization(organizationId: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organizations', 'detail', organizationId),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/organizations/${seg(organizationId)}`), organizationSchema, { signal }),
    enabled: organizationId !== '',
    retry: false,
    meta: { silenceErrorCodes: true },
  });
}

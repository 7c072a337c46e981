import {
  applicationSchema,
  type RolePatch,
  type RoleType,
  type roleCreateSchema,
  roleListItemSchema,
  roleSchema,
  roleScopeSchema,
  roleUserSchema,
} from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { z } from 'zod';
import { request, requestJson, requestPage } from './client.ts';
import { listQuery, managementPath, searchPattern, useManagementApi } from './management.ts';

/** A page of a list: 1-based page, its size and the server-side search text. */
export type PageQuery = { page: number; pageSize: number; search: string };

const pageParams = ({ page, pageSize, search }: PageQuery) => ({
  page,
  page_size: pageSize,
  search: searchPattern(search),
});
const seg = encodeURIComponent;

/** A user as the role's users tab and its picker show them (spec §3 user, the fields a list needs). */
export const roleUserItemSchema = roleUserSchema.pick({
  id: true,
  username: true,
  primaryEmail: true,
  primaryPhone: true,
  name: true,
  avatar: true,
});
export type RoleUserItem = z.infer<typeof roleUserItemSchema>;

export function useRoles(query: PageQuery & { type?: RoleType | undefined }) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('roles', 'list', query),
    queryFn: ({ signal }) =>
      requestPage(api.path(`/roles${listQuery({ ...pageParams(query), type: query.type })}`), roleListItemSchema, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useRole(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('roles', 'detail', id),
    queryFn: ({ signal }) => requestJson(api.path(`/roles/${seg(id)}`), roleSchema, { signal }),
  });
}

/** Roles whose name matches, for the command palette (no hooks: the palette calls it outside React). */
export function searchRoles(tenantId: string | undefined, search: string, signal: AbortSignal) {
  return requestPage(
    managementPath(tenantId, `/roles${listQuery({ search: searchPattern(search), page: 1, page_size: 5 })}`),
    roleSchema,
    {
      signal,
    },
  );
}

/** Every cached list of the role and of roles: after a write the console refetches (the API answers 201/204). */
function useInvalidateRole() {
  const client = useQueryClient();
  const api = useManagementApi();
  return useCallback(
    (id?: string) =>
      Promise.all([
        client.invalidateQueries({ queryKey: api.key('roles', 'list') }),
        id ? client.invalidateQueries({ queryKey: api.key('roles', 'detail', id) }) : undefined,
        id ? client.invalidateQueries({ queryKey: api.key('roles', id) }) : undefined,
      ]),
    [client, api],
  );
}

export function useCreateRole() {
  const api = useManagementApi();
  const invalidate = useInvalidateRole();
  return useMutation({
    mutationFn: (role: z.input<typeof roleCreateSchema>) =>
      requestJson(api.path('/roles'), roleSchema, { method: 'POST', json: role }),
    onSuccess: () => invalidate(),
    // Shown on the name field instead of a toast.
    meta: { silenceErrorCodes: ['role.name_in_use'] },
  });
}

export function useUpdateRole(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: RolePatch) =>
      requestJson(api.path(`/roles/${seg(id)}`), roleSchema, { method: 'PATCH', json: patch }),
    onSuccess: async (role) => {
      client.setQueryData(api.key('roles', 'detail', id), role);
      await client.invalidateQueries({ queryKey: api.key('roles', 'list') });
    },
    meta: { silenceErrorCodes: ['role.name_in_use'] },
  });
}

export function useDeleteRole(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/roles/${seg(id)}`), { method: 'DELETE' }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: api.key('roles', 'detail', id) });
      client.removeQueries({ queryKey: api.key('roles', id) });
      await client.invalidateQueries({ queryKey: api.key('roles', 'list') });
    },
  });
}

/** The role's assignees of one kind: its permissions, users or machine-to-machine applications. */
export type RoleRelation = 'scopes' | 'users' | 'applications';

function useRoleRelation<S extends z.ZodType>(id: string, relation: RoleRelation, schema: S, query: PageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('roles', id, relation, query),
    queryFn: ({ signal }) =>
      requestPage(api.path(`/roles/${seg(id)}/${relation}${listQuery(pageParams(query))}`), schema, { signal }),
    placeholderData: keepPreviousData,
  });
}

export const useRoleScopes = (id: string, query: PageQuery) => useRoleRelation(id, 'scopes', roleScopeSchema, query);
export const useRoleUsers = (id: string, query: PageQuery) => useRoleRelation(id, 'users', roleUserItemSchema, query);
export const useRoleApplications = (id: string, query: PageQuery) =>
  useRoleRelation(id, 'applications', applicationSchema, query);

/**
 * How many users or applications hold the role, asked when needed (the delete confirmation says who loses it): one
 * request for one row, whose Total-Number answers it.
 */
export function useRoleAssigneeCounter(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useCallback(
    (relation: 'users' | 'applications') =>
      client.fetchQuery({
        queryKey: api.key('roles', id, relation, 'count'),
        queryFn: async ({ signal }) => {
          const path = api.path(`/roles/${seg(id)}/${relation}${listQuery({ page: 1, page_size: 1 })}`);
          return (await requestPage(path, z.unknown(), { signal })).total;
        },
        staleTime: 0,
      }),
    [api, client, id],
  );
}

const assignBodies = {
  scopes: (ids: readonly string[]) => ({ scopeIds: ids }),
  users: (ids: readonly string[]) => ({ userIds: ids }),
  applications: (ids: readonly string[]) => ({ applicationIds: ids }),
} as const;

/** Adds permissions, users or applications to the role (201 without a body). */
export function useAssignToRole(id: string, relation: RoleRelation) {
  const api = useManagementApi();
  const invalidate = useInvalidateRole();
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      await request(api.path(`/roles/${seg(id)}/${relation}`), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(assignBodies[relation](ids)),
      });
    },
    onSettled: () => invalidate(id),
    // The permission picker marks these next to the permissions concerned.
    meta: relation === 'scopes' ? { silenceErrorCodes: ['role.scope_exists'] } : undefined,
  });
}

export function useRemoveFromRole(id: string, relation: RoleRelation) {
  const api = useManagementApi();
  const invalidate = useInvalidateRole();
  return useMutation({
    mutationFn: (relatedId: string) =>
      request(api.path(`/roles/${seg(id)}/${relation}/${seg(relatedId)}`), { method: 'DELETE' }),
    onSettled: () => invalidate(id),
  });
}

/** Loaders of the pickers: they page and search on the server and never fetch every candidate. */
export function useRolePickerLoaders(roleId?: string) {
  const api = useManagementApi();
  return useMemo(
    () => ({
      users: (query: PageQuery, signal: AbortSignal) =>
        requestPage(
          api.path(`/users${listQuery({ ...pageParams(query), excludeRoleId: roleId })}`),
          roleUserItemSchema,
          {
            signal,
          },
        ),
      applications: (query: PageQuery, signal: AbortSignal) =>
        requestPage(
          api.path(
            `/applications${listQuery({ ...pageParams(query), types: 'MachineToMachine', excludeRoleId: roleId })}`,
          ),
          applicationSchema,
          { signal },
        ),
      // Under the role's key, so assigning refreshes the candidates (the assigned ones leave the list).
      key: (...parts: readonly unknown[]) =>
        roleId ? api.key('roles', roleId, 'picker', ...parts) : api.key('roles', 'picker', ...parts),
    }),
    [api, roleId],
  );
}

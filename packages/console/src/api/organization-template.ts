import {
  type OrganizationRoleCreate,
  type OrganizationRolePatch,
  type OrganizationRoleType,
  type OrganizationRoleWithScopes,
  type OrganizationScopeCreate,
  type OrganizationScopePatch,
  organizationRoleSchema,
  organizationRoleWithScopesSchema,
  organizationScopeSchema,
  roleScopeSchema,
} from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
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

/** The two kinds of permission an organization role holds: organization permissions and API resource permissions. */
export type OrganizationRolePermissionKind = 'scopes' | 'resource-scopes';

export function useOrganizationRoles(query: PageQuery & { type?: OrganizationRoleType | undefined }) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organization-roles', 'list', query),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/organization-roles${listQuery({ ...pageParams(query), type: query.type })}`),
        organizationRoleWithScopesSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useOrganizationRole(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organization-roles', 'detail', id),
    queryFn: ({ signal }) =>
      // The role alone (the reference's shape); its permissions are the two relation lists of the permissions tab.
      requestJson(api.path(`/organization-roles/${seg(id)}`), organizationRoleSchema, { signal }),
  });
}

/** Organization roles whose name matches, for the command palette (no hooks: the palette calls it outside React). */
export function searchOrganizationRoles(tenantId: string | undefined, search: string, signal: AbortSignal) {
  return requestPage(
    managementPath(tenantId, `/organization-roles${listQuery({ search, page: 1, page_size: 5 })}`),
    organizationRoleSchema,
    { signal },
  );
}

/** Everything cached about organization roles: lists, details, permissions and pickers. */
function useInvalidateOrganizationRoles() {
  const client = useQueryClient();
  const api = useManagementApi();
  return useCallback(() => client.invalidateQueries({ queryKey: api.key('organization-roles') }), [client, api]);
}

export function useCreateOrganizationRole() {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganizationRoles();
  return useMutation({
    mutationFn: (role: OrganizationRoleCreate) =>
      requestJson(api.path('/organization-roles'), organizationRoleSchema, { method: 'POST', json: role }),
    onSuccess: () => invalidate(),
    // Shown on the name field instead of a toast.
    meta: { silenceErrorCodes: ['entity.unique_integrity_violation'] },
  });
}

export function useUpdateOrganizationRole(id: string) {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganizationRoles();
  return useMutation({
    mutationFn: (patch: OrganizationRolePatch) =>
      requestJson(api.path(`/organization-roles/${seg(id)}`), organizationRoleSchema, {
        method: 'PATCH',
        json: patch,
      }),
    onSuccess: () => invalidate(),
    meta: { silenceErrorCodes: ['entity.unique_integrity_violation'] },
  });
}

export function useDeleteOrganizationRole(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/organization-roles/${seg(id)}`), { method: 'DELETE' }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: api.key('organization-roles', 'detail', id) });
      client.removeQueries({ queryKey: api.key('organization-roles', id) });
      await client.invalidateQueries({ queryKey: api.key('organization-roles', 'list') });
    },
  });
}

export function useOrganizationRoleScopes(id: string, query: PageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organization-roles', id, 'scopes', query),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/organization-roles/${seg(id)}/scopes${listQuery(pageParams(query))}`),
        organizationScopeSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useOrganizationRoleResourceScopes(id: string, query: PageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organization-roles', id, 'resource-scopes', query),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/organization-roles/${seg(id)}/resource-scopes${listQuery(pageParams(query))}`),
        roleScopeSchema,
        {
          signal,
        },
      ),
    placeholderData: keepPreviousData,
  });
}

const assignBodies = {
  scopes: (ids: readonly string[]) => ({ organizationScopeIds: ids }),
  'resource-scopes': (ids: readonly string[]) => ({ scopeIds: ids }),
} as const;

/** Adds organization or API permissions to a role (201 without a body; one already held is 422 with its id). */
export function useAssignToOrganizationRole(id: string, kind: OrganizationRolePermissionKind) {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganizationRoles();
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      await request(api.path(`/organization-roles/${seg(id)}/${kind}`), {
        method: 'POST',
        json: assignBodies[kind](ids),
      });
    },
    onSettled: () => invalidate(),
    // The assign dialog marks these next to the permissions concerned.
    meta: { silenceErrorCodes: ['organization_role.scope_exists', 'organization_role.resource_scope_exists'] },
  });
}

export function useRemoveFromOrganizationRole(id: string, kind: OrganizationRolePermissionKind) {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganizationRoles();
  return useMutation({
    mutationFn: (permissionId: string) =>
      request(api.path(`/organization-roles/${seg(id)}/${kind}/${seg(permissionId)}`), { method: 'DELETE' }),
    onSettled: () => invalidate(),
  });
}

export function useOrganizationScopes(query: PageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organization-scopes', 'list', query),
    queryFn: ({ signal }) =>
      requestPage(api.path(`/organization-scopes${listQuery(pageParams(query))}`), organizationScopeSchema, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** The organization permissions a picker shows, a page at a time, searched on the server. */
export function useOrganizationScopeLoader() {
  const api = useManagementApi();
  return useMemo(
    () => ({
      load: (query: PageQuery, signal: AbortSignal) =>
        requestPage(api.path(`/organization-scopes${listQuery(pageParams(query))}`), organizationScopeSchema, {
          signal,
        }),
      key: (...parts: readonly unknown[]) => api.key('organization-scopes', 'picker', ...parts),
    }),
    [api],
  );
}

/** Organization permissions change what roles show: both caches are refreshed after a write. */
function useInvalidateOrganizationScopes() {
  const client = useQueryClient();
  const api = useManagementApi();
  return useCallback(
    () =>
      Promise.all([
        client.invalidateQueries({ queryKey: api.key('organization-scopes') }),
        client.invalidateQueries({ queryKey: api.key('organization-roles') }),
      ]),
    [client, api],
  );
}

export function useCreateOrganizationScope() {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganizationScopes();
  return useMutation({
    mutationFn: (scope: OrganizationScopeCreate) =>
      requestJson(api.path('/organization-scopes'), organizationScopeSchema, { method: 'POST', json: scope }),
    onSuccess: () => invalidate(),
    meta: { silenceErrorCodes: ['entity.unique_integrity_violation'] },
  });
}

export function useUpdateOrganizationScope() {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganizationScopes();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: OrganizationScopePatch }) =>
      requestJson(api.path(`/organization-scopes/${seg(id)}`), organizationScopeSchema, {
        method: 'PATCH',
        json: patch,
      }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteOrganizationScope() {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganizationScopes();
  return useMutation({
    mutationFn: (id: string) => request(api.path(`/organization-scopes/${seg(id)}`), { method: 'DELETE' }),
    onSuccess: () => invalidate(),
  });
}

/** At most this many roles are read to say which lose a permission (10 pages of 100); more are counted, not named. */
const maxRolePages = 10;

/**
 * The organization roles that hold an organization permission, for the delete confirmation. The API has no filter
 * by permission; the template holds few roles, so their pages are read (100 a page, each with its permission names)
 * and filtered here. `isComplete` is false when the tenant has more roles than were read.
 */
export function useRolesHoldingScope() {
  const api = useManagementApi();
  return useCallback(
    async (scopeId: string, signal?: AbortSignal) => {
      const holding: OrganizationRoleWithScopes[] = [];
      for (let page = 1; page <= maxRolePages; page += 1) {
        const { items, total } = await requestPage(
          api.path(`/organization-roles${listQuery({ page, page_size: 100 })}`),
          organizationRoleWithScopesSchema,
          { signal },
        );
        holding.push(...items.filter((role) => role.scopes.some((scope) => scope.id === scopeId)));
        if (page * 100 >= total) return { roles: holding, isComplete: true };
      }
      return { roles: holding, isComplete: false };
    },
    [api],
  );
}

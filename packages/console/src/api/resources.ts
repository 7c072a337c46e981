import {
  type ResourceCreate,
  type ResourcePatch,
  resourceSchema,
  resourceWithScopesSchema,
  type ScopeCreate,
  type ScopePatch,
  scopeSchema,
} from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { request, requestJson, requestPage } from './client.ts';
import { listQuery, managementPath, searchPattern, useManagementApi } from './management.ts';

/** A page of a list: 1-based page, its size and the text typed in the search box. */
export type ResourcePageQuery = { page: number; pageSize: number; search: string };

const pageParams = ({ page, pageSize, search }: ResourcePageQuery) => ({
  page,
  page_size: pageSize,
  search: searchPattern(search),
});
const seg = encodeURIComponent;

/** Spec §2.2 api-resources list: server-side search and pagination (Total-Number). */
export function useResources(query: ResourcePageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('resources', 'list', query),
    queryFn: ({ signal }) =>
      requestPage(api.path(`/resources${listQuery(pageParams(query))}`), resourceSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useResource(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('resources', 'detail', id),
    queryFn: ({ signal }) => requestJson(api.path(`/resources/${seg(id)}`), resourceSchema, { signal }),
    meta: { silenceErrorCodes: ['entity.not_exists_with_id'] },
  });
}

/** Resources whose name, identifier or id matches, for the command palette (called outside React). */
export async function searchResources(tenantId: string | undefined, search: string, signal: AbortSignal) {
  const query = listQuery({ search: searchPattern(search), page: 1, page_size: 5 });
  return (await requestPage(managementPath(tenantId, `/resources${query}`), resourceSchema, { signal })).items;
}

export function useCreateResource() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (resource: Pick<ResourceCreate, 'name' | 'indicator'>) =>
      requestJson(api.path('/resources'), resourceWithScopesSchema, { method: 'POST', json: resource }),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key('resources', 'list') }),
    // A taken or reserved identifier is shown on the field itself.
    meta: { silenceErrorCodes: ['resource.resource_identifier_in_use', 'resource.reserved_indicator'] },
  });
}

/**
 * Name and access-token TTL in one PATCH (when either changed), then the default flag on its own route, which also
 * changes the previous default resource.
 */
export function useUpdateResource(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ patch, isDefault }: { patch: ResourcePatch; isDefault?: boolean | undefined }) => {
      const path = api.path(`/resources/${seg(id)}`);
      let resource =
        Object.keys(patch).length > 0
          ? await requestJson(path, resourceSchema, { method: 'PATCH', json: patch })
          : undefined;
      if (isDefault !== undefined) {
        resource = await requestJson(`${path}/is-default`, resourceSchema, { method: 'PATCH', json: { isDefault } });
      }
      return resource ?? (await requestJson(path, resourceSchema));
    },
    onSuccess: async (resource) => {
      // A new default unsets the previous one, whose cached detail is then out of date too.
      await client.invalidateQueries({ queryKey: api.key('resources', 'detail'), refetchType: 'none' });
      client.setQueryData(api.key('resources', 'detail', id), resource);
      await client.invalidateQueries({ queryKey: api.key('resources', 'list') });
    },
  });
}

export function useDeleteResource() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await request(api.path(`/resources/${seg(id)}`), { method: 'DELETE' });
    },
    onSuccess: (_result, id) =>
      Promise.all([
        client.invalidateQueries({ queryKey: api.key('resources', 'list') }),
        // Not fetched now (the page is leaving and would only get a 404); a later visit asks again.
        client.invalidateQueries({ queryKey: api.key('resources', 'detail', id), refetchType: 'none' }),
        client.invalidateQueries({ queryKey: api.key('resources', id), refetchType: 'none' }),
      ]),
  });
}

/** The permissions (scopes) of one resource: server-side search and pagination. */
export function useScopes(resourceId: string, query: ResourcePageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('resources', resourceId, 'scopes', query),
    queryFn: ({ signal }) =>
      requestPage(api.path(`/resources/${seg(resourceId)}/scopes${listQuery(pageParams(query))}`), scopeSchema, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateScopes(resourceId: string) {
  const client = useQueryClient();
  const api = useManagementApi();
  return useCallback(
    () => client.invalidateQueries({ queryKey: api.key('resources', resourceId, 'scopes') }),
    [client, api, resourceId],
  );
}

export function useCreateScope(resourceId: string) {
  const api = useManagementApi();
  const invalidate = useInvalidateScopes(resourceId);
  return useMutation({
    mutationFn: (scope: ScopeCreate) =>
      requestJson(api.path(`/resources/${seg(resourceId)}/scopes`), scopeSchema, { method: 'POST', json: scope }),
    onSuccess: () => invalidate(),
    // A name already used by this resource is shown on the name field.
    meta: { silenceErrorCodes: ['scope.name_exists'] },
  });
}

export function useUpdateScope(resourceId: string) {
  const api = useManagementApi();
  const invalidate = useInvalidateScopes(resourceId);
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: ScopePatch }) =>
      requestJson(api.path(`/resources/${seg(resourceId)}/scopes/${seg(id)}`), scopeSchema, {
        method: 'PATCH',
        json: patch,
      }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteScope(resourceId: string) {
  const api = useManagementApi();
  const invalidate = useInvalidateScopes(resourceId);
  return useMutation({
    mutationFn: async (id: string) => {
      await request(api.path(`/resources/${seg(resourceId)}/scopes/${seg(id)}`), { method: 'DELETE' });
    },
    onSuccess: () => invalidate(),
  });
}

/** The parts of an issuer's OpenID configuration an API needs to check its tokens. */

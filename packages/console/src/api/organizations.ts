import {
  applicationSchema,
  type OrganizationCreate,
  type OrganizationPatch,
  organizationApplicationSchema,
  organizationMemberSchema,
  organizationRoleSchema,
  organizationSchema,
  organizationWithRolesSchema,
  userSchema,
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

export function useOrganizations(query: PageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organizations', 'list', query),
    queryFn: ({ signal }) =>
      requestPage(api.path(`/organizations${listQuery(pageParams(query))}`), organizationSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useOrganization(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organizations', 'detail', id),
    queryFn: ({ signal }) => requestJson(api.path(`/organizations/${seg(id)}`), organizationSchema, { signal }),
  });
}

/** Organizations whose name matches, for the command palette (no hooks: the palette calls it outside React). */
export function searchOrganizations(tenantId: string | undefined, search: string, signal: AbortSignal) {
  return requestPage(
    managementPath(tenantId, `/organizations${listQuery({ search, page: 1, page_size: 5 })}`),
    organizationSchema,
    { signal },
  );
}

export function useCreateOrganization() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (organization: OrganizationCreate) =>
      requestJson(api.path('/organizations'), organizationSchema, { method: 'POST', json: organization }),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key('organizations', 'list') }),
  });
}

export function useUpdateOrganization(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: OrganizationPatch) =>
      requestJson(api.path(`/organizations/${seg(id)}`), organizationSchema, { method: 'PATCH', json: patch }),
    onSuccess: async (organization) => {
      client.setQueryData(api.key('organizations', 'detail', id), organization);
      await client.invalidateQueries({ queryKey: api.key('organizations', 'list') });
    },
  });
}

export function useDeleteOrganization(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/organizations/${seg(id)}`), { method: 'DELETE' }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: api.key('organizations', 'detail', id) });
      client.removeQueries({ queryKey: api.key('organizations', id) });
      await client.invalidateQueries({ queryKey: api.key('organizations', 'list') });
    },
  });
}

/** The organization's members or machine-to-machine applications. */
export type OrganizationRelation = 'users' | 'applications';

export function useOrganizationMembers(id: string, query: PageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organizations', id, 'users', query),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/organizations/${seg(id)}/users${listQuery(pageParams(query))}`),
        organizationMemberSchema,
        {
          signal,
        },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useOrganizationApplications(id: string, query: PageQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organizations', id, 'applications', query),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/organizations/${seg(id)}/applications${listQuery(pageParams(query))}`),
        organizationApplicationSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** Everything cached under the organization (members, applications, pickers): refetched after a write. */
function useInvalidateOrganization(id: string) {
  const client = useQueryClient();
  const api = useManagementApi();
  return useCallback(() => client.invalidateQueries({ queryKey: api.key('organizations', id) }), [client, api, id]);
}

const addBodies = {
  users: (ids: readonly string[]) => ({ userIds: ids }),
  applications: (ids: readonly string[]) => ({ applicationIds: ids }),
} as const;

/** Adds members or applications (201 without a body; one already there is 422 with its id). */
export function useAddToOrganization(id: string, relation: OrganizationRelation) {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganization(id);
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      await request(api.path(`/organizations/${seg(id)}/${relation}`), {
        method: 'POST',
        json: addBodies[relation](ids),
      });
    },
    onSettled: () => invalidate(),
  });
}

export function useRemoveFromOrganization(id: string, relation: OrganizationRelation) {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganization(id);
  return useMutation({
    mutationFn: (relatedId: string) =>
      request(api.path(`/organizations/${seg(id)}/${relation}/${seg(relatedId)}`), { method: 'DELETE' }),
    onSettled: () => invalidate(),
  });
}

/** Replaces the organization roles a member or an application holds in the organization (204). */
export function useSetOrganizationRoles(id: string, relation: OrganizationRelation) {
  const api = useManagementApi();
  const invalidate = useInvalidateOrganization(id);
  return useMutation({
    mutationFn: async ({ relatedId, roleIds }: { relatedId: string; roleIds: readonly string[] }) => {
      await request(api.path(`/organizations/${seg(id)}/${relation}/${seg(relatedId)}/roles`), {
        method: 'PUT',
        json: { organizationRoleIds: roleIds },
      });
    },
    onSettled: () => invalidate(),
  });
}

/** Loaders of the pickers: they page and search on the server and never fetch every candidate. */
export function useOrganizationPickerLoaders(id: string) {
  const api = useManagementApi();
  return useMemo(
    () => ({
      users: (query: PageQuery, signal: AbortSignal) =>
        requestPage(api.path(`/users${listQuery(pageParams(query))}`), userSchema, { signal }),
      applications: (query: PageQuery, signal: AbortSignal) =>
        requestPage(
          api.path(`/applications${listQuery({ ...pageParams(query), types: 'MachineToMachine' })}`),
          applicationSchema,
          { signal },
        ),
      roles: (type: 'User' | 'MachineToMachine', query: PageQuery, signal: AbortSignal) =>
        requestPage(
          api.path(`/organization-roles${listQuery({ ...pageParams(query), type })}`),
          organizationRoleSchema,
          {
            signal,
          },
        ),
      // Under the organization's key, so adding refreshes the candidates.
      key: (...parts: readonly unknown[]) => api.key('organizations', id, 'picker', ...parts),
    }),
    [api, id],
  );
}

/** GET /applications/{id}/organizations: the organizations a machine-to-machine application belongs to. */
export function useApplicationOrganizations(applicationId: string, query: Omit<PageQuery, 'search'>) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('applications', applicationId, 'organizations', query),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(
          `/applications/${seg(applicationId)}/organizations${listQuery({ page: query.page, page_size: query.pageSize })}`,
        ),
        organizationWithRolesSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

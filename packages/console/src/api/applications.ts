import {
  type Application,
  type ApplicationCreate,
  type ApplicationPatch,
  type ApplicationSecretCreate,
  type ApplicationSignInExperienceInput,
  type ApplicationType,
  applicationSchema,
  applicationSecretSchema,
  applicationSignInExperienceSchema,
  roleSchema,
  type SamlApplicationCreate,
  type SamlApplicationPatch,
  samlApplicationSchema,
} from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, type Page, request, requestJson, requestPage } from './client.ts';
import { listQuery, managementPath, searchPattern, useManagementApi } from './management.ts';

/** Cache keys of this area, under the tenant's prefix (useManagementApi().key). */
const applicationsKey = 'applications';

export type ApplicationListQuery = { page: number; pageSize: number; search: string; isThirdParty: boolean };

/** Spec §2.2: the list tabs split first-party from third-party applications (reference `isThirdParty`). */
export function useApplicationsPage({ page, pageSize, search, isThirdParty }: ApplicationListQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(applicationsKey, 'list', { page, pageSize, search, isThirdParty }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(
          `/applications${listQuery({ page, page_size: pageSize, search: searchPattern(search), isThirdParty })}`,
        ),
        applicationSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** The types of application users sign in to (a machine-to-machine one signs nobody in). */
const signInTypes: readonly ApplicationType[] = ['SPA', 'Traditional', 'Native', 'Protected', 'SAML'];

/** The first 100 applications users sign in to, oldest first: what the sign-in preview may be named for. */
export function useSignInApplications() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(applicationsKey, 'sign-in-applications'),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/applications${listQuery({ page: 1, page_size: 100, types: signInTypes })}`),
        applicationSchema,
        {
          signal,
        },
      ),
    select: (page) => [...page.items].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)),
  });
}

/** A few applications whose name or id matches, for the command palette (server-side search). */
export async function searchApplications(
  tenantId: string | undefined,
  search: string,
  signal: AbortSignal,
): Promise<Page<Application>> {
  const path = managementPath(
    tenantId,
    `/applications${listQuery({ page: 1, page_size: 5, search: searchPattern(search) })}`,
  );
  return requestPage(path, applicationSchema, { signal });
}

export function useApplication(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(applicationsKey, 'detail', id),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/applications/${encodeURIComponent(id)}`), applicationSchema, { signal }),
    // The detail page shows 404 as 'not found' itself.
    meta: { silenceErrorCodes: ['entity.not_exists_with_id'] },
  });
}

export function useSamlApplication(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(applicationsKey, 'saml', id),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/saml-applications/${encodeURIComponent(id)}`), samlApplicationSchema, { signal }),
  });
}

/** Codes a form shows beside the field they concern instead of as a toast. */
const fieldErrorCodes = ['guard.invalid_input', 'application.saml.entity_id_in_use'];

export type NewApplication =
  | { type: Exclude<ApplicationType, 'SAML'>; body: ApplicationCreate }
  | {
      type: 'SAML';
      body: SamlApplicationCreate;
    };

/** SAML applications have their own API (reference `/saml-applications`); the others share `/applications`. */
export function useCreateApplication() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (application: NewApplication): Promise<{ id: string }> =>
      application.type === 'SAML'
        ? requestJson(api.path('/saml-applications'), samlApplicationSchema, { method: 'POST', json: application.body })
        : requestJson(api.path('/applications'), applicationSchema, { method: 'POST', json: application.body }),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key(applicationsKey) }),
    meta: { silenceErrorCodes: fieldErrorCodes },
  });
}

export function useUpdateApplication(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: ApplicationPatch) =>
      requestJson(api.path(`/applications/${encodeURIComponent(id)}`), applicationSchema, {
        method: 'PATCH',
        json: patch,
      }),
    onSuccess: (application) => {
      client.setQueryData(api.key(applicationsKey, 'detail', id), application);
      return client.invalidateQueries({ queryKey: api.key(applicationsKey, 'list') });
    },
    meta: { silenceErrorCodes: fieldErrorCodes },
  });
}

export function useUpdateSamlApplication(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: SamlApplicationPatch) =>
      requestJson(api.path(`/saml-applications/${encodeURIComponent(id)}`), samlApplicationSchema, {
        method: 'PATCH',
        json: patch,
      }),
    onSuccess: (saml) => {
      client.setQueryData(api.key(applicationsKey, 'saml', id), saml);
      // The name and description show in the page header and the list.
      return Promise.all([
        client.invalidateQueries({ queryKey: api.key(applicationsKey, 'detail', id) }),
        client.invalidateQueries({ queryKey: api.key(applicationsKey, 'list') }),
      ]);
    },
    meta: { silenceErrorCodes: fieldErrorCodes },
  });
}

export function useDeleteApplication() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, type }: Pick<Application, 'id' | 'type'>) => {
      const collection = type === 'SAML' ? 'saml-applications' : 'applications';
      await request(api.path(`/${collection}/${encodeURIComponent(id)}`), { method: 'DELETE' });
    },
    onSuccess: (_result, { id }) => {
      client.removeQueries({ queryKey: api.key(applicationsKey, 'detail', id) });
      return client.invalidateQueries({ queryKey: api.key(applicationsKey, 'list') });
    },
  });
}

// ---- Secrets ----------------------------------------------------------------------------------

const secretsPath = (id: string, name?: string) =>
  `/applications/${encodeURIComponent(id)}/secrets${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;

export function useApplicationSecrets(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(applicationsKey, 'secrets', id),
    queryFn: ({ signal }) => requestJson(api.path(secretsPath(id)), z.array(applicationSecretSchema), { signal }),
  });
}

function useSecretsInvalidation(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: api.key(applicationsKey, 'secrets', id) });
}

/** The answer holds the whole value, which the API shows this once. */
export function useCreateSecret(id: string) {
  const api = useManagementApi();
  const invalidate = useSecretsInvalidation(id);
  return useMutation({
    mutationFn: (secret: ApplicationSecretCreate) =>
      requestJson(api.path(secretsPath(id)), applicationSecretSchema, { method: 'POST', json: secret }),
    onSuccess: invalidate,
    meta: { silenceErrorCodes: ['application.secret_name_in_use', 'guard.invalid_input'] },
  });
}

export function useRenameSecret(id: string) {
  const api = useManagementApi();
  const invalidate = useSecretsInvalidation(id);
  return useMutation({
    mutationFn: ({ name, newName }: { name: string; newName: string }) =>
      requestJson(api.path(secretsPath(id, name)), applicationSecretSchema, {
        method: 'PATCH',
        json: { name: newName },
      }),
    onSuccess: invalidate,
    meta: { silenceErrorCodes: ['application.secret_name_in_use', 'guard.invalid_input'] },
  });
}

export function useDeleteSecret(id: string) {
  const api = useManagementApi();
  const invalidate = useSecretsInvalidation(id);
  return useMutation({
    mutationFn: async (name: string) => {
      await request(api.path(secretsPath(id, name)), { method: 'DELETE' });
    },
    onSuccess: invalidate,
  });
}

/** The server records who saw the value (audit log), so this is an explicit action, never a background read. */
export function useRevealSecret(id: string) {
  const api = useManagementApi();
  return useMutation({
    mutationFn: (name: string) =>
      requestJson(api.path(`${secretsPath(id, name)}/reveal`), applicationSecretSchema, { method: 'POST' }),
  });
}

// ---- Machine-to-machine roles -----------------------------------------------------------------

const rolesPath = (id: string) => `/applications/${encodeURIComponent(id)}/roles`;

export function useApplicationRoles(
  id: string,
  { page, pageSize, search }: Omit<ApplicationListQuery, 'isThirdParty'>,
) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(applicationsKey, 'roles', id, { page, pageSize, search }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`${rolesPath(id)}${listQuery({ page, page_size: pageSize, search: searchPattern(search) })}`),
        roleSchema,
        {
          signal,
        },
      ),
    placeholderData: keepPreviousData,
  });
}

/**
 * Candidates for the assign dialog: machine-to-machine roles this application does not hold yet, searched on the
 * server (GET /roles with `type` and `excludeApplicationId`).
 */
export function useRoleCandidates(id: string) {
  const api = useManagementApi();
  return {
    queryKey: api.key(applicationsKey, 'roles', id, 'candidates'),
    load: ({ search, page, pageSize }: { search: string; page: number; pageSize: number }, signal: AbortSignal) =>
      requestPage(
        api.path(
          `/roles${listQuery({ page, page_size: pageSize, search: searchPattern(search), type: 'MachineToMachine', excludeApplicationId: id })}`,
        ),
        roleSchema,
        { signal },
      ),
  };
}

export function useAssignApplicationRoles(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (roleIds: readonly string[]) => {
      await request(api.path(rolesPath(id)), {
        method: 'POST',
        json: { roleIds },
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: api.key(applicationsKey, 'roles', id) }),
  });
}

export function useRemoveApplicationRole(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (roleId: string) => {
      await request(api.path(`${rolesPath(id)}/${encodeURIComponent(roleId)}`), { method: 'DELETE' });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: api.key(applicationsKey, 'roles', id) }),
  });
}

/**
 * A third-party application's consent-page branding (name, logos, colours, terms links); null while none is set (the
 * API answers 404 then, which is not an error here).
 */
export function useApplicationBranding(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(applicationsKey, 'branding', id),
    queryFn: async ({ signal }) => {
      try {
        return await requestJson(
          api.path(`/applications/${encodeURIComponent(id)}/sign-in-experience`),
          applicationSignInExperienceSchema,
          { signal },
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** Replaces the branding (PUT: what is left out is cleared). The form places refused fields itself. */
export function useSaveApplicationBranding(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ApplicationSignInExperienceInput) =>
      requestJson(
        api.path(`/applications/${encodeURIComponent(id)}/sign-in-experience`),
        applicationSignInExperienceSchema,
        {
          method: 'PUT',
          json: input,
        },
      ),
    onSuccess: (saved) => client.setQueryData(api.key(applicationsKey, 'branding', id), saved),
    meta: { silenceErrorCodes: ['guard.invalid_input'] },
  });
}

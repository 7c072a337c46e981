import {
  applicationSchema,
  type SsoConnectorCreate,
  type SsoConnectorPatch,
  type SsoIdpInitiatedAuthConfigInput,
  ssoConnectorProviderSchema,
  ssoConnectorSchema,
  ssoConnectorWithProviderConfigSchema,
  ssoIdpInitiatedApplicationTypes,
  ssoIdpInitiatedAuthConfigSchema,
} from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiError, request, requestJson, requestPage } from './client.ts';
import { listQuery, useManagementApi } from './management.ts';

/**
 * The enterprise SSO area's calls (spec §2.2 enterprise-sso; reference §8 `/sso-connectors`), and the organization's
 * just-in-time SSO connectors (reference §3 `/organizations/{id}/jit/sso-connectors`).
 */

const seg = encodeURIComponent;

/**
 * The codes the IdP's settings are refused with when the server cannot read them (OIDC discovery, SAML metadata, a
 * certificate): the connection tab shows them as 'could not read the IdP', not as a toast.
 */
export const idpReadErrorCodes = [
  'connector.invalid_config',
  'connector.invalid_metadata',
  'connector.invalid_certificate',
  'connector.invalid_response',
] as const;

/** Codes a create or save shows on its own fields (the toast stays silent for them). */
const nameCodes = ['single_sign_on.duplicate_connector_name', 'guard.invalid_input'];
const saveCodes = [...nameCodes, ...idpReadErrorCodes, 'single_sign_on.forbidden_domains'];

/** GET /sso-connector-providers: the generic OIDC and SAML providers and the presets, named in the caller's language. */
export function useSsoProviders() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('sso-connectors', 'providers'),
    queryFn: ({ signal }) =>
      requestJson(api.path('/sso-connector-providers'), z.array(ssoConnectorProviderSchema), { signal }),
    staleTime: 5 * 60_000,
  });
}

export type SsoConnectorListQuery = { page: number; pageSize: number };

export function useSsoConnectors({ page, pageSize }: SsoConnectorListQuery) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('sso-connectors', 'list', { page, pageSize }),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/sso-connectors${listQuery({ page, page_size: pageSize })}`),
        ssoConnectorWithProviderConfigSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function useSsoConnector(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('sso-connectors', 'detail', id),
    queryFn: ({ signal }) =>
      requestJson(api.path(`/sso-connectors/${seg(id)}`), ssoConnectorWithProviderConfigSchema, { signal }),
  });
}

export function useCreateSsoConnector() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    // The reference answers the stored connector (no provider fields): only its id and name are read here.
    mutationFn: (input: SsoConnectorCreate) =>
      requestJson(api.path('/sso-connectors'), ssoConnectorSchema, { method: 'POST', json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key('sso-connectors', 'list') }),
    meta: { silenceErrorCodes: nameCodes },
  });
}

export function useUpdateSsoConnector(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (patch: SsoConnectorPatch) => {
      const path = api.path(`/sso-connectors/${seg(id)}`);
      const answer = await requestJson(path, z.unknown(), { method: 'PATCH', json: patch });
      // The connector with what was read from the IdP; an answer of the stored connector alone is read again.
      const full = ssoConnectorWithProviderConfigSchema.safeParse(answer);
      if (full.success) return full.data;
      ssoConnectorSchema.parse(answer);
      return requestJson(path, ssoConnectorWithProviderConfigSchema);
    },
    onSuccess: async (connector) => {
      client.setQueryData(api.key('sso-connectors', 'detail', id), connector);
      await client.invalidateQueries({ queryKey: api.key('sso-connectors', 'list') });
    },
    meta: { silenceErrorCodes: saveCodes },
  });
}

export function useDeleteSsoConnector(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/sso-connectors/${seg(id)}`), { method: 'DELETE' }),
    onSuccess: async () => {
      client.removeQueries({ queryKey: api.key('sso-connectors', 'detail', id) });
      await client.invalidateQueries({ queryKey: api.key('sso-connectors', 'list') });
    },
  });
}

/** Every connector of the tenant, for pickers (the list is small: one per company IdP; the API pages at 100). */
export function useAllSsoConnectors() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('sso-connectors', 'list', 'all'),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/sso-connectors${listQuery({ page: 1, page_size: 100 })}`),
        ssoConnectorWithProviderConfigSchema,
        { signal },
      ),
  });
}

/** GET /organizations/{id}/jit/sso-connectors: the connectors whose users join the organization on first sign-in. */
export function useOrganizationJitSsoConnectors(organizationId: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('organizations', organizationId, 'jit', 'sso-connectors'),
    queryFn: ({ signal }) =>
      requestPage(
        api.path(`/organizations/${seg(organizationId)}/jit/sso-connectors${listQuery({ page: 1, page_size: 100 })}`),
        ssoConnectorSchema,
        { signal },
      ),
  });
}

/** PUT /organizations/{id}/jit/sso-connectors: replaces the set. */
export function useReplaceOrganizationJitSsoConnectors(organizationId: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ssoConnectorIds: string[]) =>
      request(api.path(`/organizations/${seg(organizationId)}/jit/sso-connectors`), {
        method: 'PUT',
        json: { ssoConnectorIds },
      }),
    onSuccess: () =>
      client.invalidateQueries({ queryKey: api.key('organizations', organizationId, 'jit', 'sso-connectors') }),
  });
}

// ——— IdP-initiated sign-in (reference `/sso-connectors/{id}/idp-initiated-auth-config`) ———

/** Codes a save of the IdP-initiated settings shows on its own fields (the toast stays silent for them). */
export const idpInitiatedSaveCodes = [
  'guard.invalid_input',
  'entity.relation_foreign_key_not_found',
  'single_sign_on.idp_initiated_authentication_invalid_application_type',
  'single_sign_on.idp_initiated_authentication_redirect_uri_not_registered',
  'single_sign_on.idp_initiated_authentication_auto_send_not_supported',
] as const;

const idpInitiatedKey = (api: ReturnType<typeof useManagementApi>, id: string) =>
  api.key('sso-connectors', 'detail', id, 'idp-initiated-auth-config');

/** GET …/idp-initiated-auth-config: the settings, or null while IdP-initiated sign-in is off (the API's 404). */
export function useIdpInitiatedAuthConfig(id: string) {
  const api = useManagementApi();
  return useQuery({
    queryKey: idpInitiatedKey(api, id),
    queryFn: async ({ signal }) => {
      try {
        return await requestJson(
          api.path(`/sso-connectors/${seg(id)}/idp-initiated-auth-config`),
          ssoIdpInitiatedAuthConfigSchema,
          { signal },
        );
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** PUT …/idp-initiated-auth-config: turns IdP-initiated sign-in on, or changes it. */
export function useSaveIdpInitiatedAuthConfig(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SsoIdpInitiatedAuthConfigInput) =>
      requestJson(api.path(`/sso-connectors/${seg(id)}/idp-initiated-auth-config`), ssoIdpInitiatedAuthConfigSchema, {
        method: 'PUT',
        json: input,
      }),
    onSuccess: (config) => client.setQueryData(idpInitiatedKey(api, id), config),
    meta: { silenceErrorCodes: idpInitiatedSaveCodes },
  });
}

/** DELETE …/idp-initiated-auth-config: turns IdP-initiated sign-in off. */
export function useDeleteIdpInitiatedAuthConfig(id: string) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(`/sso-connectors/${seg(id)}/idp-initiated-auth-config`), { method: 'DELETE' }),
    onSuccess: () => client.setQueryData(idpInitiatedKey(api, id), null),
  });
}

/**
 * The applications IdP-initiated sign-in can lead to (the reference's unpaginated picker query, without SAML
 * applications, which Gatehouse does not support here); third-party ones are left out, as the server refuses them.
 */
export function useIdpInitiatedApplications() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('applications', 'idp-initiated-candidates'),
    queryFn: ({ signal }) =>
      requestJson(
        api.path(`/applications${listQuery({ types: ssoIdpInitiatedApplicationTypes })}`),
        z.array(applicationSchema),
        { signal },
      ),
    select: (applications) => applications.filter((application) => !application.isThirdParty),
  });
}

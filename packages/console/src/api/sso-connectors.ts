import {
  type SsoConnectorCreate,
  type SsoConnectorPatch,
  ssoConnectorProviderSchema,
  ssoConnectorSchema,
  ssoConnectorWithProviderConfigSchema,
} from '@gatehouse/schemas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request, requestJson, requestPage } from './client.ts';
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

import {
  type OidcKeyType,
  type OidcSessionConfig,
  oidcKeySchema,
  oidcSessionConfigSchema,
  type SigningKeyAlgorithm,
} from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { request, requestJson } from './client.ts';
import { useManagementApi } from './management.ts';

/** The signing-keys area's calls (spec §2.2 signing-keys; server routes/signing-keys.ts). */

const keyList = z.array(oidcKeySchema);

export function useOidcKeys(keyType: OidcKeyType) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('oidc-keys', keyType),
    queryFn: ({ signal }) => requestJson(api.path(`/configs/oidc/${keyType}`), keyList, { signal }),
  });
}

export function useRotateOidcKeys(keyType: OidcKeyType) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (signingKeyAlgorithm?: SigningKeyAlgorithm) =>
      requestJson(api.path(`/configs/oidc/${keyType}/rotate`), keyList, {
        method: 'POST',
        json: signingKeyAlgorithm ? { signingKeyAlgorithm } : {},
      }),
    onSuccess: (keys) => client.setQueryData(api.key('oidc-keys', keyType), keys),
  });
}

export function useDeleteOidcKey(keyType: OidcKeyType) {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      request(api.path(`/configs/oidc/${keyType}/${encodeURIComponent(keyId)}`), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: api.key('oidc-keys', keyType) }),
  });
}

/** How long a sign-in session at the tenant's provider lasts (`ttl` in seconds; 14 days until set). */
export function useOidcSessionConfig() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('oidc-session'),
    queryFn: ({ signal }) => requestJson(api.path('/configs/oidc/session'), oidcSessionConfigSchema, { signal }),
  });
}

export function useUpdateOidcSessionConfig() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (config: OidcSessionConfig) =>
      requestJson(api.path('/configs/oidc/session'), oidcSessionConfigSchema, { method: 'PATCH', json: config }),
    onSuccess: (saved) => client.setQueryData(api.key('oidc-session'), saved),
    // The form shows a refused value on its field.
    meta: { silenceErrorCodes: ['guard.invalid_input'] },
  });
}

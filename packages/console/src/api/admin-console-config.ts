import { type AdminConsoleConfig, type AdminConsoleConfigPatch, adminConsoleConfigSchema } from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { requestJson } from './client.ts';
import { useManagementApi } from './management.ts';

/**
 * Spec §3/§7 admin-console config of the current tenant (`GET/PATCH {management API}/configs/admin-console`): read
 * once signed in; a PATCH answer replaces the cached config.
 */
export function useAdminConsoleConfig(options: { enabled?: boolean } = {}) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('configs', 'admin-console'),
    queryFn: ({ signal }) => requestJson(api.path('/configs/admin-console'), adminConsoleConfigSchema, { signal }),
    enabled: options.enabled ?? true,
    staleTime: Number.POSITIVE_INFINITY,
    // A notice that cannot load stays hidden rather than toasting on every page.
    meta: { silenceErrorCodes: true },
  });
}

export function useUpdateAdminConsoleConfig() {
  const api = useManagementApi();
  const client = useQueryClient();
  const key = api.key('configs', 'admin-console');
  return useMutation({
    mutationFn: (patch: AdminConsoleConfigPatch) =>
      requestJson(api.path('/configs/admin-console'), adminConsoleConfigSchema, { method: 'PATCH', json: patch }),
    onSuccess: (config: AdminConsoleConfig) => client.setQueryData(key, config),
  });
}

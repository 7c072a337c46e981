import { type CaptchaProviderPut, captchaProviderSchema } from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, request, requestJson } from './client.ts';
import { useManagementApi } from './management.ts';

/**
 * The tenant's captcha provider (server routes/captcha-provider.ts, reference `/captcha-provider`). Its secret key is
 * answered as `********`, and `********` sent back keeps the stored key of the same type.
 */

const path = '/captcha-provider';

/** The provider; null while none is set (the API answers 404 then, which is not an error here). */
export function useCaptchaProvider() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('captcha-provider'),
    queryFn: async ({ signal }) => {
      try {
        return await requestJson(api.path(path), captchaProviderSchema, { signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** Sets (creates or replaces) the provider; the form places a refused field on the field itself. */
export function useSaveCaptchaProvider() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CaptchaProviderPut) =>
      requestJson(api.path(path), captchaProviderSchema, { method: 'PUT', json: input }),
    onSuccess: (saved) => client.setQueryData(api.key('captcha-provider'), saved),
    meta: { silenceErrorCodes: ['guard.invalid_input'] },
  });
}

/** Removes the provider: the sign-in pages stop asking for a captcha. */
export function useDeleteCaptchaProvider() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.path(path), { method: 'DELETE' }),
    onSuccess: () => client.setQueryData(api.key('captcha-provider'), null),
  });
}

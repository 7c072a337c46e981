import { passwordVerificationSchema, userAssetSchema, userAssetsStatusSchema } from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request, requestJson } from './client.ts';
import { meQueryKey, meRequest } from './me.ts';

// The profile page's calls of the 'me' API: apart from me.ts, whose calls every page's shell makes, so these (and
// the zod schemas they check answers with) load with the profile page only.

export function useVerifyPassword() {
  return useMutation({
    mutationFn: (password: string) =>
      requestJson('/api/me/password/verify', passwordVerificationSchema, {
        ...meRequest(),
        method: 'POST',
        json: { password },
      }),
    meta: { silenceErrorCodes: ['session.invalid_credentials'] },
  });
}

export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { password: string; verificationRecordId?: string | undefined }) => {
      await request('/api/me/password', {
        ...meRequest(),
        method: 'POST',
        json: body,
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: meQueryKey }),
    meta: { silenceErrorCodes: ['password.rejected', 'verification_record.invalid'] },
  });
}

export function useUserAssetsStatus() {
  return useQuery({
    queryKey: [...meQueryKey, 'user-assets-status'],
    queryFn: ({ signal }) =>
      requestJson('/api/me/user-assets/service-status', userAssetsStatusSchema, { ...meRequest(), signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Uploads one image for the profile (multipart field `file`, spec §7); the ImageUploader calls it. */
export async function uploadUserAsset(file: File, signal: AbortSignal): Promise<{ url: string }> {
  const body = new FormData();
  body.append('file', file);
  return requestJson('/api/me/user-assets', userAssetSchema, { ...meRequest(), method: 'POST', body, signal });
}

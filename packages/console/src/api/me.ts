import {
  customDataSchema,
  type Me,
  type MePatch,
  meSchema,
  passwordVerificationSchema,
  userAssetSchema,
  userAssetsStatusSchema,
} from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { meResource } from '../auth/session.ts';
import { request, requestJson } from './client.ts';

/** Spec §4: 'me' stays cached when the tenant changes; this key marks it. */
export const meQueryKey = ['me'] as const;

/** Every 'me' call carries a token for the 'me' API (spec §6), not the management API's. */
const meRequest = () => ({ resource: meResource() });

export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => requestJson('/api/me', meSchema, { ...meRequest(), signal }),
    staleTime: 5 * 60_000,
  });
}

/** Spec §7: PATCH me with one changed field; a 422 is shown by the caller as an alert, not a toast. */
export function useUpdateMe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: MePatch) => requestJson('/api/me', meSchema, { ...meRequest(), method: 'PATCH', json: patch }),
    onSuccess: (me) => client.setQueryData(meQueryKey, me),
    meta: { silenceErrorCodes: ['user.username_already_in_use', 'guard.invalid_input'] },
  });
}

/** Spec §7: the whole custom-data object goes up; the answer is the new custom data. */
export function useUpdateCustomData() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (customData: Record<string, unknown>) =>
      requestJson('/api/me/custom-data', customDataSchema, { ...meRequest(), method: 'PATCH', json: customData }),
    onSuccess: (customData) => client.setQueryData<Me>(meQueryKey, (me) => (me ? { ...me, customData } : me)),
  });
}

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

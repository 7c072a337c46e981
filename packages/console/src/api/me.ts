import { isCustomDataWithinLimit, type Me, type MeEmailVerify, type MePatch } from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { meResource } from '../auth/session.ts';
import { request, requestJson } from './client.ts';
import { boolean, guard, nullable, number, object, record, refine, string } from './json-guards.ts';

/** Spec §4: 'me' stays cached when the tenant changes; this key marks it. */
export const meQueryKey = ['me'] as const;

/** Every 'me' call carries a token for the 'me' API (spec §6), not the management API's. */
export const meRequest = () => ({ resource: meResource() });

/** meSchema of the shared contract, without zod: every page's shell asks for 'me' (json-guards.ts). */
export const meGuard = guard<Me>(
  object({
    id: string,
    username: nullable(string),
    primaryEmail: nullable(string),
    primaryEmailVerified: boolean,
    primaryPhone: nullable(string),
    name: nullable(string),
    avatar: nullable(string),
    customData: record,
    identities: record,
    hasPassword: boolean,
    lastSignInAt: nullable(number),
    createdAt: number,
    updatedAt: number,
  }),
);

/** customDataSchema of the shared contract, without zod (the console preferences save it from every page). */
export const customDataGuard = guard(refine(record, isCustomDataWithinLimit, 'custom data of at most 64 KiB'));

export function useMe() {
  return useQuery({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => requestJson('/api/me', meGuard, { ...meRequest(), signal }),
    staleTime: 5 * 60_000,
  });
}

/** Spec §7: PATCH me with one changed field; a 422 is shown by the caller as an alert, not a toast. */
export function useUpdateMe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: MePatch) => requestJson('/api/me', meGuard, { ...meRequest(), method: 'PATCH', json: patch }),
    onSuccess: (me) => client.setQueryData(meQueryKey, me),
    meta: { silenceErrorCodes: ['user.username_already_in_use', 'guard.invalid_input'] },
  });
}

/** Spec §7: the whole custom-data object goes up; the answer is the new custom data. */
export function useUpdateCustomData() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (customData: Record<string, unknown>) =>
      requestJson('/api/me/custom-data', customDataGuard, { ...meRequest(), method: 'PATCH', json: customData }),
    onSuccess: (customData) => client.setQueryData<Me>(meQueryKey, (me) => (me ? { ...me, customData } : me)),
  });
}

/**
 * Issue 39 item 6: emails a 6-digit code that proves the account's primary email (valid 10 minutes, 5 tries). A 429
 * (`verification_code.too_many_requests`) and a 400 (`user.email_not_set`) are shown by the global toast.
 */
export function useSendEmailCode() {
  return useMutation({
    mutationFn: async () => {
      await request('/api/me/email/verification-code', { ...meRequest(), method: 'POST' });
    },
  });
}

/** Proves the primary email with the emailed code; the answer is the account, its email now proven. */
export function useVerifyEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MeEmailVerify) =>
      requestJson('/api/me/email/verify', meGuard, { ...meRequest(), method: 'POST', json: body }),
    onSuccess: (me) => client.setQueryData(meQueryKey, me),
    // The form shows these on its code field.
    meta: { silenceErrorCodes: ['verification_code.code_mismatch', 'verification_code.exceed_max_try'] },
  });
}

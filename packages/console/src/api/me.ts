import { isCustomDataWithinLimit, type Me, type MePatch } from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { meResource } from '../auth/session.ts';
import { requestJson } from './client.ts';
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

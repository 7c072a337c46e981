import {
  errorCodes,
  type SignInExperiencePatch,
  signInExperienceSchema,
  signInPreviewResultSchema,
} from '@gatehouse/schemas';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { requestJson } from './client.ts';
import { useManagementApi } from './management.ts';

/** The sign-in experience area's calls (spec §2.2 sign-in-experience; server routes/sign-in-experience.ts). */

/** The refusals of a save that the form shows on a field (the rules across fields). */
export const signInExperienceFieldCodes: readonly string[] = errorCodes.filter((code) =>
  code.startsWith('sign_in_experiences.'),
);

export function useSignInExperience() {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key('sign-in-exp'),
    queryFn: ({ signal }) => requestJson(api.path('/sign-in-exp'), signInExperienceSchema, { signal }),
  });
}

/**
 * Saves a patch and answers the whole experience. The form places the cross-field refusals (`sign_in_experiences.*`)
 * and the invalid fields on its own fields, so their toasts are silenced.
 */
export function useUpdateSignInExperience() {
  const api = useManagementApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: SignInExperiencePatch) =>
      requestJson(api.path('/sign-in-exp'), signInExperienceSchema, { method: 'PATCH', json: patch }),
    onSuccess: (saved) => client.setQueryData(api.key('sign-in-exp'), saved),
    meta: { silenceErrorCodes: [...signInExperienceFieldCodes, 'guard.invalid_input'] },
  });
}

/**
 * A short-lived address of the real sign-in page showing these unsaved settings. It runs on every pause in typing, so
 * a refusal (a value still being typed) never toasts: the preview keeps the last page it had.
 */
export function useSignInPreview() {
  const api = useManagementApi();
  return useMutation({
    mutationFn: ({ settings, signal }: { settings: SignInExperiencePatch; signal?: AbortSignal }) =>
      requestJson(api.path('/sign-in-exp/preview'), signInPreviewResultSchema, {
        method: 'POST',
        json: { settings },
        signal,
      }),
    meta: { silenceErrorCodes: true },
  });
}

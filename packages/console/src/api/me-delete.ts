import { accountDeletionPreviewSchema, type MeDelete } from '@gatehouse/schemas';
import { useMutation, useQuery } from '@tanstack/react-query';
import { request, requestJson } from './client.ts';
import { meQueryKey, meRequest } from './me.ts';

/**
 * Deleting one's own account (cloud edition, spec §4 "Delete account", §7 `DELETE /api/me`). The server says what the
 * deletion would do (`GET /api/me/deletion-preview`), so the console never works it out from the tenant list and
 * cannot disagree with it; the server checks the same rules again when it deletes.
 */
export const accountDeletionPreviewKey = [...meQueryKey, 'deletion-preview'] as const;

/** Read when the flow opens and never kept: the tenants, their plans and invoices may have changed since. */
export function useAccountDeletionPreview() {
  return useQuery({
    queryKey: accountDeletionPreviewKey,
    queryFn: ({ signal }) =>
      requestJson('/api/me/deletion-preview', accountDeletionPreviewSchema, { ...meRequest(), signal }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    // The flow's first dialog shows a failure itself, with a retry.
    meta: { silenceErrorCodes: true },
  });
}

/** `DELETE /api/me` with the proof of the password (when the account has one); the caller signs out after it. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: async (body: MeDelete) => {
      await request('/api/me', { ...meRequest(), method: 'DELETE', json: body });
    },
    // Spec §8: a failure is told by the flow's error modal (with the request id), never by a toast.
    meta: { silenceErrorCodes: true },
  });
}

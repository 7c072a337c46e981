import type { MePatch } from '@gatehouse/schemas';
import { useCallback } from 'react';
import { ApiError } from '../../../api/client.ts';
import { useUpdateMe } from '../../../api/me.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';

/**
 * Spec §7/§8: PATCH me with one changed field. Success toasts; a 422 (a username in use, a refused value) opens an
 * alert with the server's message. Resolves whether the change was saved.
 */
export function useSaveProfile(): (patch: MePatch) => Promise<boolean> {
  const { t } = useTranslation('profile');
  const { mutateAsync } = useUpdateMe();
  const confirm = useConfirm();
  const toast = useToast();
  return useCallback(
    async (patch) => {
      try {
        await mutateAsync(patch);
        toast.success(t('updated'));
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 422) {
          await confirm({ variant: 'alert', content: error.message });
          return false;
        }
        if (!handleSubmitError(error, toast)) throw error;
        return false;
      }
    },
    [mutateAsync, confirm, toast, t],
  );
}
